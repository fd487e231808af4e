#!/bin/bash
# Live RTMP benchmark (issue 28 item 7), release: the `scene` look of Benchmarks/ffmpeg-peers.sh (1920x1080 canvas,
# 1280x720 card, corners, border, 3D spin, shadow) sent live to a local RTMP ingest (`ffmpeg -listen 1`, copying to a
# file) for SECONDS seconds at 30 frames/s, paced at real time as a live stream is. Holding real time means: the
# export's wall time is SECONDS (+ start-up), frames_dropped (frames handed to the encoder more than one frame late)
# is 0, and the ingest recorded SECONDS*30 frames. Encoder: libx264 veryfast (the default), as a streamer would.
# Needs the ffmpeg CLI; the clip is made into out/bench/ and not committed.
. "$(dirname "$0")/lib.sh"
bench_start
SECONDS_LIVE=${SECONDS_LIVE:-60}
PRESET=${PRESET:-veryfast}
SRC=$DIR/src1080-live.mp4
test_clip "$SRC" 1920x1080 30 "$((SECONDS_LIVE + 5))" -c:v libx264 -preset veryfast -b:v 8M
LOOK=(--size 1920x1080 --background '#202020' --layer-size 1280x720)
SCENE=("${LOOK[@]}" --corner-radius 48 --border 8:white --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="rtmp://127.0.0.1:$PORT/live/bench"
ffmpeg -nostdin -loglevel error -listen 1 -i "$URL" -c copy -y "$DIR/rtmp-ingest.flv" &
INGEST=$!
trap 'kill $INGEST 2>/dev/null || true' EXIT
# Listening, seen without connecting (`-listen 1` takes one client: a test connection would be it).
for _ in $(seq 100); do grep -q ":$(printf '%04X' "$PORT") 00000000:0000 0A" /proc/net/tcp && break; sleep 0.1; done
t0=$(date +%s.%N)
"$BIN" "$SRC" "${SCENE[@]}" --fps 30 --preset "$PRESET" --duration "$SECONDS_LIVE" --stats -o "$URL" 2>"$DIR/rtmp-live.stats"
t1=$(date +%s.%N)
wait $INGEST || true
trap - EXIT
frames=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$DIR/rtmp-ingest.flv")
echo "live RTMP, scene look 1080p30, $SECONDS_LIVE s, x264 $PRESET:"
echo "  wall $(echo "$t1 - $t0" | bc) s (target: $SECONDS_LIVE s + start-up)"
echo "  layerplay --stats: $(tail -1 "$DIR/rtmp-live.stats") (target: frames_dropped 0)"
echo "  ingest recorded $frames frames (target: $((SECONDS_LIVE * 30)))"
