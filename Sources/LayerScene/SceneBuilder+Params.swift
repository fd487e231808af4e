import Foundation
import LayerMedia
import LayerGraphics

/// Params (declarations, then values from the command line or defaults) and inputs.
extension SceneBuilder {
    mutating func readParams(_ json: JSONValue) {
        guard let members = json.members else { ctx.error(Site(json: json, path: "params"), "expected an object of params, got \(json.shortDescription)"); return }
        var cliSets: [String: String] = [:]
        for s in options.sets { cliSets[s.name] = s.value }
        for m in members {
            let path = "params.\(m.key)"
            let site = Site(json: m.value, path: path)
            guard isName(m.key) else { ctx.error(site, "a param name is letters, digits and _, not starting with a digit", at: m.keyPosition); continue }
            guard let decl = m.value.members else { ctx.error(site, "expected a param declaration {\"type\": …}, got \(m.value.shortDescription)"); continue }
            ctx.checkKeys(decl, known: SceneLoader.paramKeys, path: path)
            guard let typeJSON = m.value["type"], let typeName = typeJSON.string else {
                ctx.error(site, "missing \"type\""); continue
            }
            guard let kind = SceneParam.Kind.named(typeName) else {
                let all = SceneParam.Kind.names.keys.sorted()
                let hint = suggestion(for: typeName, among: all).map { "; did you mean \"\($0)\"?" } ?? ""
                ctx.error(Site(json: typeJSON, path: "\(path).type"), "expected a param type (\(all.joined(separator: " ")) or list:T), got \"\(typeName)\"\(hint)")
                continue
            }
            var p = SceneParam(name: m.key, kind: kind)
            if let r = m.value["required"] { p.required = ctx.bool(SceneValue(literal: r), Site(json: r, path: "\(path).required")) ?? false }
            if let v = m.value["min"] { p.min = ctx.number(SceneValue(literal: v), Site(json: v, path: "\(path).min")) }
            if let v = m.value["max"] { p.max = ctx.number(SceneValue(literal: v), Site(json: v, path: "\(path).max")) }
            if let v = m.value["doc"] { p.doc = ctx.string(SceneValue(literal: v), Site(json: v, path: "\(path).doc")) }
            if let v = m.value["position"] { p.position = ctx.number(SceneValue(literal: v), Site(json: v, path: "\(path).position"), min: 0, max: 64).map { Int($0) } }
            if let v = m.value["values"] {
                if case .list(let l) = SceneValue(literal: v), l.allSatisfy({ if case .string = $0 { true } else { false } }), !l.isEmpty {
                    p.values = l.compactMap { if case .string(let s) = $0 { s } else { nil } }
                } else { ctx.error(Site(json: v, path: "\(path).values"), "expected a list of strings, got \(v.shortDescription)") }
            }
            if kind == .enumeration, p.values.isEmpty { ctx.error(site, "an enum param needs \"values\"", at: m.keyPosition) }
            if let d = m.value["default"] {
                p.defaultValue = normalise(SceneValue(literal: d), p, Site(json: d, path: "\(path).default"), fromFile: true)
            }

            // The value: --set wins over a positional argument, which wins over the default.
            var value = p.defaultValue ?? .undefined
            var given: String?
            if let pos = p.position, pos < options.arguments.count { given = options.arguments[pos] }
            if let s = cliSets.removeValue(forKey: m.key) { given = s }
            if let preset = presets.removeValue(forKey: m.key) {
                // A `set` value of an including scene: checked by this param's type, reported in the including file;
                // a bad one leaves the default, so the included file does not add errors that follow from it.
                value = presetValue(preset, p) ?? p.defaultValue ?? .undefined
            } else if let given {
                let cli = Site(json: m.value, path: path)
                switch ParamText.parse(given, as: kind) {
                case .success(let v):
                    // Files named on the command line are relative to the working directory.
                    let resolved = isFile(kind) ? absolute(v) : v
                    value = normalise(resolved, p, cli, fromFile: false) ?? .undefined
                case .failure(let e): ctx.error(cli, "command-line value: \(e.message)", at: m.keyPosition)
                }
            } else if p.required, !options.checkOnly {
                ctx.error(site, "required param has no value (give it \(p.position.map { "as argument \($0 + 1) or " } ?? "")with --set \(m.key)=…)", at: m.keyPosition)
            }
            params.append(p)
            ctx.names[m.key] = value
        }
        for (name, _) in cliSets {
            let hint = suggestion(for: name, among: params.map(\.name)).map { "; did you mean \"\($0)\"?" } ?? ""
            ctx.error(Site(json: json, path: "params"), "--set \(name): the scene declares no such param\(hint) (it has: \(params.map(\.name).joined(separator: ", ")))")
        }
    }

    func isFile(_ k: SceneParam.Kind) -> Bool {
        switch k {
        case .media, .image, .file: return true
        case .list(let e): return isFile(e)
        default: return false
        }
    }

    func absolute(_ v: SceneValue, base: String = FileManager.default.currentDirectoryPath) -> SceneValue {
        switch v {
        // A URL or protocol is left as written so that the file check names what the user gave (SceneFileRule).
        case .string(let s):
            let kept = s.hasPrefix("/") || SceneFileRule.refusal(s) != nil || (options.allowsNetwork && !InputLocation(s).isFile)
            return .string(kept ? s : (base as NSString).appendingPathComponent(s))
        case .list(let l): return .list(l.map { absolute($0, base: base) })
        default: return v
        }
    }

    /// Checks `v` against the param's type and brings it to the form expressions see: colours as `.color`, times
    /// in seconds, angles in degrees, points and sizes as number lists, `border` and `shadow` as objects.
    mutating func normalise(_ v: SceneValue, _ p: SceneParam, _ site: Site, fromFile: Bool, kind: SceneParam.Kind? = nil) -> SceneValue? {
        switch kind ?? p.kind {
        case .number, .integer:
            guard let n = ctx.number(v, site, min: p.min, max: p.max) else { return nil }
            if (kind ?? p.kind) == .integer, n != n.rounded() { ctx.expected("an integer", site, got: v); return nil }
            return .number(n)
        case .bool: return ctx.bool(v, site).map(SceneValue.bool)
        case .string: return ctx.string(v, site).map(SceneValue.string)
        case .enumeration: return ctx.choice(v, site, p.values).map(SceneValue.string)
        case .media, .image, .file:
            guard let s = ctx.string(v, site) else { return nil }
            let media = (kind ?? p.kind) == .media
            if let refusal = SceneFileRule.refusal(s, allowsNetwork: media && options.allowsNetwork, isInput: media) { ctx.error(site, refusal); return nil }
            return .string(fromFile ? filePath(s) : s)
        case .color:
            guard let c = ctx.color(v, site) else { return nil }
            return .color(c ?? .clear)
        case .time: return ctx.time(v, site, min: p.min).map(SceneValue.number)
        case .angle: return ctx.angle(v, site).map { .number($0 * 180 / .pi) }
        case .point: return ctx.numbers(v, site, count: 2...2, what: "a point [x, y]").map { .list($0.map(SceneValue.number)) }
        case .size: return ctx.size(v, site).map { .list([.number($0.width), .number($0.height)]) }
        case .vector: return ctx.numbers(v, site, count: 3...3, what: "a vector [x, y, z]").map { .list($0.map(SceneValue.number)) }
        case .border:
            guard case .object(let o) = v, let w = o["width"], let c = o["color"] else { ctx.expected("{\"width\": W, \"color\": C}", site, got: v); return nil }
            guard let width = ctx.number(w, site, min: 0), let color = ctx.color(c, site) else { return nil }
            return .object(["width": .number(width), "color": .color(color ?? .clear)])
        case .shadow:
            guard case .object(let o) = v, let r = o["radius"] else { ctx.expected("{\"radius\": R, \"opacity\": O, \"offset\": [DX, DY]}", site, got: v); return nil }
            guard let radius = ctx.number(r, site, min: 0),
                  let opacity = ctx.number(o["opacity"] ?? .number(0.5), site, min: 0, max: 1),
                  let offset = ctx.numbers(o["offset"] ?? .list([.number(0), .number(3)]), site, count: 2...2, what: "an offset [dx, dy]") else { return nil }
            return .object(["radius": .number(radius), "opacity": .number(opacity), "offset": .list(offset.map(SceneValue.number))])
        case .list(let element):
            guard case .list(let l) = v else { ctx.expected("a list", site, got: v); return nil }
            var out: [SceneValue] = []
            for (i, item) in l.enumerated() {
                guard let n = normalise(item, p, Site(json: site.json, path: "\(site.path)[\(i)]"), fromFile: fromFile, kind: element) else { return nil }
                out.append(n)
            }
            return .list(out)
        }
    }

    /// `inputs`: each probed (unless checking) so expressions can read `inputs.ID.size` and friends.
    mutating func readInputs(_ json: JSONValue) {
        guard let members = json.members else { ctx.error(Site(json: json, path: "inputs"), "expected an object of inputs, got \(json.shortDescription)"); return }
        var table: [String: SceneValue] = [:]
        for m in members {
            let path = "inputs.\(m.key)"
            guard let input = readInput(id: m.key, m.value, path: path) else { ctx.failedInputs.insert(m.key); continue }
            inputs[m.key] = input
            inputOrder.append(m.key)
            table[m.key] = input.info?.sceneValue ?? .undefined
        }
        ctx.names["inputs"] = .object(table)
    }

    /// An input (also an inline `src` on a media layer); nil after an error or for an undefined `src`.
    mutating func readInput(id: String, _ json: JSONValue, path: String, inline: Bool = false) -> SceneInput? {
        guard let members = json.members else { ctx.error(Site(json: json, path: path), "expected an input {\"src\": …}, got \(json.shortDescription)"); return nil }
        if !inline { ctx.checkKeys(members, known: SceneLoader.inputKeys, path: path) }
        guard let srcJSON = json["src"] else { ctx.error(Site(json: json, path: path), "missing \"src\""); return nil }
        let srcSite = Site(json: srcJSON, path: "\(path).src")
        guard let srcValue = ctx.resolve(srcSite) else { return nil }
        if srcValue == .undefined {
            // `scene check` without the param's value: the input exists (ids and `audio` still check), unprobed.
            if options.checkOnly { return SceneInput(id: id, src: "", start: 0, loop: false, stream: nil, info: nil) }
            ctx.error(srcSite, "\(srcSite.json.shortDescription) has no value")
            return nil
        }
        guard let src = ctx.string(srcValue, srcSite) else { return nil }
        // Only local files: no URL, FFmpeg protocol or command reaches the demuxer (SceneFileRule).
        if let refusal = SceneFileRule.refusal(src, allowsNetwork: options.allowsNetwork, isInput: true) { ctx.error(srcSite, refusal); return nil }
        // A literal or an expression's path is relative to the scene's folder; a param's value is already resolved.
        var input = SceneInput(id: id, src: srcJSON.string?.hasPrefix("$") == false ? filePath(src) : src,
                               start: 0, loop: false, stream: nil, info: nil)
        if let s = json["start"], let v = value(s, "\(path).start"), v != .undefined {
            // The media time shown at the layer's local time 0 (SCENES.md §6; `Player.timeOffset` applies it).
            input.start = ctx.time(v, Site(json: s, path: "\(path).start")) ?? 0
        }
        if let l = json["loop"], let v = value(l, "\(path).loop"), v != .undefined { input.loop = ctx.bool(v, Site(json: l, path: "\(path).loop")) ?? false }
        if let s = json["stream"], let v = value(s, "\(path).stream"), v != .undefined { input.stream = ctx.number(v, Site(json: s, path: "\(path).stream"), min: 0, max: 1000).map { Int($0) } }
        if let media = options.media {
            do { input.info = try session.probe(input.src, with: media) } catch {
                ctx.error(srcSite, "cannot open '\(src)': \(error)")
                return nil
            }
        }
        return input
    }
}

/// A value an including `scene` layer's `set` gives a param of the included scene.
struct ParamPreset {
    var value: SceneValue
    /// Where it is written, in the including file.
    var site: Site
    /// The including file, as messages name it, and its folder (relative files in the value are relative to it).
    var file: String
    var directory: String
}

extension SceneBuilder {
    /// Checks a `set` value by the param's type; errors name the including file, where the value is written.
    mutating func presetValue(_ preset: ParamPreset, _ p: SceneParam) -> SceneValue? {
        let ownFile = ctx.file
        ctx.file = preset.file
        defer { ctx.file = ownFile }
        let v = isFile(p.kind) ? absolute(preset.value, base: preset.directory) : preset.value
        return normalise(v, p, preset.site, fromFile: false)
    }

    /// `set` names the included scene does not declare, reported where they are written.
    mutating func reportUnusedPresets() {
        let ownFile = ctx.file
        defer { ctx.file = ownFile }
        for (name, preset) in presets.sorted(by: { $0.key < $1.key }) {
            ctx.file = preset.file
            let hint = suggestion(for: name, among: params.map(\.name)).map { "; did you mean \"\($0)\"?" } ?? ""
            ctx.error(preset.site, "the included scene declares no such param\(hint)", at: preset.site.keyPosition)
        }
        presets = [:]
    }
}
