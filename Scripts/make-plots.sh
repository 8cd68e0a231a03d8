#!/usr/bin/env bash
# Regenerates the trace plots of docs/play-and-plot.md and the screenshots beside them: each committed script
# is played offscreen (virtual time, so the same bytes on every run) with its trace kept, and
# `scrollway plot` draws the trace.
#
#   Scripts/make-plots.sh [OUT_DIR]     (default: docs)
#
# SCROLLWAY names the scrollway executable to use; without it the script builds one. A test
# (PlotCommandTests) runs this into a temporary directory and compares every picture with the
# committed one, byte for byte: change a scene or the plotter, run this, commit the pictures.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs}
if [[ -z ${SCROLLWAY:-} ]]; then
    swift build --product scrollway >&2
    SCROLLWAY="$(swift build --show-bin-path)/scrollway"
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name, script, scene, window size ("" for the scene's own), screenshot to keep, its file, title
one() {
    local name=$1 script=$2 scene=$3 size=$4 shot=$5 picture=$6 title=$7
    local sizeArgs=()
    [[ -n $size ]] && sizeArgs=(--size "$size")
    "$SCROLLWAY" play "$script" --scene "$scene" "${sizeArgs[@]}" --trace "$work/$name.jsonl" \
        --screenshots "$work/$name" >&2
    "$SCROLLWAY" plot "$work/$name.jsonl" -o "$out/plot-$name.png" --size 900x600 --title "$title" >&2
    cp "$work/$name/$shot.png" "$out/$picture"
}

one fling docs/example-swipe.jsonl list 390x600 rest fling-rest.png \
    "A fling in the list scene (docs/example-swipe.jsonl)"
one rubber-band docs/rubber-band.jsonl list 390x600 stretched rubber-band-stretched.png \
    "A rubber band at the top of the list (docs/rubber-band.jsonl)"
one refresh docs/pull-to-refresh.jsonl refresh "" refreshing refresh-refreshing.png \
    "A pull to refresh in the refresh scene (docs/pull-to-refresh.jsonl)"
