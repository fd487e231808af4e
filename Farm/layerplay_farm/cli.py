"""The `layerplay-farm` command line."""
import argparse
import os
import sys

from .args import UsageError
from .scheduler import JobFailed, Scheduler

USAGE = """layerplay-farm render [--address ADDR] [--segments N] [--layerplay PATH] [--resume] -- LAYERPLAY-ARGS… -o OUT
layerplay-farm batch SCENE ROWS.csv|ROWS.jsonl -o 'out/{id}.mp4' [--set NAME=VALUE…] -- LAYERPLAY-ARGS…"""


def parser():
    p = argparse.ArgumentParser(prog="layerplay-farm", usage=USAGE,
                                description="Render layerplay exports in segments, or a scene per row of data, on Ray.")
    sub = p.add_subparsers(dest="command", required=True)

    def common(s):
        s.add_argument("--address", help="a Ray cluster to join (ray start --head prints it); default: a local Ray")
        s.add_argument("--layerplay", default="layerplay", help="the layerplay binary on every node (default: layerplay on PATH)")
        s.add_argument("--cpus-per-task", type=float, default=1, help="CPUs Ray reserves for each layerplay process")
        s.add_argument("--straggler-factor", type=float, default=3.0,
                       help="start a task again after this many times the median task time (0: never)")
        s.add_argument("--resume", action="store_true", help="keep what an earlier run of the same job finished")

    r = sub.add_parser("render", help="one export, in segments")
    common(r)
    r.add_argument("--segments", type=int, default=None, help="segments (default: 4 per CPU of the cluster)")
    r.add_argument("--cache", default=os.environ.get("LAYERPLAY_FARM_CACHE", "~/.cache/layerplay-farm"),
                   help="where finished segments are kept under the plan's key (--resume)")
    r.add_argument("--keep-cache", action="store_true", help="keep the segments after the join")
    r.add_argument("--progress", metavar="FILE|-",
                   help="also write progress in ffmpeg's -progress format (frame=, out_time_us=, progress=end…) to FILE or stdout")

    b = sub.add_parser("batch", help="a scene per row of a CSV or JSONL file")
    common(b)
    b.add_argument("scene")
    b.add_argument("rows")
    b.add_argument("-o", "--output", required=True, help="the output of each row, a template: 'out/{id}.mp4'")
    b.add_argument("--set", action="append", help="NAME=VALUE for every row (a row's own column wins)")
    b.add_argument("-y", dest="overwrite", action="store_true", help="overwrite existing outputs")
    return p


def main(argv=None):
    # Everything after the first `--` is layerplay's (split here: argparse would take its -o for the batch's own).
    argv = list(sys.argv[1:] if argv is None else argv)
    cut = argv.index("--") if "--" in argv else len(argv)
    options = parser().parse_args(argv[:cut])
    options.layerplay_args = argv[cut + 1:]
    # Imported here so that --help works without Ray.
    import ray
    from . import cluster
    from .batch import batch
    from .render import render
    started = False
    try:
        started = cluster.connect(options.address)
        version = cluster.check_versions(options.layerplay)
        scheduler = Scheduler(options.layerplay, os.getcwd(), cpus_per_task=options.cpus_per_task,
                              straggler_factor=options.straggler_factor)
        if options.command == "render":
            if options.segments is None:
                options.segments = max(1, int(ray.cluster_resources().get("CPU", 1) // options.cpus_per_task) * 4)
            if options.segments < 1:
                raise UsageError("--segments must be at least 1")
            render(options, scheduler, version)
        else:
            batch(options, scheduler)
        return 0
    except (UsageError, JobFailed) as e:
        line = str(e)
        print(line if line.startswith("layerplay: error:") else f"layerplay-farm: error: {line}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("layerplay-farm: interrupted", file=sys.stderr)
        return 130
    finally:
        if started:
            ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())
