#!/bin/bash
# 3×3 video wall benchmark (issue 19), release: Benchmarks/ffmpeg-peers.sh's `wall` look (nine 640×360 inputs, tiles 576×324 at
# gaps of 48 px across and 27 px down, corner radius 24, on #202020, 1920×1080 at 30 fps) exported from a scene file
# of nine media layers, against ffmpeg-peers.sh's filter graph and against our plain transcode of a 1080p clip of the
# same length; the same encoder settings (libx264 veryfast crf 23), 150 frames, alternating, RUNS times. Then the wall
# played for PLAY_SECONDS in a window (headless), 30 frames/s, with its statistics.
# Targets (issue 19): ours wall / ours plain <= 1.25; ffmpeg / ours wall > 1; 0 dropped frames.
# The nine inputs are copies of one clip under nine names, so each decodes on its own (the peer decodes its input nine
# times too); a scene decodes an input shown by several layers once. Needs the ffmpeg CLI; the clips and the scene
# are made into out/bench/ and not committed.
# usage: Benchmarks/wall.sh   (RUNS=3 PLAY_SECONDS=10 LAYERPLAY_BIN=… PEERS=… override)
. "$(dirname "$0")/lib.sh"
bench_start
PEERS=${PEERS:-Benchmarks/ffmpeg-peers.sh}
RUNS=${RUNS:-3}
PLAY_SECONDS=${PLAY_SECONDS:-10}
# 12 s, so that the playback never runs past the end; the exports take its first 5 s (150 frames).
SRC640=$DIR/src640.mp4
test_clip "$SRC640" 640x360 30 12 --no-sound -c:v libx264 -b:v 1M -pix_fmt yuv420p
SRC=$DIR/src1080.mp4
test_clip "$SRC" 1920x1080 30 5 -c:v libx264 -b:v 8M
VIDEOS=
for i in 1 2 3 4 5 6 7 8 9; do
  cp -f "$SRC640" "$DIR/wall-$i.mp4"
  VIDEOS=${VIDEOS:+$VIDEOS,}$DIR/wall-$i.mp4
done
# The peer's geometry exactly (Config/scenes/wall.json has one gap for both axes, so its tiles would be shorter).
SCENE=$DIR/wall-bench.json
cat > "$SCENE" <<'JSON'
{
  "version": "1.0",
  "name": "wall-bench",
  "params": {"videos": {"type": "list:media", "required": true, "position": 0, "doc": "nine files"}},
  "canvas": {"size": "1920x1080", "background": "#202020", "fps": 30},
  "audio": "none",
  "layers": [{
    "id": "tile", "repeat": {"count": 9, "as": "i"},
    "type": "media", "src": "=videos[i % len(videos)]", "videoGravity": "resize",
    "frame": "=[48 + (i % 3) * 624, 27 + floor(i / 3) * 351, 576, 324]",
    "cornerRadius": 24, "masksToBounds": true
  }]
}
JSON
ENC=(--codec libx264 --preset veryfast --crf 23)
peer=0; wall=0; plain=0
for run in $(seq "$RUNS"); do
  a=$(timed ffmpeg-wall "$DIR/peer-wall.mp4" "$PEERS" wall "$SRC640" "$DIR/peer-wall.mp4" -frames:v 150 -c:v libx264 -preset veryfast -crf 23)
  b=$(timed ours-wall "$DIR/ours-wall.mp4" "$BIN" "$SCENE" "$VIDEOS" "${ENC[@]}" --duration 5 -y -o "$DIR/ours-wall.mp4")
  c=$(timed ours-plain "$DIR/ours-plain.mp4" "$BIN" "$SRC" "${ENC[@]}" -y -o "$DIR/ours-plain.mp4")
  for f in peer-wall ours-wall ours-plain; do expect_frames "$DIR/$f.mp4" 150; done
  echo "run $run: ffmpeg wall ${a}s | ours wall ${b}s | ours plain ${c}s"
  peer=$(sum "$peer" "$a"); wall=$(sum "$wall" "$b"); plain=$(sum "$plain" "$c")
done
echo "wall: 150 frames each; ffmpeg/ours = $(ratio "$peer" "$wall")x (target > 1)"
echo "ours: wall/plain = $(ratio "$wall" "$plain" 3)x (target <= 1.25)"
echo "the wall played, 30 frames/s, $PLAY_SECONDS s:"
SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy} \
  "$BIN" "$SCENE" "$VIDEOS" --duration "$PLAY_SECONDS" --no-watch --stats
