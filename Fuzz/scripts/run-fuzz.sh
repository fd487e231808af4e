#!/usr/bin/env bash
# Runs each fuzz harness for its share of FUZZ_SECONDS and reports the executions; fails on the first finding
# (crash, sanitizer report, timeout, out of memory), leaving the reproducer in $work/findings.
# Usage: run-fuzz.sh BIN_DIR WORK_DIR SECONDS. Called by `make fuzz`.
set -uo pipefail
bin=${1:?}; work=${2:?}; seconds=${3:?}
# FUZZ_HARNESSES (space-separated) runs a subset, e.g. FUZZ_HARNESSES=FuzzScene.
read -r -a harnesses <<<"${FUZZ_HARNESSES:-FuzzMedia FuzzImage FuzzScene}"
root=$(cd "$(dirname "$0")/../.." && pwd)
# Scene seeds: the hand-written ones in Fuzz/Seeds/scene and the shipped example scenes (text, so copied each run).
mkdir -p "$work/corpus/scene"
cp "$root"/Fuzz/Seeds/scene/*.json "$root"/Config/scenes/*.json "$work/corpus/scene/"
share=$(( seconds / ${#harnesses[@]} ))
mkdir -p "$work/findings"
total=0; status=0
for h in "${harnesses[@]}"; do
  seeds="$work/corpus/media"; [ "$h" = FuzzImage ] && seeds="$work/corpus/image"
  extra=()
  if [ "$h" = FuzzScene ]; then seeds="$work/corpus/scene"; extra=(-dict="$root/Fuzz/scene.dict"); fi
  live="$work/live-$h"; mkdir -p "$live"   # what libFuzzer learns; kept between runs
  log="$work/$h.log"
  # -rss_limit_mb / -malloc_limit_mb: runaway memory is a finding; -timeout: one input taking more than
  # 10 s is a hang. -max_len: inputs stay near the seeds' size (decoding is the cost of an execution).
  # -close_fd_mask=2: FFmpeg's own complaints about damaged input would fill the log; libFuzzer's
  # reports still come through.
  "$bin/$h" "$live" "$seeds" -max_total_time="$share" -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 \
    -max_len=16384 -close_fd_mask=2 -print_final_stats=1 -artifact_prefix="$work/findings/$h-" "${extra[@]}" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  runs=${runs:-0}; total=$(( total + runs ))
  printf '%-10s %10d executions in %ds, exit %d (log: %s)\n' "$h" "$runs" "$share" "$rc" "$log"
  if [ $rc -ne 0 ]; then status=1; grep -m 20 -E 'ERROR|SUMMARY|#[0-9]+ 0x' "$log"; fi
done
printf 'total      %10d executions\n' "$total"
exit $status
