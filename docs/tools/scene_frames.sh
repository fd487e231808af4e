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
# The scene's band and type are sized for 1080p (its band is 132 px high): the sample is scaled up to 1080p first, so
# the frame shows the scene as made, default title and all.
ffmpeg -nostdin -loglevel error -y -i media/ship.mp4 -t 3 -vf scale=1920:1080:flags=lanczos -c:v libx264 -crf 16 -an \
  "$tmp/ship-1080p.mp4"
frame lower-third lower-third 1.5 "$tmp/ship-1080p.mp4" --set at=0.3
frame card card 1.5 media/ship.mp4 --rotate 30 --corner-radius 24 --shadow 16:0.5:0,8
