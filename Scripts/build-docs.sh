#!/usr/bin/env bash
# Builds the DocC documentation of the `Scrollway` library: the catalog
# Sources/Scrollway/Scrollway.docc (landing page and articles) with every public symbol an app
# gets from `import Scrollway`, warnings as errors. A symbol link that does not resolve, a
# missing image or a doc comment DocC objects to (in the catalog or in Sources/) fails it.
#
#   Scripts/build-docs.sh            # writes .build/docs/Scrollway.doccarchive
#   Scripts/build-docs.sh --preview  # the same, served at http://localhost:8080/documentation/scrollway
#
# Why not only `swift package generate-documentation --target Scrollway`: the umbrella module
# just re-exports the layers (`@_exported import ScrollwayViews`, ...), and the symbol graph
# SwiftPM extracts for it is empty, so every ``ScrollView`` link would fail. swift-docc-plugin
# 1.5.0 has no way to pass symbolgraph-extract's `-experimental-allowed-reexported-modules`
# (swift-docc-plugin issue 113, swift-package-manager issue 9101). So this script extracts the
# umbrella's symbol graph itself, with the layers that Scrollway.swift re-exports allowed, and
# hands it to the plugin, which gives docc that directory instead of its own
# (`--additional-symbol-graph-dir`: the plugin adds its default only when none is given).
set -euo pipefail
cd "$(dirname "$0")/.."

preview=false
case ${1-} in
    "") ;;
    --preview) preview=true ;;
    *) echo "usage: $0 [--preview]" >&2; exit 2 ;;
esac

out=.build/docs
graphs=$out/symbol-graphs
archive=$out/Scrollway.doccarchive

# The layers the umbrella re-exports, from its one source file.
layers=$(sed -n 's/^@_exported import \(Scrollway[A-Za-z]*\)$/\1/p' Sources/Scrollway/Scrollway.swift | paste -sd, -)
[[ -n $layers ]] || { echo "no '@_exported import Scrollway…' lines in Sources/Scrollway/Scrollway.swift" >&2; exit 1; }

echo "==> Building the Scrollway module and its layers"
swift build --target Scrollway
bin=$(swift build --show-bin-path)

# The C modules the layers import: the system libraries' module maps, the ones SwiftPM writes
# for C targets, and those of the checked-out dependencies; and the libraries' header paths,
# from pkg-config as SwiftPM finds them (the names Package.swift gives its system libraries).
clang_flags=()
# (Only Scrollway* build folders: a build folder can keep a target renamed since, whose stale
# module map would claim the same headers.)
for map in Sources/C*/module.modulemap "$bin"/Scrollway*.build/module.modulemap .build/checkouts/*/Sources/*/include/module.modulemap; do
    [[ -e $map ]] && clang_flags+=(-Xcc "-fmodule-map-file=$map")
done
for lib in $(sed -n 's/.*pkgConfig: "\([^"]*\)".*/\1/p' Package.swift); do
    for flag in $(pkg-config --cflags "$lib" 2>/dev/null); do clang_flags+=(-Xcc "$flag"); done
done

echo "==> Extracting the symbol graph of 'import Scrollway' ($layers)"
rm -rf "$graphs"
mkdir -p "$graphs"
swift symbolgraph-extract -module-name Scrollway -target "$(basename "$(dirname "$bin")")" \
    -I "$bin/Modules" -module-cache-path "$bin/ModuleCache" "${clang_flags[@]}" \
    -minimum-access-level public -experimental-allowed-reexported-modules="$layers" -output-dir "$graphs"
# A doc comment records the module it was written in, and docc reports no problem in a comment
# from another module (its authors are elsewhere). These layers are this package's own, so
# their comments are checked like the umbrella's: they are marked as the umbrella's.
sed -i -E "s/\"module\":\"(${layers//,/|})\"/\"module\":\"Scrollway\"/g" "$graphs"/Scrollway*.symbols.json

docc_flags=(--target Scrollway --additional-symbol-graph-dir "$graphs" --warnings-as-errors)
if $preview; then
    echo "==> Previewing (Ctrl+C stops)"
    exec swift package --disable-sandbox preview-documentation "${docc_flags[@]}"
fi

echo "==> Building the documentation, warnings as errors"
rm -rf "$archive"
if ! swift package --allow-writing-to-directory "$out" generate-documentation "${docc_flags[@]}" --output-path "$archive"; then
    rm -rf "$archive"
    echo "The documentation did not build: fix what docc reports above." >&2
    exit 1
fi
echo "Open it: python3 -m http.server --directory $archive 8000, then http://localhost:8000/documentation/scrollway/"
