#!/usr/bin/env bash
# The project's single test command:  scripts/test.sh [--fast] [swift test args, e.g. --filter Foo]
# About 55 minutes on two cores from a fresh clone, most of it builds (the trait build and Examples/ take 6 to 7
# minutes each, the two sanitizer builds 10 to 13); `--fast` (or FERRY_FAST=1) runs the lint and step 1 without
# the fuzz smoke: every suite of the default build on URLSession, servers included.
# Installs what it needs when missing (nginx, curl, python3 and python3-venv with apt-get, as root or with
# passwordless sudo; httpbin and gunicorn with pip into the virtual environment .venv-servers/: scripts/servers.sh).
# Starts the local interop servers (scripts/servers.sh), then:
#   1. the default build (no dependencies), warnings as errors, and every suite on URLSession; then a fuzz smoke:
#      every libFuzzer target of Fuzz/ built unoptimized and run for 1 s from its seeds (scripts/fuzz.sh 1, about
#      2 minutes);
#   2. scripts/check-readme.sh: every Swift block of the README and the DocC articles compiles in a consumer package,
#      warnings as errors;
#   3. scripts/build-docs.sh --site: the DocC archives of Ferry and FerryTesting, warnings as errors, and the static
#      website made from them;
#   4. the same as 1 with every package trait on (in .build-traits): the live suites run on both transports, and the
#      integration suites (OpenAPI, HTTPTypes, Logging, Tracing, Metrics, ServiceLifecycle) and WebSocket run; then,
#      on its own, Autobahn|Testsuite's WebSocket conformance cases (AutobahnConformanceTests);
#   5. Examples/: a Hummingbird service and an OpenAPI client using Ferry, built and tested;
#   6. scripts/check-no-dependencies.sh: a fresh consumer package of Ferry resolves no package;
#   7. scripts/sanitizers.sh thread: ThreadSanitizer proves it sees a race (ferry-tsan-canary), then runs
#      FerryTests and FerryTestServerTests with the AsyncHTTPClient trait (both transports; in .build-tsan-traits),
#      zero reports;
#   8. scripts/sanitizers.sh address: the same under AddressSanitizer (in .build-asan-traits).
# Before them, `swift format lint --strict` over Sources, Tests, Examples and Package.swift (the toolchain ships it),
# the lock seam check: every lock is a `Locked` (one identical `Locked.swift` per module), no `Mutex` elsewhere; and
# scripts/check-docs-claims.sh: no "no equivalent"/"not supported" claim in the README or DocC names a declared symbol.
# Exits non-zero if any step failed. The servers are stopped on exit.
# FERRY_NO_SERVERS=1 skips the servers (interop tests then report themselves as not run);
# FERRY_SKIP_TRAIT=1 skips step 4; FERRY_SKIP_EXAMPLES=1 skips step 5; FERRY_SKIP_FUZZ=1 skips the fuzz smoke;
# FERRY_SKIP_SANITIZERS=1 skips steps 7 and 8 (with FERRY_SKIP_TRAIT=1 they build without the trait: URLSession only).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ "${1:-}" == --fast ]]; then
  export FERRY_FAST=1
  shift
fi
if [[ "${FERRY_FAST:-0}" == 1 ]]; then
  echo "test.sh: fast run (--fast or FERRY_FAST=1): the lint and step 1 without the fuzz smoke; steps 2 to 8 skipped"
  FERRY_SKIP_FUZZ=1
fi

if [[ "${FERRY_NO_SERVERS:-0}" == 1 ]]; then
  unset FERRY_HTTPBIN_URL FERRY_NGINX_URL FERRY_NGINX_URL_IPV6 FERRY_UPLOAD_URL FERRY_STATIC_ROOT
  echo "test.sh: FERRY_NO_SERVERS=1: no servers started (interop tests will report themselves as not run)"
else
  trap 'scripts/servers.sh stop || true' EXIT
  scripts/servers.sh start >/dev/null
  # shellcheck disable=SC1091
  source "${FERRY_CI_WORK:-$PWD/.ci-work}/servers.env"
  echo "test.sh: servers running: httpbin $FERRY_HTTPBIN_URL, nginx $FERRY_NGINX_URL${FERRY_NGINX_URL_IPV6:+ and $FERRY_NGINX_URL_IPV6}, upload sink $FERRY_UPLOAD_URL, static root $FERRY_STATIC_ROOT"
fi

status=0
# The test steps' output is also kept in $TEST_LOG, so that a failure's tests are named again at the end.
TEST_LOG="${FERRY_CI_WORK:-$PWD/.ci-work}/logs/test-step.log"
mkdir -p "$(dirname "$TEST_LOG")"
failed=() # the steps that failed, printed again at the end: a log's tail then names them
fail() { # fail <step>: records a failed step (called as `command || fail "step"`, so $? is the command's status)
  local code=$?
  status=$code
  failed+=("$1 (exit $code)")
  echo "test.sh: [${SECONDS}s] FAILED: $1 (exit $code)"
  if [[ "$1" == *tests && -s "$TEST_LOG" ]]; then # a test step: its failing tests, for the summary
    failed_tests+=("$(grep -E '✘|recorded an issue|error:' "$TEST_LOG" | grep -v 'passed' | head -n 20 || true)")
  fi
}
failed_tests=()
summary() {
  if [[ ${#failed[@]} -gt 0 ]]; then
    echo "test.sh: failed steps: ${failed[*]}"
    printf '%s\n' "${failed_tests[@]}"
  fi
}
# Each test target runs in its own process: FerryTestServerTests drive the server with blocking raw sockets, which
# must not hold Swift's cooperative threads (two on a two-core machine) while Ferry's timing tests run.
run_tests() { # run_tests [swift test args...]
  : >"$TEST_LOG"
  if [[ $# -gt 0 ]]; then
    swift test --skip-build "$@" 2>&1 | tee -a "$TEST_LOG"
  else
    swift test --skip-build "${SCRATCH[@]}" --filter 'FerryTests\.' --skip 'AutobahnConformanceTests' 2>&1 |
      tee -a "$TEST_LOG" &&
      swift test --skip-build "${SCRATCH[@]}" --filter 'FerryTestServerTests\.' 2>&1 | tee -a "$TEST_LOG"
  fi
}

echo "test.sh: [${SECONDS}s] swift format lint (.swift-format: 4 spaces, 120 columns)"
swift format lint --strict -r Sources Tests Package.swift Fuzz Examples/Sources Examples/Tests Examples/Package.swift || fail "swift format lint"
echo "test.sh: [${SECONDS}s] lock seam: Locked.swift copies identical, no Mutex outside them"
scripts/check-locks.sh || fail "lock seam"
echo "test.sh: [${SECONDS}s] docs claims: nothing the docs call missing is declared in Sources"
scripts/check-docs-claims.sh || fail "docs claims"

echo "test.sh: [${SECONDS}s] 1/8 default build (no dependencies), URLSession transport"
swift build --build-tests -Xswiftc -warnings-as-errors
SCRATCH=()
if [[ $# -gt 0 ]]; then run_tests "$@" || fail "1/8 tests"; else run_tests || fail "1/8 tests"; fi
if [[ "${FERRY_SKIP_FUZZ:-0}" != 1 ]]; then
  # The fuzz targets use Ferry's internal API: building and running each briefly keeps them from rotting.
  # scripts/fuzz.sh runs them for longer (RELIABILITY.md, "Fuzzing").
  echo "test.sh: [${SECONDS}s] 1/8 fuzz smoke: every libFuzzer target for 1 s"
  # Unoptimized: one second per target needs the targets built and their seeds replayed, not speed.
  FERRY_FUZZ_OPTIMIZATION=-Onone scripts/fuzz.sh 1 || fail "1/8 fuzz smoke"
fi
if [[ "${FERRY_FAST:-0}" == 1 ]]; then
  summary
  echo "test.sh: [${SECONDS}s] done (fast run: steps 2 to 8 not run), status $status"
  exit "$status"
fi

echo "test.sh: [${SECONDS}s] 2/8 the README's and the DocC articles' Swift blocks compile"
scripts/check-readme.sh || fail "2/8 README and DocC blocks"

echo "test.sh: [${SECONDS}s] 3/8 DocC archives of Ferry and FerryTesting, warnings as errors"
scripts/build-docs.sh --site || fail "3/8 DocC archives and site"

if [[ "${FERRY_SKIP_TRAIT:-0}" != 1 ]]; then
  # One build with every trait on (each trait's code only adds files behind its own `#if`): the live suites run on
  # URLSession and on AsyncHTTPClient, and the integration suites (HTTPTypes, OpenAPI, Logging, Tracing, Metrics,
  # ServiceLifecycle) and the live WebSocket suite run too.
  TRAITS="AsyncHTTPClient,HTTPTypes,OpenAPI,Logging,Tracing,Metrics,ServiceLifecycle,WebSocket"
  echo "test.sh: [${SECONDS}s] 4/8 every trait ($TRAITS): the live suites on both transports, the integrations"
  swift build --build-tests --traits "$TRAITS" --scratch-path .build-traits -Xswiftc -warnings-as-errors
  SCRATCH=(--traits "$TRAITS" --scratch-path .build-traits)
  if [[ $# -gt 0 ]]; then run_tests "${SCRATCH[@]}" "$@" || fail "4/8 tests"; else run_tests || fail "4/8 tests"; fi
  if [[ $# -eq 0 ]]; then
    # Autobahn|Testsuite alone (4 to 7 minutes: its Python 2 server and this debug build's engine, about half of
    # both cores), so that it does not crowd the timing tests of the run above. The two transports run one after the
    # other: run at once (312 s against 405 s), 3 of the large-message cases (9.1.6, 9.2.4, 9.3.4: 4 and 16 MiB) ended
    # unclean, the server's 1-second wait for the client's close reply having run out under that load.
    echo "test.sh: [${SECONDS}s] 4/8 Autobahn|Testsuite, the WebSocket conformance suite, on both transports"
    swift test --skip-build "${SCRATCH[@]}" --filter 'AutobahnConformanceTests' 2>&1 | tee -a "$TEST_LOG" \
      || fail "4/8 Autobahn tests"
  fi
  # A 5-second soak per transport (scripts/soak.sh runs the full one): fails on a leaked descriptor or a hang.
  echo "test.sh: [${SECONDS}s] 4/8 soak, 5 s per transport"
  for transport in urlsession ahc; do
    .build-traits/debug/ferry-soak --transport "$transport" --requests 20000 --cancellations 2000 --faults 200 \
      --seconds 5 || fail "4/8 soak on $transport"
  done
fi

if [[ "${FERRY_SKIP_EXAMPLES:-0}" != 1 ]]; then
  echo "test.sh: [${SECONDS}s] 5/8 Examples/: a Hummingbird service and an OpenAPI client using Ferry"
  (cd Examples && swift build --build-tests && swift test --skip-build) || fail "5/8 Examples"
fi

echo "test.sh: [${SECONDS}s] 6/8 a consumer of Ferry resolves no package"
scripts/check-no-dependencies.sh || fail "6/8 no dependencies"

if [[ "${FERRY_SKIP_SANITIZERS:-0}" != 1 ]]; then
  # With the AsyncHTTPClient trait (unless FERRY_SKIP_TRAIT=1), so that the live suites run on both transports.
  if [[ "${FERRY_SKIP_TRAIT:-0}" != 1 ]]; then
    export FERRY_SANITIZER_TRAITS=AsyncHTTPClient
    transports="URLSession and AsyncHTTPClient"
  else
    transports="URLSession"
  fi
  echo "test.sh: [${SECONDS}s] 7/8 ThreadSanitizer: the canary is seen, the suites run clean ($transports)"
  scripts/sanitizers.sh thread || fail "7/8 ThreadSanitizer"
  echo "test.sh: [${SECONDS}s] 8/8 AddressSanitizer: the suites run clean ($transports)"
  scripts/sanitizers.sh address || fail "8/8 AddressSanitizer"
fi
summary
echo "test.sh: [${SECONDS}s] done, status $status"
exit "$status"
