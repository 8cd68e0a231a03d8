#!/usr/bin/env bash
# Fails on a relative link that leaves the repository or points at nothing: every Markdown
# link `](path)` in the README, BUILDING and docs/, and every `../` path in Package.swift and
# the Swift sources' comments. The repository must read whole on its own, as a clone.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
status=0

check() {  # file, target as written
    local file=$1 target=${2%%#*}
    [[ -z $target || $target =~ ^[a-z]+: ]] && return 0  # anchors, http:, mailto:
    local dir resolved
    dir=$(dirname "$file")
    resolved=$(realpath -m "$dir/$target")
    if [[ $resolved != "$root" && $resolved != "$root"/* ]]; then
        echo "$file: link '$2' leaves the repository" >&2
        status=1
    elif [[ ! -e $resolved ]]; then
        echo "$file: link '$2' points at nothing" >&2
        status=1
    fi
}

while IFS= read -r file; do
    while IFS= read -r target; do check "$file" "$target"; done < <(grep -o '](\([^)]*\))' "$file" | sed 's/^](\(.*\))$/\1/')
done < <(git ls-files '*.md')

# Relative paths in Package.swift and in the Swift sources' comments, resolved from their file.
while IFS=: read -r file _ text; do
    while IFS= read -r target; do check "$file" "$target"; done < <(grep -o '\(\.\./\)\+[A-Za-z0-9_./-]*' <<<"$text")
done < <(git ls-files 'Package.swift' '*.swift' | xargs grep -Hn '\.\./' | grep -E '^Package\.swift:|^[^:]+:[0-9]+:\s*//' || true)
exit $status
