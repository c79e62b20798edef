#!/usr/bin/env bash
# CPU time per small request (user + system, from /usr/bin/time) of raw URLSession, Ferry on URLSession, raw
# AsyncHTTPClient and Ferry on AsyncHTTPClient, against nginx on loopback: sequential, and WIDTH in flight.
#   Benchmarks/run-cpu-per-request.sh [rounds]      (default 3, interleaved; the client order rotates)
# Prints one line per (workload, client): the median µs per request and the per-round values. nginx's own CPU is not
# counted (it is another process); the clients' process start-up is, equally for all four (a few ms over thousands of
# requests). Environment: CPU_SEQUENTIAL_COUNT (2000), CPU_CONCURRENT_COUNT (20000), CPU_WIDTH (64), CPU_CLIENTS
# (the four above, space-separated; raw-ahc-delegate and raw-ahc-child are AsyncHTTPClient's other APIs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-3}"
ROOT="$(cd .. && pwd)"
SEQUENTIAL="${CPU_SEQUENTIAL_COUNT:-2000}"
CONCURRENT="${CPU_CONCURRENT_COUNT:-20000}"
WIDTH="${CPU_WIDTH:-64}"
read -r -a CLIENTS <<<"${CPU_CLIENTS:-raw-urlsession ferry-urlsession raw-ahc ferry-ahc}"
STOP_SERVERS=1
if "$ROOT/scripts/servers.sh" status >/dev/null 2>&1; then STOP_SERVERS=0; fi
SCRATCH="$(mktemp -d)"
cleanup() {
  rm -rf "$SCRATCH"
  if [[ $STOP_SERVERS == 1 ]]; then "$ROOT/scripts/servers.sh" stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
"$ROOT/scripts/servers.sh" start >/dev/null
# shellcheck disable=SC1091
source "${FERRY_CI_WORK:-$ROOT/.ci-work}/servers.env"
swift build -c release --product ThroughputBench >"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log" >&2; exit 1; }
BIN="$(swift build -c release --show-bin-path)/ThroughputBench"
for round in $(seq "$ROUNDS"); do
  for workload in small-sequential small-concurrent; do
    for ((i = 0; i < ${#CLIENTS[@]}; i++)); do
      client="${CLIENTS[$(((i + round - 1) % ${#CLIENTS[@]}))]}"
      if [[ $workload == small-sequential ]]; then count=$SEQUENTIAL; extra=(); else count=$CONCURRENT; extra=(--width "$WIDTH"); fi
      /usr/bin/time -f '%U %S' -o "$SCRATCH/time" "$BIN" "$client" "$workload" --url "$FERRY_NGINX_URL/small.json" \
        --count "$count" "${extra[@]}" >/dev/null
      read -r user system <"$SCRATCH/time"
      echo "$workload $client $(python3 -c "print(round(($user + $system) / $count * 1e6, 1))")" >>"$SCRATCH/results"
    done
  done
done
python3 - "$SCRATCH/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    workload, client, micros = line.split()
    rows.setdefault((workload, client), []).append(float(micros))
print("| workload | client | CPU µs per request (median) | per round |")
print("|---|---|---|---|")
for (workload, client), values in rows.items():
    print(f"| {workload} | {client} | {statistics.median(values):.1f} | {', '.join(f'{v:.1f}' for v in values)} |")
PY
