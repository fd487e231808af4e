import Foundation
import LayerMedia
import LayerGraphics
import LayerKit

/// A scene file turned into a layer tree, with what the hosts need to play or export it.
public final class LoadedScene {
    /// The scene's `name`, or its file name without the extension: the window title.
    public let name: String
    /// The canvas: the root layer, its bounds the canvas size, its background the canvas background.
    public let root: Layer
    /// The canvas size in points (and pixels): `canvas.size`, else the first video input's display size, else 1280×720.
    public let canvasSize: Size
    /// Frames per second of playback and export: `canvas.fps`, else the first video input's rate, else 30.
    public let fps: Double
    /// Seconds; nil when the scene gives none (an export then needs `--duration`).
    public let duration: Double?
    /// The declared params, in file order (what `scene params` lists).
    public let params: [SceneParam]
    /// Its own inputs, then those of the scenes it includes (ids `FILE#ID`: theirs, not for `audio`).
    public let inputs: [SceneInput]
    /// The input whose sound plays (`audio`), nil for none.
    public let audioInput: String?
    /// Problems that did not stop the load (ignored keys): printed as `layerplay: warning: …`.
    public let warnings: [SceneDiagnostic]
    /// The images, subtitle files and included scene files the scene read, its included scenes' too (not its media
    /// inputs): live reload watches them all.
    public internal(set) var files: [String] = []

    init(name: String, root: Layer, canvasSize: Size, fps: Double, duration: Double?, params: [SceneParam],
         inputs: [SceneInput], audioInput: String?, warnings: [SceneDiagnostic]) {
        self.name = name; self.root = root; self.canvasSize = canvasSize; self.fps = fps; self.duration = duration
        self.params = params; self.inputs = inputs; self.audioInput = audioInput; self.warnings = warnings
    }
}

/// How a scene is loaded: its file, the values the command line gives its params, and whether only to check.
public struct SceneLoadOptions {
    /// The file as the user named it (messages start with it).
    public var file: String
    /// Relative `src`, `contents` and `file` values in the scene resolve against this folder.
    public var directory: String
    /// Positional arguments after the scene file.
    public var arguments: [String] = []
    /// `--set NAME=VALUE`, in command-line order.
    public var sets: [(name: String, value: String)] = []
    /// `scene check`: a required param without a value is not an error, and inputs are not probed.
    public var checkOnly = false
    /// How inputs are probed and shown (`MediaAssetSceneMedia` decodes with LayerMedia); nil: inputs are not probed
    /// and media layers are left out of the tree, which is enough to check a scene or print it.
    public var media: SceneMedia?
    /// false: the scene may read no file besides what `media` answers for its inputs: `contents`, subtitle files and
    /// included scenes are refused (the fuzz harness loads untrusted bytes this way, touching no file).
    public var readsFiles = true
    /// Whether inputs (`inputs.*.src`, inline `src`, media params) may be URLs of any FFmpeg protocol or pipes:
    /// true for the command line's own input (the user typed it) and with `--allow-network`; false by default,
    /// so that a scene from elsewhere makes no request and reads no pipe on its own (SCENES.md §2).
    public var allowsNetwork = false

    /// Options for the scene named `file` whose relative paths resolve in `directory`; no arguments, no sets, no media.
    public init(file: String, directory: String) { self.file = file; self.directory = directory }
}

/// Reads scene files (SCENES.md): JSONC → checked values → a `Layer` tree. Every problem is collected with its
/// line, column and key path; nothing is built for hosting until the whole file checked clean.
public enum SceneLoader {
    /// The format's major version this build reads (`"version": "1.x"`); a higher one is refused.
    public static let readsMajor = 1
    static let topLevelKeys: Set<String> = ["version", "name", "canvas", "params", "let", "inputs", "layers", "audio"]
    static let canvasKeys: Set<String> = ["size", "background", "fps", "duration", "resize"]
    static let paramKeys: Set<String> = ["type", "default", "required", "min", "max", "values", "position", "doc"]
    static let inputKeys: Set<String> = ["src", "start", "loop", "stream"]

    /// Reads and loads the scene at `path` (`file` in messages is `path` as given).
    public static func load(contentsOf path: String, options: SceneLoadOptions) throws(SceneErrors) -> LoadedScene {
        let text = try sceneText(path, options: options)
        return try load(text: text, options: options)
    }

    /// Loads a scene from its text.
    public static func load(text: String, options: SceneLoadOptions) throws(SceneErrors) -> LoadedScene {
        try build(text: text, options: options).scene
    }

    /// `scene print`: the scene at `path` loaded (so it must be clean, media probed), then written back as plain
    /// JSON with params, `let`, `repeat` and `when` resolved (SCENES.md §5).
    public static func resolvedJSON(contentsOf path: String, options: SceneLoadOptions) throws(SceneErrors) -> String {
        let text = try sceneText(path, options: options)
        return try resolvedJSON(text: text, options: options)
    }

    /// `scene print` of a scene's text: loaded, then written back as plain JSON with params, `let`, `repeat` and `when`
    /// resolved.
    public static func resolvedJSON(text: String, options: SceneLoadOptions) throws(SceneErrors) -> String {
        let (scene, built, json) = try build(text: text, options: options)
        var builder = built
        return builder.printedDocument(json, scene: scene).json()
    }

    /// The text of the scene at `path`: a built-in scene's (`builtin:card`), else the file's.
    static func sceneText(_ path: String, options: SceneLoadOptions) throws(SceneErrors) -> String {
        if BuiltinScenes.isBuiltin(path) {
            guard let text = BuiltinScenes.text(of: path) else {
                throw SceneErrors([SceneDiagnostic(file: options.file, position: SourcePosition(line: 1, column: 1), path: "",
                                                   message: "no such built-in scene (there are: \(BuiltinScenes.all.keys.sorted().map { BuiltinScenes.prefix + $0 }.joined(separator: ", ")))")])
            }
            return text
        }
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SceneErrors([SceneDiagnostic(file: options.file, position: SourcePosition(line: 1, column: 1), path: "",
                                               message: "cannot read the scene file: \(error.localizedDescription)")])
        }
    }

    static func build(text: String, options: SceneLoadOptions) throws(SceneErrors) -> (scene: LoadedScene, builder: SceneBuilder, json: JSONValue) {
        var ctx = SceneContext(file: options.file)
        ctx.lenient = options.checkOnly
        let json: JSONValue
        do { json = try JSONCReader.parse(text) } catch {
            throw SceneErrors([SceneDiagnostic(file: options.file, position: error.position, path: "", message: error.message)])
        }
        var builder = SceneBuilder(ctx: ctx, options: options)
        // The top file heads the include chain, so a scene that includes itself is a cycle (SCENES.md §7).
        builder.session.chain = [(SceneBuilder.canonical(builder.filePath((options.file as NSString).lastPathComponent)), options.file)]
        let scene = builder.build(json)
        ctx = builder.ctx
        guard ctx.diagnostics.isEmpty, let scene else { throw SceneErrors(ctx.diagnostics) }
        options.media?.didBuild(scene.root)
        return (scene, builder, json)
    }
}

/// One load: walks the document in SCENES.md's order (version, params, inputs, canvas, `let`, layers).
struct SceneBuilder {
    var ctx: SceneContext
    let options: SceneLoadOptions
    var params: [SceneParam] = []
    var inputs: [String: SceneInput] = [:]
    var inputOrder: [String] = []
    var usedIDs: Set<String> = []
    var typeCounts: [String: Int] = [:]
    /// Each built layer's id and bounds size, in build order (self, sublayers, mask): `scene print` walks the
    /// file again in that order and takes ids and superlayer sizes from here.
    var builtLayout: [(id: String, size: Size)] = []
    var printCursor = 0
    /// Files read while building (`contents`, cell images, subtitle files, included scenes and what they read).
    var readFiles: [String] = []
    /// What this load shares with the scenes it includes: the include chain and the probes.
    var session = SceneLoadSession()
    /// Values an including `scene` layer's `set` gives this scene's params (empty for the top file).
    var presets: [String: ParamPreset] = [:]
    /// Built as a `scene` layer's content: the canvas has no background unless the file gives one.
    var isIncluded = false
    /// The inputs of included scenes (ids `FILE#ID`), for hosts that look at every file a scene opens.
    var nestedInputs: [SceneInput] = []
    /// The durations of included scenes, for this scene's default duration.
    var nestedDurations: [Double] = []

    init(ctx: SceneContext, options: SceneLoadOptions) { self.ctx = ctx; self.options = options }

    mutating func build(_ json: JSONValue) -> LoadedScene? {
        let top = Site(json: json, path: "")
        guard let members = json.members else { ctx.error(top, "expected the scene object {…}, got \(json.shortDescription)"); return nil }
        guard checkVersion(json) else { return nil }
        ctx.checkKeys(members, known: SceneLoader.topLevelKeys, path: "")

        if let p = json["params"] { readParams(p) }
        reportUnusedPresets()
        if let i = json["inputs"] { readInputs(i) }
        var canvasSize = Size(width: 1280, height: 720)
        var background: Color? = isIncluded ? nil : .black
        var duration: Double?
        // The first video input: of `inputs`, else the first inline `src` of the layers (document order).
        var firstVideo = inputOrder.compactMap { inputs[$0]?.info }.first { $0.size != nil }
        if firstVideo == nil, let layers = json["layers"] { firstVideo = firstInlineVideo(layers, lets: json["let"]) }
        if let first = firstVideo {
            if let s = first.size { canvasSize = s }
            if let f = first.fps, f > 0 { ctx.fps = f }
        }
        if let c = json["canvas"] {
            let site = Site(json: c, path: "canvas")
            if let m = c.members {
                ctx.checkKeys(m, known: SceneLoader.canvasKeys, path: "canvas")
                if let f = c["fps"], let v = value(f, "canvas.fps"), v != .undefined, let n = ctx.number(v, Site(json: f, path: "canvas.fps"), min: 1, max: 1000) { ctx.fps = n }
                if let s = c["size"], let v = value(s, "canvas.size"), v != .undefined,
                   let size = ctx.size(v, Site(json: s, path: "canvas.size")) {
                    if size.width >= 1, size.height >= 1, size.width <= 16384, size.height <= 16384 { canvasSize = size }
                    else { ctx.error(Site(json: s, path: "canvas.size"), "expected a size from 1x1 to 16384x16384, got \(v.shortDescription)") }
                }
                if let b = c["background"], let v = value(b, "canvas.background"), v != .undefined, let col = ctx.color(v, Site(json: b, path: "canvas.background")) { background = col }
                if let d = c["duration"], let v = value(d, "canvas.duration"), v != .undefined { duration = ctx.time(v, Site(json: d, path: "canvas.duration"), min: 0) }
                if let r = c["resize"], let v = value(r, "canvas.resize"), v != .undefined { _ = ctx.choice(v, Site(json: r, path: "canvas.resize"), ["scale", "relayout"]) }
            } else { ctx.error(site, "expected an object, got \(c.shortDescription)") }
        }
        ctx.names["W"] = .number(canvasSize.width)
        ctx.names["H"] = .number(canvasSize.height)
        if let l = json["let"] { readLets(l) }

        let root = Layer()
        root.name = "canvas"
        root.bounds = Rect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height)
        root.anchorPoint = .zero
        root.position = .zero
        root.backgroundColor = background
        if let l = json["layers"] {
            for layer in buildLayers(l, path: "layers", in: canvasSize) { root.addSublayer(layer) }
        } else {
            ctx.error(top, "missing the required key \"layers\"", at: json.position)
        }

        // No canvas duration: the latest end of an input that does not loop (SCENES.md §3); none → unbounded.
        if duration == nil {
            duration = (inputOrder.compactMap { id in inputs[id].flatMap { $0.loop ? nil : $0.info?.duration } } + nestedDurations).max()
        }
        var audio: String? = inputOrder.first { inputs[$0]?.info?.hasAudio ?? false }
        if let a = json["audio"], let v = value(a, "audio") {
            let site = Site(json: a, path: "audio")
            if v == .string("none") { audio = nil } else if let id = ctx.inputReference(v, site, among: inputOrder + ["none"]) { audio = id }
        }
        var name = ((options.file as NSString).lastPathComponent as NSString).deletingPathExtension
        if let n = json["name"], let v = value(n, "name"), let s = ctx.string(v, Site(json: n, path: "name")) { name = s }
        let scene = LoadedScene(name: name, root: root, canvasSize: canvasSize, fps: ctx.fps, duration: duration, params: params,
                                inputs: inputOrder.compactMap { inputs[$0] } + nestedInputs, audioInput: audio, warnings: ctx.warnings)
        var seen = Set<String>()
        scene.files = readFiles.filter { seen.insert($0).inserted }
        return scene
    }

    /// Resolves the value at `json` (`$`, `=`), recording errors under `path`.
    mutating func value(_ json: JSONValue, _ path: String) -> SceneValue? { ctx.resolve(Site(json: json, path: path)) }

    /// `version` is required; a higher major is refused, a higher minor read (SCENES.md §7).
    mutating func checkVersion(_ json: JSONValue) -> Bool {
        guard let v = json["version"] else {
            ctx.error(Site(json: json, path: "version"), "missing the required key \"version\" (write \"version\": \"1.0\")")
            return false
        }
        let site = Site(json: v, path: "version")
        let parts = v.string?.split(separator: ".").map { Int($0) }
        guard let parts, parts.count == 2, let major = parts[0], let minor = parts[1], major >= 0, minor >= 0 else {
            ctx.error(site, "expected \"MAJOR.MINOR\", got \(v.shortDescription)")
            return false
        }
        guard major == SceneLoader.readsMajor else {
            ctx.error(site, "scene format \(major).\(minor) needs a newer layerplay; this one reads \(SceneLoader.readsMajor).x")
            return false
        }
        ctx.newerMinor = minor > 0
        return true
    }

    mutating func readLets(_ json: JSONValue) {
        guard let members = json.members else { ctx.error(Site(json: json, path: "let"), "expected an object of names, got \(json.shortDescription)"); return }
        for m in members {
            let path = "let.\(m.key)"
            guard isName(m.key) else { ctx.error(Site(json: m.value, path: path), "a name is letters, digits and _, not starting with a digit", at: m.keyPosition); continue }
            if ctx.names[m.key] != nil { ctx.error(Site(json: m.value, path: path), "\"\(m.key)\" is already a param or let", at: m.keyPosition); continue }
            ctx.names[m.key] = value(m.value, path) ?? .undefined
        }
    }

    func isName(_ s: String) -> Bool {
        guard let f = s.first, f.isLetter || f == "_" else { return false }
        return s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !["W", "H", "w", "h", "i", "inputs", "true", "false"].contains(s)
    }

    /// A path from the file relative to the scene's folder.
    func filePath(_ s: String) -> String {
        if options.allowsNetwork && !InputLocation(s).isFile { return s }  // a URL or pipe the user allowed
        return s.hasPrefix("/") ? s : (options.directory as NSString).appendingPathComponent(s)
    }
}
