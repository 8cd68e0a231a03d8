#!/usr/bin/env bash
# Checks that no conversion from a floating-point number to an integer can trap (issue 36): the
# standard library's `Int(_: Double)` and its kin are shadowed, deprecated, by
# Sources/Geometry/UncheckedConversions.swift in every module of this package that imports
# ScrollwayGeometry, and Package.swift makes that deprecation an error. This script proves both
# halves hold: every file with an integer conversion imports ScrollwayGeometry (so the shadow
# reaches it), and a conversion written into a target really fails the build, naming the
# checked helper.
# Run after `swift build` (the probe rebuilds one small target).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0

# The shadow reaches a file only through its own import (an import in another file of the
# module does not make it win over the standard library's): every file that calls an integer
# initializer other than the checked and bit-level ones imports ScrollwayGeometry.
while IFS= read -r file; do
    grep -qE '^(@_exported )?import ScrollwayGeometry$' "$file" && continue
    if line=$(grep -nP '\bU?Int(8|16|32|64)?\((?!clamping:|exactly:|truncatingIfNeeded:|bitPattern:)' "$file" | head -1); then
        echo "$file:${line%%:*}: an integer conversion in a file that does not import ScrollwayGeometry (so a Double's is not checked)" >&2
        status=1
    fi
done < <(find Sources Tests -name '*.swift' -not -path 'Sources/Geometry/*' -not -path '*/Generated/*' | sort)

probe=Sources/Physics/ConversionProbe.swift
trap 'rm -f "$probe"' EXIT
printf 'import ScrollwayGeometry\nlet conversionProbe = Int(Double.pi)\n' >"$probe"
if output=$(swift build --target ScrollwayPhysics 2>&1); then
    echo "$probe: Int(Double.pi) built: the unchecked conversion is not refused" >&2
    status=1
elif ! grep -q "ConversionProbe.swift:2:.*error: 'init(_:)' is deprecated: traps on NaN" <<<"$output"; then
    echo "$probe: the build failed, but not on the unchecked conversion:" >&2
    echo "$output" >&2
    status=1
fi
rm -f "$probe"
swift build --target ScrollwayPhysics >/dev/null  # back to the tree as it is

exit $status
