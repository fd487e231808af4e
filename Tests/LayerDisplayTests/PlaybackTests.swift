import CSDL2
import Foundation
import LayerCompositor
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import Testing
import TestSupport

/// Playback in a window, headless (SDL's dummy drivers), through the same event path as the keys.
/// Run alone (`make test` gives these their own `swift test` run): they measure timing against a real clock.
@Suite("Playback", .serialized)
struct PlaybackTests {
    let frame = 1.0 / 25 // the samples are 25 frames per second

    @Test func playsToTheEndInSyncWithTheSound() throws {
        let (session, _) = try makeSession("clip.mp4")
        let stats = session.run()
        #expect(stats.audioClock)
        #expect(stats.framesDropped == 0, "\(stats.json)")
        #expect(stats.framesPresented >= 48 && stats.framesPresented <= 51, "\(stats.json)")
        #expect(stats.maxDriftMilliseconds <= frame * 1000, "\(stats.json)")
        // It ends by itself at the end of the file (2 s), not much later.
        #expect(stats.wallSeconds >= 1.9 && stats.wallSeconds < 3.5, "\(stats.json)")
    }

    @Test func pauseHoldsTheClockAndRendersNothing() throws {
        let (session, _) = try makeSession("clip.mp4")
        let script = Script()
        var pausedAt: PlaybackSession.State?
        script.when({ $0.clock >= 0.5 }) { _ in press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { pausedAt = $0 }
        script.when({ s in pausedAt.map { s.wallSeconds > $0.wallSeconds + 0.5 } ?? false }) { s in
            // Half a second later: the same time, no new frame.
            #expect(abs(s.clock - pausedAt!.clock) < 0.001)
            #expect(s.framesPresented <= pausedAt!.framesPresented + 1)
            press(SDLK_p)
        }
        script.when({ !$0.isPaused && $0.clock > pausedAt!.clock + 0.3 }) { _ in press(SDLK_q) }
        script.attach(to: session)
        let stats = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
        #expect(stats.framesDropped == 0, "\(stats.json)")
    }

    @Test func stepShowsTheNextFrameAndStaysPaused() throws {
        let (session, _) = try makeSession("clip.mp4")
        let script = Script()
        var before: Double?
        script.when({ $0.clock >= 0.6 }) { _ in press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { s in before = s.presentedTime; press(SDLK_s) }
        script.when({ s in s.presentedTime != before }) { s in
            let shown = try! #require(before), now = try! #require(s.presentedTime)
            #expect(abs(now - (shown + frame)) < 0.002, "stepped from \(shown) to \(now)")
            #expect(s.isPaused)
            before = now
            press(SDLK_s)
        }
        script.when({ s in s.presentedTime != before }) { s in
            #expect(abs(s.presentedTime! - (before! + frame)) < 0.002)
            press(SDLK_q)
        }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
    }

    @Test func seeksByKeysAndClicksAndNeverShowsOldFrames() throws {
        let (session, _) = try makeSession("clip.mp4")
        let script = Script()
        var mark = 0.0
        // → jumps 10 s: past the end of a 2 s clip, so it stops at the last frame.
        script.when({ $0.clock >= 0.3 }) { _ in press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { _ in press(SDLK_RIGHT) }
        script.when({ ($0.presentedTime ?? 0) > 1.5 }) { s in
            #expect(abs(s.presentedTime! - 1.96) < 0.002)
            press(SDLK_LEFT) // back 10 s: the start
        }
        script.when({ ($0.presentedTime ?? 1) < 0.5 }) { s in
            #expect(s.presentedTime == 0)
            click(x: 64) // the middle of a 128-point window: 1 s
        }
        script.when({ ($0.presentedTime ?? 0) > 0.5 }) { s in
            #expect(abs(s.presentedTime! - 1.0) < 0.002)
            mark = s.wallSeconds
            press(SDLK_SPACE)
        }
        script.when({ $0.wallSeconds > mark + 0.4 }) { s in
            // Playing on from 1 s: every frame shown since is after the seek.
            #expect(s.clock > 1.2 && s.clock < 1.6, "clock \(s.clock)")
            #expect(s.presentedTime! >= 1.0)
            press(SDLK_q)
        }
        script.attach(to: session)
        let stats = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
        #expect(stats.framesDropped == 0, "\(stats.json)")
    }

    @Test func loopsWithoutAGapAndTheTimelineRunsOn() throws {
        let (session, _) = try makeSession("clip.mp4", loops: true, spin: 4)
        let script = Script()
        script.when({ $0.clock >= 2.6 }) { _ in press(SDLK_q) }
        script.attach(to: session)
        let stats = session.run()
        #expect(script.finished)
        #expect(stats.audioClock)
        #expect(stats.framesDropped == 0, "\(stats.json)")
        #expect(stats.maxDriftMilliseconds <= frame * 1000, "\(stats.json)")
        // With a spin, frames come at the display rate (60 Hz without a known refresh): 2.6 s of them.
        #expect(stats.framesPresented > Int(2.4 * 60), "\(stats.json)")
    }

    @Test func keysChangeVolumeMuteAndFullscreen() throws {
        let (session, _) = try makeSession("clip.mp4")
        let script = Script()
        script.when({ $0.clock >= 0.2 }) { _ in press(SDLK_9); press(SDLK_9); press(SDLK_m); press(SDLK_f) }
        script.when({ $0.isMuted }) { s in
            #expect(abs(s.volume - 0.8) < 1e-9)
            #expect(s.isFullscreen)
            press(SDLK_0); press(SDLK_m)
        }
        script.when({ !$0.isMuted }) { s in
            #expect(abs(s.volume - 0.9) < 1e-9)
            press(SDLK_ESCAPE)
        }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished, "the script stopped at step \(script.log.count)")
    }

    @Test func resizingTheWindowScalesTheCanvasToFit() throws {
        // CLI.md: resizing or fullscreen scales the whole canvas (letterboxed, as a video player does); the tree keeps
        // its layout. Before, the card was laid out again for the window: a close-up at another shape.
        var sizes: [(Int, Int)] = []
        let (session, scene) = try makeSession("clip.mp4")
        let script = Script()
        var presentedBefore = 0
        var after: PlaybackSession.State?
        script.when({ $0.clock >= 0.3 }) { s in
            presentedBefore = s.framesPresented
            // The only window of the process: what a user dragging its corner would do.
            let window = try! #require(SDL_GetWindowFromID(1))
            SDL_SetWindowSize(window, 200, 100)
        }
        script.when({ $0.framesPresented > presentedBefore + 5 }) { s in after = s; press(SDLK_q) }
        script.attach(to: session)
        session.onLayout = { w, h in sizes.append((w, h)) }
        _ = session.run()
        #expect(script.finished)
        #expect(sizes.count == 1 && sizes.first.map { $0 == (128, 72) } ?? false, "laid out once, at the start: \(sizes)")
        #expect(scene.root.bounds.size.width == 128 && scene.root.bounds.size.height == 72)
        let state = try #require(after)
        #expect(state.canvasWidth == 128 && state.canvasHeight == 72 && state.windowWidth == 200 && state.windowHeight == 100)
        #expect(abs(state.presentationScale - 100.0 / 72) < 1e-9, "fits the height: \(state.presentationScale)")
    }

    @Test func anEmitterAloneKeepsTheWindowDrawing() throws {
        // No player and no animation: the particles still move, so the session keeps making frames (before, a
        // library tree of an emitter alone showed its first frame for the whole second).
        useDummyDrivers()
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 128, height: 72)
        let emitter = EmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = Point(x: 64, y: 72)
        let cell = EmitterCell()
        cell.contents = Image(width: 4, height: 4, color: .white)
        cell.birthRate = 30; cell.lifetime = 2; cell.velocity = 40
        emitter.emitterCells = [cell]
        Transaction.withoutActions { root.addSublayer(emitter) }
        let options = PlaybackSession.Options(title: "emitter", range: PlaybackRange(start: 0, end: 1, loops: false), frameRate: 30)
        let session = try PlaybackSession(root: root, size: (128, 72), player: nil, audioPath: nil, options: options) { _, _ in }
        let stats = session.run()
        #expect(stats.framesRendered >= 20, "frames in 1 s at 30 frames/s: \(stats.framesRendered)")
    }

    @Test func aWindowThatOpensSmallerThanTheCanvasShowsAllOfIt() throws {
        // A window fitted to a small screen (or opened fullscreen) is not the canvas's size from the start. The
        // canvas keeps the size asked for and is scaled to the window; before, it was laid out at the window's size
        // while the tree kept the requested one, so the window showed a 1:1 crop of its top-left corner.
        var sizes: [(Int, Int)] = []
        let (session, scene) = try makeSession("clip.mp4")
        let window = try #require(SDL_GetWindowFromID(1))
        SDL_SetWindowSize(window, 64, 36) // what Window.init does when the screen is smaller than the canvas
        let script = Script()
        var seen: PlaybackSession.State?
        script.when({ $0.framesPresented >= 3 }) { s in seen = s; press(SDLK_q) }
        script.attach(to: session)
        session.onLayout = { w, h in sizes.append((w, h)) }
        _ = session.run()
        #expect(script.finished)
        #expect(sizes.count == 1 && sizes.first.map { $0 == (128, 72) } ?? false, "laid out at the canvas size: \(sizes)")
        #expect(scene.root.bounds.size.width == 128 && scene.root.bounds.size.height == 72)
        let state = try #require(seen)
        #expect(state.canvasWidth == 128 && state.canvasHeight == 72 && state.windowWidth == 64 && state.windowHeight == 36, "\(state)")
        #expect(abs(state.presentationScale - 0.5) < 1e-9, "scaled down to fit: \(state.presentationScale)")
    }

    @Test func theOnScreenDisplaySaysWhereASeekWentAndFades() throws {
        let (session, scene) = try makeSession("clip.mp4", loops: true)
        let script = Script()
        var afterSeek: String?, afterPause: String?, seekedAt = 0.0
        var faded: String?? = .none
        script.when({ $0.clock >= 0.2 }) { s in
            var click = InputBindings.clickEvent(x: 64) // half of the 128-point window: 1 s of 2
            SDL_PushEvent(&click)
            seekedAt = s.wallSeconds
        }
        script.when({ s in s.wallSeconds > seekedAt + 0.3 && seekedAt > 0 }) { _ in afterSeek = session.osd?.message }
        script.when({ s in s.wallSeconds > seekedAt + 1.8 }) { _ in faded = .some(session.osd?.message); press(SDLK_SPACE) }
        script.when({ $0.isPaused }) { _ in afterPause = session.osd?.message; press(SDLK_q) }
        script.attach(to: session)
        _ = session.run()
        #expect(script.finished)
        #expect(afterSeek == "0:01 / 0:02", "\(String(describing: afterSeek))")
        #expect(faded == .some(nil), "gone after 1.5 s: \(String(describing: faded))")
        #expect(afterPause == "Paused")
        // The display is never a layer of the played tree: it is drawn over the window (WindowOverlay).
        #expect(scene.root.sublayers?.contains { $0.name == "osd" } == false)
    }

    @Test func keepOpenStaysOnTheLastFrameUntilQuit() throws {
        // --keep-open: the range ends at 0.5 s; the session stays, paused on the last frame, until q.
        let (session, _) = try makeSession("clip.mp4", duration: 0.5, keepOpen: true)
        let script = Script()
        var endedAt: Double?
        var stayed: PlaybackSession.State?
        script.when({ $0.isPaused && $0.clock >= 0.5 }) { s in endedAt = s.wallSeconds }
        script.when({ s in endedAt.map { s.wallSeconds > $0 + 0.4 } ?? false }) { s in stayed = s; press(SDLK_q) }
        script.attach(to: session)
        let stats = session.run()
        #expect(script.finished, "the session quit by itself at the end")
        let state = try #require(stayed)
        #expect(state.isPaused && state.clock >= 0.5 && state.clock < 0.6, "\(state)")
        // The last frame of the range (0.48 s at 25 frames/s) is what stays on screen.
        #expect(state.presentedTime.map { abs($0 - 0.48) < 1e-6 } ?? false, "\(String(describing: state.presentedTime))")
        #expect(stats.wallSeconds > 0.9)
    }

    @Test func aSceneThatAsksForRelayoutIsLaidOutAgain() throws {
        var sizes: [(Int, Int)] = []
        let (session, scene) = try makeSession("clip.mp4", relayoutOnResize: true)
        let script = Script()
        var presentedBefore = 0
        script.when({ $0.clock >= 0.3 }) { s in
            presentedBefore = s.framesPresented
            SDL_SetWindowSize(SDL_GetWindowFromID(1), 200, 100)
        }
        script.when({ $0.framesPresented > presentedBefore + 5 }) { _ in press(SDLK_q) }
        script.attach(to: session)
        session.onLayout = { w, h in sizes.append((w, h)) }
        _ = session.run()
        #expect(script.finished)
        #expect(sizes.last.map { $0 == (200, 100) } ?? false, "\(sizes)")
        #expect(scene.root.bounds.size.width == 200)
    }

    @Test func aVideoWithoutSoundRunsOnTheHostClock() throws {
        let (session, _) = try makeSession("sar.mp4")
        let stats = session.run()
        #expect(!stats.audioClock)
        #expect(stats.framesDropped == 0, "\(stats.json)")
        #expect(stats.framesPresented >= 24 && stats.framesPresented <= 26, "\(stats.json)")
        #expect(stats.maxDriftMilliseconds <= frame * 1000, "\(stats.json)")
        #expect(stats.wallSeconds >= 0.9 && stats.wallSeconds < 2.5)
    }

    @Test func soundOnlyPlaysTheCanvasUntilTheSoundEnds() throws {
        let (session, _) = try makeSession("tone.m4a")
        let stats = session.run()
        #expect(stats.audioClock)
        // Nothing moves: one frame, then no rendering until the end.
        #expect(stats.framesRendered == 1, "\(stats.json)")
        #expect(stats.wallSeconds >= 0.9 && stats.wallSeconds < 2.5, "\(stats.json)")
    }
}

/// One clock (SEMANTICS-ANIMATION.md §1): a window started at 1 s shows at each time what a still of the same tree
/// shows at that time, video and spin alike (OneClockTests holds an export's frames to the same stills).
extension PlaybackTests {
    @Test func theWindowShowsWhatAStillShowsAtTheSameTime() throws {
        let (session, _) = try makeSession("clip.mp4", start: 1, duration: 0.5, spin: 2)
        var shown: (time: Double, width: Int, height: Int, pixels: [UInt32])?
        session.onPresent = { time, surface in
            guard shown == nil else { return }
            var pixels: [UInt32] = []
            for y in 0..<surface.height {
                pixels += UnsafeBufferPointer(start: surface.pixels + y * surface.pixelsPerRow, count: surface.width)
            }
            shown = (time, surface.width, surface.height, pixels)
        }
        session.onTick = { state in if state.framesPresented >= 1 { press(SDLK_q) } }
        _ = session.run()
        let frame = try #require(shown)
        #expect(abs(frame.time - 1) < 1e-9, "the first frame is the range's start, 1 s; it was \(frame.time)")

        // The same scene, built afresh with its own player, drawn as a still at the frame's time.
        let player = try Player(path: mediaSample("clip.mp4"))
        let scene = SmallScene(player: player)
        let spin = BasicAnimation(keyPath: "transform.rotation.y")
        spin.fromValue = 0.0; spin.toValue = 2 * Double.pi; spin.duration = 2; spin.repeatCount = .infinity; spin.isAdditive = true
        scene.container.add(spin, forKey: "spin")
        scene.layout(frame.width, frame.height)
        let still = Compositor().render(scene.root.snapshot(at: frame.time), width: frame.width, height: frame.height)
        var differing = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width where still.pixels[y * still.pixelsPerRow + x] != frame.pixels[y * frame.width + x] {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) of \(frame.width * frame.height) pixels differ from the still at \(frame.time) s")
    }
}
