#!/usr/bin/env bash
# The project's single test command:  scripts/test.sh [swift test args, e.g. --filter Foo]
# Starts the local interop servers (scripts/servers.sh), builds with warnings as errors, runs
# `swift test` (XCTest, then Swift Testing) and exits with its status. The servers are stopped
# on exit. FERRY_NO_SERVERS=1 skips them: the interop tests then report themselves as not run.
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

swift build --build-tests -Xswiftc -warnings-as-errors
status=0
swift test --skip-build "$@" || status=$?
exit "$status"
