#!/usr/bin/env bash
# Checks Ferry's promise: with its package trait off, neither Ferry nor a package that depends on it resolves or
# fetches any package. Makes a fresh consumer package beside a copy of nothing but a path dependency on this
# checkout, resolves and builds it, and fails if anything was fetched.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/Consumer/Sources/Consumer"
cat >"$WORK/Consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "$ROOT")],
    targets: [.executableTarget(name: "Consumer", dependencies: [.product(name: "Ferry", package: "$(basename "$ROOT")")])]
)
MANIFEST
cat >"$WORK/Consumer/Sources/Consumer/main.swift" <<'SWIFT'
import Ferry
print("Ferry \(Session.version)")
SWIFT
cd "$WORK/Consumer"
swift package resolve 2>&1 | tee "$WORK/resolve.log"
if grep -qiE "fetching|cloning|computing version" "$WORK/resolve.log" || [[ -d .build/checkouts && -n "$(ls -A .build/checkouts)" ]]; then
  echo "check-no-dependencies: a consumer of Ferry fetched packages" >&2
  exit 1
fi
pins="$( [[ -f Package.resolved ]] && grep -c '"identity"' Package.resolved || echo 0)"
if [[ "$pins" != 0 ]]; then
  echo "check-no-dependencies: Package.resolved pins $pins packages" >&2
  exit 1
fi
echo "check-no-dependencies: a consumer of Ferry resolves no package"
