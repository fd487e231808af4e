import Foundation
import LayerGraphics
import LayerKit

/// Typed readers: each takes a resolved value, checks it and converts it, or records an error and returns nil.
extension SceneContext {
    /// A number; `"50%"` of `percentOf` where a dimension applies; bounded by `min`/`max` when given.
    mutating func number(_ v: SceneValue, _ site: Site, percentOf: Double? = nil, min: Double? = nil, max: Double? = nil) -> Double? {
        var n: Double
        switch v {
        case .number(let x): n = x
        case .string(let s) where percentOf != nil && s.hasSuffix("%"):
            guard let p = Double(s.dropLast().trimmingCharacters(in: .whitespaces)), p.isFinite else {
                expected("a number or a percentage", site, got: v); return nil
            }
            n = p / 100 * percentOf!
        default:
            expected(rangeText("a number", min, max) + (percentOf != nil ? " or a percentage" : ""), site, got: v)
            return nil
        }
        if let lo = min, n < lo || n.isNaN { expected(rangeText("a number", min, max), site, got: v); return nil }
        if let hi = max, n > hi { expected(rangeText("a number", min, max), site, got: v); return nil }
        n = Swift.min(Swift.max(n, -1e9), 1e9)  // huge values are clamped, never a crash downstream
        return n
    }

    private func rangeText(_ what: String, _ min: Double?, _ max: Double?) -> String {
        switch (min, max) {
        case let (lo?, hi?): return "\(what) from \(formatNumber(lo)) to \(formatNumber(hi))"
        case let (lo?, nil): return "\(what) ≥ \(formatNumber(lo))"
        case let (nil, hi?): return "\(what) ≤ \(formatNumber(hi))"
        default: return what
        }
    }

    mutating func bool(_ v: SceneValue, _ site: Site) -> Bool? {
        guard case .bool(let b) = v else { expected("true or false", site, got: v); return nil }
        return b
    }

    mutating func string(_ v: SceneValue, _ site: Site) -> String? {
        guard case .string(let s) = v else { expected("a string", site, got: v); return nil }
        return s
    }

    /// One of `choices` (error: the nearest choice suggested).
    mutating func choice(_ v: SceneValue, _ site: Site, _ choices: [String]) -> String? {
        guard case .string(let s) = v, choices.contains(s) else {
            var m = "expected one of \(choices.joined(separator: ", ")), got \(v.shortDescription)"
            if case .string(let s) = v, let near = suggestion(for: s, among: choices) { m += "; did you mean \"\(near)\"?" }
            error(site, m)
            return nil
        }
        return s
    }

    /// A time in seconds: a number, `"2.5s"`, `"250ms"`, `"1:02.5"`, `"01:02:03.5"`, `"48f"` (at the canvas rate).
    mutating func time(_ v: SceneValue, _ site: Site, min: Double? = nil) -> Double? {
        var t: Double?
        switch v {
        case .number(let n): t = n
        case .string(let s): t = SceneUnits.time(s, fps: fps)
        default: break
        }
        guard let t, t.isFinite, t >= (min ?? -.infinity) else {
            expected("a time (seconds, \"2.5s\", \"250ms\", \"1:02.5\" or \"48f\")" + (min.map { " ≥ \(formatNumber($0))" } ?? ""), site, got: v)
            return nil
        }
        return t
    }

    /// An angle in **radians** for the Swift API, written in degrees (number, `"90deg"`), `"1.5rad"` or `"0.25turn"`.
    mutating func angle(_ v: SceneValue, _ site: Site) -> Double? {
        var degrees: Double?
        switch v {
        case .number(let n): degrees = n
        case .string(let s): degrees = SceneUnits.degrees(s)
        default: break
        }
        guard let degrees, degrees.isFinite else { expected("an angle (degrees, \"90deg\", \"1.5rad\" or \"0.25turn\")", site, got: v); return nil }
        return degrees * .pi / 180
    }

    /// Numbers of a list, each `%` of the matching entry of `percentOf` (x of widths, y of heights).
    mutating func numbers(_ v: SceneValue, _ site: Site, count: ClosedRange<Int>, what: String, percentOf: [Double]? = nil) -> [Double]? {
        var items: [SceneValue]
        switch v {
        case .list(let l): items = l
        case .string(let s) where what == "a size" && s.contains("x"):
            // "1920x1080"
            let parts = s.split(separator: "x").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let w = parts[0], let h = parts[1] else { expected(what, site, got: v); return nil }
            items = [.number(w), .number(h)]
        default: expected(what, site, got: v); return nil
        }
        guard count.contains(items.count) else { expected(what, site, got: v); return nil }
        var out: [Double] = []
        for (i, item) in items.enumerated() {
            let p = percentOf.map { $0[i % $0.count] }
            guard let n = number(item, Site(json: site.json, path: "\(site.path)[\(i)]"), percentOf: p) else { return nil }
            out.append(n)
        }
        return out
    }

    mutating func point(_ v: SceneValue, _ site: Site, percentOf size: Size? = nil) -> Point? {
        guard let n = numbers(v, site, count: 2...2, what: "a point [x, y]", percentOf: size.map { [$0.width, $0.height] }) else { return nil }
        return Point(x: n[0], y: n[1])
    }

    mutating func size(_ v: SceneValue, _ site: Site, percentOf size: Size? = nil) -> Size? {
        guard let n = numbers(v, site, count: 2...2, what: "a size", percentOf: size.map { [$0.width, $0.height] }) else { return nil }
        guard n[0] >= 0, n[1] >= 0 else { expected("a size with widths and heights ≥ 0", site, got: v); return nil }
        return Size(width: n[0], height: n[1])
    }

    mutating func rect(_ v: SceneValue, _ site: Site, percentOf size: Size? = nil) -> Rect? {
        let p = size.map { [$0.width, $0.height] }
        guard let n = numbers(v, site, count: 4...4, what: "a rect [x, y, w, h]", percentOf: p) else { return nil }
        return Rect(x: n[0], y: n[1], width: Swift.max(0, n[2]), height: Swift.max(0, n[3]))
    }

    /// CSS name, `#rgb…`, `[r, g, b, a]` (0–1, straight), or `"none"` (nil colour: `.some(nil)`).
    mutating func color(_ v: SceneValue, _ site: Site) -> Color?? {
        switch v {
        case .color(let c): return .some(c)
        case .string("none"): return .some(nil)
        case .string(let s):
            if let c = try? Color(parsing: s) { return .some(c) }
        case .list(let l) where l.count == 3 || l.count == 4:
            var c: [Double] = []
            for item in l {
                guard case .number(let n) = item, n >= 0, n <= 1 else { break }
                c.append(n)
            }
            if c.count == l.count { return .some(Color(red: c[0], green: c[1], blue: c[2], alpha: c.count == 4 ? c[3] : 1)) }
        default: break
        }
        expected("a colour (CSS name, #rrggbb, [r, g, b, a] or \"none\")", site, got: v)
        return nil
    }

    mutating func colors(_ v: SceneValue, _ site: Site) -> [Color]? {
        guard case .list(let l) = v else { expected("a list of colours", site, got: v); return nil }
        var out: [Color] = []
        for (i, item) in l.enumerated() {
            guard let c = color(item, Site(json: site.json, path: "\(site.path)[\(i)]")) else { return nil }
            out.append(c ?? .clear)
        }
        return out
    }

    mutating func timingFunction(_ v: SceneValue, _ site: Site) -> TimingFunction? {
        if case .string = v {
            guard let name = choice(v, site, TimingFunction.Name.allCases.map(\.rawValue)).flatMap(TimingFunction.Name.init(rawValue:)) else {
                return nil
            }
            return TimingFunction(name: name)
        }
        guard let n = numbers(v, site, count: 4...4, what: "a timing function (a name or [x1, y1, x2, y2])") else { return nil }
        return TimingFunction(controlPoints: n[0], n[1], n[2], n[3])
    }

    mutating func path(_ v: SceneValue, _ site: Site) -> Path? {
        guard case .string(let s) = v else { expected("SVG path data", site, got: v); return nil }
        do { return try Path(svgPathData: s) } catch {
            self.error(site, "expected SVG path data, got \(v.shortDescription) (\(error))")
            return nil
        }
    }
}

/// The unit grammar of SCENES.md §4, on plain strings (also used for `--set` values).
public enum SceneUnits {
    /// Seconds from `"2.5s"`, `"250ms"`, `"1:02.5"`, `"01:02:03.5"`, `"48f"` or a bare number; nil if malformed.
    public static func time(_ text: String, fps: Double) -> Double? {
        let s = text.trimmingCharacters(in: .whitespaces)
        func num(_ t: Substring) -> Double? { Double(t).flatMap { $0.isFinite ? $0 : nil } }
        if s.hasSuffix("ms") { return num(s.dropLast(2)).map { $0 / 1000 } }
        if s.hasSuffix("s") { return num(s.dropLast()) }
        if s.hasSuffix("f") { return num(s.dropLast()).flatMap { fps > 0 ? $0 / fps : nil } }
        if s.contains(":") {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 3, let last = num(parts.last!), last >= 0, last < 60 else { return nil }
            var total = last
            var scale = 60.0
            for part in parts.dropLast().reversed() {
                guard let v = Int(part), v >= 0 else { return nil }
                total += Double(v) * scale
                scale *= 60
            }
            return total
        }
        return num(Substring(s))
    }

    /// Degrees from `"90deg"`, `"1.5708rad"`, `"0.25turn"` or a bare number; nil if malformed.
    public static func degrees(_ text: String) -> Double? {
        let s = text.trimmingCharacters(in: .whitespaces)
        func num(_ t: Substring) -> Double? { Double(t).flatMap { $0.isFinite ? $0 : nil } }
        if s.hasSuffix("deg") { return num(s.dropLast(3)) }
        if s.hasSuffix("rad") { return num(s.dropLast(3)).map { $0 * 180 / .pi } }
        if s.hasSuffix("turn") { return num(s.dropLast(4)).map { $0 * 360 } }
        return num(Substring(s))
    }
}
