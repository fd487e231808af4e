import Foundation
import LayerGraphics
import LayerKit

/// What one load shares with the scenes it includes.
final class SceneLoadSession {
    /// The files being built, outermost first (canonical path, name as messages give it): an include of one of
    /// them is a cycle.
    var chain: [(path: String, name: String)] = []
    /// One probe per file for the whole load, so a file that an including and an included scene both open is
    /// probed once (their inputs are still their own).
    private var probes: [String: Result<SceneMediaInfo, any Error>] = [:]

    func probe(_ path: String, with media: SceneMedia) throws -> SceneMediaInfo {
        if let known = probes[path] { return try known.get() }
        let result = Result { try media.probe(path) }
        probes[path] = result
        return try result.get()
    }
}

/// `scene` layers (SCENES.md §3): another scene file built as this layer's content, like a Lottie precomp.
extension SceneBuilder {
    static let sceneKeys: Set<String> = ["src", "set"]
    /// Includes deeper than this are refused (cycles are caught before; this bounds a long chain of distinct files).
    static let maxIncludeDepth = 32

    /// The path with `.` and `..` resolved and symbolic links followed, so two spellings of one file compare equal.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The included scene's canvas as a layer: its bounds the included canvas, its sublayers the included layers.
    /// Placed with the including layer's geometry keys like any layer (anchor in the middle unless given). After
    /// an error a plain layer stands in, so the including layer's other keys are still checked.
    mutating func includedScene(_ json: JSONValue, path: String) -> Layer {
        guard let srcJSON = json["src"] else {
            ctx.error(Site(json: json, path: path), "a scene layer needs \"src\" (the scene file to include)")
            return Layer()
        }
        let srcSite = Site(json: srcJSON, path: "\(path).src")
        guard let v = ctx.resolve(srcSite), v != .undefined, let src = ctx.string(v, srcSite) else {
            if ctx.resolve(srcSite) == .undefined { ctx.error(srcSite, "\(srcJSON.shortDescription) has no value") }
            return Layer()
        }
        if let refusal = SceneFileRule.refusal(src) { ctx.error(srcSite, refusal); return Layer() }
        guard options.readsFiles else { ctx.error(srcSite, "cannot open '\(src)': this load reads no files"); return Layer() }
        let file = filePath(src)
        // Messages name the included file as the user would find it from where they ran layerplay.
        let name = src.hasPrefix("/") ? src : ((options.file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(src)
        let key = Self.canonical(SceneFileRule.openable(file))
        if let start = session.chain.firstIndex(where: { $0.path == key }) {
            let cycle = session.chain[start...].map(\.name) + [name]
            ctx.error(srcSite, "include cycle: \(cycle.joined(separator: " → "))")
            return Layer()
        }
        guard session.chain.count < Self.maxIncludeDepth else {
            ctx.error(srcSite, "includes nest deeper than \(Self.maxIncludeDepth) files")
            return Layer()
        }
        readFiles.append(file)
        guard let data = FileManager.default.contents(atPath: SceneFileRule.openable(file)) else {
            ctx.error(srcSite, "cannot open '\(src)': No such file or directory")
            return Layer()
        }
        guard let text = String(data: data, encoding: .utf8) else {
            ctx.error(srcSite, "cannot open '\(src)': not UTF-8 text")
            return Layer()
        }
        // Presets: `set` values resolved here, with the names of this scene (params, `let`, `w`, `h`, `i`).
        var presets: [String: ParamPreset] = [:]
        if let set = json["set"] {
            let setSite = Site(json: set, path: "\(path).set")
            if let members = set.members {
                for m in members {
                    let site = Site(json: m.value, path: "\(setSite.path).\(m.key)", keyPosition: m.keyPosition)
                    guard let value = ctx.resolve(site), value != .undefined else { continue }
                    presets[m.key] = ParamPreset(value: value, site: site, file: ctx.file, directory: options.directory)
                }
            } else { ctx.expected("an object of param values {\"name\": value}", setSite, got: SceneValue(literal: set)) }
        }

        var innerOptions = SceneLoadOptions(file: name, directory: (file as NSString).deletingLastPathComponent)
        innerOptions.checkOnly = options.checkOnly
        innerOptions.media = options.media
        innerOptions.readsFiles = options.readsFiles
        var innerContext = SceneContext(file: name)
        innerContext.lenient = ctx.lenient
        var inner = SceneBuilder(ctx: innerContext, options: innerOptions)
        inner.session = session
        inner.presets = presets
        inner.isIncluded = true
        session.chain.append((key, name))
        defer { session.chain.removeLast() }

        let built: LoadedScene?
        do {
            let document = try JSONCReader.parse(text)
            built = inner.build(document)
        } catch {
            inner.ctx.diagnostics.append(SceneDiagnostic(file: name, position: error.position, path: "", message: error.message))
            built = nil
        }
        // Problems inside the included file name both places; a `set` value's problem is already in this file.
        let here = " (included from \(ctx.file):\(srcJSON.position))"
        for var d in inner.ctx.diagnostics {
            if d.file != ctx.file { d.message += here }
            ctx.diagnostics.append(d)
        }
        for var w in inner.ctx.warnings {
            if w.file != ctx.file { w.message += here }
            ctx.warnings.append(w)
        }
        readFiles += inner.readFiles
        guard let built, inner.ctx.diagnostics.isEmpty else { return Layer() }
        nestedInputs += built.inputs.map { input in
            var copy = input
            copy.id = "\(name)#\(input.id)"
            return copy
        }
        if let d = built.duration { nestedDurations.append(d) }
        let layer = built.root
        // The loader placed the canvas at the origin; here it is a layer like the others (Layer's defaults).
        layer.anchorPoint = Point(x: 0.5, y: 0.5)
        layer.position = .zero
        return layer
    }
}
