#!/usr/bin/env bash
# The project's single test command:  scripts/test.sh [swift test args, e.g. --filter Foo]
# Starts the local interop servers (scripts/servers.sh), then:
#   1. the default build (no dependencies), warnings as errors, and every suite on URLSession;
#   2. scripts/check-readme.sh: every Swift block of the README and the DocC articles compiles in a consumer package,
#      warnings as errors;
#   3. scripts/build-docs.sh: the DocC archives of Ferry and FerryTesting, warnings as errors;
#   4. the same as 1 with the AsyncHTTPClient package trait (in .build-ahc): the live suites run on both transports;
#   5. scripts/check-no-dependencies.sh: a fresh consumer package of Ferry resolves no package.
# Before them, `swift format lint --strict` over Sources, Tests and Package.swift (the toolchain ships it).
# Exits non-zero if any step failed. The servers are stopped on exit.
# FERRY_NO_SERVERS=1 skips the servers (interop tests then report themselves as not run);
# FERRY_SKIP_TRAIT=1 skips step 4.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

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
# Each test target runs in its own process: FerryTestServerTests drive the server with blocking raw sockets, which
# must not hold Swift's cooperative threads (two on a two-core machine) while Ferry's timing tests run.
run_tests() { # run_tests [swift test args...]
  if [[ $# -gt 0 ]]; then
    swift test --skip-build "$@"
  else
    swift test --skip-build "${SCRATCH[@]}" --filter 'FerryTests\.' && swift test --skip-build "${SCRATCH[@]}" --filter 'FerryTestServerTests\.'
  fi
}

echo "test.sh: swift format lint (.swift-format: 4 spaces, 120 columns)"
swift format lint --strict -r Sources Tests Package.swift || status=$?

echo "test.sh: 1/5 default build (no dependencies), URLSession transport"
swift build --build-tests -Xswiftc -warnings-as-errors
SCRATCH=()
if [[ $# -gt 0 ]]; then run_tests "$@" || status=$?; else run_tests || status=$?; fi

echo "test.sh: 2/5 the README's and the DocC articles' Swift blocks compile"
scripts/check-readme.sh || status=$?

echo "test.sh: 3/5 DocC archives of Ferry and FerryTesting, warnings as errors"
scripts/build-docs.sh || status=$?

if [[ "${FERRY_SKIP_TRAIT:-0}" != 1 ]]; then
  echo "test.sh: 4/5 trait AsyncHTTPClient: every live suite on URLSession and on AsyncHTTPClient"
  swift build --build-tests --traits AsyncHTTPClient --scratch-path .build-ahc -Xswiftc -warnings-as-errors
  SCRATCH=(--traits AsyncHTTPClient --scratch-path .build-ahc)
  if [[ $# -gt 0 ]]; then run_tests "${SCRATCH[@]}" "$@" || status=$?; else run_tests || status=$?; fi
fi

echo "test.sh: 5/5 a consumer of Ferry resolves no package"
scripts/check-no-dependencies.sh || status=$?
exit "$status"
