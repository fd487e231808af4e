import CSDL2
import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// Plays a layer tree in a window, in time with a master clock (the sound's when there is sound), and obeys
/// the keys: the `layerplay FILE` experience.
///
/// The main thread handles events, builds snapshots at the times frames are due and presents them; a render
/// thread composites the next frame meanwhile; decoding runs on the player's and the sound's own threads.
/// Frames are scheduled on a grid of the video's frame rate (the display's refresh rate while animations
/// run); a frame that would be shown after the next one is due is dropped and counted, and while the decoder is
/// slower than the clock the newest decoded frame stands in for the late one (the rest counted). Nothing is rendered
/// while paused unless something changes (a seek, a step, a resize).
public final class PlaybackSession {
    /// How a session plays: the window's title, the range (and whether it loops), the frame grid, fullscreen, sound.
    public struct Options: Sendable {
        /// The window's title (the file or scene name).
        public var title: String
        /// The timeline range played, in seconds, and whether it loops.
        public var range: PlaybackRange
        /// The video's frame rate (frames are scheduled on its grid); nil for stills and sound only.
        public var frameRate: Double?
        /// Start fullscreen (`--fs`); f toggles it while playing.
        public var fullscreen = false
        /// Lay the tree out again for the window's new size on a resize or fullscreen (a scene that asks for
        /// `"resize": "relayout"`); by default the canvas keeps its size and is scaled to fit, letterboxed, as a video
        /// player scales its picture.
        public var relayoutOnResize = false
        /// At the end of a range that does not loop, stay on its last frame, paused, until quit (ffplay's and mpv's
        /// `--keep-open`); seeking past the end shows the last frame.
        public var keepOpen = false
        /// Show the on-screen display (seeks, volume, mute, pause); `--no-osd` turns it off.
        public var showsOSD = true
        /// Start with the sound muted (m toggles it).
        public var muted = false
        /// The starting volume, 0…1 (9 and 0 step it).
        public var volume = 1.0
        /// Timeline seconds per wall second, 0.25–4 (`--speed`; `[` `]` `{` `}` Backspace change it): the sound keeps
        /// its pitch, and animations run at the same speed (one clock).
        public var speed = 1.0
        /// Seconds of the sound (`audioPath`) before timeline time 0: timeline time `t` plays the sound's `t +
        /// audioOffset` (a scene's audio input's `start`). Not finite: 0; negative: silence until the sound starts.
        public var audioOffset = 0.0
        /// The sound wraps at this media time (a scene's looping audio input: its duration), in step with its
        /// picture; nil: it plays once.
        public var audioLoopLength: Double?
        /// Whether the input can seek: false for a live input (no duration, issue 28), whose seek keys then only say
        /// so on the on-screen display.
        public var seekable = true
        /// The input is live (issue 28): the session ends when its stream does, once its last decoded frame is on screen
        /// and its sound has played out, as at the end of a range (`--keep-open` stays on that frame); and its sound
        /// follows the stream's clock: a gap in the stream (a `--reconnect`) is silence as long as the gap, and while the
        /// sound runs dry the clock goes on on the host clock rather than stop.
        public var live = false
        /// The input's chapters (PgUp/PgDn move between them; the `chapter` property).
        public var chapters: [Chapter] = []
        /// Where and how the window opens (`--geometry`, `--autofit`, `--ontop`, `--no-border`).
        public var placement = WindowPlacement()
        /// The sound device by SDL's name (`--audio-device`; nil: the default).
        public var audioDevice: String?
        /// Where in the range playback starts (a resumed position); nil: its start.
        public var startPosition: Double?
        /// The input's file name (the `filename` property; nil: the title).
        public var fileName: String?
        /// The sound of a playlist played on one timeline (`PlaylistAudioMix`), played instead of `audioPath`'s.
        public var audioMix: PlaylistAudioMix?
        /// mpv's `--framedrop=decoder`: a decoder behind the clock skips non-reference frames until it catches up
        /// (`Player.dropsLateFrames`); off, every frame is decoded however late (a test's baseline).
        public var dropsLateFramesInDecoder = true
        /// Options with a title, a range and a frame grid; windowed, OSD on, sound on at full volume, quitting at the end.
        public init(title: String, range: PlaybackRange, frameRate: Double?) {
            self.title = title; self.range = range; self.frameRate = frameRate
        }
    }

    /// What the playback is doing, for observers (tests drive keys from it).
    public struct State: Sendable {
        /// The master clock's time on the timeline, in seconds.
        public var clock: Double
        /// Whether playback is paused.
        public var isPaused: Bool
        /// Timeline time of the last frame on screen.
        public var presentedTime: Double?
        /// Frames shown on screen so far.
        public var framesPresented: Int
        /// Seconds of wall time since `run()` began.
        public var wallSeconds: Double
        /// The sound's volume, 0…1.
        public var volume: Double
        /// Whether the sound is muted.
        public var isMuted: Bool
        /// Whether the window is fullscreen.
        public var isFullscreen: Bool
        /// The canvas width the tree is laid out and composited at, in pixels.
        public var canvasWidth: Int
        /// The canvas height the tree is laid out and composited at, in pixels.
        public var canvasHeight: Int
        /// The window's drawable width in pixels; the canvas is scaled to fit the window, centred (letterboxed).
        public var windowWidth: Int
        /// The window's drawable height in pixels.
        public var windowHeight: Int
        /// Frames dropped so far: due, but not shown because rendering fell behind the clock.
        public var framesDropped = 0
        /// The last shown frame's time minus the master clock's at that moment, in milliseconds (the status line's A-V).
        public var avDifferenceMilliseconds = 0.0
        /// The media time at the clock's time: the clock's time within the loop playing (nil: the clock's time).
        public var position: Double?
        /// The range's length now, in seconds (a playlist's grows when `loadfile … append` adds an item; nil: the
        /// length the status line was made with).
        public var length: Double?
        /// The factor the canvas is shown at: the largest that fits the window.
        public var presentationScale: Double {
            min(Double(windowWidth) / Double(max(canvasWidth, 1)), Double(windowHeight) / Double(max(canvasHeight, 1)))
        }
    }

    let root: Layer
    let player: Player?
    /// How the session plays; only a playlist's timeline changes it while playing (`loadfile PATH append` extends its range).
    var options: Options
    private let layout: (Int, Int) -> Void
    let window: Window
    let audio: AudioOutput?
    let clock: PlaybackClock
    private let renderer = FrameRenderer()
    var statistics = PlaybackStatistics()

    /// The media time on the clock now (where a resumed playback starts).
    public var position: Double { options.range.mediaTime(clock.time) }
    /// The timeline range played.
    public var range: PlaybackRange { options.range }
    /// Which command each key runs (`InputBindings.defaults` unless the host loads the user's input.conf over them).
    public var bindings = InputBindings.defaults
    /// The exit status a `quit CODE` command asked for (nil: none; the host decides).
    public internal(set) var requestedExitCode: Int32?
    /// The signal that ended the session (SIGINT, SIGTERM…), when one did.
    public internal(set) var interruptedBy: Int32?
    /// Whether the session ended with `quit-watch-later` (Q): the host saves the position to resume from.
    public internal(set) var quitWatchLater = false

    /// The inputs played in turn (nil: this session's tree alone): `playlist-next`, `playlist-prev`, `loadfile` and
    /// `playlist-pos` move it and end the session (`endReason` `.playlistMove`); the host then plays its `current`.
    public var playlist: Playlist?
    /// The JSON IPC (`--input-ipc-server`), served each turn of the loop; it outlives the session.
    public var ipc: PlayerIPC?
    /// Why `run()` returned.
    public enum EndReason: String, Sendable {
        /// The range played to its end.
        case eof
        /// A quit command, a closed window, a signal.
        case quit
        /// The playlist moved: the host plays its `current` item next.
        case playlistMove = "stop"
    }
    /// Why the last `run()` ended (mpv's `end-file` reason).
    public internal(set) var endReason = EndReason.eof
    /// Where `screenshot` (S) writes its PNGs (nil: the current directory, as mpv).
    public var screenshotDirectory: String?

    /// Called on the main thread each turn of the loop, before events are read: a test or a script can
    /// push SDL events (`SDL_PushEvent`) that then go through the same path as keys.
    public var onTick: ((State) -> Void)?
    /// Called after the tree was laid out for a new canvas size (the start, a resize), with that size.
    public var onLayout: ((Int, Int) -> Void)?
    /// Called with each composited frame just before it is shown: its time on the timeline and its pixels (valid
    /// during the call only). For tests and screenshots; frames of a video shown as it is (`DirectVideo`) are not
    /// passed.
    public var onPresent: ((Double, Surface) -> Void)?
    /// The subtitles in the tree, which `t` cycles through.
    public var subtitles: SubtitleLayer?
    /// For a tree whose videos are not `player`'s (a scene's several inputs, each on its own decode thread):
    /// whether compositing the tree at a time would now wait for a decoder (`Layer.videoWouldWait(at:)`). Set, the
    /// tree's frames change with time, and the session waits on it as it does on `player`. Set before `run()`.
    public var videoWouldWait: ((Double) -> Bool)?
    /// Carries out `scene-set NAME VALUE` at the given clock time for a host that plays a scene (nil: the command
    /// says no scene is playing); returns what the OSD shows, throws (any error, said in one line) to refuse it.
    public var sceneSet: ((_ name: String, _ value: String, _ time: Double) throws -> String)?
    /// The playing scene's params and their values now, as `--set` writes them (the IPC's `get_property
    /// scene-params`); nil: no scene is playing.
    public var sceneParams: (() -> [String: String])?
    /// Called on the main thread with a frame's time just before the tree is snapshotted for it: a host that poses
    /// the tree for each time (a playlist's `PlaylistTree.pose(at:)`) does it here, as its export does.
    public var willSnapshot: ((Double) -> Void)?
    /// A playlist played on one timeline in this one window (issue 30): `playlist-next` and `playlist-prev` seek on it
    /// instead of ending the session, and the title and `playlist-pos` follow the item playing. Set before `run()`.
    public var playlistTree: PlaylistTree?
    /// Opens an input and appends it to `playlistTree`'s timeline and the sound's mix (`loadfile PATH append` while a
    /// playlist plays on one timeline); throws, said in one line, when it cannot (nothing is then changed). The host
    /// sets it with `playlistTree`; the session then extends its range and the playlist.
    public var appendToTimeline: ((String) throws -> Void)?

    /// Opens the window (and the sound device when `audioPath` is given).
    /// - Parameters:
    ///   - root: the tree to play; the on-screen display is added to it while `run()` runs.
    ///   - size: the canvas in pixels, which is also the window's first size.
    ///   - player: the video player the session keeps fed and seeks (nil: none).
    ///   - audioPath: the file whose sound plays and drives the clock (nil: the host's clock).
    ///   - options: the title, range, frame grid and window and sound settings.
    ///   - layout: lays the tree out for a canvas of the given pixel size (called at the start and on resize).
    public init(root: Layer, size: (width: Int, height: Int), player: Player?, audioPath: String?, options: Options,
                layout: @escaping (Int, Int) -> Void) throws {
        self.root = root
        self.player = player
        self.options = options
        self.layout = layout
        requestedSize = (max(1, size.width), max(1, size.height))
        window = try Window(title: options.title, width: size.width, height: size.height, fullscreen: options.fullscreen,
                            placement: options.placement)
        // The sound's samples carry timeline times whatever its placement, so its device clock is the timeline's.
        let placement = AudioPlacement(offset: options.audioOffset, loopLength: options.audioLoopLength)
        if let mix = options.audioMix, let output = Self.openSound(options, { try AudioOutput(range: options.range, device: options.audioDevice) { mix } }) {
            audio = output
            clock = output
        } else if options.audioMix == nil, let audioPath,
                  let output = Self.openSound(options, { try AudioOutput(path: audioPath, range: options.range, placement: placement, device: options.audioDevice, live: options.live) }) {
            audio = output
            clock = output
        } else {
            audio = nil
            clock = MonotonicClock(start: options.range.start)
        }
        player?.range = options.range
        statistics.audioClock = audio != nil
        let speed = min(max(options.speed, Self.speeds.lowerBound), Self.speeds.upperBound)
        if speed != 1 { clock.setSpeed(speed) }
    }

    /// The sound device, or nil (with a warning) when there is none: the video still plays, on the host clock,
    /// as ffplay does.
    private static func openSound(_ options: Options, _ open: () throws -> AudioOutput) -> AudioOutput? {
        do {
            let output = try open()
            output.volume = options.volume
            output.isMuted = options.muted
            return output
        } catch {
            StandardError.writeLine("layerplay: warning: playing without sound: \(error)")
            return nil
        }
    }

    deinit {
        renderer.stop()
        audio?.close()
    }

    // MARK: The loop

    private var serial = 0
    var nextTick = 0.0
    private var ready: FrameRenderer.Frame?
    /// A frame must be shown even if late (after a seek, a step, a resize, at the start).
    private var mustShow = true
    private var needsFrame = true
    var presentedTime: Double?
    var quit = false
    /// Seconds of compositing a frame, smoothed.
    private var renderEstimate = 0.0
    /// Seconds that showing a frame takes (upload, copy, present), smoothed: frames start that much early.
    private var presentEstimate = 0.0

    /// Moves a smoothed duration a fifth of the way to a new measurement (the first measurement as it is).
    private static func smooth(_ estimate: inout Double, _ measured: Double) {
        estimate = estimate == 0 ? measured : 0.8 * estimate + 0.2 * measured
    }
    var canvas = (width: 0, height: 0)
    /// The canvas size the host asked for. A window may open smaller (fitted to the screen) or fullscreen; the
    /// canvas keeps this size and is scaled to the window, unless the host lays out again on resizes.
    private let requestedSize: (width: Int, height: Int)
    /// The on-screen display, in `overlay` while the session runs (nil with `showsOSD` off).
    public private(set) var osd: OnScreenDisplay?
    /// The bottom left notice display (a failed scene reload's error line until it loads again), in `overlay` while
    /// the session runs; made on the first `showNotice(_:)` and kept also with `showsOSD` off, since what it says
    /// is an error the user needs to see.
    public private(set) var notice: OnScreenDisplay?
    /// The statistics overlay (`i`), in `overlay` while shown; updated twice a second.
    var statsOverlay: OnScreenDisplay?
    /// The on-screen displays drawn at the window's pixels over every picture presented, outside the played tree.
    let overlay = WindowOverlay()
    /// When the overlay was last updated (wall seconds), and the frames presented then (its fps is over that span).
    var statsSample = (wall: 0.0, presented: 0, dropped: 0)
    /// The A-B loop's points, timeline times (`l`: A, then B, then off; mpv's `ab-loop-a`, `ab-loop-b`).
    var abLoop: (a: Double?, b: Double?) = (nil, nil)
    /// The speeds a session plays at (mpv allows more; below 0.25× or above 4× the sound is no longer useful).
    public static let speeds = 0.25...4.0
    /// The last shown frame's time minus the clock's, in milliseconds (the status line's A-V).
    var lastDifference = 0.0
    /// Whether an animation runs at the clock's time, judged once per turn of the loop.
    private var animating = false
    /// The display's refresh rate (60 when SDL does not know it), read at the start and after a resize.
    private var refreshRate = 60.0
    /// The clock is held until the frame of a new position (the start, a seek) reaches the screen, so that
    /// playback never starts behind.
    var resumeOnShow = false {
        didSet { firstShowDeadline = nil }
    }
    /// Until when the frame of a new position may wait for the decoder to hold the next three frames too, its whole
    /// queue (set when the frame is first ready): a 4K HEVC decoder's first frames come slower than its steady pace,
    /// and a clock started at once dropped them (two frames ahead still dropped one now and then). Showing the first
    /// frame a little later keeps motion starting a frame after it (mpv, too, starts once its queue is full).
    private var firstShowDeadline: Double?

    /// Plays until the end of the range (unless it loops) or until quit.
    public func run() -> PlaybackStatistics {
        let began = hostSeconds()
        canvas = options.relayoutOnResize ? window.pixelSize : requestedSize
        refreshRate = window.refreshRate ?? 60
        Transaction.withoutActions {
            layout(canvas.width, canvas.height)
            onLayout?(canvas.width, canvas.height)
        }
        if options.showsOSD {
            let display = OnScreenDisplay()
            overlay.add(display)
            osd = display
        }
        // Between frames the tree's "now" is the playback clock (SEMANTICS-ANIMATION.md §3): an animation added in
        // `onTick` begins at the clock's time, not at the frame rendered ahead of it.
        root.setHostClock { [clock] in clock.time }
        letDecodersDropLateFrames()
        defer {
            root.setHostClock(nil)
            Transaction.withoutActions {
                osd?.layer.removeFromSuperlayer()
                notice?.layer.removeFromSuperlayer()
                statsOverlay?.layer.removeFromSuperlayer()
            }
            notice = nil
            statsOverlay = nil
        }
        ipc?.event("start-file", ["playlist_entry_id": (playlist?.index ?? 0) + 1])
        let first = min(max(options.startPosition ?? options.range.start, options.range.start), options.range.end)
        nextTick = first
        clock.seek(to: first)
        resumeOnShow = true // the clock starts when the first frame is on screen
        var event = SDL_Event()
        while !quit {
            onTick?(state(since: began))
            while SDL_PollEvent(&event) != 0 { handle(event) }
            ipc?.serve(self)
            // Ctrl-C, SIGTERM: noted (by a host inside `Interruption.during`) and ended as a quit, so that the host
            // can still save the position and exit with the shell's 128 + signal.
            do { try Interruption.check(writing: "") } catch let error as InterruptedError {
                interruptedBy = error.signal
                end(.quit)
            } catch {
                end(.quit)
            }
            if quit { break }
            if let osd, osd.update(at: hostSeconds()), clock.isPaused { invalidate() }
            if let notice, notice.update(at: hostSeconds()), clock.isPaused { invalidate() }
            updateStatsOverlay()
            followPlaylistTree()
            var now = clock.time
            if let a = abLoop.a, let b = abLoop.b, b > a, now >= b, !clock.isPaused {
                seek(to: a)
                now = clock.time
            }
            // Animations, layers that draw differently over time (particles, drawn sound), and tiles still arriving
            // or fading in (§6) all change the picture.
            let tilesPending = renderer.isDrawingTiles
            animating = root.changesOverTime(at: now) || tilesPending
            if tilesPending && clock.isPaused && ready == nil { needsFrame = true }
            if !options.range.loops && options.range.end.isFinite && now >= options.range.end && !needsFrame {
                guard options.keepOpen else { endReason = .eof; countUnshownAtEnd(); break }
                // Stays on the last frame, paused; keys still work (a seek back plays again).
                if !clock.isPaused { clock.setPaused(true) }
            }
            if options.live && !options.keepOpen && inputHasEnded() { endReason = .eof; break }
            collectRendered(now: now)
            // The next frame is handed to the renderer before this one is uploaded, so that compositing never
            // waits on the upload (a 1080p upload is a few milliseconds of copying).
            submitNext(now: clock.time)
            presentIfDue()
            submitNext(now: clock.time)
            waitBriefly()
        }
        statistics.wallSeconds = hostSeconds() - began
        noteDecoderDrops()
        clock.setPaused(true)
        ipc?.sessionEnded()
        ipc?.event("end-file", ["reason": endReason.rawValue, "playlist_entry_id": (playlist?.index ?? 0) + 1])
        return statistics
    }

    private func state(since began: Double) -> State {
        State(clock: clock.time, isPaused: clock.isPaused && !resumeOnShow, presentedTime: presentedTime, framesPresented: statistics.framesPresented,
              wallSeconds: hostSeconds() - began, volume: audio?.volume ?? options.volume, isMuted: audio?.isMuted ?? options.muted,
              isFullscreen: window.isFullscreen, canvasWidth: canvas.width, canvasHeight: canvas.height,
              windowWidth: window.pixelSize.width, windowHeight: window.pixelSize.height,
              framesDropped: statistics.framesDropped, avDifferenceMilliseconds: lastDifference,
              position: options.range.mediaTime(clock.time), length: options.range.length)
    }

    /// Timeline seconds between scheduled frames: the video's, or the display's refresh while animations run. Played
    /// faster than the display can show every frame (`--speed 2` at 60 frames/s on a 60 Hz display), every k-th
    /// frame of that grid: frames stay on the video's grid, at most one per refresh.
    var tick: Double {
        let video = options.frameRate ?? 0
        let base = 1 / (animating ? max(video, refreshRate) : (video > 0 ? video : 30))
        let speed = clock.speed
        guard speed > 1 else { return base }
        return base * max(1, (speed / base / refreshRate - 1e-9).rounded(.up))
    }

    /// Wall seconds as timeline seconds at the current speed (estimates are measured in wall time).
    private func timeline(_ wall: Double) -> Double { wall * clock.speed }

    /// Whether frames change with time (a video or an animation); otherwise only events make new frames.
    private var isTimeVarying: Bool { player != nil || videoWouldWait != nil || animating }

    /// Whether a live input's stream has ended here (`Options.live`): its last frame is the one on screen
    /// (frames rendered since can only show it again) and its sound has played out. Never waits for a decoder (the
    /// player is asked what it knows now), so the loop stays responsive while the stream is merely slow.
    private func inputHasEnded() -> Bool {
        guard !clock.isPaused else { return false }
        if let audio, !audio.hasPlayedOut { return false }
        guard let player else { return audio != nil }
        guard let shown = presentedTime else { return false }
        return player.hasEndedNow(at: shown)
    }

    /// The range ended: frames of its grid that were due and never reached the screen (still waiting for the
    /// decoder, or rendered and not shown) are dropped frames too.
    private func countUnshownAtEnd() {
        guard isTimeVarying else { return }
        let step = tick
        var due = nextTick
        while due < options.range.end - 1e-6 { due += step; statistics.framesDropped += 1 }
        if ready != nil { statistics.framesDropped += 1 }
    }

    private func collectRendered(now: Double) {
        guard ready == nil, let frame = renderer.take(waiting: 0) else { return }
        stash(frame)
    }

    private func presentIfDue() {
        guard let frame = ready else { return }
        if resumeOnShow {
            let deadline = firstShowDeadline ?? hostSeconds() + 0.5
            firstShowDeadline = deadline
            if !(player?.holdsFrames(after: frame.time, count: 3) ?? true) && hostSeconds() < deadline { return }
        }
        let now = clock.time
        if !mustShow {
            // Early: wait until showing it takes it on screen at its time (the upload and the copy take a while:
            // a 4K picture's conversion in SDL's software renderer, tens of milliseconds).
            if now < frame.time - timeline(presentEstimate + 0.0005) { return }
            // Late by a whole frame and a newer one is rendered: drop this one (ffplay's frame dropping).
            // Without a newer one, showing it late beats showing nothing; the drift records how late.
            if now >= frame.time + tick, let newer = renderer.take(waiting: 0) {
                statistics.framesDropped += 1
                release(frame)
                ready = nil
                stash(newer)
                return presentIfDue()
            }
        }
        let presentBegan = hostSeconds()
        overlay.update([osd, notice, statsOverlay].compactMap { $0 }, canvas: canvas, window: window)
        switch frame.picture {
        case .surface(let surface):
            onPresent?(frame.time, frame.target?.surface ?? surface)
            if let target = frame.target { window.present(target) } else { window.present(surface) }
        case .direct(let video):
            window.present(video)
            if let target = frame.target { window.discard(target) }
        case .overVideo(let video, let surface):
            if let target = frame.target { window.present(video, canvas: target) } else { window.present(video, surface: surface) }
        }
        if frame.target == nil { renderer.recycle(frame) }
        // Not the first frame of a position (a new texture, a first upload), and never more than half a frame.
        let took = min(hostSeconds() - presentBegan, tick / 2)
        if !mustShow { Self.smooth(&presentEstimate, took) }
        ready = nil
        mustShow = false
        presentedTime = frame.time
        statistics.framesPresented += 1
        if statistics.framesPresented == 1 { ipc?.event("file-loaded") }
        statistics.noteShown(frame.time, at: hostSeconds())
        if resumeOnShow {
            // The clock starts (again) at this frame's time: it is in sync by definition.
            resumeOnShow = false
            clock.setPaused(false)
            nextTick = frame.time + tick
        } else if !clock.isPaused {
            lastDifference = (frame.time - clock.time) * 1000
            statistics.maxDriftMilliseconds = max(statistics.maxDriftMilliseconds, abs(lastDifference))
        }
    }

    private func submitNext(now: Double) {
        decoderBehind = false
        guard !renderer.isOccupied else { return }
        let t: Double
        if clock.isPaused || !isTimeVarying {
            guard needsFrame else { return }
            t = clock.isPaused ? now : max(now, nextTick)
            mustShow = true
        } else {
            var next = nextTick, skipped = 0
            let step = tick
            // A frame finished after the one following it is due would be dropped anyway: skip it now.
            while !needsFrame && next + step < now + timeline(renderEstimate) { next += step; skipped += 1 }
            if !options.range.loops && options.range.end.isFinite && next >= options.range.end - 1e-6 { return }
            // The decoder is still on its way to this frame: keep presenting what is ready rather than block
            // in the snapshot, and look again shortly.
            decoderBehind = (player?.wouldWait(forFrameAt: next) ?? false) || (videoWouldWait?(next) ?? false)
            if decoderBehind {
                // A decoder slower than the clock (`--speed 4` of 1080p60) never reaches the frame due, since the
                // clock runs away while it decodes: a frame late, show the newest decoded frame (ffplay shows what
                // its queue holds) and count the due frames it stands in for as dropped. It must have reached the
                // frame due, so that frames stay on the grid, at most one per grid step.
                guard now >= nextTick + step, let newest = player?.newestDecodedTime(atOrBefore: next),
                      newest >= nextTick - 1e-9, newest > (submittedTime ?? -.infinity) else { return }
                decoderBehind = false
                var due = nextTick, passed = 0
                while due <= newest { due += step; passed += 1 }
                statistics.framesDropped += max(0, passed - 1)
                t = newest
                nextTick = due
            } else {
                statistics.framesDropped += skipped
                t = next
                nextTick = next + step
            }
        }
        submittedTime = t
        needsFrame = false
        // Composited frames go straight into a window texture (no copy to upload). A video shown as it is
        // (`DirectVideo`) needs none, and is likely to stay so: then the rare composited frame takes a copy.
        let target = lastFrameWasDirect ? nil : window.lockFrameTexture(width: canvas.width, height: canvas.height)
        // `onPresent` is given whole composited frames, so frames over a video are then composited whole.
        willSnapshot?(t)
        renderer.submit(.init(snapshot: root.snapshot(at: t), time: t, serial: serial, width: canvas.width, height: canvas.height,
                              target: target, composesOverVideo: onPresent == nil))
    }

    /// The time of the last frame handed to the renderer (nil after `invalidate()`): a frame shown while the decoder
    /// is behind must be newer.
    private var submittedTime: Double?
    /// Whether the next frame waits for the decoder (then the loop looks again sooner).
    private var decoderBehind = false
    /// Whether the last rendered frame was a video shown as it is.
    private var lastFrameWasDirect = false

    /// Gives a frame that is not shown back: its window texture to the window, its surface to the renderer.
    private func release(_ frame: FrameRenderer.Frame) {
        if let target = frame.target { window.discard(target) } else { renderer.recycle(frame) }
    }

    /// Sleeps until something may be due: a few milliseconds at most, so that keys stay responsive.
    private func waitBriefly() {
        var wait = decoderBehind ? 0.001 : 0.004
        if let frame = ready, !mustShow { wait = min(wait, max(0, (frame.time - clock.time) / clock.speed - presentEstimate)) }
        if ready == nil && renderer.isOccupied {
            if let frame = renderer.take(waiting: wait) { stash(frame) }
            return
        }
        // With a control socket, a request ends the pause (an IPC round trip then takes no 4 ms turn).
        if wait > 0 { if let ipc { ipc.server.wait(seconds: wait) } else { Thread.sleep(forTimeInterval: wait) } }
    }

    /// A frame taken while waiting: kept as `ready` (or dropped if it belongs to an old seek).
    private func stash(_ frame: FrameRenderer.Frame) {
        statistics.framesRendered += 1
        if case .direct = frame.picture { lastFrameWasDirect = true } else { lastFrameWasDirect = false }
        statistics.renderMilliseconds.append(frame.renderMilliseconds)
        // Skipping frames saves compositing, not decoding (every frame is decoded in order anyway): the
        // estimate that decides the skips is the compositing time alone.
        let latency = frame.renderMilliseconds / 1000
        Self.smooth(&renderEstimate, latency)
        if frame.serial != serial { release(frame); return }
        ready = frame
    }

    // MARK: Events

    private func handle(_ event: SDL_Event) {
        if SDL_EventType(event.type) == SDL_WINDOWEVENT && event.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue) {
            let size = window.pixelSize
            refreshRate = window.refreshRate ?? 60 // the window may have moved to another display
            if !options.relayoutOnResize {
                invalidate() // the same canvas, scaled to the new size; the overlay follows the window's size
                return
            }
            if size != canvas {
                canvas = size
                // The window's own layout never animates (SEMANTICS-ANIMATION.md §4).
                Transaction.withoutActions {
                    layout(size.width, size.height)
                    onLayout?(size.width, size.height)
                }
                invalidate()
            }
            return
        }
        if SDL_EventType(event.type) == SDL_QUIT { return perform(.quit(nil)) }
        guard let key = InputBindings.name(of: event) else { return }
        if let command = bindings.command(for: key) { return perform(command) }
        // An unbound single click seeks to that fraction of the width (ffplay; the right button too).
        if key == "MBTN_LEFT" || key == "MBTN_RIGHT" {
            let fraction = min(max(Double(event.button.x) / Double(max(1, window.pointSize.width)), 0), 1)
            perform(.seek(fraction * 100, .absolutePercent))
        }
    }

    /// Shows `line` at the window's bottom left, over whatever the top left display says, until `clearNotice()`:
    /// how `layerplay` shows a failed scene reload's error line (SCENES.md §8), for as long as the file stays broken.
    /// Call it on the session's thread (from `onTick`, as the reloader's poll does); a second call replaces the line.
    public func showNotice(_ line: String) {
        let display: OnScreenDisplay
        if let notice { display = notice } else {
            display = OnScreenDisplay(name: "notice", corner: .bottomLeft, hold: .infinity)
            overlay.add(display)
            notice = display
        }
        display.show(line, at: hostSeconds(), sticky: true)
        invalidate()
    }

    /// Takes the notice away (the scene loads again).
    public func clearNotice() {
        guard let notice, notice.message != nil else { return }
        notice.hide()
        invalidate()
    }

    /// Moves the clock; frames rendered for the old position are never shown.
    func seek(to target: Double) {
        let r = options.range
        let loopStart = r.loopStart(clock.time)
        var t = max(target, loopStart)
        if r.length.isFinite {
            // Keep the last frame visible rather than seeking past the end.
            let lastFrame = options.frameRate.map { 1 / $0 } ?? 0
            t = min(t, loopStart + max(0, r.length - lastFrame))
        }
        if !clock.isPaused || resumeOnShow {
            clock.setPaused(true)
            resumeOnShow = true
        }
        clock.seek(to: t)
        nextTick = t
        invalidate()
    }

    /// Pauses and shows the video's next frame.
    func step() {
        resumeOnShow = false
        if !clock.isPaused { clock.setPaused(true) }
        let shown = presentedTime ?? clock.time
        var next = shown + tick
        if let player, let frame = player.frame(at: shown), let rate = options.frameRate {
            // The next decoded frame: from the shown frame's own time, on the timeline of this loop.
            let media = options.range.mediaTime(shown)
            next = shown + (frame.time.seconds + 1 / rate - media)
        }
        seek(to: next)
    }

    /// Pauses and shows the video's previous frame, exactly: a seek to that frame's own time, which the player
    /// decodes frame-accurately from the keyframe before it.
    func stepBack() {
        resumeOnShow = false
        if !clock.isPaused { clock.setPaused(true) }
        let shown = presentedTime ?? clock.time
        var previous = shown - tick
        if let player, let frame = player.frame(at: shown), let rate = options.frameRate {
            // The shown frame began at its own time (at or before `shown`); the one before it, a frame earlier.
            // A tenth of a millisecond in, so that rounding never lands on the frame before that.
            let media = options.range.mediaTime(shown)
            previous = shown - (media - frame.time.seconds) - 1 / rate + 1e-4
        }
        seek(to: previous)
    }

    /// Forgets what was rendered for the old state and renders anew.
    /// The tree changed outside the clock (a scene reloaded while paused, say): the next frame is made and shown
    /// at once.
    public func setNeedsFrame() { invalidate() }

    /// Asks for one more frame of the tree as it is now, keeping a frame already rendered and its serial (unlike
    /// `setNeedsFrame()`, which discards it): an app that moves the tree from `onTick` on every turn (a drag, a pan)
    /// would otherwise discard each frame before it is shown.
    public func requestFrame() { needsFrame = true }

    func invalidate() {
        serial += 1
        if let frame = ready { release(frame) }
        ready = nil
        needsFrame = true
        mustShow = true
        submittedTime = nil
    }
}
