import FerryLocking
// ferry-tsan-canary: proves that a ThreadSanitizer build sees (or does not see) a race, for scripts/sanitizers.sh.
// Two threads each increment one shared counter 100,000 times:
//
//   ferry-tsan-canary race     without any lock: a real race, which TSan must report;
//   ferry-tsan-canary locked   through `Locked` (Ferry's lock seam): correct, and TSan must stay silent when the
//                              seam is backed by pthread (`-DFERRY_SANITIZER_LOCKS`);
//   ferry-tsan-canary mutex    through `Synchronization.Mutex` directly (the one file allowed to): correct, yet TSan
//                              on Linux reports it, which is why Ferry locks through the seam.
//
// Prints the final count. Not a test of Ferry's code: a test of the sanitizer build that checks Ferry's code.
let mode = CommandLine.arguments.dropFirst().first ?? ""
if let total = Canary.run(mode) {
    print("ferry-tsan-canary \(mode): \(total) of \(2 * Canary.increments) increments")
} else {
    print("usage: ferry-tsan-canary race|locked|mutex (Linux only)")
}
