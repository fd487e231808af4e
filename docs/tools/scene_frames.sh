#!/bin/sh
# The README's frames of the example scenes (Config/scenes), rendered by layerplay from the bundled samples: one
# still per scene at the canvas size (`-o X.png --at T`), then scaled to 480 pixels wide by the ffmpeg CLI so the
# repository stays small. Run from the repository root after a release build: `make scene-frames`.
set -eu
layerplay=${LAYERPLAY:-.build/release/layerplay}
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# NAME SCENE TIME ARGS…: renders SCENE at TIME with ARGS, writes $out/NAME.png (480 wide, aspect kept).
frame() {
    name=$1 scene=$2 at=$3
    shift 3
    "$layerplay" "Config/scenes/$scene.json" "$@" --at "$at" -y -o "$tmp/$name.png"
    ffmpeg -nostdin -loglevel error -y -i "$tmp/$name.png" -vf "scale=480:-2:flags=lanczos" "$out/$name.png"
    echo "$out/$name.png"
}

frame picture-in-picture picture-in-picture 2 media/ship.mp4 media/clip.mp4
frame wall wall 2.5 media/ship.mp4,media/clip.mp4,media/sar.mp4
frame cube cube 1.5 media/ship.mp4,media/clip.mp4,media/sar.mp4,media/rotated.mp4
# The scene's type sizes are for 1080p; on the 640×360 sample a short title fits its band.
frame lower-third lower-third 1.5 media/ship.mp4 --set at=0.3 --set title=Ada --set subtitle=Analyst
frame card card 1.5 media/ship.mp4 --rotate 30 --corner-radius 24 --shadow 16:0.5:0,8
