import Foundation
import LayerGraphics
import LayerKit

/// A scene file turned into a layer tree, with what the hosts need to play or export it.
public final class LoadedScene {
    public let name: String
    /// The canvas: the root layer, its bounds the canvas size, its background the canvas background.
    public let root: Layer
    public let canvasSize: Size
    public let fps: Double
    /// Seconds; nil when the scene gives none (an export then needs `--duration`).
    public let duration: Double?
    public let params: [SceneParam]
    public let inputs: [SceneInput]
    /// The input whose sound plays (`audio`), nil for none.
    public let audioInput: String?
    public let warnings: [SceneDiagnostic]
    /// The images and subtitle files the scene read (not its media inputs): live reload watches them too.
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
    public var media: SceneMedia?

    public init(file: String, directory: String) { self.file = file; self.directory = directory }
}

/// Reads scene files (SCENES.md): JSONC → checked values → a `Layer` tree. Every problem is collected with its
/// line, column and key path; nothing is built for hosting until the whole file checked clean.
public enum SceneLoader {
    public static let readsMajor = 1
    static let topLevelKeys: Set<String> = ["version", "name", "canvas", "params", "let", "inputs", "layers", "audio"]
    static let canvasKeys: Set<String> = ["size", "background", "fps", "duration", "resize"]
    static let paramKeys: Set<String> = ["type", "default", "required", "min", "max", "values", "position", "doc"]
    static let inputKeys: Set<String> = ["src", "start", "loop", "stream"]

    /// Reads and loads the scene at `path` (`file` in messages is `path` as given).
    public static func load(contentsOf path: String, options: SceneLoadOptions) throws(SceneErrors) -> LoadedScene {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SceneErrors([SceneDiagnostic(file: options.file, position: SourcePosition(line: 1, column: 1), path: "",
                                               message: "cannot read the scene file: \(error.localizedDescription)")])
        }
        return try load(text: text, options: options)
    }

    /// Loads a scene from its text.
    public static func load(text: String, options: SceneLoadOptions) throws(SceneErrors) -> LoadedScene {
        try build(text: text, options: options).scene
    }

    /// `scene print`: the scene at `path` loaded (so it must be clean, media probed), then written back as plain
    /// JSON with params, `let`, `repeat` and `when` resolved (SCENES.md §5).
    public static func resolvedJSON(contentsOf path: String, options: SceneLoadOptions) throws(SceneErrors) -> String {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw SceneErrors([SceneDiagnostic(file: options.file, position: SourcePosition(line: 1, column: 1), path: "",
                                               message: "cannot read the scene file: \(error.localizedDescription)")])
        }
        return try resolvedJSON(text: text, options: options)
    }

    public static func resolvedJSON(text: String, options: SceneLoadOptions) throws(SceneErrors) -> String {
        let (scene, built, json) = try build(text: text, options: options)
        var builder = built
        return builder.printedDocument(json, scene: scene).json()
    }

    static func build(text: String, options: SceneLoadOptions) throws(SceneErrors) -> (scene: LoadedScene, builder: SceneBuilder, json: JSONValue) {
        var ctx = SceneContext(file: options.file)
        ctx.lenient = options.checkOnly
        let json: JSONValue
        do { json = try JSONCReader.parse(text) } catch {
            throw SceneErrors([SceneDiagnostic(file: options.file, position: error.position, path: "", message: error.message)])
        }
        var builder = SceneBuilder(ctx: ctx, options: options)
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
    /// Files read while building (`contents`, cell images, subtitle files).
    var readFiles: [String] = []

    init(ctx: SceneContext, options: SceneLoadOptions) { self.ctx = ctx; self.options = options }

    mutating func build(_ json: JSONValue) -> LoadedScene? {
        let top = Site(json: json, path: "")
        guard let members = json.members else { ctx.error(top, "expected the scene object {…}, got \(json.shortDescription)"); return nil }
        guard checkVersion(json) else { return nil }
        ctx.checkKeys(members, known: SceneLoader.topLevelKeys, path: "")

        if let p = json["params"] { readParams(p) }
        if let i = json["inputs"] { readInputs(i) }
        var canvasSize = Size(width: 1280, height: 720)
        var background: Color? = .black
        var duration: Double?
        // The first video input: of `inputs`, else the first inline `src` of the layers (document order).
        var firstVideo = inputOrder.compactMap { inputs[$0]?.info }.first { $0.size != nil }
        if firstVideo == nil, let layers = json["layers"] { firstVideo = firstInlineVideo(layers) }
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
            duration = inputOrder.compactMap { id in inputs[id].flatMap { $0.loop ? nil : $0.info?.duration } }.max()
        }
        var audio: String? = inputOrder.first { inputs[$0]?.info?.hasAudio ?? false }
        if let a = json["audio"], let v = value(a, "audio") {
            let site = Site(json: a, path: "audio")
            if v == .string("none") { audio = nil } else if let id = ctx.choice(v, site, inputOrder + ["none"]) { audio = id }
        }
        var name = ((options.file as NSString).lastPathComponent as NSString).deletingPathExtension
        if let n = json["name"], let v = value(n, "name"), let s = ctx.string(v, Site(json: n, path: "name")) { name = s }
        let scene = LoadedScene(name: name, root: root, canvasSize: canvasSize, fps: ctx.fps, duration: duration, params: params,
                                inputs: inputOrder.compactMap { inputs[$0] }, audioInput: audio, warnings: ctx.warnings)
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
        s.hasPrefix("/") ? s : (options.directory as NSString).appendingPathComponent(s)
    }
}
