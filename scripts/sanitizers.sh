#!/usr/bin/env bash
# Ferry's test suites under a sanitizer:  scripts/sanitizers.sh thread|address [test filter]
#   thread   ThreadSanitizer, in .build-tsan;  address   AddressSanitizer, in .build-asan.
# Builds the test bundle and the executables the run starts with `--sanitize=…` and `-DFERRY_SANITIZER_LOCKS` (Ferry's
# lock seam, `Locked`, then runs on pthread mutexes, which TSan sees; see RELIABILITY.md, "Sanitizers"), then runs
# FerryTests (its CPU-bound tests apart, below) and FerryTestServerTests, each in its own process, on the default
# transport (URLSession). Any sanitizer report fails the run: the runtime's exit code is set, and the output is searched
# for reports too.
# For `thread`, it first proves that the build can see a race: ferry-tsan-canary must be reported when it races,
# and must be clean when it locks through the seam.
# A test filter (a regular expression, as for --filter) runs only the matching tests, in one process.
# FERRY_SANITIZER_TRAITS=AsyncHTTPClient builds with that trait too (in .build-tsan-traits / .build-asan-traits), so
# that the live suites run on both transports.
# Suppressions (scripts/tsan.supp) may name only code outside Ferry, each entry with its reason.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
kind="${1:-}"
filter="${2:-}"
case "$kind" in
  thread) scratch=.build-tsan ;;
  address) scratch=.build-asan ;;
  *) echo "usage: scripts/sanitizers.sh thread|address [test filter]" >&2; exit 2 ;;
esac
traits=()
if [[ -n "${FERRY_SANITIZER_TRAITS:-}" ]]; then
  traits=(--traits "$FERRY_SANITIZER_TRAITS")
  scratch="$scratch-traits" # its own build directory: switching traits in one would rebuild everything
fi
work="${FERRY_CI_WORK:-$PWD/.ci-work}/sanitizers"
mkdir -p "$work"

start=$SECONDS
# Line tables only, not full debug information: a report still names each frame's file and line, and the build is
# shorter (ThreadSanitizer with the AsyncHTTPClient trait from scratch: 739 s against 806 s, 2026-11-29).
# Only what the run uses: the test bundle, the `ferry` executable its CLI tests start, and for `thread` the canary.
# Not ferry-soak and ferry-cache-gateway, whose links take about 20 s each under a sanitizer.
products=(FerryPackageTests ferry)
if [[ "$kind" == thread ]]; then products+=(ferry-tsan-canary); fi
for product in "${products[@]}"; do
  swift build --product "$product" --sanitize="$kind" --scratch-path "$scratch" "${traits[@]}" \
    -Xswiftc -DFERRY_SANITIZER_LOCKS -Xswiftc -warnings-as-errors -Xswiftc -gline-tables-only -Xcc -gline-tables-only
done
echo "sanitizers.sh: $kind build took $((SECONDS - start)) s"
bin="$(swift build --sanitize="$kind" --scratch-path "$scratch" "${traits[@]}" --show-bin-path)"

# The sanitizers' pattern matcher reads `$` as "the name ends here", wherever it stands: a mangled Swift name
# written with its leading `$` matches nothing, and the suppression is silently dead. Refuse such a pattern.
if grep -nE '^[a-z_]+:.*[$].' scripts/tsan.supp scripts/asan.supp; then
  echo "sanitizers.sh: a suppression above has a '\$' before its end, so it matches nothing; drop the mangled name's leading '\$'" >&2
  exit 2
fi

# Exit code 66 when the runtime reported anything (the run goes on, so that one run shows every report).
export TSAN_OPTIONS="exitcode=66:halt_on_error=0:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
# LeakSanitizer is off (RELIABILITY.md, "Sanitizers"): Swift keeps enum tags in the spare bits of the pointers it
# stores, so LSan cannot follow them and reports reachable objects (a static let's Data) as leaks; and libcurl keeps
# its global state to the end of the process. Leaks are the soak's job (descriptors and RSS, scripts/soak.sh).
export ASAN_OPTIONS="exitcode=66:halt_on_error=1:detect_leaks=0:suppressions=$PWD/scripts/asan.supp${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Timing tests scale their deadlines by this factor (never skipped): a sanitized build runs several times slower.
export FERRY_TEST_TIME_SCALE="${FERRY_TEST_TIME_SCALE:-4}"
# The `.ownThreads` trait of the CPU-bound tests off (Tests/FerryTests/Support/OwnThreads.swift): under TSan the
# threads it starts, one for each job, ran tens of seconds late (74 s for a trivial test), and 75 tests failed on
# idle timeouts (a CI run of stop 36). Those tests run apart instead (below).
export FERRY_TEST_OWN_THREADS=0
# At most this many tests run at once (Swift Testing's --experimental-maximum-parallelization-width; unbounded by
# default). Uncapped, every test starts together, and under TSan the two cores were so oversubscribed that
# AsyncHTTPClient's event loops, shared by every client, missed 10 s connect timeouts: 14 live tests failed on
# "connection attempt timed out" in a CI run of stop 36, and the same run here with two busy loops beside it failed
# the same way (24 issues); capped at 8 it passed with two busy loops and with four, in the same time (RELIABILITY.md).
width="${FERRY_SANITIZER_WIDTH:-8}"
# A temporary directory of its own: some tests check that they leave no temporary file behind, which another
# process's files (another checkout's test run) must not upset.
export TMPDIR="$work/tmp-$kind"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
# A crashing child process (the FoundationNetworking trap a test provokes on purpose) ends at once, without the
# Swift backtracer, which is slow under a sanitizer.
export SWIFT_BACKTRACE="enable=no"

reports() { # reports LOG: how many sanitizer reports LOG holds
  grep -cE "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$1" || true
}

status=0
if [[ "$kind" == thread ]]; then
  for mode in race locked mutex; do
    log="$work/canary-$mode.log"
    "$bin/ferry-tsan-canary" "$mode" >"$log" 2>&1 || true
    echo "sanitizers.sh: ferry-tsan-canary $mode: $(reports "$log") report(s)"
  done
  if [[ "$(reports "$work/canary-race.log")" == 0 ]]; then
    echo "sanitizers.sh: FAIL: ThreadSanitizer did not see the canary's race: this build cannot find races" >&2
    status=1
  fi
  if [[ "$(reports "$work/canary-locked.log")" != 0 ]]; then
    echo "sanitizers.sh: FAIL: ThreadSanitizer reported the canary's correct locking through Locked:" >&2
    cat "$work/canary-locked.log" >&2
    status=1
  fi
  # `mutex` is informative: a report there is TSan not understanding Synchronization.Mutex (RELIABILITY.md).
fi

# The CPU-bound tests (those with the `.ownThreads` trait) run in a process of their own, before the others: under a
# sanitizer they run ten times slower, and beside the live tests they held both cooperative threads for over a
# minute, so that requests waiting for a thread ran into their idle timeouts (102 failures in a TSan run, 2026-11-28;
# RELIABILITY.md, "The two cooperative threads"). Their names are read from the sources: the function after each
# `.ownThreads`.
# Each run: a name for its log, the --filter, and the --skip (empty for none).
if [[ -n "$filter" ]]; then
  names=("$(tr -cd '[:alnum:]' <<<"$filter")") filters=("$filter") skips=("")
else
  cpu_bound="$(awk '/\.ownThreads/ { want = 1 }
    want && match($0, /func [A-Za-z0-9_]+/) { print substr($0, RSTART + 5, RLENGTH - 5); want = 0 }' \
    $(grep -rl '\.ownThreads' Tests --include='*.swift') | sort -u | paste -sd'|')"
  [[ -n "$cpu_bound" ]] || { echo "sanitizers.sh: found no .ownThreads test in Tests/" >&2; exit 2; }
  cpu_bound="FerryTests\\..*/($cpu_bound)\\("
  names=(FerryTests-cpu-bound FerryTests FerryTestServerTests)
  filters=("$cpu_bound" 'FerryTests\.' 'FerryTestServerTests\.')
  skips=("" "$cpu_bound" "")
fi
for index in "${!names[@]}"; do
  name="${names[$index]}" suite="${filters[$index]}"
  log="$work/$kind-$name.log"
  skipping=()
  if [[ -n "${skips[$index]}" ]]; then skipping=(--skip "${skips[$index]}"); fi
  suite_start=$SECONDS
  rc=0
  "$bin/FerryPackageTests.xctest" --testing-library swift-testing \
    --experimental-maximum-parallelization-width "$width" --filter "$suite" "${skipping[@]}" >"$log" 2>&1 || rc=$?
  count="$(reports "$log")"
  echo "sanitizers.sh: [$((SECONDS - suite_start))s] $kind $name: exit $rc, $count sanitizer report(s), $(grep -E 'Test run with' "$log" | tail -1 | cut -c5-)"
  if [[ "$rc" != 0 || "$count" != 0 ]]; then
    grep -E "^✘|WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer|SUMMARY" "$log" | head -40 >&2 || true
    echo "sanitizers.sh: FAIL: see $log" >&2
    status=1
  fi
done
echo "sanitizers.sh: $kind done in $((SECONDS - start)) s, status $status"
exit "$status"
