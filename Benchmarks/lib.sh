# Shared by the benchmark scripts (sourced, bash): build what a benchmark runs, time a run, and fail loudly when a
# run fails. A ratio of two timings means nothing if either run failed (a missing binary once "ran" in 0.01 s and
# printed "ffmpeg/ours = 1049.16x"), so every run's exit status and output are checked before its time is used.

# A script starts with `. "$(dirname "$0")/lib.sh"`: strict mode, and the repository as the working directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The same pkg-config view as make's builds (Makefile: PKGCONFIG_QUIET), so that a benchmark's build reuses make's
# instead of rebuilding everything with other flags.
[ -d .build-pkgconfig ] && export PKG_CONFIG_PATH="$PWD/.build-pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

bench_fail() { echo "benchmark failed: $*" >&2; exit 1; }

# ensure_built PRODUCT: the release build of PRODUCT (a no-op when it is up to date). A binary given through an
# environment override (LAYERPLAY_BIN, LOWERTHIRD_BIN) is used as it is, and must exist.
ensure_built() {
  local product=$1 override=${2:-}
  if [ -n "$override" ]; then
    [ -x "$override" ] || bench_fail "$override (given for $product) is not an executable file"
    echo "$override"; return
  fi
  swift build -c release --product "$product" >&2 || bench_fail "release build of $product failed (or run: make build)"
  local bin
  bin=$(swift build -c release --show-bin-path)/$product
  [ -x "$bin" ] || bench_fail "no $bin after the build"
  echo "$bin"
}

# require_tool NAME: a command the benchmark needs (the ffmpeg CLI makes the clips and runs the peers).
require_tool() { command -v "$1" >/dev/null || bench_fail "$1 is not installed (make deps installs it)"; }

# bench_start: what a layerplay benchmark needs first: the ffmpeg CLI (it makes the clips and runs the peers), BIN =
# the release layerplay (or $LAYERPLAY_BIN), DIR = out/bench, and windows on SDL's dummy drivers unless the caller
# chose others (SDL_VIDEODRIVER=x11 to watch).
bench_start() {
  require_tool ffmpeg
  BIN=$(ensure_built layerplay "${LAYERPLAY_BIN:-}")
  DIR=out/bench
  mkdir -p "$DIR"
  export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-dummy} SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy}
}

# test_clip PATH SIZE RATE SECONDS [--no-sound] VIDEO-OPTIONS…: ffmpeg's testsrc2 pattern (with a sine tone in AAC
# unless --no-sound) encoded with VIDEO-OPTIONS, made once; generated media stays in out/ and is never committed.
test_clip() {
  local path=$1 size=$2 rate=$3 seconds=$4 sound audio
  shift 4
  sound=(-f lavfi -i "sine=duration=$seconds"); audio=(-c:a aac)
  if [ "${1:-}" = --no-sound ]; then sound=(); audio=(); shift; fi
  [ -f "$path" ] && return 0
  ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=$size:rate=$rate:duration=$seconds" "${sound[@]}" "$@" "${audio[@]}" \
    "$path" || { rm -f "$path"; bench_fail "ffmpeg could not make $path"; }
}

# timed LABEL OUTPUT COMMAND…: runs COMMAND with its output in $BENCH_LOGS/LABEL.log, checks that it exited 0 and
# that OUTPUT is a non-empty file (pass - when the run writes none), and prints its wall seconds.
timed() {
  local label=$1 output=$2; shift 2
  local log=${BENCH_LOGS:-out/bench/logs}/$label.log t0 t1 status=0
  mkdir -p "$(dirname "$log")"
  [ "$output" = - ] || rm -f "$output"
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1 || status=$?
  t1=$(date +%s.%N)
  if [ "$status" -ne 0 ]; then
    tail -n 5 "$log" >&2
    bench_fail "$label exited $status: $*"
  fi
  if [ "$output" != - ] && [ ! -s "$output" ]; then
    tail -n 5 "$log" >&2
    bench_fail "$label wrote no $output: $*"
  fi
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}

# expect_frames FILE N: the video stream of FILE has exactly N frames (a run that stopped early is no result).
expect_frames() {
  local n
  n=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$1") ||
    bench_fail "ffprobe cannot read $1"
  [ "$n" = "$2" ] || bench_fail "$1 has $n frames, expected $2"
}

# sum A B and ratio A B (two decimals, or three with a third argument): arithmetic on the timings.
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", a + b }'; }
ratio() {
  awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN { if (b <= 0) { print "nan"; exit 1 } printf "%.*f\n", d, a / b }' ||
    bench_fail "ratio of $1 to $2"
}

# tagged_copy SOURCE TARGET pq|bt709: SOURCE's HEVC stream copied, its colour tags rewritten (the hevc_metadata
# bitstream filter): the same coded pictures, tagged PQ (BT.2020, SMPTE 2084) or SDR BT.709.
tagged_copy() {
  local tags
  case $3 in
    pq) tags="colour_primaries=9:transfer_characteristics=16:matrix_coefficients=9" ;;
    bt709) tags="colour_primaries=1:transfer_characteristics=1:matrix_coefficients=1" ;;
    *) bench_fail "tagged_copy: no tags called $3" ;;
  esac
  ffmpeg -loglevel error -y -i "$1" -c copy -bsf:v "hevc_metadata=$tags" "$2" || bench_fail "ffmpeg could not tag $2"
}

# cpu_run COMMAND…: COMMAND's wall seconds and CPU seconds (user + system, all its threads), "wall cpu"; the
# benchmark fails, showing COMMAND's errors, if it fails. On a machine others are using, wall times stretch with
# their load; CPU seconds are what the work itself costs.
cpu_run() {
  local t err=${DIR:-out/bench}/cpu-run-last.err
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>"$err"; } 2>&1 ) ||
    { cat "$err" >&2; bench_fail "$*"; }
  echo "$t" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}
