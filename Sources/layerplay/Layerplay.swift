import ArgumentParser
import Foundation
import LayerCompositor
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

/// A failure the user can act on: printed as one `layerplay: error:` line, exit status 1.
struct RunError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct Layerplay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layerplay",
        abstract: "Play or render media as a Core Animation-style layer with 3D transforms, corners, borders, shadows and masks.",
        discussion: """
        Examples:
          layerplay photo.png --rotate 30 --corner-radius 24 --border 6:#ff0000 --shadow -o out.png
          layerplay photo.jpg --size 800x600 --background '#202020' --layer-size 480x320 --mask alpha.png -o out.png
          layerplay probe clip.mp4
          layerplay movie.mkv --subtitles 1 -o burnt.mp4
        COLOR is a CSS name, #rgb, #rrggbb or #rrggbbaa. TIME is seconds (2.5) or [hh:]mm:ss[.ms].
        --subtitles takes a file (.srt .ass .ssa .vtt) or STREAM, a number: the input's subtitle stream of that index, 0 = the first. Movies carry the input's subtitle streams unless one is burnt in or --no-subtitles.
        Without -o the input plays in a window with its sound.

        \(InputBindings.keyHelp)
        """,
        version: "layerplay 0.1 (\(FFmpegLibraries.versions); \(DisplayProbe.sdlVersion))")

    @Argument(help: ArgumentHelp("The input: a video, a sound file or an image, a URL of any FFmpeg protocol, - or pipe:N, or numbered pictures (frame_%04d.png); in a window, several inputs (or an .m3u) play in turn.", valueName: "input"))
    var inputs: [String] = []
    /// The input this run opens (the first; a playlist's item while it plays).
    var input: String {
        get { inputs.first ?? "" }
        set { if inputs.isEmpty { inputs = [newValue] } else { inputs[0] = newValue } }
    }

    // Canvas and media layer
    @Option(help: ArgumentHelp("The output canvas, WxH (default: the input's size).", valueName: "WxH"))
    var size: PixelSize?
    @Option(help: "The canvas colour.")
    var background: Color = .black
    @Option(name: .customLong("layer-size"), help: ArgumentHelp("Bounds of the media layer, centred (default: the canvas; 2/3 of it with --shadow; with --rotate or --spin 2/3 or less, so the turned card stays inside).", valueName: "WxH"))
    var layerSize: PixelSize?
    @Option(help: "How the media fills its layer: aspect, fill or resize.")
    var gravity: GravityOption = .aspect

    // Effects
    @Option(help: ArgumentHelp("3D rotation in degrees about --axis through the layer's centre (45 when bare).", valueName: "DEG"))
    var rotate: Double?
    @Option(help: ArgumentHelp("Rotation axis.", valueName: "X,Y,Z"))
    var axis: Axis = Axis(x: 0, y: 1, z: 0)
    @Option(help: ArgumentHelp("Eye distance in pixels (m34 = -1/D); 0 = none (default: 1.5 times the canvas's longer side).", valueName: "D"))
    var perspective: Double?
    @Option(help: ArgumentHelp("Turn continuously, one full turn per SECONDS (8 when bare); stills show the angle at --at.", valueName: "SECONDS"))
    var spin: Double?
    @Option(name: .customLong("corner-radius"), help: ArgumentHelp("Corner radius; the media is clipped to the rounded shape.", valueName: "R"))
    var cornerRadius: Double = 0
    @Option(help: ArgumentHelp("Border width and colour (white by default).", valueName: "W[:COLOR]"))
    var border: BorderSpec?
    @Option(help: ArgumentHelp("Drop shadow: Gaussian sigma in px, opacity, offset (16:0.5:0,8 when bare).", valueName: "R[:OPACITY[:DX,DY]]"))
    var shadow: ShadowSpec?
    @Option(help: ArgumentHelp("An image whose alpha masks the media layer, stretched to its bounds.", valueName: "IMAGE"))
    var mask: String?
    @Option(help: ArgumentHelp("Layer opacity, 0…1.", valueName: "A"))
    var opacity: Double = 1

    // Output
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("OUT.png: a still; a movie (.mp4 .mov .mkv .webm…): transcode with the effects. Repeatable: one render, several outputs (CLI.md \"Several outputs\").", valueName: "PATH"))
    var outputs: [String] = []
    /// The first `-o` (the only one, unless several are given).
    var output: String? { outputs.first }
    @OptionGroup(title: "Several outputs")
    var outputSettings: OutputSettingOptions
    @Option(help: ArgumentHelp("Time of the still.", valueName: "TIME"))
    var at: TimeSpec?
    @Option(help: ArgumentHelp("Start of the range to play or export.", valueName: "TIME"))
    var start: TimeSpec?
    @Option(help: ArgumentHelp("Length of the range to play or export (required to export a still input).", valueName: "TIME"))
    var duration: TimeSpec?
    @Option(help: ArgumentHelp("Video encoder (libx264; libvpx-vp9 for .webm, gif for .gif).", valueName: "NAME"))
    var codec: String?
    @Option(help: "Encoder quality (constant rate factor).")
    var crf: Int = 20
    @Option(help: "Encoder preset.")
    var preset: String = "veryfast"
    @Option(help: ArgumentHelp("Output frame rate (default: the input's).", valueName: "N"))
    var fps: Double?
    @Flag(name: .customLong("no-audio"), help: "Drop the audio.")
    var noAudio = false
    @OptionGroup(title: "Segments")
    var segmenting: SegmentFlags
    @OptionGroup(title: "Encoder control")
    var encoding: EncoderOptions
    @OptionGroup var reporting: ProgressOptions
    @OptionGroup var streamChoice: StreamChoiceOptions

    // Subtitles
    @Option(help: ArgumentHelp("A subtitle file (.srt .ass .ssa .vtt), or STREAM, a number: the input's subtitle stream of that index (0 = the first). In a window it shows first; in a movie or still it is burnt in.", valueName: "FILE|STREAM"))
    var subtitles: String?
    @Flag(name: .customLong("no-subtitles"), help: "No subtitles: a window starts with none shown (t cycles), a movie carries none of the input's subtitle streams.")
    var noSubtitles = false

    // Playback
    @Flag(help: "Play the range again and again, without a gap.")
    var loop = false
    @Flag(name: .customLong("no-osd"), help: "No on-screen display (position on seeks, volume, muted, paused).")
    var noOSD = false
    @Flag(name: .customLong("keep-open"), help: "At the end, stay on the last frame instead of quitting (q quits; seeking past the end shows the last frame).")
    var keepOpen = false
    @Flag(help: "Start with the sound muted (m toggles).")
    var mute = false
    @Option(help: ArgumentHelp("Starting volume, 0–100 (as ffplay).", valueName: "V"))
    var volume: Double = 100
    @Flag(help: "Start fullscreen (f toggles).")
    var fullscreen = false
    @Flag(help: "At exit, one JSON object of statistics on stderr.")
    var stats = false

    // The player (issue 30)
    @Option(name: .customLong("input-ipc-server"), help: ArgumentHelp("Listen on this Unix socket for mpv's JSON IPC (get_property, set_property, observe_property, seek, loadfile, quit…).", valueName: "PATH"))
    var inputIPCServer: String?
    @Option(name: .customLong("screenshot-dir"), help: ArgumentHelp("Where S writes its screenshots (default: the current directory).", valueName: "DIR"))
    var screenshotDir: String?
    @Option(help: ArgumentHelp("A playlist: one input a line (m3u accepted), played after the inputs given.", valueName: "FILE"))
    var playlist: String?
    @Flag(name: .customLong("loop-playlist"), help: "After the last input, play the first again.")
    var loopPlaylist = false
    @OptionGroup var playlistOptions: PlaylistOptions
    @Flag(name: .customLong("save-position-on-quit"), help: "On quit, remember the position; the next playback of the file without --start begins there (Q does it once).")
    var savePositionOnQuit = false
    @Option(help: ArgumentHelp("The window's size and place on the screen (mpv's): WxH, WxH+X+Y or +X+Y.", valueName: "WxH+X+Y"))
    var geometry: String?
    @Option(help: ArgumentHelp("The largest size the window opens at, its shape kept.", valueName: "WxH"))
    var autofit: PixelSize?
    @Flag(help: "Keep the window above the others.")
    var ontop = false
    @Flag(name: .customLong("no-border"), help: "A window without the window manager's frame.")
    var noBorder = false
    @Option(name: .customLong("audio-device"), help: ArgumentHelp("The sound device, by the name SDL lists.", valueName: "NAME"))
    var audioDevice: String?
    @Option(help: ArgumentHelp("Playback speed, 0.25–4 (the sound keeps its pitch; animations run as fast).", valueName: "X"))
    var speed: Double = 1
    @Flag(name: .customShort("y"), help: "Overwrite an existing output.")
    var overwrite = false
    @OptionGroup(title: "Streams")
    var streams: StreamOptions

    func validate() throws {
        if inputs.isEmpty && playlist == nil { throw ValidationError("Missing expected argument '<input>'") }
        if output != nil && loopPlaylist { throw ValidationError("--loop-playlist plays in a window; an export plays the playlist once") }
        if output != nil && (inputs.count > 1 || playlist != nil) {
            if outputs.count > 1 { throw ValidationError("several inputs (or --playlist) export to one -o; several outputs take one input") }
        }
        // A still is one input at one time; several inputs make a movie (or numbered pictures) of their timeline.
        if let output, inputs.count > 1 || playlist != nil,
           MovieWriter.isJPEGStill(output) || (output.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(output)) {
            throw ValidationError("a still ('\(output)') takes one input; several inputs (or --playlist) export a movie or numbered pictures")
        }
        for (name, value) in [("--rotate", rotate), ("--perspective", perspective), ("--spin", spin),
                              ("--corner-radius", cornerRadius), ("--opacity", opacity)] {
            if let value, !value.isFinite { throw ValidationError("\(name) must be a finite number") }
        }
        if !(0...1).contains(opacity) { throw ValidationError("--opacity must be between 0 and 1") }
        // An eye nearer than a pixel puts m34 beyond what any canvas can show: the card would vanish without a word.
        if let perspective, perspective < 0 || (perspective > 0 && perspective < 1) {
            throw ValidationError("--perspective must be 0 (none) or at least 1 pixel")
        }
        if cornerRadius < 0 { throw ValidationError("--corner-radius must be 0 or more") }
        // A turn in less than a millisecond is many turns per frame, and the angle of 1e-320 s is not even finite.
        if let spin, spin < 0.001 { throw ValidationError("--spin must be at least 0.001 seconds per turn") }
        // A rate near 0 (1e-300) is no rational the encoder takes: it failed with a bare 'Invalid argument'.
        if let fps, !(fps.isFinite && fps >= 0.001 && fps <= 1000) { throw ValidationError("--fps must be between 0.001 and 1000") }
        if let duration, duration.seconds <= 0 { throw ValidationError("--duration must be positive") }
        if !(0...63).contains(crf) { throw ValidationError("--crf must be between 0 and 63") }
        if let geometry, WindowPlacement.geometry(geometry) == nil { throw ValidationError("--geometry takes WxH, WxH+X+Y or +X+Y, not '\(geometry)'") }
        if !(speed.isFinite && (0.25...4).contains(speed)) { throw ValidationError("--speed must be between 0.25 and 4") }
        if !(volume.isFinite && (0...100).contains(volume)) { throw ValidationError("--volume must be between 0 and 100") }
        if subtitles != nil && noSubtitles { throw ValidationError("--subtitles and --no-subtitles contradict each other") }
        try checkOutputSettingsHaveOutputs()  // said, not ignored: with one output its settings are the flags themselves
    }

    func run() throws {
        try prepareInputs()
        try streamChoice.choose(in: input)
        guard let output else { return try play() }
        try checkSeveralOutputs()
        try reporting.checkStandardOutput(sharedWith: outputs)
        if outputs.count > 1 {  // each output is checked as it is set up (SeveralOutputs.swift)
            let media = try openMedia(input)
            let card = try cardTree(asset: media.asset, inWindow: false)
            return try exportSeveral(card, asset: media.asset, canvas: card.canvas)
        }
        if try !isStreamOutput(output) { try checkOutput(output) }
        // Several inputs (or --playlist): one movie of them all on one timeline, as the window plays them.
        if inputs.count > 1 || playlist != nil { return try exportPlaylist(to: output) }
        let media = try openMedia(input)
        let card = try cardTree(asset: media.asset, inWindow: false)
        let canvas = card.canvas
        if output.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(output) && streams.format == nil {
            let time = at?.seconds ?? 0
            let surface = Compositor().render(card.host.snapshot(at: time), width: canvas.width, height: canvas.height)
            do { try surface.writePNG(to: output, replacing: overwrite) } catch { throw runError(error) }
        } else if MovieWriter.isJPEGStill(output) && streams.format == nil {
            try exportJPEG(card, canvas: canvas, to: output)
        } else {
            try export(card, asset: media.asset, canvas: canvas, to: output)
        }
    }

    /// The card of the flags: the built-in card scene (SCENES.md §5) with this run's subtitles over it.
    func cardTree(asset: MediaAsset, inWindow: Bool) throws -> CardTree {
        let params = try cardParams()
        return try CardTree(input: input, params: params, subtitles: try subtitleLayer(for: asset, inWindow: inWindow))
    }

    /// The effect flags as the card scene's like-named params (`--corner-radius` → `cornerRadius`), in the CLI's
    /// formats; a flag left out leaves its param to the scene's default (a turned, spun or shadowed card then
    /// takes 2/3 of the canvas, as the scene says).
    func cardParams() throws -> [(name: String, value: String)] {
        var params: [(name: String, value: String)] = [
            ("background", background.hexText), ("gravity", gravity.rawValue), ("axis", "\(axis.x),\(axis.y),\(axis.z)"),
            ("cornerRadius", "\(cornerRadius)"), ("opacity", "\(opacity)"),
        ]
        // Left out, the eye distance is the scene's: it scales with the canvas (CLI.md), where 500 px ran off HD canvases.
        if let perspective { params.append(("perspective", "\(perspective)")) }
        if let size { params.append(("size", "\(size.width)x\(size.height)")) }
        if let layerSize { params.append(("layerSize", "\(layerSize.width)x\(layerSize.height)")) }
        // The same turn modulo 360°: the scene's angle goes through radians and back, where 1e308° overflowed to inf.
        if let rotate { params.append(("rotate", "\(rotate.truncatingRemainder(dividingBy: 360))")) }
        if let spin { params.append(("spin", "\(spin)")) }
        if let border { params.append(("border", "\(border.width):\(border.color.hexText)")) }
        if let shadow {
            params.append(("shadow", "\(shadow.radius):\(shadow.opacity):\(shadow.offset.width),\(shadow.offset.height)"))
        }
        if let mask {
            // Read here first so that an unreadable mask is reported as it always was, naming the file as given.
            _ = try loadImage(mask)
            params.append(("mask", mask))
        }
        return params
    }

    /// The input's probe and its display size (sample aspect ratio and rotation applied); the card scene opens
    /// the input again to show it (a probe is cheap, and its errors are the command line's own).
    func openMedia(_ path: String) throws -> (size: PixelSize, asset: MediaAsset) {
        let asset: MediaAsset
        do { asset = try MediaAsset(path: path) } catch { throw RunError("\(error)") }
        guard let video = asset.video else {
            // Audio only: a movie (or a window) of the sound drawn on the canvas, with the sound; a single still is refused.
            // (A PNG sequence is an export: its frames show the drawn sound.)
            if outputs.count == 1, let output, (output.lowercased().hasSuffix(".png") && !MovieWriter.isImageSequence(output)) || MovieWriter.isJPEGStill(output) {
                throw RunError("'\(path)' has only audio: its picture is the sound moving over time (write a movie, or a PNG sequence such as f_%03d.png)")
            }
            return (size ?? PixelSize(width: 1280, height: 720), asset)
        }
        return (PixelSize(width: max(1, video.displayWidth), height: max(1, video.displayHeight)), asset)
    }

    /// Any picture FFmpeg reads (PNG, JPEG, WebP, GIF, TIFF…; a video's first frame).
    func loadImage(_ path: String) throws -> Image {
        do { return try ImageLoader.load(path: path) } catch { throw RunError("\(error)") }
    }

    /// Every file this run reads, and what the user calls it: none of them may ever be an output.
    var inputFiles: [(path: String, role: String)] {
        [(input, "the input")] + (mask.map { [($0, "the --mask image")] } ?? [])
            + (subtitleFile.map { [($0, "the --subtitles file")] } ?? [])
    }

    /// Refuses an output that is an input, that exists (without -y), or whose kind we cannot write.
    func checkOutput(_ path: String, format: String? = nil) throws {
        let format = format ?? streams.format
        let fm = FileManager.default
        let outURL = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        for (inputPath, role) in inputFiles where OutputIdentity.writes(path, over: inputPath) {
            throw RunError("the output '\(path)' is \(role); choose another path")
        }
        guard format != nil || path.lowercased().hasSuffix(".png") && !path.contains("%") || MovieWriter.isJPEGStill(path)
                || MovieWriter.isImageSequence(path) || MovieWriter.canWrite(path) else {
            throw RunError("cannot write '\(path)': use a .png or .jpg still or a movie container FFmpeg can write (.mp4 .mov .mkv .webm…)")
        }
        var isDirectory: ObjCBool = false
        // A sequence is judged by its first picture. attributesOfItem does not follow a final symlink: a
        // dangling link is "something there" too.
        let firstFile = MovieWriter.isImageSequence(path)
            ? outURL.deletingLastPathComponent().appendingPathComponent(MovieWriter.sequenceFileName(outURL.lastPathComponent, number: 1) ?? "").path
            : path
        if (try? fm.attributesOfItem(atPath: firstFile)) != nil {
            if fm.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw RunError("cannot write '\(path)': it is a directory")
            }
            if !overwrite { throw RunError("'\(firstFile)' already exists; use -y to overwrite it") }
        }
        let dir = outURL.deletingLastPathComponent().path
        if !fm.fileExists(atPath: dir, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw RunError("cannot write '\(path)': the directory '\(dir)' does not exist")
        }
        if !fm.isWritableFile(atPath: dir) { throw RunError("cannot write '\(path)': the directory '\(dir)' is not writable") }
    }

    /// A library's error as the command line says it: an output that appeared while we wrote names -y, as
    /// `checkOutput` does for one that was there at the start.
    func runError(_ error: any Error) -> RunError {
        if let exists = error as? FileExistsError { return RunError("'\(exists.path)' already exists; use -y to overwrite it") }
        return RunError("\(error)")
    }
}
