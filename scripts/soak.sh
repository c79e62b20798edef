#!/usr/bin/env bash
# A bounded soak of Ferry on both transports against the in-process test server (loopback only):
#   scripts/soak.sh [requests] [cancellations] [faults] [seconds]     (defaults 100000 10000 1000 600)
# Per transport: the requests at 64 in flight, the random cancellations, the fault requests; prints throughput,
# outcomes by reason, RSS, open descriptors and threads at start and end. Fails on a leaked descriptor, a failed
# phase or a hang (the watchdog ends a run at twice its time limit). Not part of the test run; scripts/test.sh runs
# a 5-second version.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REQUESTS="${1:-100000}" CANCELLATIONS="${2:-10000}" FAULTS="${3:-1000}" SECONDS_LIMIT="${4:-600}"
TRAITS="AsyncHTTPClient,HTTPTypes,OpenAPI,Logging,Tracing,Metrics,ServiceLifecycle,WebSocket"
swift build -c release --product ferry-soak --traits "$TRAITS" --scratch-path .build-traits
BIN="$(swift build -c release --traits "$TRAITS" --scratch-path .build-traits --show-bin-path)/ferry-soak"
status=0
for transport in urlsession ahc; do
  echo "== ferry-soak --transport $transport"
  "$BIN" --transport "$transport" --requests "$REQUESTS" --cancellations "$CANCELLATIONS" --faults "$FAULTS" \
    --seconds "$SECONDS_LIMIT" || status=$?
done
exit "$status"
