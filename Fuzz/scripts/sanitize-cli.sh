#!/usr/bin/env bash
# A few exports, stills and headless playbacks on a sanitizer build of layerplay (`make sanitize`,
# `make sanitize-thread`), including the reproducers of issue 15 item 1 (the AVX2 shadow kernel's over-read):
# a 1080p video at --rotate=60 --shadow and a 400x300 PNG at --rotate 80 --shadow.
# Usage: sanitize-cli.sh LAYERPLAY WORK_DIR. Fails on the first run that exits non-zero or prints a report.
set -uo pipefail
lp=${1:?}; work=${2:?}
mkdir -p "$work"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
# Sanitizer defaults unless the caller set them: stop at the first report so the exit status tells.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
command -v ffmpeg >/dev/null || { echo "sanitize-cli: needs the ffmpeg CLI (apt-get install ffmpeg)"; exit 1; }
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
[ -f "$work/ship-1080p.mp4" ] || ff -i media/ship.mp4 -t 1 -vf scale=1920:1080 -c:v libx264 -preset ultrafast "$work/ship-1080p.mp4"
[ -f "$work/card-400x300.png" ] || ff -i media/card.png -vf scale=400:300 -frames:v 1 "$work/card-400x300.png"
failed=0
run() {
  local log="$work/run-$((++n)).log"
  if "$lp" "$@" >"$log" 2>&1 && ! grep -qE 'ERROR: (Address|Thread|Undefined)Sanitizer|WARNING: ThreadSanitizer|runtime error:' "$log"; then
    echo "ok    layerplay $*"
  else
    echo "FAIL  layerplay $*  (log: $log)"; grep -m 12 -E 'ERROR|WARNING|SUMMARY|runtime error|#[0-9]+ 0x' "$log"; failed=1
  fi
}
n=0
run "$work/ship-1080p.mp4" --rotate=60 --shadow -y -o "$work/s.png"
run "$work/card-400x300.png" --rotate 80 --shadow -y -o "$work/card.png"
run media/ship.mp4 --rotate --corner-radius 24 --border 6 --shadow --duration 1 -y -o "$work/ship.mp4"
run media/card.png --size 960x540 --background '#202020' --rotate 30 --perspective 1200 --corner-radius 24 --border 6 --shadow -y -o "$work/demo.png"
run probe media/ship.mp4
run media/ship.mp4 --rotate --shadow --duration 1    # playback in a dummy window, with the dummy audio driver
run media/ship.mp4 --spin --shadow --duration 1
exit $failed
