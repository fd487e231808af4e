#!/bin/bash
# Lower-third benchmark (issue 17), release: Benchmarks/ffmpeg-peers.sh's `lowerthird` look (a 1920x160 gradient band at y=860 and
# a 64 px title sliding in over 1 s, over a full-frame 1080p30 video) exported by Examples/LowerThird, against our
# plain transcode of the same clip and against ffmpeg-peers.sh's filter graph, the same encoder settings (libx264
# veryfast crf 23), 150 frames, alternating, RUNS times. Then 10 s of 1080p60 playback of the look, headless, with
# its statistics. Targets: ours lower third / ours plain <= 1.10; ffmpeg / ours lower third > 1; 0 dropped frames.
# Needs the ffmpeg CLI; the clips are made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
EXAMPLE=$(ensure_built LowerThird "${LOWERTHIRD_BIN:-}")
PEERS=${PEERS:-Benchmarks/ffmpeg-peers.sh}
RUNS=${RUNS:-3}
SRC=$DIR/src1080.mp4
test_clip "$SRC" 1920x1080 30 5 -c:v libx264 -b:v 8M
ENC=(-frames:v 150 -c:v libx264 -preset veryfast -crf 23)
peer=0; third=0; plain=0
for run in $(seq "$RUNS"); do
  a=$(timed ffmpeg-lowerthird "$DIR/peer-lowerthird.mp4" "$PEERS" lowerthird "$SRC" "$DIR/peer-lowerthird.mp4" "${ENC[@]}")
  b=$(timed ours-lowerthird "$DIR/ours-lowerthird.mp4" "$EXAMPLE" "$SRC" "$DIR/ours-lowerthird.mp4" "layerplay — lower third" 150)
  c=$(timed ours-plain "$DIR/ours-plain.mp4" "$BIN" "$SRC" --codec libx264 --preset veryfast --crf 23 -y -o "$DIR/ours-plain.mp4")
  for f in peer-lowerthird ours-lowerthird ours-plain; do expect_frames "$DIR/$f.mp4" 150; done
  echo "run $run: ffmpeg lowerthird ${a}s | ours lowerthird ${b}s | ours plain ${c}s"
  peer=$(sum "$peer" "$a"); third=$(sum "$third" "$b"); plain=$(sum "$plain" "$c")
done
echo "lowerthird: ffmpeg/ours = $(ratio "$peer" "$third")x (target > 1)"
echo "ours: lowerthird/plain = $(ratio "$third" "$plain" 3)x (target <= 1.10)"
P60=$DIR/src1080p60.mp4
test_clip "$P60" 1920x1080 60 12 -c:v libx264 -preset veryfast -b:v 12M
echo "1080p60 playback with the lower third, 10 s:"
SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy} "$EXAMPLE" "$P60" --play 10
