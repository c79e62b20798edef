#!/usr/bin/env bash
# Instructions per request through Ferry's pipeline on the in-memory transport, counted by callgrind: for machines
# without hardware performance counters, where `swift package benchmark` cannot measure `instructions`.
#   Benchmarks/run-pipeline-instructions.sh [requests]      (default 1000)
#
# Each scenario (Sources/PipelineScenarios) runs twice under `valgrind --tool=callgrind`, with 200 and with
# 200 + requests requests after the same warm-up; (Ir₂ − Ir₁) / requests is one request's count, without the
# process's start-up. Callgrind counts instructions, not time: the result does not depend on the machine's load.
# Set PIPELINE_ANNOTATE=1 to also print callgrind_annotate's top functions (inclusive) of the longer run, and
# PIPELINE_ALLOCATIONS=1 to also count heap allocations per request the same way (valgrind's memcheck, "total heap
# usage", the difference between the two runs).
# PIPELINE_SCENARIOS (space-separated) runs only those scenarios.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
REQUESTS="${1:-1000}"
FIRST=200
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT
swift build -c release --product PipelineInstructions >"$SCRATCH/build.log" 2>&1 || { cat "$SCRATCH/build.log" >&2; exit 1; }
BIN="$(swift build -c release --show-bin-path)/PipelineInstructions"
# valgrind 3.19 (Debian 12) cannot read the DWARF 5 debug info Swift 6.3 emits: count on a copy without it (the
# symbol table stays, so callgrind_annotate still names functions).
NODEBUG="$SCRATCH/PipelineInstructions"
objcopy --strip-debug "$BIN" "$NODEBUG"

instructions() { # instructions SCENARIO COUNT OUT: total Ir of one run
  valgrind --tool=callgrind --callgrind-out-file="$3" "$NODEBUG" "$1" "$2" >/dev/null 2>"$SCRATCH/valgrind.log" \
    || { cat "$SCRATCH/valgrind.log" >&2; exit 1; }
  awk '/^(summary|totals):/ { print $2; exit }' "$3"
}

allocations() { # allocations SCENARIO COUNT: heap allocations of one run
  valgrind --tool=memcheck "$NODEBUG" "$1" "$2" 2>&1 >/dev/null | awk '/total heap usage/ { gsub(",", "", $5); print $5 }'
}

if [[ "${PIPELINE_ALLOCATIONS:-0}" == 1 ]]; then
  echo "| scenario | instructions per request | allocations per request |"
  echo "|---|---|---|"
else
  echo "| scenario | instructions per request |"
  echo "|---|---|"
fi
for scenario in ${PIPELINE_SCENARIOS:-get-data get-decodable post-json get-cached reference-decoder reference-encoder}; do
  short="$(instructions "$scenario" "$FIRST" "$SCRATCH/$scenario.short")"
  long="$(instructions "$scenario" $((FIRST + REQUESTS)) "$SCRATCH/$scenario.long")"
  if [[ "${PIPELINE_ALLOCATIONS:-0}" == 1 ]]; then
    fewer="$(allocations "$scenario" "$FIRST")"
    more="$(allocations "$scenario" $((FIRST + REQUESTS)))"
    printf '| %s | %s | %s |\n' "$scenario" "$(((long - short) / REQUESTS))" \
      "$(awk -v a="$fewer" -v b="$more" -v n="$REQUESTS" 'BEGIN { printf "%.1f", (b - a) / n }')"
  else
    printf '| %s | %s |\n' "$scenario" "$(((long - short) / REQUESTS))"
  fi
  if [[ "${PIPELINE_ANNOTATE:-0}" == 1 ]]; then
    callgrind_annotate --inclusive=yes "$SCRATCH/$scenario.long" 2>/dev/null | head -n 40 >&2 || true
  fi
done
