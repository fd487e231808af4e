import Foundation

/// Malformed SVG path data: what was wrong and at which character (0-based, in UTF-8 bytes).
public struct SVGPathError: Error, Equatable, CustomStringConvertible {
    /// What was wrong, e.g. "expected a number".
    public let message: String
    /// Where, in UTF-8 bytes from the start of the data (0-based).
    public let offset: Int
    public var description: String { "invalid SVG path data at character \(offset): \(message)" }
}

extension Path {
    /// A path from SVG path data (the `d` attribute): M m L l H h V v C c S s Q q T t A a Z z, numbers with signs,
    /// decimals and exponents, commas or spaces between them or none where the grammar allows (`M0-1.5.5`),
    /// repeated coordinate groups as repeats of the command (after M, as L). Quadratics are kept as the cubics
    /// they equal; arcs become cubics of at most a quarter turn (SVG 1.1 F.6: radii scaled up when too small,
    /// a zero radius is a line).
    /// - Throws: `SVGPathError` for data that does not start with a move, an unknown letter, a missing or
    ///   malformed number or arc flag, or a number that is not finite.
    public init(svgPathData data: String) throws {
        var parser = SVGPathParser(Array(data.utf8))
        self = try parser.parse()
    }

    /// The path as SVG path data: absolute `M`, `L`, `C` and `Z` commands, numbers in their shortest exact form
    /// (`Path(svgPathData:)` reads it back to the same elements).
    public var svgPathData: String {
        func n(_ v: Double) -> String {
            if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
            return "\(v)"
        }
        func p(_ q: Point) -> String { "\(n(q.x)) \(n(q.y))" }
        return elements.map { e -> String in
            switch e {
            case .move(let a): "M\(p(a))"
            case .line(let a): "L\(p(a))"
            case .curve(let c1, let c2, let a): "C\(p(c1)) \(p(c2)) \(p(a))"
            case .close: "Z"
            }
        }.joined(separator: " ")
    }
}

/// The SVG path grammar over UTF-8 bytes.
private struct SVGPathParser {
    let bytes: [UInt8]
    var i = 0
    var path = Path()
    var current = Point.zero, subpathStart = Point.zero
    /// The last cubic's second control and the last quadratic's control, for S and T reflections.
    var lastCubicControl: Point?, lastQuadControl: Point?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func fail(_ message: String, at offset: Int? = nil) -> SVGPathError { SVGPathError(message: message, offset: offset ?? i) }

    mutating func skipSeparators() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C, UInt8(ascii: ",")].contains(bytes[i]) { i += 1 }
    }

    mutating func skipSpaces() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[i]) { i += 1 }
    }

    /// Whether a number starts at the next non-separator character.
    mutating func numberFollows() -> Bool {
        skipSeparators()
        guard i < bytes.count else { return false }
        let c = bytes[i]
        return (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
    }

    mutating func number() throws -> Double {
        skipSeparators()
        let start = i
        func digits() -> Int {
            let s = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var count = digits()
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1; count += digits() }
        guard count > 0 else { throw fail("expected a number", at: start) }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            let mark = i
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            if digits() == 0 { i = mark; throw fail("expected an exponent", at: mark + 1) }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else {
            throw fail("number out of range", at: start)
        }
        return v
    }

    mutating func flag() throws -> Bool {
        skipSeparators()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "0") || bytes[i] == UInt8(ascii: "1") else { throw fail("expected an arc flag (0 or 1)") }
        defer { i += 1 }
        return bytes[i] == UInt8(ascii: "1")
    }

    mutating func point(relative: Bool) throws -> Point {
        let x = try number(), y = try number()
        return relative ? Point(x: current.x + x, y: current.y + y) : Point(x: x, y: y)
    }

    mutating func parse() throws -> Path {
        skipSeparators()
        guard i < bytes.count else { return path }
        var first = true
        while true {
            skipSeparators()
            guard i < bytes.count else { break }
            let at = i
            let letter = Character(UnicodeScalar(bytes[i]))
            i += 1
            if first && letter != "M" && letter != "m" { throw fail("path data must begin with a move (M or m)", at: at) }
            first = false
            try command(letter, at: at)
        }
        return path
    }

    mutating func command(_ letter: Character, at: Int) throws {
        let relative = letter.isLowercase
        var repeated = false
        repeat {
            var cubicControl: Point?, quadControl: Point?
            switch letter {
            case "M", "m":
                let p = try point(relative: relative)
                if repeated { path.addLine(to: p) } else { path.move(to: p); subpathStart = p }
                current = p
            case "L", "l":
                current = try point(relative: relative); path.addLine(to: current)
            case "H", "h":
                let x = try number(); current = Point(x: relative ? current.x + x : x, y: current.y); path.addLine(to: current)
            case "V", "v":
                let y = try number(); current = Point(x: current.x, y: relative ? current.y + y : y); path.addLine(to: current)
            case "C", "c", "S", "s":
                let c1: Point
                if letter == "C" || letter == "c" { c1 = try point(relative: relative) }
                else { c1 = lastCubicControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current }
                let c2 = try point(relative: relative), p = try point(relative: relative)
                path.addCurve(to: p, control1: c1, control2: c2)
                current = p; cubicControl = c2
            case "Q", "q", "T", "t":
                let c: Point
                if letter == "Q" || letter == "q" { c = try point(relative: relative) }
                else { c = lastQuadControl.map { Point(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current }
                let p = try point(relative: relative)
                path.addQuadCurve(to: p, control: c)
                current = p; quadControl = c
            case "A", "a":
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                let p = try point(relative: relative)
                path.addSVGArc(from: current, to: p, rx: rx, ry: ry, rotation: rotation * .pi / 180, largeArc: large, sweep: sweep)
                current = p
            case "Z", "z":
                path.closeSubpath(); current = subpathStart
                lastCubicControl = nil; lastQuadControl = nil
                return
            default:
                throw fail("unknown path command '\(letter)'", at: at)
            }
            lastCubicControl = cubicControl; lastQuadControl = quadControl
            repeated = true
        } while numberFollows()
    }
}

extension Path {
    /// SVG's endpoint arc (1.1, appendix F.6.5) from `p0` to `p1`, appended as cubics.
    mutating func addSVGArc(from p0: Point, to p1: Point, rx: Double, ry: Double, rotation phi: Double, largeArc: Bool, sweep: Bool) {
        if p0 == p1 { return }
        var rx = abs(rx), ry = abs(ry)
        if rx == 0 || ry == 0 { addLine(to: p1); return }
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = den > 0 ? (max(num, 0) / den).squareRoot() : 0
        if largeArc == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2, cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double { atan2(ux * vy - uy * vx, ux * vx + uy * vy) }
        let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry, vx = (-x1 - cx1) / rx, vy = (-y1 - cy1) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, vx, vy)
        if !sweep && delta > 0 { delta -= 2 * .pi } else if sweep && delta < 0 { delta += 2 * .pi }
        guard theta1.isFinite, delta.isFinite else { addLine(to: p1); return }
        // Unit-circle cubics of at most a quarter turn, mapped through scale, rotation and the centre.
        let pieces = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(pieces)
        let h = 4 / 3 * tan(step / 4)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(x: cx + rx * x * cosPhi - ry * y * sinPhi, y: cy + rx * x * sinPhi + ry * y * cosPhi)
        }
        var a = theta1
        for n in 0..<pieces {
            let b = a + step
            let c1 = map(cos(a) - h * sin(a), sin(a) + h * cos(a))
            let c2 = map(cos(b) + h * sin(b), sin(b) - h * cos(b))
            addCurve(to: n == pieces - 1 ? p1 : map(cos(b), sin(b)), control1: c1, control2: c2)
            a = b
        }
    }
}
