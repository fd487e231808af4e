#!/bin/bash
# ProRes 4444 race (issue 28, item 7), release: the `scene` look on a transparent canvas, exported with its alpha,
# through our exporter and through Benchmarks/ffmpeg-peers.sh's `alpha` graph, both prores_ks yuva444p10le,
# FRAMES frames of a 1080p30 clip, alternating, RUNS times. Prints wall seconds per run and ffmpeg/ours.
# Needs the ffmpeg CLI. The clip is made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
PEERS=${PEERS:-Benchmarks/ffmpeg-peers.sh}
RUNS=${RUNS:-2}
FRAMES=${FRAMES:-150}
SRC=$DIR/src1080.mp4
test_clip "$SRC" 1920x1080 30 5 -c:v libx264 -b:v 8M
ENC=(-frames:v "$FRAMES" -c:v prores_ks -pix_fmt yuva444p10le)
LOOK=(--size 1920x1080 --background '#00000000' --layer-size 1280x720 --corner-radius 48 --border 8:white --spin 8 --axis 0,1,0
      --perspective 2000 --shadow 20:0.5:20,20)
DURATION=$(echo "scale=4; $FRAMES / 30" | bc)
ffmpeg_total=0; ours_total=0
for run in $(seq "$RUNS"); do
  a=$(timed ffmpeg-alpha "$DIR/peer-alpha.mov" "$PEERS" alpha "$SRC" "$DIR/peer-alpha.mov" "${ENC[@]}")
  b=$(timed ours-alpha "$DIR/ours-alpha.mov" "$BIN" "$SRC" "${LOOK[@]}" --fps 30 --duration "$DURATION" --codec prores_ks -y -o "$DIR/ours-alpha.mov")
  for f in peer-alpha ours-alpha; do expect_frames "$DIR/$f.mov" "$FRAMES"; done
  echo "run $run: ProRes 4444 ffmpeg ${a}s ours ${b}s"
  ffmpeg_total=$(echo "$ffmpeg_total + $a" | bc); ours_total=$(echo "$ours_total + $b" | bc)
done
for f in "$DIR/peer-alpha.mov" "$DIR/ours-alpha.mov"; do
  echo "$f: $(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=profile,pix_fmt,nb_read_packets -of csv=p=0 "$f")"
done
echo "alpha (ProRes 4444): ffmpeg/ours = $(echo "scale=2; $ffmpeg_total / $ours_total" | bc)x"
