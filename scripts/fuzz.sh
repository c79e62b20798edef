#!/usr/bin/env bash
# libFuzzer runs of the parsers Ferry writes itself (Fuzz/README.md lists the targets and their properties):
#   scripts/fuzz.sh [seconds-per-target] [target...]      (defaults: 60 seconds, every Fuzz/*.swift target)
# Builds Ferry's sources once as a static library with `-sanitize=fuzzer,address` and `-enable-testing` (the
# default build: no dependencies), links each target against it, then runs one target at a time, one worker, for
# the given time, starting from its checked-in seeds (Fuzz/Corpus/<target>) plus the inputs earlier runs found
# (.build-fuzz/corpus/<target>). Prints executions and coverage per target; fails if any target crashes, leaks,
# runs out of memory (-rss_limit_mb) or time on one input (-timeout), or fails a property. A failing input is kept
# in .build-fuzz/artifacts/<target>/; re-run it with `.build-fuzz/bin/<target> <file>` (`bin-Onone/` for an
# unoptimized run).
# FERRY_FUZZ_WORK moves the work directory (default .build-fuzz). One target runs at a time, one worker.
# FERRY_FUZZ_OPTIMIZATION=-Onone builds without optimization (in lib-Onone/ and bin-Onone/ beside the optimized
# build): scripts/test.sh's 1-second smoke, which only needs the targets built and their seeds replayed.
set -euo pipefail
# The Swift runtime's backtracer runs inside the sanitized process and trips AddressSanitizer itself.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SECONDS_PER_TARGET="${1:-60}"
shift || true
WORK="${FERRY_FUZZ_WORK:-$PWD/.build-fuzz}"
OPTIMIZATION="${FERRY_FUZZ_OPTIMIZATION:--O}"
case "$OPTIMIZATION" in
  -O) LIB_DIR="$WORK/lib" BIN_DIR="$WORK/bin" ;;
  -Onone) LIB_DIR="$WORK/lib-Onone" BIN_DIR="$WORK/bin-Onone" ;;
  *) echo "fuzz.sh: FERRY_FUZZ_OPTIMIZATION is -O or -Onone, not $OPTIMIZATION" >&2; exit 2 ;;
esac
mkdir -p "$LIB_DIR" "$BIN_DIR"
if [[ $# -gt 0 ]]; then
  TARGETS=("$@")
else
  TARGETS=()
  for file in Fuzz/*.swift; do TARGETS+=("$(basename "$file" .swift)"); done
fi
# `-j`: without it the driver compiles one batch at a time on one core (Ferry's sources: 266 s here, against 120 s
# with both cores; 2026-11-29).
FLAGS=(-sanitize=fuzzer,address -parse-as-library "$OPTIMIZATION" -swift-version 6 -package-name Ferry -j "$(nproc)")
# The linker warns about every ASan register helper; only the rest is worth showing.
quiet_link() { grep -v "Cannot export local symbol '__asan" || true; }

LIB="$LIB_DIR/libFerry.a"
if [[ ! -f "$LIB" ]] || [[ -n "$(find Sources/Ferry -name '*.swift' -newer "$LIB" -print -quit)" ]]; then
  echo "fuzz.sh: [${SECONDS}s] building Ferry with -sanitize=fuzzer,address $OPTIMIZATION"
  (cd "$LIB_DIR" && swiftc "${FLAGS[@]}" -module-name Ferry -enable-testing -emit-library -static -emit-module \
    -o libFerry.a $(find "$OLDPWD/Sources/Ferry" -name '*.swift' | sort)) 2>&1 | quiet_link
  [[ -f "$LIB" ]] || { echo "fuzz.sh: building Ferry failed"; exit 1; }
  rm -f "$BIN_DIR"/*
fi

status=0
summary=()
for target in "${TARGETS[@]}"; do
  source_file="Fuzz/$target.swift"
  [[ -f "$source_file" ]] || { echo "fuzz.sh: no target $source_file"; exit 2; }
  binary="$BIN_DIR/$target"
  if [[ ! -x "$binary" || "$source_file" -nt "$binary" || Fuzz/Support/FuzzInput.swift -nt "$binary" ]]; then
    echo "fuzz.sh: [${SECONDS}s] building $target"
    swiftc "${FLAGS[@]}" -I "$LIB_DIR" -L "$LIB_DIR" -lFerry Fuzz/Support/*.swift "$source_file" -o "$binary" \
      2>&1 | quiet_link
    [[ -x "$binary" ]] || { echo "fuzz.sh: building $target failed"; exit 1; }
  fi
  corpus="$WORK/corpus/$target" artifacts="$WORK/artifacts/$target/" log="$WORK/$target.log"
  mkdir -p "$corpus" "$artifacts" "Fuzz/Corpus/$target"
  echo "fuzz.sh: [${SECONDS}s] running $target for ${SECONDS_PER_TARGET}s"
  target_status=0
  "$binary" "$corpus" "Fuzz/Corpus/$target" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 \
    -max_len=4096 -workers=1 -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1 || target_status=$?
  runs="$(sed -n "s/^stat::number_of_executed_units: *//p" "$log" | tail -1 || true)"
  coverage="$(grep -Eo "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 || true)"
  corpus_size="$(find "$corpus" "Fuzz/Corpus/$target" -type f | wc -l | tr -d ' ')"
  line="$target: ${runs:-?} executions in ${SECONDS_PER_TARGET}s, ${coverage:-no coverage line}, corpus $corpus_size"
  if [[ $target_status -ne 0 ]]; then
    line="$line: FAILED (exit $target_status, log $log)"
    grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -5 || true
    status=1
  fi
  echo "fuzz.sh: $line"
  summary+=("$line")
done
echo "fuzz.sh: [${SECONDS}s] summary"
printf '  %s\n' "${summary[@]}"
exit "$status"
