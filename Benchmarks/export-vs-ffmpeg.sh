#!/bin/bash
# Export benchmark (issue 3), release: Benchmarks/ffmpeg-peers.sh's `scene` and `baseline` through our exporter and through
# ffmpeg-peers.sh with the same encoder settings (libx264 veryfast crf 23), 150 frames of a 1080p30 clip,
# alternating, RUNS times. Prints wall seconds per run and the ratios (peer / ours; ours scene / ours plain).
# Needs the ffmpeg CLI (as the peers do). The clip is made into out/bench/ and not committed.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${LAYERPLAY_BIN:-.build/release/layerplay}
PEERS=${PEERS:-Benchmarks/ffmpeg-peers.sh}
RUNS=${RUNS:-2}
DIR=out/bench
mkdir -p "$DIR"
SRC=$DIR/src1080.mp4
[ -f "$SRC" ] || ffmpeg -loglevel error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=5 -f lavfi -i sine=duration=5 \
  -c:v libx264 -b:v 8M -c:a aac "$SRC"
ENC=(-frames:v 150 -c:v libx264 -preset veryfast -crf 23)   # -frames:v: the peers' looped sources never end
LOOK=(--size 1920x1080 --background '#202020' --layer-size 1280x720)
SCENE=("${LOOK[@]}" --corner-radius 48 --border 8:white --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
declare -A total=([ffmpeg_scene]=0 [ours_scene]=0 [ffmpeg_baseline]=0 [ours_baseline]=0)
for run in $(seq "$RUNS"); do
  a=$(seconds "$PEERS" scene "$SRC" "$DIR/peer-scene.mp4" "${ENC[@]}")
  b=$(seconds "$BIN" "$SRC" "${SCENE[@]}" --codec libx264 --preset veryfast --crf 23 -y -o "$DIR/ours-scene.mp4")
  c=$(seconds "$PEERS" baseline "$SRC" "$DIR/peer-baseline.mp4" "${ENC[@]}")
  d=$(seconds "$BIN" "$SRC" --codec libx264 --preset veryfast --crf 23 -y -o "$DIR/ours-baseline.mp4")
  echo "run $run: scene ffmpeg ${a}s ours ${b}s | baseline ffmpeg ${c}s ours ${d}s"
  total[ffmpeg_scene]=$(echo "${total[ffmpeg_scene]} + $a" | bc); total[ours_scene]=$(echo "${total[ours_scene]} + $b" | bc)
  total[ffmpeg_baseline]=$(echo "${total[ffmpeg_baseline]} + $c" | bc); total[ours_baseline]=$(echo "${total[ours_baseline]} + $d" | bc)
done
echo "scene: ffmpeg/ours = $(echo "scale=2; ${total[ffmpeg_scene]} / ${total[ours_scene]}" | bc)x (target >= 2)"
echo "baseline: ffmpeg/ours = $(echo "scale=2; ${total[ffmpeg_baseline]} / ${total[ours_baseline]}" | bc)x"
echo "ours: scene/plain = $(echo "scale=2; ${total[ours_scene]} / ${total[ours_baseline]}" | bc)x (target <= 1.25)"
