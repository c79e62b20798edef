#!/usr/bin/env bash
# Memory and progress cost of Ferry's transfers against nginx on loopback (issue: transfers).
#   Benchmarks/run-transfers.sh [rounds]        (default 3 rounds, interleaved)
# Prints a markdown table: median throughput and peak RSS per scenario, RSS above the baseline process.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-3}"
ROOT="$(cd .. && pwd)"
export FERRY_BIG_FILES=1
WORK="${FERRY_CI_WORK:-$ROOT/.ci-work}" # as for scripts/servers.sh
# Servers that were already running (someone else's test run) are used and left running.
STOP_SERVERS=1
if "$ROOT/scripts/servers.sh" status >/dev/null 2>&1; then STOP_SERVERS=0; fi
stop_servers() { if [[ $STOP_SERVERS == 1 ]]; then "$ROOT/scripts/servers.sh" stop >/dev/null 2>&1 || true; fi; }
trap stop_servers EXIT
"$ROOT/scripts/servers.sh" start >/dev/null
# shellcheck disable=SC1091
source "$WORK/servers.env"
WWW="$FERRY_STATIC_ROOT"
[[ -f "$WWW/1gib.bin" ]] || head -c $((1 << 30)) /dev/urandom >"$WWW/1gib.bin"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"; stop_servers' EXIT
swift build -c release --product TransferBench >"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log" >&2; exit 1; }
BIN="$(swift build -c release --show-bin-path)/TransferBench"

declare -A SCENARIOS=(
  [baseline]="baseline $FERRY_NGINX_URL/small.json"
  [download-1GiB-disk]="download-disk $FERRY_NGINX_URL/1gib.bin $SCRATCH/down.bin"
  [download-1GiB-disk+progress]="download-disk $FERRY_NGINX_URL/1gib.bin $SCRATCH/down.bin progress"
  [upload-1GiB-file]="upload-file $FERRY_UPLOAD_URL/upload $WWW/1gib.bin"
  [upload-1GiB-file+progress]="upload-file $FERRY_UPLOAD_URL/upload $WWW/1gib.bin progress"
  [memory-256MiB-ferry]="ferry-memory $FERRY_NGINX_URL/256mib.bin"
  [memory-256MiB-raw-URLSession]="raw-memory $FERRY_NGINX_URL/256mib.bin"
)
ORDER=(baseline download-1GiB-disk download-1GiB-disk+progress upload-1GiB-file upload-1GiB-file+progress memory-256MiB-ferry memory-256MiB-raw-URLSession)
for round in $(seq "$ROUNDS"); do
  for name in "${ORDER[@]}"; do
    # shellcheck disable=SC2086
    out="$(/usr/bin/time -f '%M' -o "$SCRATCH/rss" "$BIN" ${SCENARIOS[$name]})"
    echo "$name $(echo "$out" | awk '{print $4}') $(cat "$SCRATCH/rss")" >>"$SCRATCH/results"
  done
done
python3 - "$SCRATCH/results" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, mbs, rss = line.split()
    rows.setdefault(name, []).append((float(mbs), int(rss)))
base = statistics.median(r for _, r in rows["baseline"])
print("| scenario | MB/s (median) | MB/s (min–max) | peak RSS MiB (median) | above baseline MiB |")
print("|---|---|---|---|---|")
for name, values in rows.items():
    mbs = [m for m, _ in values]; rss = [r for _, r in values]
    print(f"| {name} | {statistics.median(mbs):.0f} | {min(mbs):.0f}–{max(mbs):.0f} | {statistics.median(rss)/1024:.1f} | {(statistics.median(rss)-base)/1024:.1f} |")
PY
