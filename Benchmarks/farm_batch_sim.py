"""Simulated batch throughput (issue 29 target: a batch keeps every worker busy, >= 0.9 x workers x one worker's rate).

A local Ray cluster of WORKERS simulated nodes of one CPU each runs `layerplay-farm batch` over ROWS rows with a
stand-in for layerplay that takes SECONDS per row (sleeps, then writes its output), so only the farm's scheduling,
Ray's overhead and the transfer of each output through the object store are measured. Prints rows per second against
the ideal WORKERS / SECONDS. Run with the farm's virtual environment: .venv-farm/bin/python Benchmarks/farm_batch_sim.py
"""
import contextlib
import io
import os
import sys
import tempfile
import time

WORKERS = int(os.environ.get("WORKERS", 3))
ROWS = int(os.environ.get("ROWS", 30))
SECONDS = float(os.environ.get("SECONDS_PER_ROW", 1.0))


def main():
    import ray
    from ray.cluster_utils import Cluster
    from layerplay_farm.cli import main as farm

    with tempfile.TemporaryDirectory() as d:
        fake = os.path.join(d, "layerplay")
        with open(fake, "w") as f:  # `--version` answers; a render sleeps, then writes 100 kB to the -o path
            f.write(f"""#!/bin/sh
[ "$1" = "--version" ] && {{ echo "layerplay (simulated)"; exit 0; }}
out=""; while [ $# -gt 0 ]; do [ "$1" = "-o" ] && out="$2"; shift; done
sleep {SECONDS}; head -c 100000 /dev/zero > "$out"
""")
        os.chmod(fake, 0o755)
        rows = os.path.join(d, "rows.csv")
        with open(rows, "w") as f:
            f.write("id\n" + "".join(f"r{i}\n" for i in range(ROWS)))
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        for _ in range(WORKERS - 1):
            cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        try:
            began = time.monotonic()
            log = io.StringIO()
            with contextlib.redirect_stderr(log):
                status = farm(["batch", "--layerplay", fake, "scene.json", rows, "-o", os.path.join(d, "out", "{id}.mp4")])
            wall = time.monotonic() - began
            # The rows' own time, from the farm's last progress line (without connecting and the version check).
            rows_phase = float(log.getvalue().strip().splitlines()[-1].rsplit(",", 1)[1].split()[0])
        finally:
            ray.shutdown()
            cluster.shutdown()
        assert status == 0 and len(os.listdir(os.path.join(d, "out"))) == ROWS
    ideal = WORKERS / SECONDS
    print(f"batch of {ROWS} rows, {SECONDS:.2f} s each, on {WORKERS} workers: {wall:.2f} s in all "
          f"({ROWS / wall / ideal:.2f} x the ideal {ideal:.2f} rows/s), the rows alone {rows_phase:.2f} s = "
          f"{ROWS / rows_phase:.2f} rows/s = {ROWS / rows_phase / ideal:.2f} x (target >= 0.9)", file=sys.stderr)


if __name__ == "__main__":
    main()
