"""Drives a playing layerplay through python-mpv-jsonipc, a real mpv JSON IPC client library from PyPI (the one
media-server shims use), as IPCCLITests runs it: `python mpv_ipc_client.py SOCKET`. Prints one `name value` line
per check; the Swift test reads them."""
import sys
import time

from python_mpv_jsonipc import MPV

mpv = MPV(start_mpv=False, ipc_socket=sys.argv[1])
seen = []


@mpv.property_observer("pause")
def on_pause(name, value):
    seen.append(value)


print("filename", mpv.filename, flush=True)
print("duration", mpv.duration, flush=True)
mpv.pause = True
time.sleep(0.3)
print("pause", mpv.pause, flush=True)
mpv.command("seek", 1, "absolute")
print("time-pos", mpv.time_pos, flush=True)
mpv.volume = 50
print("volume", mpv.volume, flush=True)
print("observed-pause", ",".join(str(v) for v in seen), flush=True)
try:
    mpv.command("quit")
except BrokenPipeError:
    pass  # the player may close the socket before the reply is read
mpv.terminate()
print("done", flush=True)
