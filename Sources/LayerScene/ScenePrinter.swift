import Foundation
import LayerGraphics

/// `layerplay scene print` (SCENES.md §5): the scene with params, `let`, `repeat` and `when` resolved, as plain
/// JSON that loads to the same tree. Layers keep their keys in file order, each value resolved (`$name`, `=expr`,
/// `${…}`); units (`"2s"`, `"50%"`, degrees) stay as written, since they are already plain values; canvas,
/// inputs and audio are printed as loaded. Walked after a clean load, in the builder's own order, so every layer
/// gets the id and the superlayer size (`w`, `h`) the build gave it.
extension SceneBuilder {
    /// A JSON value whose objects keep their key order.
    indirect enum Printed {
        case value(SceneValue)
        case object([(String, Printed)])
        case list([Printed])
    }

    /// The resolved document of `json`, which `scene` was just built from.
    mutating func printedDocument(_ json: JSONValue, scene: LoadedScene) -> Printed {
        var top: [(String, Printed)] = [("version", .value(SceneValue(literal: json["version"]!))), ("name", .value(.string(scene.name)))]
        var canvas: [(String, Printed)] = [("size", .value(.list([.number(scene.canvasSize.width), .number(scene.canvasSize.height)])))]
        canvas.append(("background", .value(scene.root.backgroundColor.map(SceneValue.color) ?? .string("none"))))
        canvas.append(("fps", .value(.number(scene.fps))))
        if let d = scene.duration { canvas.append(("duration", .value(.number(d)))) }
        if let r = json["canvas"]?["resize"], let v = ctx.resolve(Site(json: r, path: "canvas.resize")), v != .undefined { canvas.append(("resize", .value(v))) }
        top.append(("canvas", .object(canvas)))
        if !scene.inputs.isEmpty {
            let declared = Set(json["inputs"]?.members?.map(\.key) ?? [])
            // Inline `src` inputs stay on their media layers; only the `inputs` table is printed here.
            top.append(("inputs", .object(scene.inputs.filter { declared.contains($0.id) }.map { input in
                var o: [(String, Printed)] = [("src", .value(.string(input.src)))]
                if input.start != 0 { o.append(("start", .value(.number(input.start)))) }
                if input.loop { o.append(("loop", .value(.bool(true)))) }
                if let s = input.stream { o.append(("stream", .value(.number(Double(s))))) }
                return (input.id, .object(o))
            })))
        }
        top.append(("audio", .value(.string(scene.audioInput ?? "none"))))
        printCursor = 0
        top.append(("layers", .list(json["layers"].map { printLayers($0, in: scene.canvasSize) } ?? [])))
        return .object(top)
    }

    private mutating func printLayers(_ json: JSONValue, in superSize: Size) -> [Printed] {
        (json.elements ?? []).flatMap { printLayerCopies($0, in: superSize) }
    }

    /// As `buildLayerCopies`: none when `when` is false, one per `repeat` index.
    private mutating func printLayerCopies(_ json: JSONValue, in superSize: Size) -> [Printed] {
        let saved = ctx.names
        defer { ctx.names = saved }
        ctx.names["w"] = .number(superSize.width)
        ctx.names["h"] = .number(superSize.height)
        guard let r = json["repeat"] else { return isIncluded(json, path: "") ? [printLayer(json)] : [] }
        let count = r["count"].flatMap { ctx.resolve(Site(json: $0, path: "")) }.flatMap { v -> Int? in
            if case .number(let n) = v { return Int(n) } else { return nil }
        } ?? 0
        let name = r["as"]?.string ?? "i"
        var out: [Printed] = []
        for k in 0..<max(0, count) {
            ctx.names[name] = .number(Double(k))
            ctx.names["i"] = .number(Double(k))
            if isIncluded(json, path: "") { out.append(printLayer(json)) }
        }
        return out
    }

    private mutating func printLayer(_ json: JSONValue) -> Printed {
        let (id, size) = printCursor < builtLayout.count ? builtLayout[printCursor] : ("", Size(width: 0, height: 0))
        printCursor += 1
        var out: [(String, Printed)] = [("id", .value(.string(id)))]
        for m in json.members ?? [] where !["id", "when", "repeat", "sublayers", "mask", "animations", "emitterCells"].contains(m.key) {
            if let v = ctx.resolve(Site(json: m.value, path: m.key)), v != .undefined { out.append((m.key, printed(v))) }
        }
        if let a = json["animations"] { out.append(("animations", .list(printAnimations(a)))) }
        if let c = json["emitterCells"] { out.append(("emitterCells", .list(printCells(c)))) }
        if let s = json["sublayers"] { out.append(("sublayers", .list(printLayers(s, in: size)))) }
        if let m = json["mask"], m.members != nil {
            let saved = ctx.names
            ctx.names["w"] = .number(size.width); ctx.names["h"] = .number(size.height)
            if isIncluded(m, path: "") { out.append(("mask", printLayer(m))) }
            ctx.names = saved
        }
        return .object(out)
    }

    /// Animations (and a group's) without those whose `when` is false.
    private mutating func printAnimations(_ json: JSONValue) -> [Printed] {
        (json.elements ?? []).compactMap { a in
            guard a.members != nil, isIncluded(a, path: "") else { return nil }
            var out: [(String, Printed)] = []
            for m in a.members! where m.key != "when" {
                if m.key == "animations" { out.append((m.key, .list(printAnimations(m.value)))); continue }
                if let v = ctx.resolve(Site(json: m.value, path: m.key)), v != .undefined { out.append((m.key, printed(v))) }
            }
            return .object(out)
        }
    }

    /// Emitter cells (and sub-cells) without those whose `when` is false.
    private mutating func printCells(_ json: JSONValue) -> [Printed] {
        (json.elements ?? []).compactMap { c in
            guard c.members != nil, isIncluded(c, path: "") else { return nil }
            var out: [(String, Printed)] = []
            for m in c.members! where m.key != "when" {
                if m.key == "emitterCells" { out.append((m.key, .list(printCells(m.value)))); continue }
                if let v = ctx.resolve(Site(json: m.value, path: m.key)), v != .undefined { out.append((m.key, printed(v))) }
            }
            return .object(out)
        }
    }

    /// A resolved value; an object's undefined members are left out, as a key naming an unset param is.
    private func printed(_ v: SceneValue) -> Printed {
        switch v {
        case .list(let l): return .list(l.map(printed))
        case .object(let o): return .object(o.filter { $0.value != .undefined }.sorted { $0.key < $1.key }.map { ($0.key, printed($0.value)) })
        default: return .value(v)
        }
    }
}

extension SceneBuilder.Printed {
    /// Plain JSON, two-space indented; lists of plain values stay on one line.
    func json(indent: String = "") -> String {
        switch self {
        case .value(let v): return Self.text(v)
        case .list(let l):
            if l.isEmpty { return "[]" }
            if l.allSatisfy({ if case .value = $0 { true } else { false } }) { return "[" + l.map { $0.json() }.joined(separator: ", ") + "]" }
            let inner = indent + "  "
            return "[\n" + l.map { inner + $0.json(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let o):
            if o.isEmpty { return "{}" }
            let inner = indent + "  "
            return "{\n" + o.map { inner + Self.quoted($0.0) + ": " + $0.1.json(indent: inner) }.joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    static func text(_ v: SceneValue) -> String {
        switch v {
        case .undefined: return "null"
        case .number(let n): return n.isFinite ? formatNumber(n) : "null"
        case .string(let s): return quoted(s)
        case .bool(let b): return b ? "true" : "false"
        // Straight sRGB components 0–1, a colour form every scene reads back exactly.
        case .color(let c): return "[" + [c.red, c.green, c.blue, c.alpha].map { formatNumber($0) }.joined(separator: ", ") + "]"
        case .list(let l): return "[" + l.map(text).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.sorted { $0.key < $1.key }.filter { $0.value != .undefined }.map { quoted($0.key) + ": " + text($0.value) }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
