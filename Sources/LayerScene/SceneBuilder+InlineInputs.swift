import Foundation

/// The canvas defaults to the first video input's size and rate (SCENES.md §3), and an inline `src` on a media
/// layer is an input too. The canvas is read before the layers (their `%` and `W`/`H` need it), so the inline
/// inputs are looked for first, in document order, without building anything.
extension SceneBuilder {
    /// The probe of the first inline input with video in `layers` (depth first: a layer, its sublayers, its mask),
    /// or nil. A `repeat` counts with its first copy (`i` = 0) and a `when` that is false leaves a layer out, as
    /// the build will. A `src` may read `let` names that do not depend on the canvas (those are evaluated here
    /// first, in order); one that cannot be resolved yet (it reads `W`, `w`, or a `let` that does) or fails to
    /// probe is skipped here: its error, if any, is reported once, where the layer is built.
    mutating func firstInlineVideo(_ layers: JSONValue, lets: JSONValue?) -> SceneMediaInfo? {
        guard let media = options.media, !options.checkOnly else { return nil }
        // A scratch context: nothing resolved here may add a diagnostic or a name to the real one.
        var scratch = ctx
        scratch.diagnostics = []
        for m in lets?.members ?? [] where isName(m.key) && scratch.names[m.key] == nil {
            let v = scratch.resolve(Site(json: m.value, path: ""))
            if scratch.diagnostics.isEmpty, let v { scratch.names[m.key] = v }
            scratch.diagnostics = []
        }
        return firstInlineVideo(in: layers.elements ?? [], media: media, scratch: &scratch, depth: 0)
    }

    private func firstInlineVideo(in elements: [JSONValue], media: SceneMedia, scratch: inout SceneContext, depth: Int) -> SceneMediaInfo? {
        // Depth is bounded; a hostile file cannot recurse without end here.
        guard depth < 64 else { return nil }
        for layer in elements {
            guard layer.members != nil else { continue }
            let saved = scratch.names
            defer { scratch.names = saved }
            if let r = layer["repeat"] {
                let count = r["count"].flatMap { scratch.resolve(Site(json: $0, path: "")) }
                guard case .number(let n)? = count, n >= 1 else { continue }
                let name = r["as"]?.string ?? "i"
                scratch.names[name] = .number(0)
                scratch.names["i"] = .number(0)
            }
            if let w = layer["when"] {
                guard case .bool(true)? = scratch.resolve(Site(json: w, path: "")) else { continue }
            }
            if layer["src"] != nil, layer["input"] == nil, let info = probeInline(layer, media: media, scratch: &scratch),
               info.size != nil {
                return info
            }
            if let s = layer["sublayers"]?.elements, let info = firstInlineVideo(in: s, media: media, scratch: &scratch, depth: depth + 1) { return info }
            if let m = layer["mask"], let info = firstInlineVideo(in: [m], media: media, scratch: &scratch, depth: depth + 1) { return info }
        }
        return nil
    }

    /// Probes a media layer's inline `src` as `readInput` will resolve it (a literal relative to the scene's folder).
    private func probeInline(_ layer: JSONValue, media: SceneMedia, scratch: inout SceneContext) -> SceneMediaInfo? {
        guard let type = layer["type"], case .string("media")? = scratch.resolve(Site(json: type, path: "")) else { return nil }
        guard let srcJSON = layer["src"], case .string(let src)? = scratch.resolve(Site(json: srcJSON, path: "")),
              scratch.diagnostics.isEmpty else { scratch.diagnostics = []; return nil }
        // A URL, protocol or command is never probed; the build refuses it where the layer is read.
        guard SceneFileRule.refusal(src, allowsNetwork: options.allowsNetwork) == nil else { return nil }
        let literal = srcJSON.string.map { !$0.hasPrefix("$") && !$0.hasPrefix("=") } ?? false
        return try? media.probe(literal ? filePath(src) : src)
    }
}
