#!/bin/bash
# HDR → SDR cost (issue 27), release: the same 10-bit HEVC 1080p30 clip (5 s, 150 frames) exported with the scene look
# of export-vs-ffmpeg.sh, once tagged PQ (BT.2020, SMPTE 2084, 1000-nit mastering display: every frame goes through
# the colour converter) and once tagged BT.709 (no conversion). The two files hold the same coded pictures; only the
# tags differ (rewritten by the hevc_metadata bitstream filter). Alternating, RUNS times; prints wall seconds per run
# and the ratio PQ / BT.709 (target <= 1.15). Fails if any run fails. Also prints ffmpeg's decode-only speed.
# Needs the ffmpeg CLI with libx265. The clips are made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
RUNS=${RUNS:-2}
BASE=$DIR/hevc10-1080.mp4
test_clip "$BASE" 1920x1080 30 5 --no-sound -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p10le
PQ=$DIR/hevc10-1080-pq.mp4
SDR=$DIR/hevc10-1080-bt709.mp4
ffmpeg -loglevel error -y -i "$BASE" -c copy \
  -bsf:v "hevc_metadata=colour_primaries=9:transfer_characteristics=16:matrix_coefficients=9" "$PQ"
ffmpeg -loglevel error -y -i "$BASE" -c copy \
  -bsf:v "hevc_metadata=colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1" "$SDR"
"$BIN" probe "$PQ" | grep -q '"transfer" : "pq"' || { echo "hdr.sh: $PQ is not read as PQ" >&2; exit 1; }
"$BIN" probe "$SDR" | grep -q '"converted_for_display" : false' || { echo "hdr.sh: $SDR is converted" >&2; exit 1; }
SCENE=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white --spin 8
       --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20 --codec libx264 --preset veryfast --crf 23 -y)
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>"$DIR/hdr-last.err" || { echo "hdr.sh: failed: $*" >&2; cat "$DIR/hdr-last.err" >&2; exit 1; }
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc
}
pq_total=0; sdr_total=0
for run in $(seq "$RUNS"); do
  a=$(seconds "$BIN" "$PQ" "${SCENE[@]}" -o "$DIR/hdr-pq-out.mp4")
  b=$(seconds "$BIN" "$SDR" "${SCENE[@]}" -o "$DIR/hdr-bt709-out.mp4")
  echo "run $run: tagged PQ ${a}s | tagged BT.709 ${b}s"
  pq_total=$(echo "$pq_total + $a" | bc); sdr_total=$(echo "$sdr_total + $b" | bc)
done
d=$(seconds ffmpeg -loglevel error -i "$PQ" -f null -)
echo "decode only (ffmpeg, 150 frames): ${d}s"
echo "PQ / BT.709 = $(echo "scale=3; $pq_total / $sdr_total" | bc)x (target <= 1.15)"
