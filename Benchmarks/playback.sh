#!/bin/bash
# Playback benchmark (issue 4), release, headless: 10 s of a 1080p60 H.264 clip with the full `scene` look of
# Benchmarks/ffmpeg-peers.sh, then 10 s of a 4K30 clip without effects, then 10 s of picture in picture (a scene: 1080p60 main,
# 720p inset), then (issue 18) 10 s of the 1080p60 clip with the scene look and an additive emitter keeping 2,000
# particles alive (Benchmarks/scenes/look-emitter.json), each with --stats (JSON on stderr).
# Targets: 0 dropped frames and A/V drift ≤ 1 frame. The clips are made with the ffmpeg CLI (like the peers'
# clips) into out/bench/ and are not committed.
. "$(dirname "$0")/lib.sh"
bench_start
test_clip "$DIR/src1080p60.mp4" 1920x1080 60 12 -c:v libx264 -preset veryfast -b:v 12M
test_clip "$DIR/src4k30.mp4" 3840x2160 30 12 -c:v libx264 -preset veryfast -b:v 30M
SCENE=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white
       --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
echo "1080p60, scene look, 10 s:"
"$BIN" "$DIR/src1080p60.mp4" "${SCENE[@]}" --duration 10 --stats
echo "4K30, no effects, 10 s:"
"$BIN" "$DIR/src4k30.mp4" --duration 10 --stats
# Picture in picture (issue 19): Config/scenes/picture-in-picture.json, a 1080p60 main and a 720p inset with rounded
# corners, a border and a shadow, each input on its own decode thread, on the main's sound clock.
make_clip src720p30.mp4 1280x720 30 5M
echo "picture in picture (1080p60 main, 720p inset), 10 s:"
"$BIN" Config/scenes/picture-in-picture.json "$DIR/src1080p60.mp4" "$DIR/src720p30.mp4" --duration 10 --no-watch --stats
echo "1080p60, scene look + 2,000-particle emitter, 10 s:"
"$BIN" Benchmarks/scenes/look-emitter.json "$DIR/src1080p60.mp4" --duration 10 --no-watch --stats
