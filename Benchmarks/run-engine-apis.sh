#!/usr/bin/env bash
# AsyncHTTPClient's engine APIs side by side, without Ferry, beside Ferry on AsyncHTTPClient: which API a client built
# on the engine pays least for. Small GETs against nginx on loopback, sequential and WIDTH in flight.
#   Benchmarks/run-engine-apis.sh [rounds]      (default 5, interleaved; the client order rotates)
# Clients: raw-ahc (the async API awaited in the calling task), raw-ahc-delegate (the delegate API, collecting the
# body on the event loop), raw-ahc-child (the async API with the head awaited in a child task, which a stop from
# outside the task can cancel) and ferry-ahc. Prints, per (workload, client): the median rate, the median of the
# same-round ratios to raw-ahc with their spread, and the median CPU time per request (user + system).
# Environment: ENGINE_SEQUENTIAL_COUNT (5000), ENGINE_CONCURRENT_COUNT (20000), ENGINE_WIDTH (64).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-5}"
ROOT="$(cd .. && pwd)"
SEQUENTIAL="${ENGINE_SEQUENTIAL_COUNT:-5000}"
CONCURRENT="${ENGINE_CONCURRENT_COUNT:-20000}"
WIDTH="${ENGINE_WIDTH:-64}"
CLIENTS=(raw-ahc raw-ahc-delegate raw-ahc-child ferry-ahc)
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
      line="$(/usr/bin/time -f '%U %S' -o "$SCRATCH/time" "$BIN" "$client" "$workload" \
        --url "$FERRY_NGINX_URL/small.json" --count "$count" "${extra[@]}")"
      read -r user system <"$SCRATCH/time"
      echo "$round $workload $client $count $user $system $line" >>"$SCRATCH/results"
    done
  done
done
python3 - "$SCRATCH/results" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    round_, workload, client, count, user, system, payload = line.split(" ", 6)
    rate = json.loads(payload)["rate"]
    cpu = (float(user) + float(system)) / int(count) * 1e6
    rows.setdefault((workload, client), {})[int(round_)] = (rate, cpu)
print("| workload | client | rate (median) | / raw-ahc (median; per-round min–max) | CPU µs per request (median) |")
print("|---|---|---|---|---|")
for (workload, client), runs in sorted(rows.items()):
    base = rows[(workload, "raw-ahc")]
    ratios = [rate / base[r][0] for r, (rate, _) in runs.items() if r in base]
    rate = statistics.median(v[0] for v in runs.values())
    cpu = statistics.median(v[1] for v in runs.values())
    print(f"| {workload} | {client} | {rate:,.0f} req/s | {statistics.median(ratios):.2f}× "
          f"({min(ratios):.2f}–{max(ratios):.2f}) | {cpu:.1f} |")
PY
