#!/usr/bin/env bash
# Ferry's lock seam stays the only lock: the libraries' `Locked.swift` (Ferry's, FerryTesting's) are identical, the
# shared one of every other module (Sources/FerryLocking/Locked.swift) is the same file with `public` added to the
# type, its initializer and `withLock`, and no other Swift file under Sources or Tests creates or names a
# `Synchronization.Mutex` (ferry-tsan-canary, which shows TSan misreading one, excepted). See RELIABILITY.md,
# "Sanitizers". Exits non-zero on a violation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
canonical=Sources/Ferry/Locking/Locked.swift
status=0
shared=Sources/FerryLocking/Locked.swift
while IFS= read -r copy; do
  if [[ "$copy" == "$shared" ]]; then
    if ! diff -q "$canonical" <(sed -e 's/^public struct Locked/struct Locked/' \
      -e 's/^    public init(_ initialValue/    init(_ initialValue/' \
      -e 's/^    public borrowing func withLock/    borrowing func withLock/' "$copy") >/dev/null; then
      echo "check-locks.sh: $copy is not $canonical with public added (copy it over)" >&2
      status=1
    fi
  elif ! cmp -s "$canonical" "$copy"; then
    echo "check-locks.sh: $copy differs from $canonical (copy it over)" >&2
    status=1
  fi
done < <(find Sources Tests -name Locked.swift ! -path "$canonical")
if [[ "$(find Sources Tests -name Locked.swift | wc -l)" -ne 3 ]]; then
  echo "check-locks.sh: Locked.swift belongs in Ferry, FerryTesting and FerryLocking only; import FerryLocking" >&2
  status=1
fi
if grep -rnE '\bMutex(<|\()' Sources Tests --include='*.swift' \
  | grep -vE '^[^:]*/Locked\.swift:|^Sources/ferry-tsan-canary/Canary\.swift:|^Tests/FerryTests/Locking/LockedTests\.swift:'; then
  echo "check-locks.sh: use Locked (the lock seam), not Mutex, in the lines above" >&2
  status=1
fi
exit "$status"
