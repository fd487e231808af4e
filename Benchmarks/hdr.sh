#!/bin/bash
# HDR → SDR cost (issue 27), release: the same 10-bit HEVC 1080p30 clip (5 s, 150 frames) exported with the scene look
# of export-vs-ffmpeg.sh, once tagged PQ (BT.2020, SMPTE 2084, 1000-nit mastering display: every frame goes through
# the colour converter) and once tagged BT.709 (no conversion). The two files hold the same coded pictures; only the
# tags differ (rewritten by the hevc_metadata bitstream filter). One untimed pair first (this virtual machine's first
# touch of fresh memory is slow: the kernel's page zeroing took 60-280 samples a run, whichever clip ran, so the
# run after a pause paid for it), then RUNS pairs, each clip first in every other pair; prints wall seconds per run
# and the ratio PQ / BT.709 of their sums (target <= 1.15) beside the median of the pairs' ratios, and the same for CPU seconds (what the conversion costs whatever the
# machine's load). The PQ export's pictures differ from the BT.709 one's (tone-mapped): x264 alone, re-encoding both
# exports' pictures, spent about 0.3 ms a frame more on them. Fails if any run fails. Also prints ffmpeg's decode-only speed, and the same comparison once on a
# grainy clip (the block interpolation's worst case).
# Needs the ffmpeg CLI with libx265. The clips are made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
RUNS=${RUNS:-4}
BASE=$DIR/hevc10-1080.mp4
test_clip "$BASE" 1920x1080 30 5 --no-sound -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p10le
PQ=$DIR/hevc10-1080-pq.mp4
SDR=$DIR/hevc10-1080-bt709.mp4
tagged_copy "$BASE" "$PQ" pq
tagged_copy "$BASE" "$SDR" bt709
"$BIN" probe "$PQ" | grep -q '"transfer" : "pq"' || { echo "hdr.sh: $PQ is not read as PQ" >&2; exit 1; }
"$BIN" probe "$SDR" | grep -q '"converted_for_display" : false' || { echo "hdr.sh: $SDR is converted" >&2; exit 1; }
SCENE=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white --spin 8
       --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20 --codec libx264 --preset veryfast --crf 23 -y)
# The median of the numbers given (the mean of the middle two for an even count): one pair slowed by this
# machine's stalls (a run taking 20 % longer than its neighbours happens) moves it less than the ratio of sums.
median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# Pair $1 of two clips' exports with the extra arguments "${ARGS[@]}": PQ_IN's and SDR_IN's, the PQ one first in odd
# pairs; sets a/ac and b/bc, their wall and CPU seconds.
run_pair() {
  if [ $(($1 % 2)) = 1 ]; then
    t=$(cpu_run "$BIN" "$PQ_IN" "${ARGS[@]}" -o "$DIR/hdr-pq-out.mp4"); read -r a ac <<< "$t"
    t=$(cpu_run "$BIN" "$SDR_IN" "${ARGS[@]}" -o "$DIR/hdr-bt709-out.mp4"); read -r b bc <<< "$t"
  else
    t=$(cpu_run "$BIN" "$SDR_IN" "${ARGS[@]}" -o "$DIR/hdr-bt709-out.mp4"); read -r b bc <<< "$t"
    t=$(cpu_run "$BIN" "$PQ_IN" "${ARGS[@]}" -o "$DIR/hdr-pq-out.mp4"); read -r a ac <<< "$t"
  fi
}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
pq_total=0; sdr_total=0; pq_cpu=0; sdr_cpu=0; pair_ratios=(); pair_cpu_ratios=()
PQ_IN=$PQ; SDR_IN=$SDR; ARGS=("${SCENE[@]}")
run_pair 1
for run in $(seq "$RUNS"); do
  run_pair "$run"
  pair_ratios+=("$(echo "scale=3; $a / $b" | bc)"); pair_cpu_ratios+=("$(echo "scale=3; $ac / $bc" | bc)")
  echo "run $run: tagged PQ ${a}s (CPU ${ac}s) | tagged BT.709 ${b}s (CPU ${bc}s): ${pair_ratios[-1]}x (CPU ${pair_cpu_ratios[-1]}x)"
  pq_total=$(echo "$pq_total + $a" | bc); sdr_total=$(echo "$sdr_total + $b" | bc)
  pq_cpu=$(echo "$pq_cpu + $ac" | bc); sdr_cpu=$(echo "$sdr_cpu + $bc" | bc)
done
t=$(cpu_run ffmpeg -loglevel error -i "$PQ" -f null -); read -r d _ <<< "$t"
echo "decode only (ffmpeg, 150 frames): ${d}s"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "conversion: $(echo "scale=1; 1000 * ($pq_cpu - $sdr_cpu) / (150 * $RUNS)" | bc) CPU ms a frame (PQ's CPU less BT.709's)"
echo "PQ / BT.709 CPU = $(echo "scale=3; $pq_cpu / $sdr_cpu" | bc)x (median of the pairs $(median "${pair_cpu_ratios[@]}")x)"
echo "PQ / BT.709 = $(echo "scale=3; $pq_total / $sdr_total" | bc)x (target <= 1.15; median of the pairs $(median "${pair_ratios[@]}")x)"
# The worst case for the converter's block interpolation (SEMANTICS.md § Colour): grain that the encoder keeps (a
# gradient with light noise, x265 at CRF 26: 55 Mbit/s, a phone's rate), so that a 2×2 block's luma codes almost
# never lie within 7 of each other and nearly every pixel runs the whole chain (testsrc2's flat areas, above, are
# the best case). Exported to a 64×36 movie with the video layer at its own 1920×1080 (drawn 1:1, so the converter
# takes the whole frame: SEMANTICS.md § Colour, "Converted at the size drawn"; only the canvas' 64×36 are composited
# and encoded), so that decoding and the conversion are most of the cost (encoding grain at 1080p would drown the
# difference in its noise); RUNS pairs, each clip first in every other pair.
GRAIN=$DIR/hevc10-1080-grain.mp4
if [ ! -f "$GRAIN" ]; then
  ffmpeg -loglevel error -y -f lavfi -i "gradients=size=1920x1080:rate=30:duration=3,noise=alls=1:allf=t" \
    -c:v libx265 -preset ultrafast -crf 26 -x265-params log-level=error -pix_fmt yuv420p10le "$GRAIN" ||
    { rm -f "$GRAIN"; bench_fail "ffmpeg could not make $GRAIN"; }
fi
tagged_copy "$GRAIN" "$DIR/hevc10-1080-grain-pq.mp4" pq
tagged_copy "$GRAIN" "$DIR/hevc10-1080-grain-bt709.mp4" bt709
SMALL=(--size 64x36 --layer-size 1920x1080 --codec libx264 --preset ultrafast -y)
pq_cpu=0; sdr_cpu=0
PQ_IN=$DIR/hevc10-1080-grain-pq.mp4; SDR_IN=$DIR/hevc10-1080-grain-bt709.mp4; ARGS=("${SMALL[@]}")
for run in $(seq "$RUNS"); do
  run_pair "$run"
  pq_cpu=$(echo "$pq_cpu + $ac" | bc); sdr_cpu=$(echo "$sdr_cpu + $bc" | bc)
done
echo "grain (worst case), decode and convert 1920x1080 (64x36 out): PQ CPU ${pq_cpu}s | BT.709 CPU ${sdr_cpu}s: conversion" \
     "$(echo "scale=1; 1000 * ($pq_cpu - $sdr_cpu) / (90 * $RUNS)" | bc) CPU ms a frame"
