#!/usr/bin/env bash
# Ferry before and after a change, beside the raw engines, in one interleaved run:
#
#   Benchmarks/run-before-after.sh BEFORE_CHECKOUT [rounds]      (default 7 rounds)
#
# BEFORE_CHECKOUT is a second work tree of this repository at the commit to compare with, e.g.
# `git worktree add ../ferry-before 2128343`. Its Benchmarks/ThroughputBench and this one are built in release mode,
# then each round runs the small workloads (small-sequential, small-concurrent, decode) for raw AsyncHTTPClient,
# Ferry before and Ferry after on it, then the same on URLSession, against the loopback nginx of scripts/servers.sh
# (started if it is not running). Prints, per workload and engine, before ÷ raw, after ÷ raw and after ÷ before:
# the median of the same-round ratios, with their per-round range.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
BEFORE="$(cd "${1:?usage: run-before-after.sh BEFORE_CHECKOUT [rounds]}" && pwd)"
ROUNDS="${2:-7}"
WORK="${FERRY_CI_WORK:-$PWD/../.ci-work}"
FERRY_BIG_FILES=1 ../scripts/servers.sh start >/dev/null
# shellcheck disable=SC1091
source "$WORK/servers.env"
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
for tree in "$PWD" "$BEFORE/Benchmarks"; do
  (cd "$tree" && swift build -c release --product ThroughputBench >"$SCRATCH/build.log" 2>&1) \
    || { cat "$SCRATCH/build.log" >&2; exit 1; }
done
AFTER_BIN="$(swift build -c release --show-bin-path)/ThroughputBench"
BEFORE_BIN="$(cd "$BEFORE/Benchmarks" && swift build -c release --show-bin-path)/ThroughputBench"
SMALL="$(stat -c %s "$FERRY_STATIC_ROOT/small.json")"
arguments() {
  case "$1" in
    small-sequential) echo "--url $FERRY_NGINX_URL/small.json --count 2000 --expect $SMALL" ;;
    small-concurrent) echo "--url $FERRY_NGINX_URL/small.json --count 20000 --width 64 --expect $SMALL" ;;
    decode) echo "--url $FERRY_NGINX_URL/array-10k.json --count 1000" ;;
  esac
}
RESULTS="$SCRATCH/results"
for round in $(seq "$ROUNDS"); do
  for workload in small-sequential small-concurrent decode; do
    for run in "raw-ahc $AFTER_BIN raw" "ferry-ahc $BEFORE_BIN before" "ferry-ahc $AFTER_BIN after" \
      "raw-urlsession $AFTER_BIN raw" "ferry-urlsession $BEFORE_BIN before" "ferry-urlsession $AFTER_BIN after"; do
      read -r client bin tag <<<"$run"
      # shellcheck disable=SC2046
      "$bin" "$client" "$workload" $(arguments "$workload") 2>/dev/null \
        | python3 -c "import json, sys; print('$round $workload $client $tag', json.loads(sys.stdin.read())['rate'])" \
          >>"$RESULTS"
    done
  done
done
python3 - "$RESULTS" "$ROUNDS" <<'PY'
import collections, statistics, sys
rates = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    round_, workload, client, tag, rate = line.split()
    engine = "AsyncHTTPClient" if "ahc" in client else "URLSession"
    rates[(workload, engine, round_)][tag] = float(rate)
def cell(values):
    return f"{statistics.median(values):.2f}× ({min(values):.2f}–{max(values):.2f})"
print(f"{sys.argv[2]} interleaved rounds.\n")
print("| workload | engine | before ÷ raw | after ÷ raw | after ÷ before |")
print("|---|---|---|---|---|")
for workload in ["small-sequential", "small-concurrent", "decode"]:
    for engine in ["URLSession", "AsyncHTTPClient"]:
        rounds = [r for (w, e, _), r in rates.items() if w == workload and e == engine]
        before = [r["before"] / r["raw"] for r in rounds]
        after = [r["after"] / r["raw"] for r in rounds]
        change = [r["after"] / r["before"] for r in rounds]
        print(f"| {workload} | {engine} | {cell(before)} | {cell(after)} | {cell(change)} |")
PY
