#!/bin/bash
# Playlist transition benchmark (issue 30 item 9), release, headless: a 2-item playlist of 1080p60 H.264 (the
# playback benchmark's clip, 4 s of it per item, --duration applying to each) played in one window with
# `--transition fade` and with `--transition cube` (1 s each: both items decode and composite for that second),
# then without a transition, each with --stats (JSON on stderr). Target: 0 dropped frames. Last, the compositing of
# one transition frame alone (`layerplay bench --transition`, two 1080p YUV cards at the midpoint, no decoding), in
# wall and CPU milliseconds: on a shared machine the CPU time is the steadier number.
. "$(dirname "$0")/lib.sh"
bench_start
test_clip "$DIR/src1080p60.mp4" 1920x1080 60 12 -c:v libx264 -preset veryfast -b:v 12M
for transition in fade cube none; do
  args=()
  [ "$transition" = none ] || args=(--transition "$transition:1")
  echo "2 × 1080p60 (4 s each), transition $transition:"
  stats=$("$BIN" "$DIR/src1080p60.mp4" "$DIR/src1080p60.mp4" --duration 4 "${args[@]}" --stats 2>&1 >/dev/null | grep '^{' | tail -1)
  echo "$stats"
  echo "dropped frames: $(echo "$stats" | sed -n 's/.*"frames_dropped": *\([0-9]*\).*/\1/p')"
done
for transition in fade cube; do "$BIN" bench --transition "$transition" --frames 60; done
uptime
