import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// Layers: structure (`when`, `repeat`, ids, sublayers, mask), then each key by type (SCENES.md §3).
extension SceneBuilder {
    static let structureKeys: Set<String> = ["id", "type", "sublayers", "mask", "animations", "when", "repeat"]
    static let geometryKeys: Set<String> = ["bounds", "size", "position", "frame", "anchorPoint", "anchorPointZ", "zPosition",
                                            "transform", "sublayerTransform", "geometryFlipped"]
    static let lookKeys: Set<String> = ["backgroundColor", "cornerRadius", "maskedCorners", "borderWidth", "borderColor", "shadowColor",
                                        "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath", "opacity", "hidden", "doubleSided", "masksToBounds"]
    static let contentsKeys: Set<String> = ["contents", "contentsGravity", "contentsRect", "contentsCenter", "contentsScale",
                                            "minificationFilter", "magnificationFilter", "minificationFilterBias"]
    static let timeKeys: Set<String> = ["beginTime", "speed", "timeOffset", "show"]
    static let commonKeys = structureKeys.union(geometryKeys).union(lookKeys).union(contentsKeys).union(timeKeys)
    static let typeKeys: [String: Set<String>] = [
        "layer": [], "transform": [],
        "media": ["input", "src", "start", "loop", "stream", "videoGravity"],
        "shape": ["path", "fillColor", "fillRule", "strokeColor", "lineWidth", "lineCap", "lineJoin", "miterLimit", "lineDashPattern",
                  "lineDashPhase", "strokeStart", "strokeEnd"],
        "text": textKeys,
        "gradient": ["kind", "colors", "locations", "startPoint", "endPoint"],
        "replicator": replicatorKeys, "scroll": scrollKeys, "emitter": emitterKeys, "subtitles": subtitlesKeys,
        "scene": sceneKeys, "switch": ["cuts"],
    ]
    static let textKeys: Set<String> = ["string", "font", "fontSize", "foregroundColor", "alignmentMode", "wrapped", "truncationMode"]

    /// The layers of a `layers` or `sublayers` list, inside a superlayer of `superSize`.
    mutating func buildLayers(_ json: JSONValue, path: String, in superSize: Size) -> [Layer] {
        guard let list = json.elements else { ctx.error(Site(json: json, path: path), "expected a list of layers, got \(json.shortDescription)"); return [] }
        var out: [Layer] = []
        for (i, element) in list.enumerated() { out += buildLayerCopies(element, path: "\(path)[\(i)]", in: superSize) }
        return out
    }

    /// One layer object: none if its `when` is false, `count` copies under `repeat`.
    mutating func buildLayerCopies(_ json: JSONValue, path: String, in superSize: Size) -> [Layer] {
        guard json.members != nil else { ctx.error(Site(json: json, path: path), "expected a layer object, got \(json.shortDescription)"); return [] }
        let idText = json["id"]?.string
        let named = idText.map { "\(path)(\"\($0)\")" } ?? path
        let saved = ctx.names
        defer { ctx.names = saved }
        ctx.names["w"] = .number(superSize.width)
        ctx.names["h"] = .number(superSize.height)
        guard let r = json["repeat"] else {
            return isIncluded(json, path: named) ? buildLayer(json, path: named, idSuffix: "", in: superSize).map { [$0] } ?? [] : []
        }
        let rSite = Site(json: r, path: "\(named).repeat")
        guard let members = r.members else { ctx.expected("{\"count\": n, \"as\": \"i\"}", rSite, got: SceneValue(literal: r)); return [] }
        ctx.checkKeys(members, known: ["count", "as"], path: rSite.path)
        guard let c = r["count"], let cv = ctx.resolve(Site(json: c, path: "\(rSite.path).count")),
              let count = ctx.number(cv, Site(json: c, path: "\(rSite.path).count"), min: 0, max: 1000), count == count.rounded() else {
            if r["count"] == nil { ctx.error(rSite, "missing \"count\"") }
            return []
        }
        var name = "i"
        if let a = r["as"] {
            guard let s = a.string, s.first?.isLetter == true, s.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                ctx.error(Site(json: a, path: "\(rSite.path).as"), "expected a name, got \(a.shortDescription)"); return []
            }
            name = s
        }
        var out: [Layer] = []
        for k in 0..<Int(count) {
            ctx.names[name] = .number(Double(k))
            ctx.names["i"] = .number(Double(k))
            if isIncluded(json, path: named), let layer = buildLayer(json, path: named, idSuffix: "-\(k)", in: superSize) { out.append(layer) }
        }
        return out
    }

    /// `when: "=expr"`: false leaves the thing out (layers, masks, animations).
    mutating func isIncluded(_ json: JSONValue, path: String) -> Bool {
        guard let w = json["when"] else { return true }
        let site = Site(json: w, path: "\(path).when")
        guard let v = ctx.resolve(site) else { return false }
        return ctx.bool(v, site) ?? false
    }

    mutating func makeLayer(type: String, _ json: JSONValue, path: String, site: Site) -> Layer? {
        switch type {
        case "layer": return Layer()
        case "transform": return TransformLayer()
        case "shape": return ShapeLayer()
        case "text": return TextLayer()
        case "gradient": return GradientLayer()
        case "replicator": return ReplicatorLayer()
        case "scroll": return ScrollLayer()
        case "emitter": return EmitterLayer()
        case "subtitles": return subtitlesLayer(json, path: path)
        case "media": return Layer()  // replaced once its input is known (media layers are made by SceneMedia)
        case "scene": return includedScene(json, path: path)
        case "switch": return Layer()  // its cuts become animations of its sublayers (SceneBuilder+Switch)
        default:
            let all = Array(Self.typeKeys.keys).sorted()
            let hint = suggestion(for: type, among: all).map { "; did you mean \"\($0)\"?" } ?? ""
            ctx.error(site, "expected a layer type (\(all.joined(separator: " "))), got \"\(type)\"\(hint)")
            return nil
        }
    }

    mutating func buildLayer(_ json: JSONValue, path: String, idSuffix: String, in superSize: Size) -> Layer? {
        let members = json.members!
        var type = "layer"
        if let t = json["type"] {
            let site = Site(json: t, path: "\(path).type")
            guard let v = ctx.resolve(site), let s = ctx.string(v, site) else { return nil }
            type = s
        }
        guard var layer = makeLayer(type: type, json, path: path, site: Site(json: json["type"] ?? json, path: "\(path).type")) else { return nil }
        // A transition lives in a switch's cuts (SCENES.md §7); said so instead of "unknown key".
        let transitionMember = members.first { $0.key == "transition" }
        if let t = transitionMember {
            ctx.error(Site(json: t.value, path: "\(path).transition"), "a transition belongs in a switch layer's cuts: {\"type\": \"switch\", \"cuts\": [{\"at\": …, \"show\": …, \"transition\": {…}}]}", at: t.keyPosition)
        }
        ctx.checkKeys(members.filter { $0.key != "transition" || transitionMember == nil }, known: Self.commonKeys.union(Self.typeKeys[type] ?? []), path: path)

        // The id: unique in the file, default TYPE-N.
        var id: String
        if let j = json["id"] {
            let site = Site(json: j, path: "\(path).id")
            id = (ctx.resolve(site).flatMap { ctx.string($0, site) } ?? "") + idSuffix
        } else {
            typeCounts[type, default: 0] += 1
            id = "\(type)-\(typeCounts[type]!)"
        }
        if !usedIDs.insert(id).inserted { ctx.error(Site(json: json["id"] ?? json, path: "\(path).id"), "duplicate id \"\(id)\"") }
        layer.name = id

        if type == "media", let made = mediaLayer(json, path: path, id: id) { layer = made; layer.name = id }

        applyGeometry(layer, json, path: path, superSize: superSize)
        let size = layer.bounds.size
        builtLayout.append((id, size))
        for m in members where !Self.structureKeys.contains(m.key) && !Self.geometryKeys.contains(m.key) && !Self.deferredKeys.contains(m.key)
            && m.key != "transition" {
            let site = Site(json: m.value, path: "\(path).\(m.key)", keyPosition: m.keyPosition)
            guard let v = ctx.resolve(site), v != .undefined else { continue }
            applyKey(m.key, v, site, to: layer, type: type)
        }
        if let e = layer as? EmitterLayer, let c = json["emitterCells"] { e.emitterCells = buildCells(c, path: "\(path).emitterCells") }
        // Sublayers and masks see this layer's bounds as `w`, `h` and as the base of their `%`.
        if let s = json["sublayers"] {
            for sub in buildLayers(s, path: "\(path).sublayers", in: size) { layer.addSublayer(sub) }
        }
        if type == "switch" { compileCuts(json, path: path, to: layer) }
        if let m = json["mask"] {
            let maskPath = "\(path).mask"
            if m.members == nil { ctx.error(Site(json: m, path: maskPath), "expected a layer object, got \(m.shortDescription)") }
            else if isIncluded(m, path: maskPath) {
                let saved = ctx.names
                ctx.names["w"] = .number(size.width); ctx.names["h"] = .number(size.height)
                layer.mask = buildLayer(m, path: maskPath, idSuffix: idSuffix, in: size)
                ctx.names = saved
            }
        }
        if let a = json["animations"] { addAnimations(a, path: "\(path).animations", to: layer, superSize: superSize) }
        return layer
    }

    /// `bounds`/`size`, `position`, `frame` (an error together with the others), and the rest of the geometry.
    mutating func applyGeometry(_ layer: Layer, _ json: JSONValue, path: String, superSize: Size) {
        func site(_ key: String) -> Site? { json[key].map { Site(json: $0, path: "\(path).\(key)") } }
        func val(_ key: String) -> (SceneValue, Site)? {
            guard let s = site(key), let v = ctx.resolve(s), v != .undefined else { return nil }
            return (v, s)
        }
        if let f = site("frame") {
            for other in ["size", "bounds", "position"] where json[other] != nil {
                ctx.error(f, "\"frame\" sets size and position: remove \"\(other)\" or \"frame\"")
            }
        }
        if json["size"] != nil, let b = site("bounds") { ctx.error(b, "\"bounds\" and \"size\" both set the size: keep one") }
        if let (v, s) = val("anchorPoint"), let p = ctx.point(v, s) { layer.anchorPoint = p }
        if let (v, s) = val("bounds"), let r = ctx.rect(v, s, percentOf: superSize) { layer.bounds = r }
        if let (v, s) = val("size"), let sz = ctx.size(v, s, percentOf: superSize) { layer.bounds.size = sz }
        if let (v, s) = val("position"), let p = ctx.point(v, s, percentOf: superSize) { layer.position = p }
        if let (v, s) = val("frame"), let r = ctx.rect(v, s, percentOf: superSize) { layer.frame = r }
        if let (v, s) = val("anchorPointZ"), let n = ctx.number(v, s) { layer.anchorPointZ = n }
        if let (v, s) = val("zPosition"), let n = ctx.number(v, s) { layer.zPosition = n }
        if let (v, s) = val("transform"), let t = ctx.transform(v, s) { layer.transform = t }
        if let (v, s) = val("sublayerTransform"), let t = ctx.transform(v, s) { layer.sublayerTransform = t }
        if let (v, s) = val("geometryFlipped"), let b = ctx.bool(v, s) { layer.isGeometryFlipped = b }
    }

    /// A `media` layer: its input (by id or inline) shown through `SceneMedia`; without media (`scene check`) a
    /// plain layer stands in, so the rest of the layer is still checked.
    mutating func mediaLayer(_ json: JSONValue, path: String, id: String) -> Layer? {
        var input: SceneInput?
        if let i = json["input"] {
            let site = Site(json: i, path: "\(path).input")
            guard let v = ctx.resolve(site), let s = ctx.inputReference(v, site, among: inputOrder) else { return nil }
            input = inputs[s]
        } else if json["src"] != nil {
            input = readInput(id: id, json, path: path, inline: true)
        } else {
            ctx.error(Site(json: json, path: path), "a media layer needs \"input\" or \"src\"")
        }
        if json["input"] != nil, json["src"] != nil { ctx.error(Site(json: json["src"]!, path: "\(path).src"), "give \"input\" or \"src\", not both") }
        var gravity = ContentsGravity.resizeAspect
        if let g = json["videoGravity"] {
            let site = Site(json: g, path: "\(path).videoGravity")
            if let v = ctx.resolve(site), v != .undefined, let s = ctx.choice(v, site, ["resizeAspect", "resizeAspectFill", "resize"]) {
                gravity = ContentsGravity(rawValue: s)!
            }
        }
        guard let input, let media = options.media, !options.checkOnly else { return nil }
        if json["src"] != nil { inputOrder.append(id); inputs[id] = input }
        do { return try media.makeLayer(for: input, videoGravity: gravity) } catch {
            ctx.error(Site(json: json["input"] ?? json["src"] ?? json, path: path), "cannot open '\(input.src)': \(error)")
            return nil
        }
    }
}
