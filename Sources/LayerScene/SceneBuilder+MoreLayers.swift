import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// The keys of `replicator`, `scroll`, `emitter` and `subtitles` layers (SCENES.md §3), named as the Swift API
/// (SEMANTICS-LAYERS.md §4, §5, §7). Angles are degrees here as everywhere in a scene file.
extension SceneBuilder {
    static let replicatorKeys: Set<String> = ["instanceCount", "instanceTransform", "instanceDelay", "instanceColor", "instanceRedOffset",
                                              "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset", "preservesDepth"]
    static let scrollKeys: Set<String> = ["scrollMode"]
    static let emitterKeys: Set<String> = ["emitterCells", "birthRate", "lifetime", "velocity", "scale", "spin", "emitterPosition",
                                           "emitterZPosition", "emitterSize", "emitterDepth", "emitterShape", "emitterMode", "renderMode",
                                           "preservesDepth", "seed"]
    static let subtitlesKeys: Set<String> = textKeys.union(["file", "input", "stream", "padding"])
    /// An emitter cell object's keys: EmitterCell's properties, `enabled` for `isEnabled`.
    static let cellKeys: Set<String> = [
        "name", "enabled", "birthRate", "lifetime", "lifetimeRange", "emissionLongitude", "emissionLatitude", "emissionRange",
        "velocity", "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale", "scaleRange", "scaleSpeed",
        "spin", "spinRange", "color", "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed", "greenSpeed", "blueSpeed",
        "alphaSpeed", "contents", "contentsRect", "contentsScale", "minificationFilter", "magnificationFilter",
        "minificationFilterBias", "emitterCells", "beginTime", "duration", "speed", "timeOffset", "when",
    ]
    /// Keys read from their JSON after the others (they hold objects with their own positions, or need the input
    /// table), not through `applyKey`.
    static let deferredKeys: Set<String> = ["emitterCells", "set", "cuts"]
    /// On a subtitles layer these style the box the cue shows in, not the (usually zero-height) layer itself.
    static let subtitleBoxKeys: Set<String> = ["backgroundColor", "cornerRadius", "maskedCorners", "borderWidth", "borderColor",
                                               "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath"]

    /// A key of the layer types in this file; false when `layer` is none of them.
    mutating func applyMoreKey(_ key: String, _ v: SceneValue, _ s: Site, to layer: Layer) -> Bool {
        if let r = layer as? ReplicatorLayer { applyReplicatorKey(key, v, s, to: r); return true }
        if let sc = layer as? ScrollLayer {
            if key == "scrollMode", let m = ctx.choice(v, s, ScrollLayer.ScrollMode.allCases.map(\.rawValue)) { sc.scrollMode = ScrollLayer.ScrollMode(rawValue: m)! }
            return true
        }
        if let e = layer as? EmitterLayer { applyEmitterKey(key, v, s, to: e); return true }
        if let sub = layer as? SceneSubtitlesLayer {
            if key == "padding", let p = ctx.numbers(v, s, count: 2...2, what: "a padding [x, y]") {
                guard p.allSatisfy({ $0 >= 0 && $0 <= 4096 }) else { ctx.expected("a padding [x, y] from 0 to 4096", s, got: v); return true }
                sub.padding = Size(width: p[0], height: p[1])
            } else if Self.textKeys.contains(key) {
                applyTextKey(key, v, s, to: sub.text)
            }
            return true
        }
        return false
    }

    mutating func applyReplicatorKey(_ key: String, _ v: SceneValue, _ s: Site, to r: ReplicatorLayer) {
        switch key {
        case "instanceCount":
            if let n = ctx.number(v, s, min: 0, max: Double(ReplicatorLayer.maximumInstanceCount)) {
                guard n == n.rounded() else { ctx.expected("a whole number of instances", s, got: v); return }
                r.instanceCount = Int(n)
            }
        case "instanceTransform": if let t = ctx.transform(v, s) { r.instanceTransform = t }
        case "instanceDelay": if let t = ctx.time(v, s) { r.instanceDelay = t }
        case "instanceColor": if let c = ctx.color(v, s) { r.instanceColor = c }
        case "instanceRedOffset": if let n = ctx.number(v, s, min: -1, max: 1) { r.instanceRedOffset = n }
        case "instanceGreenOffset": if let n = ctx.number(v, s, min: -1, max: 1) { r.instanceGreenOffset = n }
        case "instanceBlueOffset": if let n = ctx.number(v, s, min: -1, max: 1) { r.instanceBlueOffset = n }
        case "instanceAlphaOffset": if let n = ctx.number(v, s, min: -1, max: 1) { r.instanceAlphaOffset = n }
        case "preservesDepth": if let b = ctx.bool(v, s) { r.preservesDepth = b }
        default: break
        }
    }

    mutating func applyEmitterKey(_ key: String, _ v: SceneValue, _ s: Site, to e: EmitterLayer) {
        switch key {
        case "birthRate": if let n = ctx.number(v, s, min: 0, max: 1e6) { e.birthRate = n }
        case "lifetime": if let n = ctx.number(v, s, min: 0, max: 1e6) { e.lifetime = n }
        case "velocity": if let n = ctx.number(v, s, min: -1e6, max: 1e6) { e.velocity = n }
        case "scale": if let n = ctx.number(v, s, min: 0, max: 1e4) { e.scale = n }
        case "spin": if let n = ctx.number(v, s, min: -1e6, max: 1e6) { e.spin = n }
        case "emitterPosition": if let p = ctx.point(v, s, percentOf: e.bounds.size) { e.emitterPosition = p }
        case "emitterZPosition": if let n = ctx.number(v, s) { e.emitterZPosition = n }
        case "emitterSize": if let sz = ctx.size(v, s, percentOf: e.bounds.size) { e.emitterSize = sz }
        case "emitterDepth": if let n = ctx.number(v, s, min: 0) { e.emitterDepth = n }
        case "emitterShape": if let c = ctx.choice(v, s, EmitterLayer.Shape.allCases.map(\.rawValue)) { e.emitterShape = EmitterLayer.Shape(rawValue: c)! }
        case "emitterMode": if let c = ctx.choice(v, s, EmitterLayer.Mode.allCases.map(\.rawValue)) { e.emitterMode = EmitterLayer.Mode(rawValue: c)! }
        case "renderMode": if let c = ctx.choice(v, s, EmitterLayer.RenderMode.allCases.map(\.rawValue)) { e.renderMode = EmitterLayer.RenderMode(rawValue: c)! }
        case "preservesDepth": if let b = ctx.bool(v, s) { e.preservesDepth = b }
        case "seed":
            if let n = ctx.number(v, s, min: 0, max: Double(UInt32.max)) {
                guard n == n.rounded() else { ctx.expected("a whole number from 0 to \(UInt32.max)", s, got: v); return }
                e.seed = UInt32(n)
            }
        default: break
        }
    }

    /// `emitterCells`: a list of cell objects, each with its keys checked and its own `emitterCells` (sub-cells).
    mutating func buildCells(_ json: JSONValue, path: String) -> [EmitterCell]? {
        guard let list = json.elements else { ctx.error(Site(json: json, path: path), "expected a list of emitter cells, got \(json.shortDescription)"); return nil }
        var cells: [EmitterCell] = []
        for (i, item) in list.enumerated() {
            let named = item["name"]?.string.map { "\(path)[\(i)](\"\($0)\")" } ?? "\(path)[\(i)]"
            guard let members = item.members else { ctx.error(Site(json: item, path: named), "expected an emitter cell object, got \(item.shortDescription)"); continue }
            ctx.checkKeys(members, known: Self.cellKeys, path: named)
            guard isIncluded(item, path: named) else { continue }
            let cell = EmitterCell()
            for m in members where m.key != "when" {
                let site = Site(json: m.value, path: "\(named).\(m.key)", keyPosition: m.keyPosition)
                if m.key == "emitterCells" { cell.emitterCells = buildCells(m.value, path: site.path); continue }
                guard let v = ctx.resolve(site), v != .undefined else { continue }
                applyCellKey(m.key, v, site, to: cell)
            }
            cells.append(cell)
        }
        return cells
    }

    mutating func applyCellKey(_ key: String, _ v: SceneValue, _ s: Site, to c: EmitterCell) {
        // Plain numbers, each with its range: rates and lifetimes are never negative.
        let numbers: [String: (ReferenceWritableKeyPath<EmitterCell, Double>, Double, Double)] = [
            "birthRate": (\.birthRate, 0, 1e6), "lifetime": (\.lifetime, 0, 1e6), "lifetimeRange": (\.lifetimeRange, 0, 1e6),
            "velocity": (\.velocity, -1e6, 1e6), "velocityRange": (\.velocityRange, 0, 1e6),
            "xAcceleration": (\.xAcceleration, -1e6, 1e6), "yAcceleration": (\.yAcceleration, -1e6, 1e6), "zAcceleration": (\.zAcceleration, -1e6, 1e6),
            "scale": (\.scale, 0, 1e4), "scaleRange": (\.scaleRange, 0, 1e4), "scaleSpeed": (\.scaleSpeed, -1e4, 1e4),
            "redRange": (\.redRange, 0, 1), "greenRange": (\.greenRange, 0, 1), "blueRange": (\.blueRange, 0, 1), "alphaRange": (\.alphaRange, 0, 1),
            "redSpeed": (\.redSpeed, -1e3, 1e3), "greenSpeed": (\.greenSpeed, -1e3, 1e3), "blueSpeed": (\.blueSpeed, -1e3, 1e3), "alphaSpeed": (\.alphaSpeed, -1e3, 1e3),
            "contentsScale": (\.contentsScale, 0.01, 16), "minificationFilterBias": (\.minificationFilterBias, -16, 16),
            "speed": (\.speed, -100, 100),
        ]
        // Angles (degrees in the file) and angular speeds (degrees per second): radians for the cell.
        let angles: [String: ReferenceWritableKeyPath<EmitterCell, Double>] = [
            "emissionLongitude": \.emissionLongitude, "emissionLatitude": \.emissionLatitude, "emissionRange": \.emissionRange,
            "spin": \.spin, "spinRange": \.spinRange,
        ]
        let times: [String: ReferenceWritableKeyPath<EmitterCell, Double>] = ["beginTime": \.beginTime, "duration": \.duration, "timeOffset": \.timeOffset]
        if let (kp, lo, hi) = numbers[key] { if let n = ctx.number(v, s, min: lo, max: hi) { c[keyPath: kp] = n }; return }
        if let kp = angles[key] { if let a = ctx.angle(v, s) { c[keyPath: kp] = a }; return }
        if let kp = times[key] { if let t = ctx.time(v, s, min: key == "duration" ? 0 : nil) { c[keyPath: kp] = t }; return }
        switch key {
        case "name": if let n = ctx.string(v, s) { c.name = n }
        case "enabled": if let b = ctx.bool(v, s) { c.isEnabled = b }
        case "color": if let col = ctx.color(v, s) { c.color = col }
        case "contents":
            guard let file = ctx.string(v, s), let path = readablePath(file, s) else { return }
            do { c.contents = try ImageLoader.load(path: SceneFileRule.openable(path)) } catch { ctx.error(s, "cannot open '\(file)': \(error)") }
        case "contentsRect": if let r = ctx.rect(v, s) { c.contentsRect = r }
        case "minificationFilter":
            if let f = ctx.choice(v, s, ContentsFilter.allCases.map(\.rawValue)) { c.minificationFilter = ContentsFilter(rawValue: f)! }
        case "magnificationFilter":
            if let f = ctx.choice(v, s, ContentsFilter.allCases.map(\.rawValue)) { c.magnificationFilter = ContentsFilter(rawValue: f)! }
        default: break
        }
    }

    /// A `subtitles` layer: its cues from `file` (which wins) or from subtitle stream `stream` (0: the first) of
    /// input `input`. Without media (`scene check`) only the keys are checked; an input without subtitles shows
    /// nothing (a warning when it has others), so a scene made for captioned videos still plays an uncaptioned one.
    mutating func subtitlesLayer(_ json: JSONValue, path: String) -> SceneSubtitlesLayer {
        func field(_ key: String) -> (SceneValue, Site)? {
            guard let j = json[key] else { return nil }
            let site = Site(json: j, path: "\(path).\(key)")
            guard let v = ctx.resolve(site), v != .undefined else { return nil }
            return (v, site)
        }
        var stream = 0
        if let (v, s) = field("stream"), let n = ctx.number(v, s, min: 0, max: 1000) {
            if n == n.rounded() { stream = Int(n) } else { ctx.expected("a subtitle stream index", s, got: v) }
        }
        if let (v, s) = field("file") {
            guard let file = ctx.string(v, s), let p = readablePath(file, s) else { return SceneSubtitlesLayer(track: nil) }
            do { return SceneSubtitlesLayer(track: try SubtitleReader.track(file: SceneFileRule.openable(p))) } catch {
                ctx.error(s, "\(error)")
                return SceneSubtitlesLayer(track: nil)
            }
        }
        guard let (v, s) = field("input") else {
            if json["file"] == nil, json["input"] == nil { ctx.error(Site(json: json, path: path), "a subtitles layer needs \"file\" or \"input\"") }
            return SceneSubtitlesLayer(track: nil)
        }
        guard let id = ctx.inputReference(v, s, among: inputOrder), let input = inputs[id], let media = options.media, !options.checkOnly else {
            return SceneSubtitlesLayer(track: nil)
        }
        let tracks: [SubtitleTrack]
        do { tracks = try media.subtitleTracks(SceneFileRule.openableInput(input.src)) } catch {
            ctx.error(s, "cannot read subtitles from '\(input.src)': \(error)")
            return SceneSubtitlesLayer(track: nil)
        }
        guard stream < tracks.count else {
            // A video without subtitles simply has no captions; a stream index past those it has is a slip.
            if !tracks.isEmpty {
                ctx.warnings.append(SceneDiagnostic(file: ctx.file, position: s.position, path: s.path,
                                                    message: "input \"\(id)\" has \(tracks.count) text subtitle stream(s), not stream \(stream): the layer shows nothing"))
            }
            return SceneSubtitlesLayer(track: nil)
        }
        let layer = SceneSubtitlesLayer(track: tracks[stream], loopDuration: input.loop ? input.info?.duration : nil)
        layer.mediaStart = input.start  // the cues of the picture the input's media layers show
        return layer
    }
}

extension SceneBuilder {
    /// The path of a file a key names (`contents`, a subtitles `file`), recorded for live reload; nil after an error
    /// (a URL or protocol, or file reading turned off). A literal path is relative to the scene's folder; a param's
    /// value is already resolved against the working directory.
    mutating func readablePath(_ file: String, _ s: Site) -> String? {
        if let refusal = SceneFileRule.refusal(file) { ctx.error(s, refusal); return nil }
        guard options.readsFiles else { ctx.error(s, "cannot open '\(file)': this load reads no files"); return nil }
        let path = s.json.string == file ? filePath(file) : file
        readFiles.append(path)
        return path
    }
}
