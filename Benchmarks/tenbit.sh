#!/bin/bash
# 10-bit video as fast as 8-bit (issue 27, item 6), release, headless: a 4K30 10-bit HEVC clip (SECONDS_LONG s,
# testsrc2) played with --stats, once tagged SDR BT.709 and once tagged PQ (BT.2020, SMPTE 2084: every frame goes
# through the colour converter), each plain and with the scene look of playback.sh; target 0 dropped frames. Then
# decoding alone: ffmpeg's (`-benchmark -f null`) and ours, which has no decode-only mode, measured as an export to a
# 64×36 movie (decoding, our frame conversion — 10 → 8 bits for SDR; for PQ the colour conversion at the size drawn,
# SEMANTICS.md § Colour, here a 2×2 box halving to 240×135 and its conversion —, a tiny composite and encode), in
# frames/s and CPU milliseconds a frame (all threads: what it costs whatever the machine's load).
# The clips are made with the ffmpeg CLI (libx265) into out/bench/ and are not committed. Prints the load average.
. "$(dirname "$0")/lib.sh"
bench_start
SECONDS_LONG=${SECONDS_LONG:-6}
BASE=$DIR/hevc10-4k30.mp4
test_clip "$BASE" 3840x2160 30 "$SECONDS_LONG" --no-sound -c:v libx265 -preset ultrafast -x265-params log-level=error -pix_fmt yuv420p10le
SDR=$DIR/hevc10-4k30-bt709.mp4
PQ=$DIR/hevc10-4k30-pq.mp4
tagged_copy "$BASE" "$SDR" bt709
tagged_copy "$BASE" "$PQ" pq
LOOK=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white
      --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
frames=$((SECONDS_LONG * 30))
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for clip in "$SDR" "$PQ"; do
  name=$(basename "$clip" .mp4)
  echo "$name, plain (4K canvas):"
  "$BIN" "$clip" --stats 2>&1 >/dev/null | grep frames_dropped
  echo "$name, scene look (1080p canvas):"
  "$BIN" "$clip" "${LOOK[@]}" --stats 2>&1 >/dev/null | grep frames_dropped
done
rate() { echo "scale=1; $frames / $1" | bc; }
for clip in "$SDR" "$PQ"; do
  name=$(basename "$clip" .mp4)
  t=$(cpu_run ffmpeg -loglevel error -i "$clip" -f null -); read -r f fc <<< "$t"
  t=$(cpu_run "$BIN" "$clip" --size 64x36 --codec libx264 --preset ultrafast -y -o "$DIR/tenbit-decode.mp4"); read -r o oc <<< "$t"
  echo "$name decode only: ffmpeg $(rate "$f") frames/s ($(echo "scale=1; 1000 * $fc / $frames" | bc) CPU ms a frame)" \
       "| ours (export to 64x36) $(rate "$o") frames/s ($(echo "scale=1; 1000 * $oc / $frames" | bc) CPU ms a frame)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
