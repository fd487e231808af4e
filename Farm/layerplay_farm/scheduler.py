"""Runs a list of layerplay tasks on the cluster: as many at once as it has room for, a straggler started again
after `straggler_factor` × the median task time (the first copy to finish wins, the other is cancelled),
progress on stderr at least once a second, and the first layerplay error ending the job."""
import statistics
import sys
import time
from dataclasses import dataclass, field

import ray

from . import tasks


class JobFailed(Exception):
    """The job stops: one line says why."""


@dataclass
class Item:
    key: str            # names it in messages and in the cache
    args: list          # layerplay arguments, without -o
    extension: str      # of the file it writes
    frames: int = 0     # frames it renders (progress)


@dataclass
class Attempt:
    item: Item
    started: float
    duplicate: bool = False


@dataclass
class Scheduler:
    layerplay: str
    cwd: str
    cpus_per_task: float = 1
    straggler_factor: float = 3.0
    progress_every: float = 1.0
    out: object = None  # where progress goes: stderr (as it is when printed) by default
    progress: object = None  # a ProgressWriter also told of frames (ffmpeg's -progress format), or None
    durations: list = field(default_factory=list)   # seconds of each finished item
    relaunched: list = field(default_factory=list)  # keys started again as stragglers

    def capacity(self):
        cpus = ray.cluster_resources().get("CPU", 1)
        return max(1, int(cpus // self.cpus_per_task))

    def submit(self, item):
        return tasks.render_file.options(num_cpus=self.cpus_per_task).remote(self.layerplay, item.args, item.extension, self.cwd)

    def run(self, items, on_done, total_frames=None, unit="frames"):
        """Renders every item; `on_done(item, data)` gets each file's bytes as it arrives (once per item)."""
        pending = list(items)
        total = total_frames if total_frames is not None else len(items)
        running = {}
        done = set()
        done_amount = 0
        began = last = time.monotonic()
        try:
            while pending or running:
                # One task more than the cluster runs at once waits in Ray's queue, so that a worker that finishes
                # starts the next at once instead of waiting for this loop to hear of it and submit.
                room = self.capacity() + 1
                while pending and len(running) < room:
                    item = pending.pop(0)
                    running[self.submit(item)] = Attempt(item, time.monotonic())
                ready, _ = ray.wait(list(running), num_returns=1, timeout=0.2)
                for ref in ready:
                    attempt = running.pop(ref)
                    key = attempt.item.key
                    if key in done:
                        continue
                    try:
                        data, seconds, _node = ray.get(ref)
                    except ray.exceptions.TaskCancelledError:
                        continue
                    except ray.exceptions.RayTaskError as e:
                        if any(a.item.key == key for a in running.values()):
                            continue  # its other copy may still finish
                        raise JobFailed(self.describe(attempt.item, e.cause if hasattr(e, "cause") else e))
                    except ray.exceptions.RayError as e:
                        if any(a.item.key == key for a in running.values()):
                            continue
                        raise JobFailed(f"{key}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else 'lost'}")
                    done.add(key)
                    self.durations.append(seconds)
                    on_done(attempt.item, data)
                    done_amount += attempt.item.frames if total_frames is not None else 1
                    for other, a in list(running.items()):
                        if a.item.key == key:  # the slower copy of a straggler
                            ray.cancel(other, force=True)
                            running.pop(other)
                self.relaunch_stragglers(running, done)
                now = time.monotonic()
                if now - last >= self.progress_every:
                    last = now
                    self.report(done_amount, total, unit, len(done), len(items), now - began)
        except BaseException:
            for ref in running:
                ray.cancel(ref, force=True)
            raise
        self.report(done_amount, total, unit, len(done), len(items), time.monotonic() - began)

    def relaunch_stragglers(self, running, done):
        """Starts a second copy of a task running longer than `straggler_factor` × the median finished one."""
        if not self.durations or self.straggler_factor <= 0:
            return
        limit = self.straggler_factor * statistics.median(self.durations)
        now = time.monotonic()
        copied = {a.item.key for a in running.values() if a.duplicate}
        for ref, a in list(running.items()):
            if a.duplicate or a.item.key in copied or a.item.key in done or now - a.started <= limit:
                continue
            if len(running) >= self.capacity() + 2:
                break
            running[self.submit(a.item)] = Attempt(a.item, now, duplicate=True)
            copied.add(a.item.key)
            self.relaunched.append(a.item.key)
            print(f"layerplay-farm: {a.item.key} has run {now - a.started:.1f} s (median {limit / self.straggler_factor:.1f} s): started again",
                  file=self.out or sys.stderr, flush=True)

    def report(self, amount, total, unit, items_done, items, seconds):
        if self.progress is not None and unit == "frames":
            self.progress.block(amount, seconds)
        print(f"layerplay-farm: {amount}/{total} {unit}, {items_done}/{items} tasks, {seconds:.1f} s", file=self.out or sys.stderr, flush=True)

    @staticmethod
    def describe(item, cause):
        if isinstance(cause, tasks.LayerplayFailed):
            return cause.line  # layerplay's own line: bad input fails the job as it is, once
        if isinstance(cause, tasks.ProcessDied):
            return f"{item.key}: {cause} ({tasks.MAX_RETRIES + 1} tries)"
        return f"{item.key}: {cause}"
