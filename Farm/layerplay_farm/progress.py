"""ffmpeg's `-progress` format for a farm render (the keys ffmpeg 5.1 writes, in its order), so that the parsers GUIs,
queues and CI wrappers already use for ffmpeg, and for `layerplay --progress`, read a farm job unchanged: a block at
least once a second while segments come back, and a last one with `progress=end` once the movie is joined."""
import sys


class ProgressWriter:
    """Writes blocks to a file (truncated first, as ffmpeg does) or to standard output (`-`)."""

    def __init__(self, target, rate, frames_before=0):
        self.rate = rate                    # the output's frame rate as (numerator, denominator)
        self.frames_before = frames_before  # frames a resumed job had already (they count as done)
        self.bytes = 0                      # bytes of segments received so far
        self.file = sys.stdout if target == "-" else open(target, "w", encoding="utf-8")

    def received(self, data):
        self.bytes += len(data)

    def block(self, frames, seconds, end=False, total_size=None):
        """One block: `frames` done by this run, `seconds` of wall time since it began."""
        frames += self.frames_before
        num, den = self.rate
        out_us = frames * den * 1_000_000 // num if num > 0 else 0
        hours, rest = divmod(out_us, 3_600_000_000)
        minutes, rest = divmod(rest, 60_000_000)
        whole, micro = divmod(rest, 1_000_000)
        fps = frames / seconds if seconds > 0 else 0.0
        speed = out_us / 1e6 / seconds if seconds > 0 else 0.0
        lines = [f"frame={frames}", f"fps={fps:.2f}", "stream_0_0_q=-1.0", "bitrate=N/A",
                 f"total_size={self.bytes if total_size is None else total_size}",
                 f"out_time_us={out_us}", f"out_time_ms={out_us}",  # ffmpeg's out_time_ms is microseconds too
                 f"out_time={hours:02d}:{minutes:02d}:{whole:02d}.{micro:06d}",
                 "dup_frames=0", "drop_frames=0", f"speed={speed:.3g}x", f"progress={'end' if end else 'continue'}"]
        self.file.write("\n".join(lines) + "\n")
        self.file.flush()

    def close(self):
        if self.file is not sys.stdout:
            self.file.close()
