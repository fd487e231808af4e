#!/usr/bin/env bash
# Seed corpus for the fuzz harnesses: tiny clips of several containers and codecs, made with the ffmpeg CLI
# (generated, never committed). Usage: make-corpus.sh OUT_DIR. Each file is a few KB: libFuzzer mutates
# small inputs far faster, and a damaged header is as likely in a small file as in a large one.
set -euo pipefail
out=${1:?usage: make-corpus.sh OUT_DIR}
mkdir -p "$out/media" "$out/image"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
v="-f lavfi -i testsrc2=size=64x48:rate=10:duration=0.5"
a="-f lavfi -i sine=frequency=440:sample_rate=8000:duration=0.5"
m=$out/media
# Video containers and codecs (what `layerplay FILE` is given).
ff $v -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$m/h264.mp4"
ff $v $a -c:v libx264 -preset ultrafast -c:a aac -b:a 16k -shortest "$m/h264-aac.mp4"
ff $v -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 50k "$m/vp9.mkv"
ff $v $a -c:v libvpx -deadline realtime -cpu-used 8 -b:v 50k -c:a libopus -b:a 16k -shortest "$m/vp8-opus.webm"
ff $v -c:v mpeg4 -q:v 10 "$m/mpeg4.mov"
ff $v $a -c:v mpeg2video -q:v 10 -c:a mp2 -shortest "$m/mpeg2.ts"
ff $v -c:v libx264 -preset ultrafast -vf "transpose=1" -metadata:s:v rotate=90 "$m/rotated.mp4"
ff $v -vf "fps=5" "$m/anim.gif"
ff $v -c:v mjpeg -q:v 10 "$m/mjpeg.avi"
ff $a "$m/pcm.wav"
ff $a -c:a libmp3lame -b:a 16k "$m/mp3.mp3"
ff $a -c:a aac -b:a 16k "$m/aac.m4a"
# Stills (both harnesses read them).
i=$out/image
ff -f lavfi -i "testsrc2=size=40x30" -frames:v 1 "$i/rgb.png"
ff -f lavfi -i "testsrc2=size=40x30,format=rgba,colorchannelmixer=aa=0.5" -frames:v 1 "$i/rgba.png"
ff -f lavfi -i "testsrc2=size=40x30" -frames:v 1 -q:v 8 "$i/photo.jpg"
ff -f lavfi -i "testsrc2=size=40x30" -frames:v 1 "$i/still.bmp"
ff -f lavfi -i "testsrc2=size=40x30" -frames:v 1 "$i/still.webp" || true   # libwebp may be absent
ff -f lavfi -i "testsrc2=size=40x30" -frames:v 1 "$i/still.tiff"
cp "$i"/* "$m/"
du -sh "$m" "$i"
