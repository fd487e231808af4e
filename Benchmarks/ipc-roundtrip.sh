#!/bin/bash
# JSON IPC round trip (issue 30, item 9), release, headless: a player plays the 1080p60 clip of playback.sh with the
# scene look and listens on --input-ipc-server; a raw socket client (Python's standard library) sends 300
# get_property time-pos requests one after the other while it plays and prints the round trip's p50, p99 and max.
# Target: under 5 ms. Then `--speed 2` of the same clip with the scene look, with --stats (target: 0 dropped).
# Timings are printed, never asserted.
. "$(dirname "$0")/lib.sh"
bench_start
test_clip "$DIR/src1080p60.mp4" 1920x1080 60 12 -c:v libx264 -preset veryfast -b:v 12M
SCENE=(--size 1920x1080 --background '#202020' --layer-size 1280x720 --corner-radius 48 --border 8:white
       --spin 8 --axis 0,1,0 --perspective 2000 --shadow 20:0.5:20,20)
SOCK=$(mktemp -u /tmp/layerplay-ipc-bench.XXXXXX)
"$BIN" "$DIR/src1080p60.mp4" "${SCENE[@]}" --loop --input-ipc-server "$SOCK" &
PLAYER=$!
trap 'kill $PLAYER 2>/dev/null || true; rm -f "$SOCK"' EXIT
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.1; done
echo "IPC get_property time-pos while playing 1080p60 with the scene look:"
python3 - "$SOCK" <<'PY'
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rb")
time.sleep(1.0)  # playing, past the first frames
times = []
for i in range(300):
    t0 = time.perf_counter()
    s.sendall((json.dumps({"command": ["get_property", "time-pos"], "request_id": i}) + "\n").encode())
    while json.loads(f.readline()).get("request_id") != i:
        pass
    times.append((time.perf_counter() - t0) * 1000)
times.sort()
print("  round trip ms: p50 %.2f  p99 %.2f  max %.2f  (%d requests)" % (times[150], times[296], times[-1], len(times)))
s.sendall(b'{"command": ["quit"]}\n')
PY
wait $PLAYER || true
echo "1080p60, scene look, --speed 2, 10 s of clip:"
"$BIN" "$DIR/src1080p60.mp4" "${SCENE[@]}" --duration 10 --speed 2 --stats
