#!/bin/bash
# Several outputs (issue 28 item 7: "two outputs cost one render plus one encode"), release. The scene look of
# Benchmarks/ffmpeg-peers.sh (1920x1080 canvas, 1280x720 card, corners, border, 3D turn, shadow) over a 1080p clip,
# FRAMES frames, timed three ways, each run checked (exit status, frame count):
#   render: the render alone, to FFmpeg's null muxer with the rawvideo encoder (the conversion to YUV is kept; no
#           real encode), as `ffmpeg … -f null -`;
#   one:    one x264 output (crf 20);
#   two:    the same plus a second x264 output at its own bitrate (--output-opt 1:bitrate=2M).
# If the render is shared, two − one ≈ one − render (one more encode); rendering twice would add a whole `one`.
# Needs the ffmpeg CLI; the clip is made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
FRAMES=${FRAMES:-150}
SRC=$DIR/src1080-outputs.mp4
test_clip "$SRC" 1920x1080 30 "$((FRAMES / 30 + 2))" --no-sound -c:v libx264 -preset veryfast -b:v 8M
LOOK=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white --rotate 30
      --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
RUN=("$BIN" "$SRC" "${LOOK[@]}" --fps 30 --duration "$(echo "scale=6; $FRAMES / 30" | bc)" --no-audio -y)
# cpu COMMAND…: the run's CPU seconds (user + system, threads included): on a machine shared with other work the
# wall time says more about the neighbours than about us; the CPU a run takes is its cost.
cpu() { python3 -c 'import resource, subprocess, sys
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.3f" % (u.ru_utime + u.ru_stime)); sys.exit(status)' "$@" || bench_fail "$*"; }
render=$(timed render - "${RUN[@]}" -o - --format null --codec rawvideo)
render_cpu=$(cpu "${RUN[@]}" -o - --format null --codec rawvideo)
one=$(timed one "$DIR/outputs-one.mp4" "${RUN[@]}" -o "$DIR/outputs-one.mp4")
one_cpu=$(cpu "${RUN[@]}" -o "$DIR/outputs-one.mp4")
expect_frames "$DIR/outputs-one.mp4" "$FRAMES"
two=$(timed two "$DIR/outputs-a.mp4" "${RUN[@]}" -o "$DIR/outputs-a.mp4" -o "$DIR/outputs-b.mp4" --output-opt 1:bitrate=2M)
two_cpu=$(cpu "${RUN[@]}" -o "$DIR/outputs-a.mp4" -o "$DIR/outputs-b.mp4" --output-opt 1:bitrate=2M)
expect_frames "$DIR/outputs-a.mp4" "$FRAMES"
expect_frames "$DIR/outputs-b.mp4" "$FRAMES"
echo "several outputs, scene look 1080p30, $FRAMES frames, x264 veryfast, $(nproc) cores (load now: $(cut -d' ' -f1 /proc/loadavg)):"
echo "                                       wall s    CPU s"
printf "  render only (null muxer, rawvideo): %7.3f  %7.3f\n" "$render" "$render_cpu"
printf "  one output  (x264 crf 20):          %7.3f  %7.3f\n" "$one" "$one_cpu"
printf "  two outputs (+ x264 at 2M):         %7.3f  %7.3f\n" "$two" "$two_cpu"
report() {
  awk -v what="$1" -v r="$2" -v a="$3" -v b="$4" 'BEGIN {
    printf "  %s: one encode = one - render = %.3f s; two - one = %.3f s (target: about one encode; a second render would add %.3f s): two outputs = render + %.2f encodes\n", what, a - r, b - a, a, (b - r) / (a - r) }'
}
report wall "$render" "$one" "$two"
report CPU "$render_cpu" "$one_cpu" "$two_cpu"
