#!/usr/bin/env bash
# Fails on a relative link that leaves the repository or points at nothing: every Markdown
# link `](path)` in the README, BUILDING, docs/ and the DocC catalog, and every `../` path in
# Package.swift and the Swift sources' comments. The repository must read whole on its own, as a
# clone. In a DocC catalog (`*.docc/`) an image is named by its file name alone, wherever it
# lies in the catalog (`![...](bounds-0.png)` for `Resources/bounds-0.png`), so there a bare
# name must be a file somewhere in that catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd -P)
status=0

check() {  # file, target as written
    local file=$1 target=${2%%#*}
    [[ -z $target || $target =~ ^[a-z]+: ]] && return 0  # anchors, http:, mailto:
    local dir resolved
    dir=$(dirname "$file")
    if [[ $file == *.docc/* && $target != */* ]]; then
        local catalog=${file%%.docc/*}.docc
        if [[ -z $(find "$catalog" -type f -name "$target" -print -quit) ]]; then
            echo "$file: resource '$2' names no file in $catalog" >&2
            status=1
        fi
        return 0
    fi
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
