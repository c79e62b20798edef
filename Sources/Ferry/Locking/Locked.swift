// Ferry's one lock. The two library modules, Ferry and FerryTesting, hold identical copies of this file; every other
// module of the package (the test server, the tools, the tests) imports the one public copy, FerryLocking's
// (`Sources/FerryLocking/Locked.swift`, this file with `public` on the type, its initializer and `withLock`).
// scripts/check-locks.sh checks that they match and that no other file uses `Mutex` directly: new code uses
// `Locked`, never `Synchronization.Mutex`.
//
// Why copies in the libraries and not one shared module: measured (2026-11-24), `Locked` in a module of its own,
// `@inlinable` or `@_alwaysEmitIntoClient`, was not specialized in its callers: every `withLock` went through the
// generic entry point and looked up `Mutex`'s metadata at run time, 42,750 → 57,800 instructions per in-memory GET. A
// copy in each library is specialized there like any other internal code; the other modules are not on a request's
// path and share one.
//
// Why a seam: ThreadSanitizer on Linux does not see `Mutex` lock and unlock (they run in the uninstrumented
// Synchronization library), so it reports false races on correct code and so cannot be trusted to find real ones.
// Built with `-Xswiftc -DFERRY_SANITIZER_LOCKS` (scripts/sanitizers.sh does), `Locked` is backed by a
// `pthread_mutex_t`, which TSan intercepts; otherwise it is a `Mutex`, inlined, with no allocation of its own.
#if FERRY_SANITIZER_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#else
import Synchronization
#endif

/// A value that is only read and written while holding a lock: `Mutex`'s shape, `withLock` included.
struct Locked<Value: ~Copyable>: ~Copyable {
    #if FERRY_SANITIZER_LOCKS
    private let storage: LockedStorage<Value>
    #else
    private let mutex: Mutex<Value>
    #endif

    /// Creates the lock around its initial value.
    @inline(__always)
    init(_ initialValue: consuming sending Value) {
        #if FERRY_SANITIZER_LOCKS
        storage = LockedStorage(initialValue)
        #else
        mutex = Mutex(initialValue)
        #endif
    }

    /// Runs `body` with exclusive access to the value, and returns what it returns.
    @inline(__always)
    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if FERRY_SANITIZER_LOCKS
        try storage.withLock(body)
        #else
        try mutex.withLock(body)
        #endif
    }
}

extension Locked: Sendable where Value: ~Copyable {}

#if FERRY_SANITIZER_LOCKS
/// The sanitizer build's storage: a `pthread_mutex_t` allocated once (never moved, as a pthread mutex must not
/// be) and the value it guards, in one object.
private final class LockedStorage<Value: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#endif
