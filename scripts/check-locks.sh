#!/usr/bin/env bash
# Ferry's lock seam stays the only lock: every `Locked.swift` (one per module that locks) is a copy of
# Sources/Ferry/Locking/Locked.swift, and no other Swift file under Sources or Tests creates or names a
# `Synchronization.Mutex` (ferry-tsan-canary, which shows TSan misreading one, excepted). See RELIABILITY.md,
# "Sanitizers". Exits non-zero on a violation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
canonical=Sources/Ferry/Locking/Locked.swift
status=0
while IFS= read -r copy; do
  if ! cmp -s "$canonical" "$copy"; then
    echo "check-locks.sh: $copy differs from $canonical (copy it over)" >&2
    status=1
  fi
done < <(find Sources Tests -name Locked.swift ! -path "$canonical")
if grep -rnE '\bMutex(<|\()' Sources Tests --include='*.swift' \
  | grep -vE '^[^:]*/Locked\.swift:|^Sources/ferry-tsan-canary/Canary\.swift:|^Tests/FerryTests/Locking/LockedTests\.swift:'; then
  echo "check-locks.sh: use Locked (the lock seam), not Mutex, in the lines above" >&2
  status=1
fi
exit "$status"
