#!/bin/sh
# Issue 18's speed line for TiledLayer: the 20,000² drawn tiled layer (Examples/TiledViewer) panned in a window-like
# loop (a background-tile compositor, never waiting for tiles) after its first tiles are drawn; prints frames/s.
# Release build; not part of `make test`. Usage: Benchmarks/tiled-pan.sh [SECONDS] [WxH]  (default 10, 1280x720)
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product TiledViewer >/dev/null
.build/release/TiledViewer --bench "${1:-10}" --size "${2:-1280x720}"
