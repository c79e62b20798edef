#!/usr/bin/env bash
# Ferry side by side with the clients it is built on, against nginx on loopback (issue: throughput benchmarks).
#   Benchmarks/run-throughput.sh [rounds]        (default 3 rounds, interleaved)
#
# Four clients: raw URLSession, raw AsyncHTTPClient, Ferry on URLSessionTransport, Ferry on AsyncHTTPClientTransport;
# with FERRY_BENCH_PEERS, also the peers on URLSession, Alamofire and Get (README "Peers: Alamofire and Get").
# Six workloads (sizes below). Every (client, workload) runs in a process of its own under /usr/bin/time (peak RSS),
# after one warm-up request on the same origin. A round runs every workload for every client; rounds are interleaved
# and the client order rotates from round to round. Prints a markdown table: medians, min–max, Ferry-on-X / raw X
# from the same run, peak RSS; and, when a peer ran, Ferry on URLSession / each peer from the same run.
#
# Environment (smaller numbers make a smoke run):
#   THROUGHPUT_SMALL_COUNT       sequential small GETs per process        (default 2000)
#   THROUGHPUT_DISTINCT_COUNT    distinct URLs for distinct-urls           (default 100000)
#   THROUGHPUT_CONCURRENT_COUNT  concurrent small GETs per process        (default 20000)
#   THROUGHPUT_WIDTH             requests in flight for those             (default 64)
#   THROUGHPUT_DECODE_COUNT      GET + decode of array-10k.json           (default 1000)
#   THROUGHPUT_UPLOAD_COUNT      64 MiB uploads per process               (default 2)
#   THROUGHPUT_STREAM_CHUNK      bytes per chunk of stream-upload's body  (default 262144)
#   THROUGHPUT_WORKLOADS         which workloads, space-separated         (default: all six; cached-sequential, the
#                                small GET fresh for an hour, only when named, with ferry-ahc-cache and
#                                ferry-urlsession-cache: HTTPCache hits against the raw engines over loopback;
#                                ferry-*-disk-cache: the same from DiskCacheStorage; no-store-sequential, the small
#                                GET marked no-store: ferry-*-cache against ferry-* shows what an idle cache costs;
#                                distinct-urls, 100,000 cacheable URLs: peak RSS and cache_bytes show the budget holds;
#                                stream-upload, THROUGHPUT_UPLOAD_COUNT POSTs of 64 MiB produced by an AsyncSequence of
#                                256 KiB chunks: Ferry on AsyncHTTPClient reads it through StreamBodyPump, the raw
#                                engine directly; on URLSession Ferry spools it to a file first, and raw URLSession and
#                                the peers do not run it)
#   THROUGHPUT_CLIENTS           which clients, space-separated           (default: all four, and alamofire and
#                                                                         get when FERRY_BENCH_PEERS is set)
#   FERRY_BENCH_PEERS            a folder with checkouts Alamofire/ and Get/: builds the clients alamofire and get
#                                (Package.swift reads it; the checkouts are never committed)
#   THROUGHPUT_RESULTS           also keep the raw result lines in this file
#   FERRY_CI_WORK                the servers' work dir (default ../.ci-work), as for scripts/servers.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ROUNDS="${1:-3}"
ROOT="$(cd .. && pwd)"
SMALL_COUNT="${THROUGHPUT_SMALL_COUNT:-2000}"
DISTINCT_COUNT="${THROUGHPUT_DISTINCT_COUNT:-100000}"
CONCURRENT_COUNT="${THROUGHPUT_CONCURRENT_COUNT:-20000}"
WIDTH="${THROUGHPUT_WIDTH:-64}"
DECODE_COUNT="${THROUGHPUT_DECODE_COUNT:-1000}"
UPLOAD_COUNT="${THROUGHPUT_UPLOAD_COUNT:-2}"
STREAM_CHUNK="${THROUGHPUT_STREAM_CHUNK:-262144}"
read -r -a WORKLOADS <<<"${THROUGHPUT_WORKLOADS:-small-sequential small-concurrent decode download-disk download-memory upload}"
DEFAULT_CLIENTS="raw-urlsession ferry-urlsession raw-ahc ferry-ahc"
if [[ -n "${FERRY_BENCH_PEERS:-}" ]]; then
  for peer in Alamofire Get; do
    [[ -f "$FERRY_BENCH_PEERS/$peer/Package.swift" ]] || { echo "FERRY_BENCH_PEERS: no $FERRY_BENCH_PEERS/$peer/Package.swift" >&2; exit 64; }
  done
  DEFAULT_CLIENTS="$DEFAULT_CLIENTS alamofire get"
fi
read -r -a CLIENTS <<<"${THROUGHPUT_CLIENTS:-$DEFAULT_CLIENTS}"
for client in "${CLIENTS[@]}"; do
  if [[ ( $client == alamofire || $client == get ) && -z "${FERRY_BENCH_PEERS:-}" ]]; then
    echo "client $client needs FERRY_BENCH_PEERS=<folder with Alamofire/ and Get/> (Benchmarks/README.md)" >&2
    exit 64
  fi
done

export FERRY_BIG_FILES=1
WORK="${FERRY_CI_WORK:-$ROOT/.ci-work}"
SCRATCH="$(mktemp -d)"
# Servers that were already running (someone else's test run) are used and left running.
STOP_SERVERS=1
if "$ROOT/scripts/servers.sh" status >/dev/null 2>&1; then STOP_SERVERS=0; fi
cleanup() {
  rm -rf "$SCRATCH"
  if [[ $STOP_SERVERS == 1 ]]; then "$ROOT/scripts/servers.sh" stop >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
"$ROOT/scripts/servers.sh" start >/dev/null 2>"$SCRATCH/servers.log" || { cat "$SCRATCH/servers.log" >&2; exit 1; }
# shellcheck disable=SC1091
source "$WORK/servers.env"
WWW="$FERRY_STATIC_ROOT"
head -c $((64 << 20)) /dev/urandom >"$SCRATCH/upload-64mib.bin"

swift build -c release --product ThroughputBench >"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log" >&2; exit 1; }
BIN="$(swift build -c release --show-bin-path)/ThroughputBench"

size() { stat -c %s "$1"; }
arguments() { # arguments WORKLOAD: the ThroughputBench options for it
  case "$1" in
    small-sequential) echo "--url $FERRY_NGINX_URL/small.json --count $SMALL_COUNT --expect $(size "$WWW/small.json")" ;;
    cached-sequential) echo "--url $FERRY_NGINX_URL/cacheable.json --count $SMALL_COUNT --expect $(size "$WWW/small.json")" ;;
    distinct-urls) echo "--url $FERRY_NGINX_URL/cacheable.json --count $DISTINCT_COUNT --expect $(size "$WWW/small.json")" ;;
    no-store-sequential) echo "--url $FERRY_NGINX_URL/no-store.json --count $SMALL_COUNT --expect $(size "$WWW/small.json")" ;;
    small-concurrent) echo "--url $FERRY_NGINX_URL/small.json --count $CONCURRENT_COUNT --width $WIDTH --expect $(size "$WWW/small.json")" ;;
    decode) echo "--url $FERRY_NGINX_URL/array-10k.json --count $DECODE_COUNT" ;;
    download-disk) echo "--url $FERRY_NGINX_URL/256mib.bin --destination $SCRATCH/download.bin --expect $(size "$WWW/256mib.bin")" ;;
    download-memory) echo "--url $FERRY_NGINX_URL/256mib.bin --expect $(size "$WWW/256mib.bin")" ;;
    upload) echo "--url $FERRY_UPLOAD_URL/upload --file $SCRATCH/upload-64mib.bin --count $UPLOAD_COUNT --expect $((64 << 20))" ;;
    stream-upload) echo "--url $FERRY_UPLOAD_URL/upload --count $UPLOAD_COUNT --expect $((64 << 20)) --chunk $STREAM_CHUNK" ;;
    *) echo "unknown workload $1" >&2; exit 64 ;;
  esac
}

RESULTS="$SCRATCH/results"
: >"$RESULTS"
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for workload in "${WORKLOADS[@]}"; do
    # rotate the client order, so that no client always runs first (or right after the same neighbour)
    for ((i = 0; i < ${#CLIENTS[@]}; i++)); do
      client="${CLIENTS[$(((i + round - 1) % ${#CLIENTS[@]}))]}"
      rm -f "$SCRATCH/download.bin"
      status=0
      # shellcheck disable=SC2046
      out="$(/usr/bin/time -f '%M' -o "$SCRATCH/rss" "$BIN" "$client" "$workload" $(arguments "$workload") 2>"$SCRATCH/err")" || status=$?
      if [[ $status == 0 ]]; then
        echo "{\"round\": $round, \"time_peak_rss_kib\": $(tail -n 1 "$SCRATCH/rss"), \"result\": $out}" >>"$RESULTS"
      elif [[ $status == 69 ]]; then
        # the library has no API for this workload on this platform (Get's download on Linux): not run, not failed
        reason="$(tail -n 1 "$SCRATCH/err" | sed 's/.*not run: //; s/["\\]//g')"
        echo "{\"round\": $round, \"unsupported\": \"$reason\", \"result\": {\"client\": \"$client\", \"workload\": \"$workload\"}}" >>"$RESULTS"
      else
        echo "round $round: $client $workload failed: $(tail -n 3 "$SCRATCH/err")" >&2
        echo "{\"round\": $round, \"failed\": true, \"result\": {\"client\": \"$client\", \"workload\": \"$workload\"}}" >>"$RESULTS"
      fi
    done
  done
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n "${THROUGHPUT_RESULTS:-}" ]]; then cp "$RESULTS" "$THROUGHPUT_RESULTS"; fi

python3 throughput-report.py "$RESULTS" "$ROUNDS" "$LOAD_BEFORE" "$LOAD_AFTER"
