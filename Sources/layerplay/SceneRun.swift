import ArgumentParser
import Foundation
import LayerCompositor
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import LayerScene

/// `layerplay SCENE.json [ARG…] [--set NAME=VALUE]… [-o OUT]`: a scene file played in a window or exported through
/// the same hosts as the card (SCENES.md §5). Inputs that are not scene files keep running the built-in card.
struct SceneRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "layerplay", abstract: "Play or export a scene file.")

    @Argument(help: "The scene file (.json or .jsonc).")
    var scene: String
    @Argument(help: "Values of the params that have a position.")
    var arguments: [String] = []
    @Option(name: .customLong("set"), help: ArgumentHelp("A param's value.", valueName: "NAME=VALUE"))
    var sets: [String] = []
    @Option(name: [.short, .customLong("output")], help: "Export to this file (a movie, or a .png still at --at) instead of playing. Repeatable: one render, several outputs (CLI.md \"Several outputs\").")
    var outputs: [String] = []
    /// The first `-o` (the only one, unless several are given).
    var output: String? { outputs.first }
    @OptionGroup(title: "Several outputs")
    var outputSettings: OutputSettingOptions
    @Option(help: "Where the timeline starts, seconds or [hh:]mm:ss[.ms].")
    var start: TimeSpec?
    @Option(help: "How long to export (default: the scene's canvas duration).")
    var duration: TimeSpec?
    @Option(help: "The time of a .png still.")
    var at: TimeSpec?
    @Option(help: "Frames per second (default: the scene's).")
    var fps: Double?
    @Option(help: "Video encoder.")
    var codec: String?
    @Option(help: "Encoder quality (constant rate factor).")
    var crf: Int = 20
    @Option(help: "Encoder preset.")
    var preset: String = "veryfast"
    @Flag(name: .customLong("no-audio"), help: "No sound.")
    var noAudio = false
    @OptionGroup(title: "Encoder control")
    var encoding: EncoderOptions
    @OptionGroup var reporting: ProgressOptions
    @Flag(name: .customShort("y"), help: "Overwrite an existing output.")
    var overwrite = false
    @Flag(name: .customLong("no-watch"), help: "In a window, do not reload the scene when its file changes.")
    var noWatch = false
    @Flag(help: "After playing, print the playback's statistics as JSON on stderr (CLI.md).")
    var stats = false
    @OptionGroup(title: "Segments")
    var segmenting: SegmentFlags
    @Flag(name: .customLong("allow-network"), help: "Let the scene's inputs be URLs of any FFmpeg protocol or pipes (by default a scene opens only local files).")
    var allowNetwork = false
    @OptionGroup(title: "Streams")
    var streams: StreamOptions
    @Option(help: ArgumentHelp("Playback speed, 0.25–4: a window plays, an export renders, the timeline X times as fast (the sound keeps its pitch).", valueName: "X"))
    var speed: Double = 1
    @Option(name: .customLong("record-controls"), help: ArgumentHelp("In a window, write every scene-set with its scene time to FILE (JSON lines, SCENES.md §11).", valueName: "FILE"))
    var recordControls: String?
    @Option(name: .customLong("input-ipc-server"), help: ArgumentHelp("In a window, listen on this Unix socket for mpv's JSON IPC (scene-set, get_property, seek, screenshot-to-file, quit…).", valueName: "PATH"))
    var inputIPCServer: String?
    @Option(name: .customLong("replay-controls"), help: ArgumentHelp("Apply a take recorded with --record-controls, each control at its scene time (SCENES.md §11).", valueName: "FILE"))
    var replayControls: String?

    /// Whether `path` names a scene file rather than media.
    static func isScene(_ path: String) -> Bool {
        if BuiltinScenes.isBuiltin(path) { return true }
        let ext = (path as NSString).pathExtension.lowercased()
        return ext == "json" || ext == "jsonc"
    }

    /// The long options a scene run has itself; every other `--kebab-name VALUE` is an effect flag.
    static let ownOptions: Set<String> = Set(["--set", "--output", "--output-opt", "--start", "--duration", "--at", "--fps", "--codec", "--crf",
                                          "--preset", "--no-audio", "--no-watch", "--stats", "--help",
                                          "--record-controls", "--replay-controls", "--input-ipc-server", "--speed"])
        .union(SegmentFlags.options).union(SegmentFlags.flags)
        .union(EncoderOptions.optionNames).union(ProgressOptions.optionNames)
        .union(streamOptions).union(streamFlags)
    static let ownFlags: Set<String> = Set(["--no-audio", "--no-watch", "--stats", "--help"]).union(SegmentFlags.flags)
        .union(EncoderOptions.flagNames).union(streamFlags)
    /// `StreamOptions` and `--allow-network` (issue 28).
    static let streamOptions: Set<String> = ["--timeout", "--input-fps", "--format", "--hls-time"]
    static let streamFlags: Set<String> = ["--reconnect", "--realtime", "--no-realtime", "--allow-network"]

    /// Today's effect flags bind to the like-named camelCase param (`--corner-radius 24` → `--set cornerRadius=24`,
    /// SCENES.md §5); bare flags were already given the CLI's values (`OptionalValueFlags`). A flag the scene does
    /// not declare is then reported by the loader with the scene's params.
    static func bindEffectFlags(_ args: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let a = args[i]
            if a == "--" { out += args[i...]; break }
            if a.hasPrefix("--"), !ownOptions.contains(a.split(separator: "=").first.map(String.init) ?? a) {
                let body = a.dropFirst(2)
                let parts = body.split(separator: "=", maxSplits: 1).map(String.init)
                let words = parts[0].split(separator: "-").map(String.init)
                let name = words.enumerated().map { $0.offset == 0 ? $0.element : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
                if parts.count == 2 { out += ["--set", "\(name)=\(parts[1])"]; i += 1; continue }
                if i + 1 < args.count { out += ["--set", "\(name)=\(args[i + 1])"]; i += 2; continue }
                out += ["--set", "\(name)=true"]  // a switch with no value: a bool param
                i += 1
                continue
            }
            if ownOptions.contains(a), !ownFlags.contains(a), i + 1 < args.count { out += [a, args[i + 1]]; i += 2; continue }
            out.append(a)
            i += 1
        }
        return out
    }

    static func parseSets(_ sets: [String]) throws -> [(name: String, value: String)] {
        try sets.map { s in
            guard let eq = s.firstIndex(of: "="), eq != s.startIndex else { throw ValidationError("--set takes NAME=VALUE, got '\(s)'") }
            return (String(s[..<eq]), String(s[s.index(after: eq)...]))
        }
    }

    func validate() throws {
        try checkOutputSettingsHaveOutputs()
        if let fps, !(fps.isFinite && fps >= 0.001 && fps <= 1000) { throw ValidationError("--fps must be between 0.001 and 1000") }
        if let duration, duration.seconds <= 0 { throw ValidationError("--duration must be positive") }
        if !(0...63).contains(crf) { throw ValidationError("--crf must be between 0 and 63") }
        if !(speed.isFinite && (0.25...4).contains(speed)) { throw ValidationError("--speed must be between 0.25 and 4") }
    }

    func run() throws {
        InputSettings.current = streams.inputSettings
        var options = SceneLoadOptions(file: scene, directory: (scene as NSString).deletingLastPathComponent)
        options.allowsNetwork = allowNetwork
        options.arguments = arguments
        options.sets = try Self.parseSets(sets)
        options.media = MediaAssetSceneMedia()
        let loaded: LoadedScene
        do throws(SceneErrors) { loaded = try SceneLoader.load(contentsOf: scene, options: options) } catch {
            throw RunError(error.description)  // the first problem and how many more (CLI.md's one-line rule)
        }
        for w in loaded.warnings { StandardError.writeLine("layerplay: warning: \(w)") }
        let width = max(1, Int(loaded.canvasSize.width.rounded())), height = max(1, Int(loaded.canvasSize.height.rounded()))
        let take = try readTake(checkedAgainst: loaded, options: options)
        guard let output else { return try play(loaded, options: options, take: take, width: width, height: height) }
        if inputIPCServer != nil { throw RunError("--input-ipc-server controls a window; it does not combine with -o") }
        if recordControls != nil { throw RunError("--record-controls records a window's controls; to render a take use --replay-controls with -o") }
        try reporting.checkStandardOutput(sharedWith: outputs)
        try checkSeveralOutputs()
        // A take's controls change the tree along the timeline: the export shows a live scene's host, as a window does.
        let live = take.map { _ in LiveScene(scene: loaded, options: options, path: scene) }
        let root = live?.host ?? loaded.root
        if outputs.count > 1 {
            return try exportSeveral(loaded, root: root, width: width, height: height) { exporter in
                if let take, let live { Self.replaying(take, on: live, before: exporter) }
            }
        }
        for input in loaded.inputs where OutputIdentity.writes(output, over: input.src) {
            throw RunError("'\(output)' is the scene's input '\(input.id)'; choose another output")
        }
        if output.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(output) {
            if let take, let live { try Self.replay(take, upTo: at?.seconds ?? 0, on: live, after: 0) }
            let surface = Compositor().render(root.snapshot(at: at?.seconds ?? 0), width: width, height: height)
            do { try surface.writePNG(to: output, replacing: overwrite) } catch { throw RunError("\(error)") }
            return
        }
        guard let length = duration?.seconds ?? loaded.duration else {
            throw RunError("the scene has no canvas duration: give --duration to export it")
        }
        let rate = MovieWriter.rational(fps ?? loaded.fps)
        // At --speed X the movie lasts length / X; its frames sample the sped-up scene clock.
        let frames = max(1, Int((length / speed * Double(rate.num) / Double(rate.den)).rounded()))
        // The scene's `audio` input (none with "none" or --no-audio), from its `start` as its picture.
        let audio = noAudio || MovieWriter.isImageSequence(output) ? nil : loaded.audio
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: nil, transparentCanvas: !(loaded.root.backgroundColor?.isOpaque ?? false))
        let exporter = Exporter(root: root, width: width, height: height, settings: settings,
                                start: start?.seconds ?? 0, frameCount: frames, audioSource: audio?.src)
        try streams.configure(exporter, for: output, inputIsLive: false)
        exporter.speed = speed
        if speed != 1 && segmenting.isActive { throw RunError("--speed does not combine with segments yet: export at speed 1") }
        exporter.audioOffset = audio?.start ?? 0
        exporter.audioLoopLength = audio?.loopLength
        if let take, let live {
            if segmenting.isActive { throw RunError("--replay-controls does not combine with segments yet: export the take whole") }
            Self.replaying(take, on: live, before: exporter)
        }
        if segmenting.isActive { // a segment, the sound alone, the plan, or --segments N (SegmentedExport.swift)
            do { try segmenting.run(exporter, to: output, replacing: overwrite, progress: nil) } catch let e as FileExistsError {
                throw RunError("'\(e.path)' already exists; use -y to overwrite it")
            } catch let e as RunError { throw e } catch { throw RunError("\(error)") }
            return
        }
        let report = try reporting.open()
        do {
            let statistics = try exporter.export(to: output, replacing: overwrite) { if $0.pass != 1 { report?.update(ProgressReport.snapshot($0, frameRate: rate)) } }  // of two passes, the second (ExportRun.swift)
            report?.finish(statistics, frameRate: rate)
        } catch let e as FileExistsError {
            throw RunError("'\(e.path)' already exists; use -y to overwrite it")
        } catch { throw RunError("\(error)") }
    }

    /// The take of `--replay-controls`, read and checked against the scene (nil without it).
    private func readTake(checkedAgainst loaded: LoadedScene, options: SceneLoadOptions) throws -> ControlTake? {
        guard let replayControls else { return nil }
        do throws(ControlTakeError) {
            let take = try ControlTake(contentsOf: replayControls)
            try take.check(against: loaded, options: options, scenePath: scene, path: replayControls)
            return take
        } catch { throw RunError(error.description) }
    }

    /// Applies the take's controls up to `time`; how many are applied.
    @discardableResult
    static func replay(_ take: ControlTake, upTo time: Double, on live: LiveScene, after applied: Int) throws -> Int {
        do throws(SceneSetError) { return try take.apply(upTo: time, to: live, after: applied) } catch {
            throw RunError("--replay-controls: \(error.description)")
        }
    }

    /// A window on the scene; its clock is the audio input's sound when it has one. Every input decodes on its own
    /// thread and shows the frame of its layer's time on that one clock: the session waits for whichever decoder
    /// is behind (`videoWouldWait`) rather than for one player.
    func play(_ loaded: LoadedScene, options loadOptions: SceneLoadOptions, take: ControlTake?, width: Int, height: Int) throws {
        // Live reload (SCENES.md §8): the window shows the reloader's host layer, whose scene is swapped between
        // frames; the session's clock and pause state are the session's, so they carry over by themselves.
        // A built-in scene has no file to watch.
        let reloader = noWatch || BuiltinScenes.isBuiltin(scene) ? nil : SceneReloader(path: scene, options: loadOptions, scene: loaded) { StandardError.writeLine($0) }
        let begin = start?.seconds ?? 0
        let end = duration.map { begin + $0.seconds } ?? loaded.duration.map { $0 } ?? .infinity
        var options = PlaybackSession.Options(title: loaded.name, range: PlaybackRange(start: begin, end: end, loops: false),
                                              frameRate: fps ?? loaded.fps)
        // The audio input's sound from its `start`, in step with its picture; it drives the clock.
        options.audioOffset = loaded.audio?.start ?? 0
        options.audioLoopLength = loaded.audio?.loopLength
        options.speed = speed
        let audio = noAudio ? nil : loaded.audio?.src
        // The scene `scene-set` changes (SCENES.md §11): the reloader's, so that a reload keeps the values set.
        let live = reloader?.live ?? LiveScene(scene: loaded, options: loadOptions, path: scene)
        let root = live.host
        let recorder: ControlRecorder?
        do throws(ControlTakeError) { recorder = try recordControls.map(ControlRecorder.init(path:)) } catch { throw RunError(error.description) }
        let ipc: PlayerIPC?
        do { ipc = try inputIPCServer.map { try PlayerIPC(path: $0) } } catch { throw RunError("\(error)") }
        defer { ipc?.stop() }
        let session: PlaybackSession
        do {
            // The canvas keeps its size (canvas.resize "scale"); "relayout" waits for re-evaluation on reload.
            // No `player`: the session would impose its range on it, and each input keeps its own start and loop.
            session = try PlaybackSession(root: root, size: (width, height), player: nil,
                                          audioPath: audio, options: options) { _, _ in }
        } catch { throw RunError("\(error)") }
        // The tree's videos (whichever a reload brings) change with time even where nothing animates: the session
        // renders on the frame grid and checks every input's decoder before each frame.
        session.videoWouldWait = { root.videoWouldWait(at: $0) }
        session.bindings = PlayerConfig.loadBindings()
        session.ipc = ipc
        session.sceneSet = { name, value, time in
            let said = try live.set(name, value, at: time)
            recorder?.record(.init(time: time, sceneSet: name, value))
            return said
        }
        session.sceneParams = {
            // A value set since (the last `--set` or `scene-set` of it), else the default; undefined ones left out.
            var values: [String: String] = [:]
            for p in live.scene.params { if let d = p.defaultValue, let text = SceneCommand.text(d) { values[p.name] = text } }
            for p in live.scene.params { if let i = p.position, i < live.options.arguments.count { values[p.name] = live.options.arguments[i] } }
            for (name, value) in live.options.sets { values[name] = value }
            return values
        }
        if let reloader {
            // The error line of a failed reload is printed and also shown in the window's bottom left while the file is broken.
            reloader.onError = { [unowned session] line in session.showNotice(line) }
            session.onTick = { [unowned session] _ in
                // The error line stays while the file is broken and goes with the first reload that works.
                if reloader.poll(now: ProcessInfo.processInfo.systemUptime) { session.clearNotice(); session.setNeedsFrame() }
            }
        }
        // On a terminal, the status line a file's playback has (issue 30: scenes printed none).
        let status = isatty(STDERR_FILENO) != 0 ? StatusLine(length: end - begin) { StandardError.write($0) } : nil
        if let status {
            let previous = session.onTick
            session.onTick = { state in previous?(state); status.update(state) }
        }
        if let take { replayWhilePlaying(take, on: live, in: session) }
        defer { status?.finish() }
        let statistics = try runInterruptible(session)
        status?.finish()
        if stats { StandardError.writeLine(statistics.json) }
    }

    /// A take replayed in a window: each control as the clock passes its time (a seek back does not undo one).
    private func replayWhilePlaying(_ take: ControlTake, on live: LiveScene, in session: PlaybackSession) {
        var applied = 0
        let previous = session.onTick
        session.onTick = { [unowned session] state in
            previous?(state)
            let before = applied
            do { applied = try Self.replay(take, upTo: state.clock, on: live, after: applied) } catch {
                StandardError.writeLine("layerplay: warning: \(error)")
                applied += 1
            }
            if applied != before { session.setNeedsFrame() }
        }
    }

    /// Runs the session with Ctrl-C and SIGTERM ending it as a quit, then exiting with 128 + the signal.
    private func runInterruptible(_ session: PlaybackSession) throws -> PlaybackStatistics {
        do {
            return try Interruption.during {
                let statistics = session.run()
                if session.interruptedBy != nil { try Interruption.check(writing: scene) }
                return statistics
            }
        } catch let interrupted as InterruptedError { throw ExitRequest(code: 128 + interrupted.signal) }
    }
}

extension SceneRunCommand {
    /// Applies a take's controls to the live scene before each frame is snapshotted, each at its scene time.
    static func replaying(_ take: ControlTake, on live: LiveScene, before exporter: Exporter) {
        var applied = 0
        exporter.willSnapshot = { time in
            // Checked before the export began (readTake), so a control the scene refuses here is a load that
            // failed since (a file changed): said, and the frame keeps the tree as it was.
            do { applied = try replay(take, upTo: time, on: live, after: applied) } catch {
                StandardError.writeLine("layerplay: warning: \(error)")
                applied += 1
            }
        }
    }
}
