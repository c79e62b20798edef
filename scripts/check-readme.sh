#!/usr/bin/env bash
# Compiles every ```swift block of README.md and of the DocC articles (Sources/*/*.docc/*.md), as a user would paste
# them, in a consumer package of this checkout, with warnings as errors. Fails, naming the document and line, when
# a block does not compile.
#
#   scripts/check-readme.sh        FERRY_README_TRAIT=1 also compiles the blocks that need the AsyncHTTPClient trait
#
# Conventions for the code blocks (README.md "Contributing: the code blocks compile" repeats them):
# - Each block is compiled on its own, as its own module, so blocks may reuse names. It shows its imports
#   (`import Ferry`, `import Foundation` for `Data` and `URL`, …): imports are per file, and the consumer builds
#   with the MemberImportVisibility upcoming feature, so a block that relies on another file's import fails.
# - Top-level declarations (struct, enum, func, extension, actor, class, protocol, typealias, and anything starting
#   with an attribute, like `@Test func`) stay at file scope; the block's statements are wrapped in
#   `func example_N() async throws { … }`, so `try await` works and a value that is never used is a warning, hence
#   an error: use the value or write `_ = try await …`. A declaration ends on its own line when its braces balance
#   there, else at the next line that starts with `}`. Imports are hoisted to the top of the file.
# - A block preceded by `<!-- prelude -->` (on the line before the fence) is compiled, at file scope, with every
#   later block of the same document: the shared `session`, `url` or `User` that several examples use. Prefer
#   blocks that stand alone.
# - A block preceded by `<!-- standalone -->` is compiled without the prelude (when it declares a name the prelude
#   declares too, like a self-contained test).
# - A block preceded by `<!-- no-check -->` is not compiled (shell-like pseudo code; use sparingly).
# - A block whose first line is `// Package.swift` is a manifest fragment: its `.package(…)` lines become the
#   dependencies and its `.product(…)` lines a target's dependencies of a manifest that
#   `swift package dump-package` evaluates (nothing is fetched).
# - A block that imports `Testing` or `XCTest` becomes a test target.
# - Blocks compile against Ferry's default build (no package trait). A block that uses `AsyncHTTPClientTransport`
#   or imports AsyncHTTPClient needs the trait: it is compiled only with FERRY_README_TRAIT=1, in a second consumer
#   with `traits: ["AsyncHTTPClient"]`, which builds SwiftNIO and AsyncHTTPClient (minutes), so CI skips it and
#   this script lists it as skipped.
#
# The consumer lives in .build-readme/ (ignored by git) so that a second run only recompiles what changed; on a
# clean clone it is one extra debug build of Ferry and FerryTesting (about 20 s on two cores) plus the blocks.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
WORK="$ROOT/.build-readme"
EXTRACT="$WORK/extracted"
started=$SECONDS

documents=(README.md)
for article in Sources/*/*.docc/*.md; do documents+=("$article"); done

rm -rf "$EXTRACT"
mkdir -p "$EXTRACT"
touch "$EXTRACT/targets.tsv" "$EXTRACT/manifests.tsv" "$EXTRACT/skipped.tsv"
awk -v out="$EXTRACT" -f scripts/extract-swift-blocks.awk "${documents[@]}"

failed=0

# Manifest fragments: evaluated, not resolved.
while IFS=$'\t' read -r target where; do
  dir="$WORK/manifests/$target"
  rm -rf "$dir" && mkdir -p "$dir"
  {
    echo '// swift-tools-version: 6.1'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "Fragment",'
    echo '    dependencies: ['
    grep -E '^[[:space:]]*\.package\(' "$EXTRACT/Manifests/$target/fragment.swift" || true
    echo '    ],'
    echo '    targets: [.target(name: "App", dependencies: ['
    grep -E '^[[:space:]]*\.product\(' "$EXTRACT/Manifests/$target/fragment.swift" || true
    echo '    ])]'
    echo ')'
  } >"$dir/Package.swift"
  if ! swift package --package-path "$dir" dump-package >/dev/null 2>"$dir/errors.txt"; then
    echo "check-readme: the Package.swift fragment at $where does not compile:" >&2
    cat "$dir/errors.txt" >&2
    failed=1
  fi
done <"$EXTRACT/manifests.tsv"

# make_consumer DIR TRAITS: a package with one target per block, depending on this checkout (identity: its folder's
# name) with the given traits.
make_consumer() {
  local dir="$1" traits="$2" target kind trait where file
  mkdir -p "$dir/Sources" "$dir/next"
  rm -rf "$dir/next/Sources"
  {
    echo '// swift-tools-version: 6.1'
    echo 'import PackageDescription'
    echo 'let ferry: [Target.Dependency] = ['
    echo "    .product(name: \"Ferry\", package: \"$(basename "$ROOT")\"),"
    echo "    .product(name: \"FerryTesting\", package: \"$(basename "$ROOT")\"),"
    echo ']'
    echo 'let settings: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]'
    echo 'let package = Package('
    echo '    name: "DocumentationBlocks",'
    echo '    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],'
    if [[ -n "$traits" ]]; then
      echo "    dependencies: [.package(path: \"$ROOT\", traits: [\"$traits\"])],"
    else
      echo "    dependencies: [.package(path: \"$ROOT\")],"
    fi
    echo '    targets: ['
    while IFS=$'\t' read -r target kind trait where; do
      [[ "$trait" == "${traits:--}" ]] || continue
      mkdir -p "$dir/next/Sources"
      cp -R "$EXTRACT/Sources/$target" "$dir/next/Sources/$target"
      if [[ "$kind" == test ]]; then
        echo "        .testTarget(name: \"$target\", dependencies: ferry, path: \"Sources/$target\", swiftSettings: settings),"
      else
        echo "        .target(name: \"$target\", dependencies: ferry, path: \"Sources/$target\", swiftSettings: settings),"
      fi
    done <"$EXTRACT/targets.tsv"
    echo '    ],'
    echo '    swiftLanguageModes: [.v6]'
    echo ')'
  } >"$dir/next/Package.swift"
  # Replace only what changed, so that a second run recompiles only the blocks that changed.
  cmp -s "$dir/next/Package.swift" "$dir/Package.swift" || mv "$dir/next/Package.swift" "$dir/Package.swift"
  for target in "$dir"/Sources/*/; do
    [[ -d "$dir/next/Sources/$(basename "$target")" ]] || rm -rf "$target"
  done
  for file in "$dir"/next/Sources/*/*.swift; do
    [[ -e "$file" ]] || continue
    target="$dir/Sources/${file#"$dir/next/Sources/"}"
    if ! cmp -s "$file" "$target"; then
      mkdir -p "$(dirname "$target")"
      cp "$file" "$target"
    fi
  done
  for file in "$dir"/Sources/*/*.swift; do
    [[ -e "$file" && -e "$dir/next/Sources/${file#"$dir/Sources/"}" ]] || rm -f "$file"
  done
  rm -rf "$dir/next"
}

# build_consumer DIR: builds every block, warnings as errors; the errors name the document and line.
build_consumer() {
  local dir="$1" status=0
  # SwiftPM keeps the build plan of a path dependency and misses source files added to it since: plan anew (cheap).
  rm -f "$dir"/.build/debug.yaml "$dir"/.build/release.yaml
  swift build --package-path "$dir" --build-tests -Xswiftc -warnings-as-errors >"$dir/build.log" 2>&1 || status=$?
  grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Emitting|Write|Build|Planning|Linking|Applying)' "$dir/build.log" || true
  return "$status"
}

blocks=$(grep -c . "$EXTRACT/targets.tsv" || true)
trait_blocks=$(awk -F'\t' '$3 != "-"' "$EXTRACT/targets.tsv" | wc -l)
echo "check-readme: $((blocks - trait_blocks)) blocks in the default build, $trait_blocks needing a trait," \
  "$(grep -c . "$EXTRACT/manifests.tsv" || true) manifest fragments, $(grep -c . "$EXTRACT/skipped.tsv" || true)" \
  "marked no-check, from ${#documents[@]} documents"

make_consumer "$WORK/Consumer" ""
if ! build_consumer "$WORK/Consumer"; then
  echo "check-readme: a code block above does not compile (the errors name the document and line)" >&2
  failed=1
fi

if [[ "$trait_blocks" -gt 0 ]]; then
  if [[ "${FERRY_README_TRAIT:-0}" == 1 ]]; then
    make_consumer "$WORK/ConsumerAsyncHTTPClient" AsyncHTTPClient
    if ! build_consumer "$WORK/ConsumerAsyncHTTPClient"; then
      echo "check-readme: a code block that needs the AsyncHTTPClient trait does not compile" >&2
      failed=1
    fi
  else
    echo "check-readme: not compiled (they need the AsyncHTTPClient trait; FERRY_README_TRAIT=1 compiles them):"
    awk -F'\t' '$3 != "-" { print "  " $4 }' "$EXTRACT/targets.tsv"
  fi
fi

if [[ -s "$EXTRACT/skipped.tsv" ]]; then
  echo "check-readme: marked no-check:"
  awk -F'\t' '{ print "  " $2 }' "$EXTRACT/skipped.tsv"
fi

if [[ "$failed" != 0 ]]; then
  echo "check-readme: FAILED after $((SECONDS - started)) s" >&2
  exit 1
fi
echo "check-readme: every checked block compiles ($((SECONDS - started)) s)"
