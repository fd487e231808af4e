#!/bin/bash
# Export benchmark (issue 3), release: Benchmarks/ffmpeg-peers.sh's `scene` and `baseline` through our exporter and through
# ffmpeg-peers.sh with the same encoder settings (libx264 veryfast crf 23), 150 frames of a 1080p30 clip,
# alternating, RUNS times. Prints wall seconds per run and the ratios (peer / ours; ours scene / ours plain).
# Needs the ffmpeg CLI (as the peers do). The clip is made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
PEERS=${PEERS:-Benchmarks/ffmpeg-peers.sh}
RUNS=${RUNS:-2}
SRC=$DIR/src1080.mp4
test_clip "$SRC" 1920x1080 30 5 -c:v libx264 -b:v 8M
ENC=(-frames:v 150 -c:v libx264 -preset veryfast -crf 23)   # -frames:v: the peers' looped sources never end
LOOK=(--size 1920x1080 --background '#202020' --layer-size 1280x720)
SCENE=("${LOOK[@]}" --corner-radius 48 --border 8:white --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
declare -A total=([ffmpeg_scene]=0 [ours_scene]=0 [ffmpeg_baseline]=0 [ours_baseline]=0)
for run in $(seq "$RUNS"); do
  a=$(timed ffmpeg-scene "$DIR/peer-scene.mp4" "$PEERS" scene "$SRC" "$DIR/peer-scene.mp4" "${ENC[@]}")
  b=$(timed ours-scene "$DIR/ours-scene.mp4" "$BIN" "$SRC" "${SCENE[@]}" --codec libx264 --preset veryfast --crf 23 -y -o "$DIR/ours-scene.mp4")
  c=$(timed ffmpeg-baseline "$DIR/peer-baseline.mp4" "$PEERS" baseline "$SRC" "$DIR/peer-baseline.mp4" "${ENC[@]}")
  d=$(timed ours-baseline "$DIR/ours-baseline.mp4" "$BIN" "$SRC" --codec libx264 --preset veryfast --crf 23 -y -o "$DIR/ours-baseline.mp4")
  for f in peer-scene ours-scene peer-baseline ours-baseline; do expect_frames "$DIR/$f.mp4" 150; done
  echo "run $run: scene ffmpeg ${a}s ours ${b}s | baseline ffmpeg ${c}s ours ${d}s"
  total[ffmpeg_scene]=$(sum "${total[ffmpeg_scene]}" "$a"); total[ours_scene]=$(sum "${total[ours_scene]}" "$b")
  total[ffmpeg_baseline]=$(sum "${total[ffmpeg_baseline]}" "$c"); total[ours_baseline]=$(sum "${total[ours_baseline]}" "$d")
done
echo "scene: ffmpeg/ours = $(ratio "${total[ffmpeg_scene]}" "${total[ours_scene]}")x (target >= 2)"
echo "baseline: ffmpeg/ours = $(ratio "${total[ffmpeg_baseline]}" "${total[ours_baseline]}")x"
echo "ours: scene/plain = $(ratio "${total[ours_scene]}" "${total[ours_baseline]}")x (target <= 1.25)"
