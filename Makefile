# layerplay / LayerKit: the two commands of the README.
#   make demo   installs what is missing, builds (release), renders the demo movie and picture into out/
#   make test   installs what is missing, builds, runs every test
SHELL := /bin/bash
SWIFT ?= swift
# Debian packages, and the pkg-config module each provides (checked before anything is installed).
APT_PACKAGES := pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev \
                libsdl2-dev libcairo2-dev libpango1.0-dev libass-dev ffmpeg fonts-urw-base35 fonts-dejavu-core \
                libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri python3
# Fonts have no pkg-config module: TextLayer's "Helvetica" is Nimbus Sans (fonts-urw-base35), DejaVu the fallback.
FONT_FILES   := /usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
# The HDR tests' reference, FFmpeg's libplacebo filter, runs on Mesa's software Vulkan device (lavapipe).
APT_PACKAGES += mesa-vulkan-drivers
# Little CMS converts pictures with an embedded ICC profile (Display P3 photos) into sRGB.
APT_PACKAGES += liblcms2-dev
RUNTIME_FILES := /usr/share/vulkan/icd.d/lvp_icd.x86_64.json
PKG_MODULES  := libavformat libavcodec libavutil libswscale libswresample libavfilter sdl2 cairo pangocairo libass egl glesv2 lcms2
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# SwiftPM refuses two flags that Debian's pkg-config files hand it (sdl2's -D_REENTRANT, -pthread from pangocairo's
# dependencies) and warns about each on every build. Neither matters here (glibc's headers ignore _REENTRANT, and the
# link already takes libpthread through glibc), so `deps` writes copies of those two .pc files without them into
# .build-pkgconfig/, which SwiftPM reads first: builds through make are quiet. A bare `swift build` still prints
# "warning: prohibited flag(s)", harmlessly (README says so).
PKGCONFIG_QUIET := $(CURDIR)/.build-pkgconfig
SYSTEM_PKG_CONFIG_PATH := $(PKG_CONFIG_PATH)
export PKG_CONFIG_PATH := $(PKGCONFIG_QUIET)$(if $(SYSTEM_PKG_CONFIG_PATH),:$(SYSTEM_PKG_CONFIG_PATH))

.PHONY: demo test build deps bench bench-play clean fuzz fuzz-build sanitize sanitize-thread docs builtin-scenes
.PHONY: install farm-venv farm-test bench-farm test-venv

deps:
	@missing=""; \
	command -v pkg-config >/dev/null || missing="pkg-config"; \
	command -v ffmpeg >/dev/null || missing="$$missing ffmpeg"; \
	command -v python3 >/dev/null || missing="$$missing python3"; \
	for m in $(PKG_MODULES); do PKG_CONFIG_PATH="$(SYSTEM_PKG_CONFIG_PATH)" pkg-config --exists $$m 2>/dev/null || missing="$$missing $$m"; done; \
	for f in $(FONT_FILES); do [ -f $$f ] || missing="$$missing $$f"; done; \
	for f in $(RUNTIME_FILES); do [ -f $$f ] || missing="$$missing $$f"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages (missing: $$missing)"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q $(APT_PACKAGES); \
	fi
	@mkdir -p $(PKGCONFIG_QUIET); for m in sdl2 pangocairo; do \
	  flags=$$(PKG_CONFIG_PATH="$(SYSTEM_PKG_CONFIG_PATH)" pkg-config --cflags $$m | sed 's/ *-pthread//g; s/ *-D_REENTRANT//g'); \
	  libs=$$(PKG_CONFIG_PATH="$(SYSTEM_PKG_CONFIG_PATH)" pkg-config --libs $$m | sed 's/ *-pthread//g'); \
	  version=$$(PKG_CONFIG_PATH="$(SYSTEM_PKG_CONFIG_PATH)" pkg-config --modversion $$m); \
	  printf 'Name: %s\nDescription: %s without the flags SwiftPM refuses (Makefile)\nVersion: %s\nCflags: %s\nLibs: %s\n' \
	    $$m $$m "$$version" "$$flags" "$$libs" > $(PKGCONFIG_QUIET)/$$m.pc.new && mv $(PKGCONFIG_QUIET)/$$m.pc.new $(PKGCONFIG_QUIET)/$$m.pc; \
	done

# The JSON IPC test drives the player with a real mpv client library from PyPI, in a venv of its own (only the tests
# need it: `make demo` and `make build` do not).
test-venv:
	@[ -x .venv-test/bin/python ] && .venv-test/bin/python -c 'import python_mpv_jsonipc' 2>/dev/null || { \
	  python3 -m venv .venv-test 2>/dev/null || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q python3-venv && python3 -m venv .venv-test; }; \
	  .venv-test/bin/pip install -q python-mpv-jsonipc==1.5.0; }

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
test: deps test-venv
	python3 docs/tools/check_links.py
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build --disable-xctest --skip $(PLAYBACK_TESTS)
	$(SWIFT) test -c release --skip-build --disable-xctest --filter $(PLAYBACK_TESTS)
	@mkdir -p out
	$(SWIFT) run -c release --skip-build VideoCard media/ship.mp4 out/example-video-card.mp4
	$(SWIFT) run -c release --skip-build LayerDelegate out/example-layer-delegate.png
	$(SWIFT) run -c release --skip-build Clock out/example-clock.png 10:09:30
	$(SWIFT) run -c release --skip-build HitTest
	$(SWIFT) run -c release --skip-build Animations out
	$(SWIFT) run -c release --skip-build LowerThird media/ship.mp4 out/example-lower-third.mp4 "layerplay — lower third" 50
	$(SWIFT) run -c release --skip-build ShapeLayer out/example-shape-layer.png
	$(SWIFT) run -c release --skip-build GradientLayer out/example-gradient-layer.png
	$(SWIFT) run -c release --skip-build TextLayer out/example-text-layer.png
	$(SWIFT) run -c release --skip-build Emitter media/spark.png out
	$(SWIFT) run -c release --skip-build Drawable out/example-drawable.png
	d=$$(mktemp -d) && $(SWIFT) run -c release --skip-build TileCutter media/card.png $$d && \
	  test $$(ls $$d/card_*_*.png | wc -l) -eq 6 && rm -rf $$d # listing 6.11: 640 × 360 → 3 × 2 tiles
	$(SWIFT) run -c release --skip-build layerplay Config/scenes/picture-in-picture.json media/ship.mp4 media/clip.mp4 --start 1.5 --duration 1 -y -o out/scene-picture-in-picture.mp4
	$(SWIFT) run -c release --skip-build layerplay Config/scenes/lower-third.json media/ship.mp4 --set at=0 --duration 1 -y -o out/scene-lower-third.mp4
	$(SWIFT) run -c release --skip-build layerplay Config/scenes/wall.json media/ship.mp4,media/clip.mp4,media/sar.mp4 --start 2 --duration 1 -y -o out/scene-wall.mp4
	$(SWIFT) run -c release --skip-build layerplay Config/scenes/cube.json media/ship.mp4,media/clip.mp4,media/sar.mp4,media/rotated.mp4 --start 1 --duration 1 -y -o out/scene-cube.mp4
	$(MAKE) farm-test

# The render farm (Farm/, issue 29): Ray and pytest from PyPI in a virtual environment of its own (gitignored),
# remade when the package changes; its tests run the release layerplay on a local Ray cluster of simulated nodes.
# pytest's status is make's: any failure, or no test collected (5), fails `make test`.
PYTHON    ?= python3
FARM_VENV := .venv-farm
$(FARM_VENV)/.installed: Farm/pyproject.toml $(wildcard Farm/layerplay_farm/*.py)
	$(PYTHON) -m venv $(FARM_VENV)
	$(FARM_VENV)/bin/pip install -q --upgrade pip
	$(FARM_VENV)/bin/pip install -q "ray>=2.9,<3" "pytest>=7" ./Farm
	touch $@
farm-venv: $(FARM_VENV)/.installed
# The segmented-export benchmark (Benchmarks/farm.sh): not part of `make test`, timings never gate tests.
bench-farm: build
	Benchmarks/farm.sh
farm-test: farm-venv
	LAYERPLAY=$(CURDIR)/.build/release/layerplay RAY_USAGE_STATS_ENABLED=0 \
	  $(FARM_VENV)/bin/python -m pytest -q -p no:cacheprovider Farm/tests

# `make install [PREFIX=/usr/local] [DESTDIR=]`: layerplay with the Swift runtime linked in (a farm node needs no
# Swift toolchain, only the Debian packages of `make deps`), built in a scratch path of its own.
PREFIX ?= /usr/local
install: deps
	$(SWIFT) build -c release --product layerplay --static-swift-stdlib --scratch-path .build-install
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 .build-install/release/layerplay $(DESTDIR)$(PREFIX)/bin/layerplay

# The compositor benchmark (release; see README). Not part of `make test`: timings never gate tests.
bench: build
	.build/release/layerplay bench

# The README's frames of the example scenes (docs/images), remade from the bundled samples.
scene-frames: build
	docs/tools/scene_frames.sh

# Playback (headless, release): 1080p60 with the scene look and 4K30 plain, --stats each. Needs the ffmpeg CLI
# to make the clips (as Benchmarks/ffmpeg-peers.sh does).
bench-play: build
	Benchmarks/playback.sh

# Fuzzing (libFuzzer, see README): the harnesses in Fuzz/ (a package of their own: a fuzz target has no main)
# built with the fuzzer and ASan, seeded with tiny clips the ffmpeg CLI makes, each run for its share of
# FUZZ_SECONDS (FUZZ_HARNESSES in the environment picks some: FUZZ_HARNESSES=FuzzScene). Not part of `make test`.
FUZZ_SECONDS ?= 1500
FUZZ_SCRATCH := .build-fuzz
FUZZ_WORK    := $(FUZZ_SCRATCH)/work
FUZZ_BUILD   := $(SWIFT) build -c release --package-path Fuzz --scratch-path $(FUZZ_SCRATCH) \
                -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address
fuzz-build: deps
	$(FUZZ_BUILD)
fuzz: fuzz-build
	@command -v ffmpeg >/dev/null || { $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q ffmpeg; }
	@[ -d $(FUZZ_WORK)/corpus/media ] || Fuzz/scripts/make-corpus.sh $(FUZZ_WORK)/corpus
	Fuzz/scripts/run-fuzz.sh $(FUZZ_SCRATCH)/release $(FUZZ_WORK) $(FUZZ_SECONDS)

# ASan for Swift and C alike (--sanitize reaches clang too) and UBSan for the C kernels and shims (Swift on Linux
# has no -sanitize=undefined; its own arithmetic traps on overflow already), in a scratch path of its own,
# built once; then the test suite and a few CLI runs on it. SANITIZE_SKIP lists the tests that cannot run
# under a sanitizer (README says why).
ASAN_SCRATCH  := .build-asan
TSAN_SCRATCH  := .build-tsan
SANITIZE_SKIP := --skip $(PLAYBACK_TESTS)
sanitize: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing --scratch-path $(ASAN_SCRATCH) \
	  --sanitize=address -Xcc -fsanitize=undefined -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(SWIFT) test -c release --skip-build --disable-xctest --scratch-path $(ASAN_SCRATCH) $(SANITIZE_SKIP)
	Fuzz/scripts/sanitize-cli.sh $(ASAN_SCRATCH)/release/layerplay $(ASAN_SCRATCH)/cli
# ThreadSanitizer: the same. Locks are `Guarded` (TSan sees them); Fuzz/tsan.supp holds only reports judged false (none).
sanitize-thread: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing --scratch-path $(TSAN_SCRATCH) --sanitize=thread
	TSAN_OPTIONS="suppressions=$(CURDIR)/Fuzz/tsan.supp halt_on_error=1" \
	  $(SWIFT) test -c release --skip-build --disable-xctest --scratch-path $(TSAN_SCRATCH) $(SANITIZE_SKIP)
	TSAN_OPTIONS="suppressions=$(CURDIR)/Fuzz/tsan.supp halt_on_error=1" \
	  Fuzz/scripts/sanitize-cli.sh $(TSAN_SCRATCH)/release/layerplay $(TSAN_SCRATCH)/cli

clean:
	rm -rf .build out

# The DocC catalogs (Sources/*/*.docc) as static sites under out/docs/<Module>; open out/docs/<Module>/index.html
# through a web server (`python3 -m http.server -d out/docs`). A documentation warning, or a public symbol of those
# modules without a doc comment (docs/tools/doc_coverage.py), fails the build.
DOC_TARGETS ?= LayerKit LayerMedia LayerGraphics LayerCompositor LayerScene LayerDisplay LayerGL LayerGallery
docs: deps
	mkdir -p out/docs
	for t in $(DOC_TARGETS); do \
	  $(SWIFT) package --allow-writing-to-directory out/docs generate-documentation --target $$t \
	    --output-path out/docs/$$t --transform-for-static-hosting --hosting-base-path $$t --warnings-as-errors || exit 1; \
	done
	python3 docs/tools/doc_coverage.py $(DOC_TARGETS)

# The built-in scenes are compiled in (no file needed at run time); Config/scenes/card.json stays their single
# source. Run after editing it: BuiltinSceneTests fails while the copy differs.
builtin-scenes:
	@{ echo '// Generated by `make builtin-scenes` from Config/scenes/card.json: edit that file, not this one.'; \
	  echo 'extension BuiltinScenes {'; \
	  echo '    /// Config/scenes/card.json, byte for byte.'; \
	  echo '    static let card = ##"""'; \
	  cat Config/scenes/card.json; echo; \
	  echo '"""##'; \
	  echo '}'; } > Sources/LayerScene/BuiltinScenes+Card.swift
