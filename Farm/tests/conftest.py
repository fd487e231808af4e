"""Shared fixtures: the layerplay binary under test, small generated media and a scene that uses every kind of
timed layer the CLI has (a looping video input, a keyframed animation, subtitles, a text param, placed sound),
and a local Ray cluster of several simulated nodes (ray.cluster_utils.Cluster)."""
import os
import shutil
import subprocess

import pytest

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.fixture(scope="session")
def layerplay():
    path = os.environ.get("LAYERPLAY", os.path.join(REPO, ".build", "release", "layerplay"))
    if not os.access(path, os.X_OK):
        pytest.fail(f"no layerplay binary at {path} (build it: swift build -c release, or set LAYERPLAY)")
    return path


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *args], check=True)


SCENE = """{
  "version": "1.0",
  "name": "farm-test",
  "params": {
    "clip":  {"type": "media", "required": true, "position": 0},
    "tone":  {"type": "media", "required": true, "position": 1},
    "subs":  {"type": "file", "required": true, "position": 2},
    "title": {"type": "string", "default": "Farm"},
    "tint":  {"type": "color", "default": "#d7263d"}
  },
  "inputs": {"clip": {"src": "$clip", "loop": true}, "tone": {"src": "$tone", "start": 0.35}},
  "audio": "tone",
  "canvas": {"size": "192x108", "background": "#101018", "fps": 10, "duration": "4s"},
  "layers": [
    {"id": "video", "type": "media", "input": "clip", "frame": [8, 8, 112, 63]},
    {"id": "box", "frame": [130, 20, 40, 40], "backgroundColor": "$tint", "cornerRadius": 6,
     "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "from": 0, "to": 6.283,
                     "duration": 1.7, "repeatCount": "infinity"}]},
    {"id": "title", "type": "text", "frame": [8, 74, 176, 16], "string": "$title", "font": "Sans", "fontSize": 12,
     "foregroundColor": "white",
     "animations": [{"type": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 2.3, "beginTime": 0.4,
                     "fillMode": "both"}]},
    {"id": "captions", "type": "subtitles", "file": "$subs", "frame": [0, 88, 192, 20], "fontSize": 10,
     "foregroundColor": "yellow"}
  ]
}
"""

SUBS = """1
00:00:00,450 --> 00:00:01,650
first cue

2
00:00:02,050 --> 00:00:03,250
second cue
"""


@pytest.fixture(scope="session")
def media(tmp_path_factory):
    d = tmp_path_factory.mktemp("media")
    # A clip shorter than the timeline (it loops), with B-frames and short GOPs so that a segment's first frame
    # needs a seek and decoding up to the frame, not a keyframe.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=160x90:rate=10", "-t", "1.3", "-c:v", "libx264", "-g", "7", "-bf", "2",
           "-pix_fmt", "yuv420p", str(d / "clip.mp4"))
    # The sound as PCM (the lossless tests: copied into .mkv) and as AAC (copied into .mp4).
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=5", "-c:a", "pcm_s16le", str(d / "tone.wav"))
    ffmpeg("-f", "lavfi", "-i", "sine=frequency=660:sample_rate=48000:duration=5", "-af", "aformat=channel_layouts=stereo",
           "-c:a", "aac", str(d / "tone.m4a"))
    (d / "subs.srt").write_text(SUBS)
    (d / "scene.json").write_text(SCENE)
    return d


@pytest.fixture(scope="session")
def scene_args(media):
    """The scene with AAC sound (H.264 into .mp4)."""
    return [str(media / "scene.json"), str(media / "clip.mp4"), str(media / "tone.m4a"), str(media / "subs.srt")]


@pytest.fixture(scope="session")
def pcm_args(media):
    """The scene with PCM sound (FFV1 and PCM into .mkv: lossless both)."""
    return [str(media / "scene.json"), str(media / "clip.mp4"), str(media / "tone.wav"), str(media / "subs.srt")]


@pytest.fixture(scope="session")
def cluster():
    """A head and two more simulated nodes, one CPU each: tasks spread over three raylets."""
    import ray
    from ray.cluster_utils import Cluster
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    c.add_node(num_cpus=1)
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield c
    ray.shutdown()
    c.shutdown()


@pytest.fixture
def farm(cluster, layerplay, capsys):
    """Runs `layerplay-farm ARGS…` in this process against the test cluster; (status, stderr)."""
    from layerplay_farm.cli import main

    def run(*args, binary=None):
        command, rest = args[0], list(args[1:])
        status = main([command, "--layerplay", binary or layerplay] + rest)
        return status, capsys.readouterr().err
    return run


def wrapper(path, body, layerplay):
    """A stand-in for layerplay: a shell script that runs `body` and then the real binary."""
    path.write_text(f"#!/bin/sh\nREAL='{layerplay}'\n{body}\nexec \"$REAL\" \"$@\"\n")
    path.chmod(0o755)
    return str(path)
