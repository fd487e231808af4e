#!/bin/bash
# Segmented export benchmark (issue 29), release, on this machine: a 720p30 card export of 20 s (spin, corners,
# shadow over a testsrc2 clip with sound), rendered (1) as one export, (2) with --segments 4 (plan, segments, sound
# once, join, in one process), and (3) segment by segment with --frames A:B, the sound with --audio-only and the join
# with `layerplay join`, each timed; then (4) a longer job, the same look at 1080p for LONG_SECONDS (default 20),
# segment by segment, where the join's share matters (long exports). Prints the --segments 4 / single wall-time
# ratio, the join's share of both jobs (the join's median of JOIN_RUNS runs, default 5: it is short, and one run on a
# shared machine is noise), the seam frames' PSNR against the interior frames', and the projected makespan on 4, 16
# and 64 workers for 4 × workers segments: longest-first scheduling of the measured per-frame cost, plus the sound
# (in parallel), the join and moving every segment to the driver at BANDWIDTH_MBPS (default 1000 Mbit/s). Clips go
# to out/bench/ (not committed). Timings never gate tests. How each number is measured: Benchmarks/FARM.md.
. "$(dirname "$0")/lib.sh"
bench_start
DIR=out/bench/farm
BANDWIDTH_MBPS=${BANDWIDTH_MBPS:-1000}
mkdir -p "$DIR"
test_clip "$DIR/src.mp4" 1280x720 30 21 -c:v libx264 -preset veryfast -g 60
ARGS=("$DIR/src.mp4" --size 1280x720 --background '#202020' --spin 8 --corner-radius 32 --shadow --duration 20)
now() { date +%s.%N; }
# median_join OUT ARGS…: `layerplay join ARGS… -o OUT`, JOIN_RUNS times; prints the median wall seconds.
median_join() {
  local out=$1 runs=() s e; shift
  for _ in $(seq "${JOIN_RUNS:-5}"); do
    s=$(now); "$BIN" join "$@" -y -o "$out"; e=$(now); runs+=("$(echo "$e - $s" | bc -l)")
  done
  printf '%s\n' "${runs[@]}" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
t0=$(now); "$BIN" "${ARGS[@]}" -y -o "$DIR/single.mp4"; t1=$(now)
"$BIN" "${ARGS[@]}" --segments 4 -y -o "$DIR/seg4.mp4"; t2=$(now)
single=$(echo "$t1 - $t0" | bc -l); seg4=$(echo "$t2 - $t1" | bc -l)
printf 'single export %.2f s, --segments 4 %.2f s, ratio %.3f (target <= 1.10)\n' "$single" "$seg4" "$(echo "$seg4 / $single" | bc -l)"

plan=$("$BIN" "${ARGS[@]}" --segments 4 --plan -y -o "$DIR/plan.mp4")
echo "plan: $plan"
segs=(); times=()
for range in $(python3 -c "import json,sys; print(' '.join(f'{a}:{b}' for a,b in json.loads(sys.argv[1])['segments']))" "$plan"); do
  f="$DIR/seg-${range/:/-}.mp4"; s=$(now); "$BIN" "${ARGS[@]}" --frames "$range" -y -o "$f"; e=$(now)
  segs+=("$f"); times+=("$range=$(echo "$e - $s" | bc -l)")
done
s=$(now); "$BIN" "${ARGS[@]}" --audio-only -y -o "$DIR/audio.mp4"; e=$(now); audio=$(echo "$e - $s" | bc -l)
# A segment's fixed cost (process start, opening and seeking the inputs, the encoder): a one-frame segment.
s=$(now); "$BIN" "${ARGS[@]}" --frames 300:301 -y -o "$DIR/one-frame.mp4"; e=$(now); fixed=$(echo "$e - $s" | bc -l)
join=$(median_join "$DIR/joined.mp4" "${segs[@]}" --audio "$DIR/audio.mp4")
cmp "$DIR/joined.mp4" "$DIR/seg4.mp4" && echo "segments joined by hand = --segments 4, byte for byte"
# Lossless reference of the same frames, for PSNR per frame.
"$BIN" "${ARGS[@]}" --codec ffv1 --no-audio -y -o "$DIR/reference.mkv"
# Frames paired by number, not by time: Matroska keeps milliseconds, so 1/30 s timestamps would pair the wrong frames.
ffmpeg -loglevel error -i "$DIR/joined.mp4" -i "$DIR/reference.mkv" \
  -lavfi "[0:v]settb=1/30,setpts=N[a];[1:v]settb=1/30,setpts=N[b];[a][b]psnr=stats_file=$DIR/psnr.log" -f null -
bytes=$(cat "${segs[@]}" | wc -c)
python3 - "$plan" "$audio" "$join" "$bytes" "$BANDWIDTH_MBPS" "$DIR/psnr.log" "$fixed" "${times[@]}" <<'PY'
import json, math, sys
plan = json.loads(sys.argv[1]); audio, join, nbytes, mbps = map(float, sys.argv[2:6]); log = sys.argv[6]
fixed = float(sys.argv[7])
times = {tuple(map(int, t.split("=")[0].split(":"))): float(t.split("=")[1]) for t in sys.argv[8:]}
for (a, b), t in sorted(times.items()):
    print(f"segment {a}:{b}: {t:.2f} s ({(b - a) / t:.1f} frames/s)")
total = sum(times.values())
print(f"sound once: {audio:.2f} s; join: {join:.3f} s = {100 * join / (total + audio + join):.2f} % of the whole (target < 2 %)")
# Seam quality: each frame of the joined movie against the same frame of a lossless (FFV1) render of the same
# timeline, the picture the encoder was given (not the single export, whose own losses differ, nor the source clip,
# which the card spins and shades). A frame's PSNR is 10·log10(255² / its mean squared error); a set's is the mean
# of its frames'. Seam frames: the first and the last frame of each segment at every inner boundary (where one
# segment's encode ends and the next one's begins).
mse = [float(l.split("mse_avg:")[1].split()[0]) for l in open(log)]
assert len(mse) == plan["frames"], f"{len(mse)} PSNR lines for {plan['frames']} frames"
def psnr(e):
    return 10 * math.log10(255 ** 2 / e) if e > 0 else 100.0  # an exact frame counts as 100 dB (ffmpeg says inf)
def mean(frames):
    return sum(psnr(mse[i]) for i in frames) / len(frames)
seams = sorted({x for a, b in plan["segments"][1:] for x in (a - 1, a)})
interior = [i for i in range(len(mse)) if i not in seams]
seam_db, interior_db = mean(seams), mean(interior)
print(f"PSNR vs the lossless render, mean of frames: {len(seams)} seam frames {seam_db:.2f} dB, {len(interior)} interior "
      f"frames {interior_db:.2f} dB: seam >= interior - 0.5 dB: {'ok' if seam_db >= interior_db - 0.5 else 'FAIL'} "
      f"(seam - interior = {seam_db - interior_db:+.2f} dB)")
# The same from the sets' mean squared errors (as ffmpeg's psnr filter averages), where a few near-exact IDR frames
# weigh less than in the mean of decibels.
def pooled(frames):
    return psnr(sum(mse[i] for i in frames) / len(frames))
print(f"  from the mean squared error: seam frames {pooled(seams):.2f} dB, interior {pooled(interior):.2f} dB: "
      f"seam >= interior - 0.5 dB: {'ok' if pooled(seams) >= pooled(interior) - 0.5 else 'FAIL'}")
# Why seams come out better: a segment starts with an IDR picture, which x264 codes at a lower quantiser than P and B
# frames. Inside a segment the same happens at every GOP start (one-second GOPs), so those are the seams' peers.
gop = plan["gop"]
starts = [a for a, b in plan["segments"][1:]]
ends = [a - 1 for a in starts]
gop_starts = [i for i in interior if i % gop == 0]
gop_ends = [i for i in interior if i % gop == gop - 1]
print(f"  by kind: segment firsts (IDR) {mean(starts):.2f} dB, segment lasts {mean(ends):.2f} dB; inside segments: "
      f"GOP firsts (IDR) {mean(gop_starts):.2f} dB, GOP lasts {mean(gop_ends):.2f} dB")
# A segment costs its fixed part (a one-frame segment, measured) plus its frames at the measured rate.
per_frame = max(0.0, total - len(times) * fixed) / plan["frames"]
print(f"a segment's fixed cost {fixed:.2f} s, then {1000 * per_frame:.1f} ms a frame")
transfer = nbytes * 8 / (mbps * 1e6)
frames, gop = plan["frames"], plan["gop"]
for workers in (4, 16, 64):
    # The plan's own cut: at most 4 segments a worker, whole GOPs each (so at most one segment a GOP).
    gops = -(-frames // gop); per = -(-gops // (4 * workers)) * gop
    sizes = [min(per, frames - a) for a in range(0, frames, per)]
    load = [0.0] * workers
    for s in sorted(sizes, reverse=True):
        i = load.index(min(load)); load[i] += fixed + s * per_frame
    critical = max(max(load), audio)
    print(f"{workers} workers, {len(sizes)} segments of {per} frames: critical path {critical:.2f} s + join {join:.3f} s"
          f" + transfer {transfer:.3f} s at {mbps:.0f} Mbit/s = {critical + join + transfer:.2f} s (one worker: {total + audio + join:.2f} s)")
PY
# The longer job: the same look at 1080p, LONG_SECONDS long, as the plan's 4 segments, the sound and the join.
LONG_SECONDS=${LONG_SECONDS:-20}
test_clip "$DIR/src1080.mp4" 1920x1080 30 "$((LONG_SECONDS + 1))" -c:v libx264 -preset veryfast -g 60
LONG=("$DIR/src1080.mp4" --size 1920x1080 --background '#202020' --spin 8 --corner-radius 32 --shadow --duration "$LONG_SECONDS")
long_plan=$("$BIN" "${LONG[@]}" --segments 4 --plan -y -o "$DIR/long.mp4")
long_segs=(); s=$(now)
for range in $(python3 -c "import json,sys; print(' '.join(f'{a}:{b}' for a,b in json.loads(sys.argv[1])['segments']))" "$long_plan"); do
  f="$DIR/long-${range/:/-}.mp4"; "$BIN" "${LONG[@]}" --frames "$range" -y -o "$f"; long_segs+=("$f")
done
"$BIN" "${LONG[@]}" --audio-only -y -o "$DIR/long-audio.mp4"; e=$(now); long_work=$(echo "$e - $s" | bc -l)
long_join=$(median_join "$DIR/long-joined.mp4" "${long_segs[@]}" --audio "$DIR/long-audio.mp4")
printf '1080p %s s job: segments and sound %.2f s, join %.3f s = %.2f %% of the whole (target < 2 %%)\n' "$LONG_SECONDS" \
  "$long_work" "$long_join" "$(echo "100 * $long_join / ($long_work + $long_join)" | bc -l)"

# A batch's throughput, simulated: the farm's scheduling over a local Ray cluster with a stand-in for layerplay.
[ -x .venv-farm/bin/python ] && .venv-farm/bin/python Benchmarks/farm_batch_sim.py 2>&1 | tail -1 || echo "(make farm-venv for the batch simulation)"
