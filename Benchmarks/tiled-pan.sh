#!/bin/bash
# Issue 18's speed line for TiledLayer: the 20,000² drawn tiled layer (Examples/TiledViewer) panned in a window-like
# loop (a background-tile compositor, never waiting for tiles) after its first tiles are drawn; prints frames/s.
# Release build; not part of `make test`. Usage: Benchmarks/tiled-pan.sh [SECONDS] [WxH]  (default 10, 1280x720)
. "$(dirname "$0")/lib.sh"
VIEWER=$(ensure_built TiledViewer "${TILEDVIEWER_BIN:-}")
out=$("$VIEWER" --bench "${1:-10}" --size "${2:-1280x720}") || bench_fail "TiledViewer --bench exited $?"
grep -q 'frames/s' <<<"$out" || bench_fail "TiledViewer --bench printed no frames/s: $out"
echo "$out"
