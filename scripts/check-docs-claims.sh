#!/usr/bin/env bash
# The docs never say Ferry lacks something it has. Fails when a name in code font (`Name`, `name()`) that a claim of
# absence mentions is declared in Sources/ (public or open, any module, any trait), naming the document and line.
#
#   scripts/check-docs-claims.sh [DOCUMENT...]     default: README.md and every Sources/*/*.docc/*.md
#
# Claims of absence are:
# - the lines of a section whose heading says "no equivalent", "not supported" or "unsupported" (to the next heading);
# - a table row's second cell (Ferry's column in the README's comparison) that starts with `**no**`.
# A symbol link (``Name``) that does not resolve fails scripts/build-docs.sh (DocC warnings are errors) instead.
# Part of the lint step of scripts/test.sh; runs in a second, needs no build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

documents=("$@")
if [[ ${#documents[@]} -eq 0 ]]; then
  documents=(README.md)
  for article in Sources/*/*.docc/*.md; do documents+=("$article"); done
fi

# Every "FILE<TAB>LINE<TAB>NAME" a claim of absence mentions in code font: the first identifier of a code span
# that starts with a capital (`AF.request` → AF) or is one identifier (`cURLDescription()` → cURLDescription).
# Symbol links (``Name``) in such a section name what to use instead, and are left out.
claims="$(awk '
  FNR == 1 { absent = 0; fence = 0 }
  /^```/ { fence = !fence; next }
  fence { next }
  /^#+ / { absent = (tolower($0) ~ /no equivalent|not supported|unsupported/); next }
  {
    text = ""
    if (absent) {
      text = $0
    } else if ($0 ~ /^\|/) {
      n = split($0, cells, "|")
      if (n >= 3 && cells[3] ~ /^[ \t]*\*\*no\*\*/) text = cells[3]
    }
    gsub(/``[^`]+``/, "", text)
    while (match(text, /`[^`]+`/)) {
      span = substr(text, RSTART + 1, RLENGTH - 2)
      text = substr(text, RSTART + RLENGTH)
      # A type (`ServerTrustManager`, `AF.download`) or a bare member (`cURLDescription()`), not an expression of
      # advice such as `error.isTimeout`.
      if (span ~ /^[A-Z]/ || span ~ /^[A-Za-z_][A-Za-z0-9_]*(\(.*\))?$/) {
        match(span, /^[A-Za-z_][A-Za-z0-9_]*/)
        print FILENAME "\t" FNR "\t" substr(span, RSTART, RLENGTH)
      }
    }
  }
' "${documents[@]}")"

status=0
checked=0
while IFS=$'\t' read -r file line name; do
  [[ -n "$name" ]] || continue
  checked=$((checked + 1))
  # A public or open declaration of that name: a type, a function, a property, a case of a public enum.
  declared="$(grep -rnE --include='*.swift' \
    "((public|open)[a-z() ]* (struct|class|enum|protocol|actor|typealias|func|var|let|init) +|^[[:space:]]*case +)${name}([^A-Za-z0-9_]|$)" \
    Sources | head -n 1 || true)"
  if [[ -n "$declared" ]]; then
    echo "check-docs-claims: $file:$line says Ferry lacks \`$name\`, but it is declared: ${declared%%:*}:$(cut -d: -f2 <<<"$declared")" >&2
    status=1
  fi
done <<<"$claims"

if [[ $status == 0 ]]; then
  echo "check-docs-claims: $checked names in claims of absence, none declared in Sources (${#documents[@]} documents)"
fi
exit "$status"
