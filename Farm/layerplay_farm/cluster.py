"""Connecting to Ray, and refusing a cluster whose nodes would not make the same bits."""
import subprocess

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from . import tasks
from .args import UsageError


def connect(address):
    """Joins the cluster at `address` (`ray start --head` prints it; `auto` finds a local one), or starts a local
    Ray when there is none. Returns whether this call started Ray (so it should shut it down)."""
    if ray.is_initialized():
        return False
    quiet = dict(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    if address:
        ray.init(address=address, **quiet)
    else:
        ray.init(**quiet)
    return True


def check_versions(layerplay):
    """Asks every live node (and this machine, which plans and joins) what `layerplay --version` says, and refuses
    to start when they differ: x264's bits depend on its version and layerplay's pixels on ours.
    Returns the one version string."""
    try:
        local = subprocess.run([layerplay, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError as e:
        raise UsageError(f"cannot run {layerplay}: {e.strerror}")
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    refs = [tasks.versions.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)).remote(layerplay)
            for n in nodes]
    reported = {"this machine": local}
    for node, version in zip(nodes, ray.get(refs)):
        reported[f"node {node['NodeManagerAddress']} ({node['NodeID'][:8]})"] = version
    return same_version(reported)


def same_version(reported):
    """The one version all of `reported` (where → `layerplay --version`) say, or UsageError naming two that differ."""
    first_where, first = next(iter(reported.items()))
    for where, version in reported.items():
        if version != first:
            raise UsageError(f"nodes run different layerplay or FFmpeg versions, so their bits would differ: "
                             f"{first_where} has '{first}', {where} has '{version}'")
    return first
