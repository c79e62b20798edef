#!/usr/bin/env bash
# Builds the DocC archives of Ferry and FerryTesting with the toolchain's own `docc` (no package plugin, no
# dependency), warnings as errors: a broken symbol link, an unknown article or a malformed directive fails it.
#
#   scripts/build-docs.sh                 # .build-docs/Ferry.doccarchive, FerryTesting.doccarchive, Combined.doccarchive
#   scripts/build-docs.sh --preview       # then serves Ferry's documentation with `docc preview` on localhost:8080
#   scripts/build-docs.sh --site [BASE]   # then .build-docs/site: a static website of the combined archive for any
#                                         # static host, served under BASE (default /ferry, as on GitHub Pages)
#
# How: the default debug build (the one scripts/test.sh makes, `-warnings-as-errors` included, so nothing is rebuilt
# after it) gives the modules; `swift-symbolgraph-extract` reads their public symbols; `docc convert` builds Ferry's
# catalog with those symbols, then FerryTesting's, which links to Ferry's symbols through Ferry's archive
# (`--dependency`), and `docc merge` combines both. The archives describe the default build: AsyncHTTPClientTransport
# (the `AsyncHTTPClient` trait) is not in them, so the catalogs mention it in code font, not as a symbol link.
# Open an archive with `docc preview`, or host it: `--site` runs `docc process-archive transform-for-static-hosting`
# on the combined archive and checks that the result has its entry pages.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/.build-docs"
started=$SECONDS

swift build --target FerryTesting -Xswiftc -warnings-as-errors >/dev/null
modules="$(swift build --show-bin-path -Xswiftc -warnings-as-errors)/Modules"
triple="$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"

rm -rf "$OUT"
mkdir -p "$OUT/symbol-graphs/Ferry" "$OUT/symbol-graphs/FerryTesting"
for module in Ferry FerryTesting; do
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$modules" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$OUT/symbol-graphs/$module"
done

convert() { # convert MODULE [docc options...]
  local module="$1"
  shift
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$OUT/symbol-graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.ferry-swift.$module" \
    --warnings-as-errors --enable-experimental-external-link-support \
    --output-path "$OUT/$module.doccarchive" "$@"
}

status=0
convert Ferry || status=$?
if [[ "$status" == 0 ]]; then
  convert FerryTesting --dependency "$OUT/Ferry.doccarchive" || status=$?
fi
if [[ "$status" == 0 ]]; then
  docc merge "$OUT/Ferry.doccarchive" "$OUT/FerryTesting.doccarchive" \
    --output-path "$OUT/Combined.doccarchive" >/dev/null || status=$?
fi
if [[ "$status" != 0 ]]; then
  echo "build-docs: FAILED after $((SECONDS - started)) s (DocC warnings are errors)" >&2
  exit "$status"
fi
echo "build-docs: $OUT/Ferry.doccarchive, FerryTesting.doccarchive and Combined.doccarchive ($((SECONDS - started)) s)"

if [[ "${1:-}" == --site ]]; then
  base="${2:-/ferry}"
  rm -rf "$OUT/site"
  docc process-archive transform-for-static-hosting "$OUT/Combined.doccarchive" --output-path "$OUT/site" \
    --hosting-base-path "$base" >/dev/null
  for page in index.html documentation/ferry/index.html documentation/ferrytesting/index.html; do
    [[ -f "$OUT/site/$page" ]] || { echo "build-docs: FAILED: the static site has no $page" >&2; exit 1; }
  done
  echo "build-docs: $OUT/site, a static website to serve under $base/ (entry: $base/documentation/ferry/)"
fi

if [[ "${1:-}" == --preview ]]; then
  docc preview "Sources/Ferry/Ferry.docc" --additional-symbol-graph-dir "$OUT/symbol-graphs/Ferry" \
    --fallback-display-name Ferry --fallback-bundle-identifier org.ferry-swift.Ferry --port 8080
fi
