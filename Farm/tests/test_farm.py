"""The farm against a local Ray cluster of three simulated nodes, and the segments it is built on (issue 29)."""
import hashlib
import json
import os
import shutil
import subprocess
import time

import pytest

from conftest import wrapper
from layerplay_farm.args import UsageError, split_output
from layerplay_farm.cluster import same_version


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def decoded(path, stream):
    """The decoded frames (`v`, as raw 8-bit 4:2:0) or samples (`a`, as s16le) of a file, through the ffmpeg CLI."""
    fmt = ["-f", "rawvideo", "-pix_fmt", "yuv420p"] if stream == "v" else ["-f", "s16le", "-acodec", "pcm_s16le"]
    return subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-map", f"0:{stream}:0", *fmt, "-"],
                          check=True, capture_output=True).stdout


def run(layerplay, *args):
    proc = subprocess.run([layerplay, *map(str, args)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


FRAME_BYTES = 192 * 108 * 3 // 2  # one decoded 4:2:0 frame of the test scene


# --- segments and the join, without Ray ---

def test_segment_frames_equal_the_same_frames_of_a_whole_export(layerplay, pcm_args, tmp_path):
    """Lossless (FFV1): frames 13..<27 as a segment are the frames 13..<27 of one export, for every layer kind."""
    run(layerplay, *pcm_args, "--codec", "ffv1", "--no-audio", "-o", tmp_path / "whole.mkv")
    run(layerplay, *pcm_args, "--codec", "ffv1", "--frames", "13:27", "-o", tmp_path / "part.mkv")
    whole, part = decoded(tmp_path / "whole.mkv", "v"), decoded(tmp_path / "part.mkv", "v")
    assert len(whole) == 40 * FRAME_BYTES and len(part) == 14 * FRAME_BYTES
    assert part == whole[13 * FRAME_BYTES:27 * FRAME_BYTES]


def test_segments_of_ffv1_and_pcm_equal_a_single_export_frame_for_frame_and_sample_for_sample(layerplay, pcm_args, tmp_path):
    run(layerplay, *pcm_args, "--codec", "ffv1", "-o", tmp_path / "single.mkv")
    run(layerplay, *pcm_args, "--codec", "ffv1", "--segments", "3", "-o", tmp_path / "joined.mkv")
    assert "pcm_s16le" in subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
                                          str(tmp_path / "joined.mkv")], capture_output=True, text=True).stdout
    assert decoded(tmp_path / "joined.mkv", "v") == decoded(tmp_path / "single.mkv", "v")
    single_audio = decoded(tmp_path / "single.mkv", "a")
    assert len(single_audio) > 0
    assert decoded(tmp_path / "joined.mkv", "a") == single_audio


def test_x264_segments_are_closed_gops_that_join_into_every_frame(layerplay, scene_args, tmp_path):
    run(layerplay, *scene_args, "--segments", "4", "-o", tmp_path / "joined.mp4")
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame,pict_type",
                            "-of", "csv=p=0", str(tmp_path / "joined.mp4")], capture_output=True, text=True, check=True)
    frames = probe.stdout.split()
    assert len(frames) == 40
    keys = [i for i, f in enumerate(frames) if f.startswith("1")]
    assert keys == [0, 10, 20, 30]  # one-second GOPs at 10 frames/s, one segment each
    rate = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,avg_frame_rate",
                           "-of", "csv=p=0", str(tmp_path / "joined.mp4")], capture_output=True, text=True, check=True)
    assert rate.stdout.strip() == "10/1,10/1"


@pytest.mark.skipif(shutil.which("taskset") is None or (os.cpu_count() or 1) < 2, reason="needs taskset and 2 CPUs")
def test_a_segments_bits_do_not_depend_on_the_cores_it_runs_on(layerplay, scene_args, tmp_path):
    # x264's decisions depend on its thread count, which libavcodec would derive from the CPUs the process may use
    # (a whole export's bytes differ between one core and two, seen on the 2-core build machine); segments fix it.
    run(layerplay, *scene_args, "--frames", "10:30", "-o", tmp_path / "all.mp4")
    proc = subprocess.run(["taskset", "-c", "0", layerplay, *scene_args, "--frames", "10:30", "-o", str(tmp_path / "one.mp4")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert sha(tmp_path / "one.mp4") == sha(tmp_path / "all.mp4")


def test_the_plan_is_gop_aligned_json(layerplay, scene_args, tmp_path):
    plan = json.loads(run(layerplay, *scene_args, "--segments", "3", "--plan", "-o", tmp_path / "x.mp4").stdout)
    assert plan == {"frames": 40, "rate": [10, 1], "gop": 10, "audio": True, "subtitles": False, "segments": [[0, 20], [20, 40]]}
    assert not (tmp_path / "x.mp4").exists()


def test_join_checks_before_writing(layerplay, scene_args, tmp_path):
    for a, b in [(0, 10), (10, 20), (20, 40)]:
        run(layerplay, *scene_args, "--frames", f"{a}:{b}", "-o", tmp_path / f"s{a}.mp4")
    run(layerplay, *scene_args, "--audio-only", "-o", tmp_path / "a.mp4")
    run(layerplay, *scene_args, "--duration", "2", "--audio-only", "-o", tmp_path / "short.mp4")
    run(layerplay, *scene_args, "--frames", "20:40", "--preset", "ultrafast", "-o", tmp_path / "other.mp4")  # no CABAC: another PPS
    # A segment that lost its last frames on the way (its tag copied as it was).
    subprocess.run(["ffmpeg", "-v", "error", "-i", str(tmp_path / "s20.mp4"), "-c", "copy", "-frames:v", "15",
                    "-movflags", "use_metadata_tags", str(tmp_path / "cut.mp4")], check=True)
    cases = [
        ([tmp_path / "s0.mp4", tmp_path / "s20.mp4"], [], "must start at frame 10"),         # a gap
        ([tmp_path / "s0.mp4", tmp_path / "s10.mp4"], [], "the last one is missing"),
        ([tmp_path / "s10.mp4", tmp_path / "s20.mp4"], [], "must start at frame 0"),
        ([tmp_path / "s0.mp4", tmp_path / "s10.mp4", tmp_path / "s20.mp4"], ["--audio", tmp_path / "short.mp4"], "samples of sound"),
        ([tmp_path / "a.mp4"], [], "has no video"),
        ([tmp_path / "s0.mp4", tmp_path / "s10.mp4", tmp_path / "other.mp4"], [], "other codec headers (SPS/PPS)"),
        ([tmp_path / "s0.mp4", tmp_path / "s10.mp4", tmp_path / "cut.mp4"], [], "holds 15 frames, not the 20"),
    ]
    for segments, extra, reason in cases:
        proc = subprocess.run([layerplay, "join", *map(str, segments), *map(str, extra), "-o", str(tmp_path / "out.mp4")],
                              capture_output=True, text=True)
        assert proc.returncode == 1, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("layerplay: error:") and reason in lines[0], proc.stderr
        assert not (tmp_path / "out.mp4").exists()
        assert not [n for n in os.listdir(tmp_path) if n.endswith(".partial")]
    run(layerplay, "join", tmp_path / "s0.mp4", tmp_path / "s10.mp4", tmp_path / "s20.mp4", "--audio", tmp_path / "a.mp4",
        "-o", tmp_path / "out.mp4")
    assert len(decoded(tmp_path / "out.mp4", "v")) == 40 * FRAME_BYTES


# --- the farm on a local cluster ---

def test_farm_output_equals_segments_n_byte_for_byte(farm, layerplay, scene_args, tmp_path):
    run(layerplay, *scene_args, "--segments", "4", "-o", tmp_path / "local.mp4")
    status, err = farm("render", "--segments", "4", "--cache", str(tmp_path / "cache"), "--", *scene_args,
                       "-o", str(tmp_path / "farm.mp4"))
    assert status == 0, err
    assert sha(tmp_path / "farm.mp4") == sha(tmp_path / "local.mp4")
    assert "40/40 frames" in err  # progress: frames done of the total


def progress_blocks(text):
    """ffmpeg's -progress text as a list of blocks, each a dict, split at its `progress=` line (as parsers do)."""
    blocks, block = [], {}
    for line in text.splitlines():
        key, _, value = line.partition("=")
        block[key] = value
        if key == "progress":
            blocks.append(block)
            block = {}
    assert not block, f"text after the last progress= line: {block}"
    return blocks


def test_farm_progress_is_ffmpegs_progress_format(farm, layerplay, scene_args, tmp_path):
    """--progress FILE: blocks with ffmpeg's keys in ffmpeg's order; the last says end, every frame, the movie's size."""
    status, err = farm("render", "--segments", "4", "--cache", str(tmp_path / "cache"), "--progress", str(tmp_path / "progress"),
                       "--", *scene_args, "-o", str(tmp_path / "farm.mp4"))
    assert status == 0, err
    blocks = progress_blocks((tmp_path / "progress").read_text())
    keys = ["frame", "fps", "stream_0_0_q", "bitrate", "total_size", "out_time_us", "out_time_ms", "out_time",
            "dup_frames", "drop_frames", "speed", "progress"]
    assert blocks and all(list(b) == keys for b in blocks), blocks
    assert [b["progress"] for b in blocks] == ["continue"] * (len(blocks) - 1) + ["end"]
    last = blocks[-1]
    assert last["frame"] == "40" and last["out_time_us"] == "4000000" and last["out_time"] == "00:00:04.000000"
    assert int(last["total_size"]) == os.path.getsize(tmp_path / "farm.mp4")
    frames = [int(b["frame"]) for b in blocks]
    assert frames == sorted(frames)  # done frames only grow


def test_farm_ffv1_and_pcm_equal_a_single_export(farm, layerplay, pcm_args, tmp_path):
    run(layerplay, *pcm_args, "--codec", "ffv1", "-o", tmp_path / "single.mkv")
    status, err = farm("render", "--segments", "4", "--cache", str(tmp_path / "cache"), "--", *pcm_args,
                       "--codec", "ffv1", "-o", str(tmp_path / "farm.mkv"))
    assert status == 0, err
    assert decoded(tmp_path / "farm.mkv", "v") == decoded(tmp_path / "single.mkv", "v")
    assert decoded(tmp_path / "farm.mkv", "a") == decoded(tmp_path / "single.mkv", "a")


def test_farm_carries_soft_subtitles_as_segments_n_does(farm, layerplay, media, tmp_path):
    """A clip with a subtitle stream and no sound: the plan says subtitles, the farm renders the track file (the
    subtitles, once) and joins it, as --segments N does, byte for byte; the cues are the single export's."""
    clip = tmp_path / "subtitled.mp4"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=gray:size=96x64:rate=10:duration=4",
                    "-i", str(media / "subs.srt"), "-map", "0", "-map", "1", "-c:v", "libx264", "-c:s", "mov_text", str(clip)],
                   check=True)
    run(layerplay, clip, "-o", tmp_path / "single.mp4")
    run(layerplay, clip, "--segments", "3", "-o", tmp_path / "local.mp4")
    status, err = farm("render", "--segments", "3", "--cache", str(tmp_path / "cache"), "--", str(clip),
                       "-o", str(tmp_path / "farm.mp4"))
    assert status == 0, err
    assert sha(tmp_path / "farm.mp4") == sha(tmp_path / "local.mp4")

    def cues(path):
        return subprocess.run(["ffprobe", "-v", "error", "-select_streams", "s", "-show_data_hash", "MD5", "-show_entries",
                               "packet=pts,duration,data_hash", "-of", "csv=p=0", str(path)],
                              capture_output=True, text=True, check=True).stdout
    assert cues(tmp_path / "single.mp4").count("\n") >= 2
    assert cues(tmp_path / "farm.mp4") == cues(tmp_path / "single.mp4")


def test_a_segment_killed_by_sigkill_is_retried_and_the_output_is_unchanged(farm, layerplay, scene_args, tmp_path):
    run(layerplay, *scene_args, "--segments", "4", "-o", tmp_path / "local.mp4")
    mark = tmp_path / "killed-once"
    # The first run of segment 10:20 starts layerplay, kills it with SIGKILL mid-run, then dies by SIGKILL itself.
    killer = wrapper(tmp_path / "killer.sh", f"""
case "$*" in *"--frames 10:20"*)
  if [ ! -e '{mark}' ]; then touch '{mark}'; "$REAL" "$@" & sleep 0.2; kill -9 $!; kill -9 $$; fi;;
esac""", layerplay)
    status, err = farm("render", "--segments", "4", "--cache", str(tmp_path / "cache"), "--", *scene_args,
                       "-o", str(tmp_path / "farm.mp4"), binary=killer)
    assert status == 0, err
    assert mark.exists()
    assert sha(tmp_path / "farm.mp4") == sha(tmp_path / "local.mp4")


def test_a_straggler_is_started_again_and_the_first_copy_wins(farm, layerplay, scene_args, tmp_path):
    run(layerplay, *scene_args, "--segments", "4", "-o", tmp_path / "local.mp4")
    mark = tmp_path / "stuck-once"
    # The first run of segment 30:40 hangs (a stuck node); the copy started after 2x the median finishes instead.
    stuck = wrapper(tmp_path / "stuck.sh", f"""
case "$*" in *"--frames 30:40"*) if [ ! -e '{mark}' ]; then touch '{mark}'; sleep 120; fi;; esac""", layerplay)
    began = time.monotonic()
    status, err = farm("render", "--segments", "4", "--straggler-factor", "2", "--cache", str(tmp_path / "cache"), "--",
                       *scene_args, "-o", str(tmp_path / "farm.mp4"), binary=stuck)
    assert status == 0, err
    assert "segment 3 (frames 30:40) has run" in err and "started again" in err
    assert time.monotonic() - began < 100  # did not wait for the stuck copy
    assert sha(tmp_path / "farm.mp4") == sha(tmp_path / "local.mp4")


def test_a_node_with_another_version_is_refused_before_any_work(farm, layerplay, scene_args, tmp_path):
    # Inside Ray's workers (RAY_RAYLET_PID is set there) the stand-in reports another FFmpeg than on this machine.
    other = wrapper(tmp_path / "other.sh", """
if [ "$1" = "--version" ] && [ -n "$RAY_RAYLET_PID" ]; then echo "layerplay 0.1 (libavcodec 99.0.100)"; exit 0; fi""",
                    layerplay)
    status, err = farm("render", "--segments", "4", "--", *scene_args, "-o", str(tmp_path / "farm.mp4"), binary=other)
    assert status == 1
    assert "different layerplay or FFmpeg versions" in err.strip().splitlines()[-1], err
    assert not (tmp_path / "farm.mp4").exists()


def test_bad_input_fails_once_and_fast(farm, layerplay, scene_args, tmp_path):
    count = tmp_path / "count"
    failing = wrapper(tmp_path / "bad.sh", f"""
case "$*" in *"--frames 20:30"*) echo run >> '{count}'; echo "layerplay: error: cannot open 'gone.mp4': No such file or directory" >&2; exit 1;; esac""",
                      layerplay)
    began = time.monotonic()
    status, err = farm("render", "--segments", "4", "--cache", str(tmp_path / "cache"), "--", *scene_args,
                       "-o", str(tmp_path / "farm.mp4"), binary=failing)
    assert status == 1
    assert err.strip().splitlines()[-1] == "layerplay: error: cannot open 'gone.mp4': No such file or directory"
    assert count.read_text().count("run") == 1  # not retried
    assert not (tmp_path / "farm.mp4").exists()
    assert time.monotonic() - began < 60
    # A missing input fails at the plan, before any task, with layerplay's line.
    status, err = farm("render", "--segments", "4", "--", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.mp4"))
    assert status == 1 and err.strip().splitlines()[-1].startswith("layerplay: error:"), err


def test_resume_renders_nothing_done(farm, layerplay, scene_args, tmp_path):
    cache = tmp_path / "cache"
    status, err = farm("render", "--segments", "4", "--cache", str(cache), "--keep-cache", "--", *scene_args,
                       "-o", str(tmp_path / "first.mp4"))
    assert status == 0, err
    [plan_dir] = list(cache.iterdir())
    segments = sorted(p for p in plan_dir.iterdir() if p.name.startswith("segment-"))
    assert len(segments) == 4 and (plan_dir / "audio.mp4").exists()
    segments[2].unlink()  # as if the job had stopped before segment 2 came back
    log = tmp_path / "log"
    counting = wrapper(tmp_path / "count.sh", f"""echo "$*" >> '{log}'""", layerplay)
    status, err = farm("render", "--segments", "4", "--cache", str(cache), "--resume", "--", *scene_args,
                       "-o", str(tmp_path / "second.mp4"), binary=counting)
    assert status == 0, err
    rendered = [l for l in log.read_text().splitlines() if "--frames" in l or "--audio-only" in l]
    assert len(rendered) == 1 and "--frames 20:30" in rendered[0], rendered
    assert sha(tmp_path / "second.mp4") == sha(tmp_path / "first.mp4")


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
def test_batch_renders_a_scene_per_row(farm, layerplay, scene_args, tmp_path, kind):
    rows = [{"id": "ada", "title": "Ada Lovelace", "tint": "#2040ff"}, {"id": "bob", "title": "Bob", "tint": "#20c040"},
            {"id": "cy", "title": "Cy, with a comma"}]
    path = tmp_path / f"rows.{kind}"
    if kind == "csv":
        import csv
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["id", "title", "tint"])
            w.writeheader()
            for r in rows:
                w.writerow({"tint": "#d7263d", **r})
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    status, err = farm("batch", scene_args[0], str(path), "-o", str(tmp_path / "out" / "{id}.mp4"), "--set", "tint=#ffffff",
                       "--", *scene_args[1:], "--duration", "1", "--no-audio")
    assert status == 0, err
    assert "3/3 rows" in err
    for r in rows:
        out = tmp_path / "out" / f"{r['id']}.mp4"
        single = tmp_path / f"single-{r['id']}.mp4"
        sets = ["--set", f"tint={r.get('tint', '#ffffff') if kind == 'jsonl' else r.get('tint', '#d7263d')}"]
        run(layerplay, *scene_args, "--duration", "1", "--no-audio", "--set", f"title={r['title']}", *sets, "-o", single)
        assert sha(out) == sha(single), r


# --- the pieces ---

def test_split_output_keeps_the_farms_own_flags_out():
    assert split_output(["a.json", "-o", "x.mp4", "-y", "--crf", "18"]) == (["a.json", "--crf", "18"], "x.mp4", True)
    with pytest.raises(UsageError):
        split_output(["a.json", "--frames", "0:10", "-o", "x.mp4"])


def test_nodes_with_other_versions_are_refused():
    assert same_version({"a": "layerplay 0.1 (libavcodec 59)", "b": "layerplay 0.1 (libavcodec 59)"})
    with pytest.raises(UsageError, match="different layerplay or FFmpeg versions"):
        same_version({"a": "layerplay 0.1 (libavcodec 59)", "b": "layerplay 0.1 (libavcodec 60)"})
