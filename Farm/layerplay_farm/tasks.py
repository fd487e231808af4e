"""The Ray tasks: each runs the layerplay binary installed on its node and hands the file it wrote back as bytes
(through Ray's object store, so no node needs the driver's filesystem for outputs)."""
import os
import signal
import subprocess
import tempfile
import time

import ray

# A task whose process died (a signal: SIGKILL, the OOM killer) is tried again, up to this many times in all;
# layerplay's own failures (exit 1: bad input) are not: they would fail again.
MAX_RETRIES = 3


class ProcessDied(Exception):
    """layerplay ended by a signal: retried."""


class LayerplayFailed(Exception):
    """layerplay exited with an error (its one `layerplay: error:` line): not retried."""

    def __init__(self, line, status=1):
        super().__init__(line, status)  # both in args: the exception is pickled back to the driver through them
        self.line = line
        self.status = status

    def __str__(self):
        return self.line


def error_line(stderr, status):
    lines = [l for l in stderr.splitlines() if l.strip()]
    errors = [l for l in lines if "error" in l.lower()]
    return (errors or lines or [f"layerplay exited with status {status}"])[-1]


def die_with_parent():
    """In the child, before exec: SIGKILL when the Ray worker that started it dies (a task cancelled with force, a
    straggler's losing copy, a lost worker), so no layerplay runs on for nobody. Linux only; elsewhere a no-op."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def run(layerplay, args, cwd):
    """Runs layerplay with `args` in `cwd` (the driver's directory, where relative input paths resolve on shared
    storage; the node's own when it has no such directory)."""
    workdir = cwd if cwd and os.path.isdir(cwd) else None
    proc = subprocess.run([layerplay] + args, cwd=workdir, capture_output=True, text=True, preexec_fn=die_with_parent)
    if proc.returncode < 0:
        raise ProcessDied(f"layerplay died by {signal.Signals(-proc.returncode).name}")
    if proc.returncode != 0:
        raise LayerplayFailed(error_line(proc.stderr, proc.returncode), proc.returncode)
    return proc


@ray.remote(max_retries=MAX_RETRIES, retry_exceptions=[ProcessDied])
def render_file(layerplay, args, extension, cwd):
    """layerplay `args` -o a scratch file with `extension`; returns (its bytes, seconds taken, node id)."""
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="layerplay-farm-") as scratch:
        out = os.path.join(scratch, "out" + extension)
        run(layerplay, args + ["-o", out, "-y"], cwd)
        with open(out, "rb") as f:
            data = f.read()
    return data, time.monotonic() - began, ray.get_runtime_context().get_node_id()


@ray.remote(num_cpus=0, max_retries=MAX_RETRIES)  # no CPU: it must also run on a head that renders nothing
def versions(layerplay):
    """What `layerplay --version` says on this node (layerplay and its FFmpeg libraries): bits depend on both."""
    try:
        proc = subprocess.run([layerplay, "--version"], capture_output=True, text=True)
    except OSError as e:
        return f"cannot run {layerplay}: {e.strerror}"
    return (proc.stdout.strip() or proc.stderr.strip()) if proc.returncode == 0 else f"{layerplay} --version failed"
