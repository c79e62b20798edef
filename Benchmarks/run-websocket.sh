#!/usr/bin/env bash
# Ferry's WebSocket beside swift-websocket's own client (the library Ferry's `WebSocket` trait runs on), against an
# echo server on SwiftNIO in a process of its own (issue 20's targets).
#   Benchmarks/run-websocket.sh [rounds]        (default 5 rounds, interleaved)
#
# Workloads, each (client, workload) in a process of its own after a 10-message warm-up connection:
#   echo-32       one connection, 32-byte text messages, one in flight      WS_ECHO_COUNT      (default 20000)
#   parallel-32   64 connections at once, the same, one in flight on each   WS_PARALLEL_COUNT  (default 64000 in all)
#   binary-1mib   one connection, 1 MiB binary messages, one in flight      WS_BINARY_COUNT    (default 200)
#   idle          WS_IDLE_COUNT sockets opened (200 at a time), held, closed (default 10000): resident memory per
#                 socket, and the descriptors and threads left once all are closed
# A round runs every workload for both clients, the order of the clients alternating from round to round. Prints a
# markdown table: medians, min–max, Ferry ÷ raw from the same round (median and range).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-5}"
ECHO_COUNT="${WS_ECHO_COUNT:-20000}"
PARALLEL_COUNT="${WS_PARALLEL_COUNT:-64000}"
BINARY_COUNT="${WS_BINARY_COUNT:-200}"
IDLE_COUNT="${WS_IDLE_COUNT:-10000}"
WORKLOADS="${WS_WORKLOADS:-echo-32 parallel-32 binary-1mib idle}"

swift build -c release --product WebSocketBench >/dev/null
BENCH="$(swift build -c release --show-bin-path)/WebSocketBench"
# Both processes hold a descriptor per idle socket.
ulimit -n "$(ulimit -Hn)"

RESULTS="$(mktemp)"
SERVER_OUT="$(mktemp)"
"$BENCH" serve >"$SERVER_OUT" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -f "$RESULTS" "$SERVER_OUT"' EXIT
for _ in $(seq 100); do grep -q '^listening' "$SERVER_OUT" && break; sleep 0.05; done
PORT="$(awk '/^listening/ {print $2}' "$SERVER_OUT")"
[[ -n "$PORT" ]] || { cat "$SERVER_OUT" >&2; echo "run-websocket: the echo server did not start" >&2; exit 1; }
URL="ws://127.0.0.1:$PORT/"

echo "$ROUNDS round(s); load average before $(cut -d' ' -f1-3 /proc/loadavg)." >&2
for round in $(seq "$ROUNDS"); do
  clients="raw ferry"
  (( round % 2 == 0 )) && clients="ferry raw"
  for workload in $WORKLOADS; do
    case "$workload" in
      echo-32) count=$ECHO_COUNT ;;
      parallel-32) count=$PARALLEL_COUNT ;;
      binary-1mib) count=$BINARY_COUNT ;;
      idle) count=$IDLE_COUNT ;;
    esac
    for client in $clients; do
      line="$("$BENCH" "$client" "$workload" --url "$URL" --count "$count")"
      echo "{\"round\": $round, \"result\": $line}" >>"$RESULTS"
      echo "round $round: $line" >&2
    done
  done
done
echo "load average after $(cut -d' ' -f1-3 /proc/loadavg)." >&2

python3 - "$RESULTS" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
by = {}
for row in rows:
    r = row["result"]
    by.setdefault((r["workload"], r["client"]), {})[row["round"]] = r
workloads = []
for row in rows:
    if row["result"]["workload"] not in workloads:
        workloads.append(row["result"]["workload"])
print("| workload | client | rate (median) | min–max | Ferry ÷ raw (median; per-round min–max) | target |")
print("|---|---|---|---|---|---|")
for workload in workloads:
    raw, ferry = by.get((workload, "raw"), {}), by.get((workload, "ferry"), {})
    unit = next(iter(raw.values() or ferry.values()))["unit"]
    ratios = [ferry[k]["rate"] / raw[k]["rate"] for k in raw if k in ferry]
    for name, runs in (("raw swift-websocket", raw), ("Ferry", ferry)):
        rates = [r["rate"] for r in runs.values()]
        cell = "–"
        target = "–"
        if name == "Ferry" and ratios:
            median = statistics.median(ratios)
            cell = f"**{median:.2f}×** ({min(ratios):.2f}–{max(ratios):.2f})"
            if workload != "idle":
                target = "≥ 0.90: " + ("met" if median >= 0.9 else "**missed**")
        print(f"| {workload} | {name} | {statistics.median(rates):,.0f} {unit} | {min(rates):,.0f}–{max(rates):,.0f} | {cell} | {target} |")
idle = [(c, by[("idle", c)]) for c in ("raw", "ferry") if ("idle", c) in by]
if idle:
    print()
    print("Idle sockets: resident memory above the process's before opening them, per socket; descriptors and threads")
    print("before opening, with all open, and after all were closed.")
    print()
    print("| client | KiB per socket (median; min–max) | descriptors before / open / after | threads before / open / after |")
    print("|---|---|---|---|")
    for client, runs in idle:
        per = [r["perConnectionKiB"] for r in runs.values()]
        last = runs[max(runs)]
        d = "/".join(str(last[k]["descriptors"]) for k in ("before", "open", "after"))
        t = "/".join(str(last[k]["threads"]) for k in ("before", "open", "after"))
        name = "raw swift-websocket" if client == "raw" else "Ferry"
        print(f"| {name} | {statistics.median(per):.1f} ({min(per):.1f}–{max(per):.1f}) | {d} | {t} |")
PY
