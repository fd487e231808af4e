# layerplay / LayerKit: the two commands of the README.
#   make demo   installs what is missing, builds (release), renders the demo movie and picture into out/
#   make test   installs what is missing, builds, runs every test
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages, and the pkg-config module each provides (checked before anything is installed).
APT_PACKAGES := pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev \
                libsdl2-dev libcairo2-dev libpango1.0-dev
PKG_MODULES  := libavformat libavcodec libavutil libswscale libswresample sdl2 cairo pangocairo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test build deps bench bench-play clean

deps:
	@missing=""; \
	command -v pkg-config >/dev/null || missing="pkg-config"; \
	for m in $(PKG_MODULES); do pkg-config --exists $$m 2>/dev/null || missing="$$missing $$m"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages (missing: $$missing)"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $(APT_PACKAGES); \
	fi

build: deps
	$(SWIFT) build -c release --product layerplay

# Plays the sample in a window with its sound; where there is no display, layerplay says so and the demo
# movie is written instead.
DEMO_LOOK := --rotate --corner-radius 24 --border 6 --shadow
demo: build
	@mkdir -p out
	@if ! .build/release/layerplay media/ship.mp4 $(DEMO_LOOK); then \
	  echo "no window here: writing the demo movie instead"; \
	  .build/release/layerplay media/ship.mp4 $(DEMO_LOOK) -y -o out/ship-demo.mp4 && echo "demo movie: out/ship-demo.mp4"; \
	fi
	.build/release/layerplay media/card.png --size 960x540 --background '#202020' \
	  --rotate 30 --perspective 1200 --corner-radius 24 --border 6 --shadow -y -o out/demo.png
	@echo "demo picture: out/demo.png"

# Tests run on an optimised build (pixel loops are hundreds of times slower unoptimised) with testing
# enabled. Playback measures itself against a real clock, so it runs on its own, after the rest.
PLAYBACK_TESTS := LayerDisplayTests.PlaybackTests
test: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build --disable-xctest --skip $(PLAYBACK_TESTS)
	$(SWIFT) test -c release --skip-build --disable-xctest --filter $(PLAYBACK_TESTS)
	@mkdir -p out
	$(SWIFT) run -c release --skip-build VideoCard media/ship.mp4 out/example-video-card.mp4
	$(SWIFT) run -c release --skip-build LayerDelegate out/example-layer-delegate.png
	$(SWIFT) run -c release --skip-build Clock out/example-clock.png 10:09:30
	$(SWIFT) run -c release --skip-build HitTest

# The compositor benchmark (release; see README). Not part of `make test`: timings never gate tests.
bench: build
	.build/release/layerplay bench

# Playback (headless, release): 1080p60 with the scene look and 4K30 plain, --stats each. Needs the ffmpeg CLI
# to make the clips (as shared/bench does).
bench-play: build
	Benchmarks/playback.sh

clean:
	rm -rf .build out
