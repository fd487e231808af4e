"""`layerplay-farm render`: one export as the plan's segments on the cluster, the sound once, joined here."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import tasks
from .args import UsageError, extension, input_fingerprint, split_output
from .progress import ProgressWriter
from .scheduler import Item, JobFailed


def plan(layerplay, args, ext, segments, cwd):
    """The plan `layerplay … --segments N --plan` prints (the same that `--segments N` renders)."""
    with tempfile.TemporaryDirectory(prefix="layerplay-farm-plan-") as scratch:
        try:
            proc = subprocess.run([layerplay] + args + ["--segments", str(segments), "--plan", "-o",
                                                        os.path.join(scratch, "plan" + ext), "-y"],
                                  cwd=cwd, capture_output=True, text=True)
        except OSError as e:
            raise UsageError(f"cannot run {layerplay}: {e.strerror}")
    if proc.returncode != 0:
        raise JobFailed(tasks.error_line(proc.stderr, proc.returncode))
    lines = [l for l in proc.stdout.splitlines() if l.startswith("{")]
    if not lines:
        raise JobFailed(f"{layerplay} printed no plan: is it a layerplay with --plan?")
    return json.loads(lines[-1])


def plan_key(version, args, ext, the_plan, cwd):
    """What a cached segment belongs to: the same layerplay and FFmpeg, arguments, inputs (size and time) and plan."""
    text = json.dumps([version, args, ext, input_fingerprint(args, cwd), the_plan], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def write_atomically(path, data):
    temporary = f"{path}.{os.getpid()}.partial"
    with open(temporary, "wb") as f:
        f.write(data)
    os.replace(temporary, path)


def render(options, scheduler, version):
    cwd = os.getcwd()
    args, output, overwrite = split_output(options.layerplay_args)
    if not output:
        raise UsageError("the layerplay arguments need -o OUTPUT")
    if os.path.lexists(output) and not overwrite:
        raise UsageError(f"'{output}' already exists; use -y to overwrite it")
    ext = extension(output)
    the_plan = plan(options.layerplay, args, ext, options.segments, cwd)
    key = plan_key(version, args, ext, the_plan, cwd)
    cache = os.path.join(os.path.expanduser(options.cache), key)
    if not options.resume and os.path.isdir(cache):
        shutil.rmtree(cache)
    os.makedirs(cache, exist_ok=True)

    segment_files = []
    items = []
    for k, (a, b) in enumerate(the_plan["segments"]):
        path = os.path.join(cache, f"segment-{k:05d}-{a}-{b}{ext}")
        segment_files.append(path)
        if not os.path.exists(path):
            items.append(Item(f"segment {k} (frames {a}:{b})", args + ["--frames", f"{a}:{b}"], ext, frames=b - a))
    # The track file: the sound and the soft subtitle streams, rendered once and muxed at the join, never per segment.
    audio = os.path.join(cache, "audio" + ext) if the_plan["audio"] or the_plan.get("subtitles") else None
    if audio and not os.path.exists(audio):
        items.append(Item("sound", args + ["--audio-only"], ext))  # rendered and encoded once, never per segment
    files = {item.key: audio if item.key == "sound" else segment_files[int(item.key.split()[1])] for item in items}
    done_frames = sum(b - a for (a, b), p in zip(the_plan["segments"], segment_files) if os.path.exists(p))
    if done_frames:
        print(f"layerplay-farm: resuming: {done_frames} of {the_plan['frames']} frames are cached", file=scheduler.out or sys.stderr)
    progress = None
    if options.progress:
        rate = tuple(the_plan.get("rate") or (0, 1))
        try:
            progress = ProgressWriter(options.progress, rate, frames_before=done_frames)
        except OSError as e:
            raise UsageError(f"cannot write progress to '{options.progress}': {e.strerror}")
        scheduler.progress = progress
    began = time.monotonic()

    def arrived(item, data):
        write_atomically(files[item.key], data)
        if progress is not None and item.key != "sound":
            progress.received(data)

    try:
        scheduler.run(items, arrived, total_frames=the_plan["frames"] - done_frames)

        command = [options.layerplay, "join"] + segment_files + (["--audio", audio] if audio else []) + ["-o", output]
        proc = subprocess.run(command + (["-y"] if overwrite else []), cwd=cwd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise JobFailed(tasks.error_line(proc.stderr, proc.returncode))
        if progress is not None:  # the movie is whole: the last block, with its size
            progress.block(the_plan["frames"] - done_frames, time.monotonic() - began, end=True,
                           total_size=os.path.getsize(output))
    finally:
        if progress is not None:
            progress.close()
    if not options.keep_cache:
        shutil.rmtree(cache, ignore_errors=True)
