import Foundation

// What CGPath and UIBezierPath give a Core Animation port beyond moves, lines and cubics (SEMANTICS-LAYERS.md, "Path
// API the port needs"): quadratic curves, arcs, rects and ellipses added to a path, the current point, and the
// geometry a shape layer needs: length, trimming (strokeStart/strokeEnd) and containment.

extension Path {
    /// The point the next element starts from: the last element's end point, or the start of the subpath a close
    /// ended; nil for an empty path.
    public var currentPoint: Point? {
        var current: Point?, subpathStart: Point?
        for e in elements {
            switch e {
            case .move(let p): current = p; subpathStart = p
            case .line(let p), .curve(_, _, let p): current = p
            case .close: current = subpathStart
            }
        }
        return current
    }

    /// A quadratic Bézier to `p` (stored as the cubic it equals: controls at two thirds towards `control`).
    public mutating func addQuadCurve(to p: Point, control: Point) {
        let start = currentPoint ?? control
        if currentPoint == nil { move(to: start) }
        let c1 = Point(x: start.x + 2 / 3 * (control.x - start.x), y: start.y + 2 / 3 * (control.y - start.y))
        let c2 = Point(x: p.x + 2 / 3 * (control.x - p.x), y: p.y + 2 / 3 * (control.y - p.y))
        addCurve(to: p, control1: c1, control2: c2)
    }

    /// A circular arc, as `UIBezierPath`'s: angles from +x towards +y (y down: clockwise on screen), `clockwise`
    /// true going through increasing angles. A line joins the current point to the arc's start when they differ;
    /// an empty path moves there. A sweep of 2π or more is a full circle. Drawn as cubics of at most a quarter turn.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite, center.x.isFinite, center.y.isFinite else { return }
        let r = abs(radius)
        func point(_ a: Double) -> Point { Point(x: center.x + r * cos(a), y: center.y + r * sin(a)) }
        var sweep = endAngle - startAngle
        let full = 2 * Double.pi
        if clockwise {
            if sweep >= full { sweep = full } else { sweep = sweep.truncatingRemainder(dividingBy: full); if sweep < 0 { sweep += full } }
        } else {
            if sweep <= -full { sweep = -full } else { sweep = sweep.truncatingRemainder(dividingBy: full); if sweep > 0 { sweep -= full } }
        }
        let start = point(startAngle)
        if let current = currentPoint {
            if current != start { addLine(to: start) }
        } else {
            move(to: start)
        }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4 / 3 * tan(step / 4) * r // control distance of a circular cubic
        var a = startAngle
        for _ in 0..<pieces {
            let b = a + step
            let p0 = point(a), p1 = point(b)
            addCurve(to: p1, control1: Point(x: p0.x - k * sin(a), y: p0.y + k * cos(a)),
                     control2: Point(x: p1.x + k * sin(b), y: p1.y - k * cos(b)))
            a = b
        }
    }

    /// An arc about `center` from `startAngle` turning by `delta` radians (positive: increasing angle, clockwise on
    /// screen with y down), as CGPath's `addRelativeArc`; a line joins the current point to the arc's start.
    public mutating func addRelativeArc(center: Point, radius: Double, startAngle: Double, delta: Double) {
        guard delta.isFinite, startAngle.isFinite else { return }
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: startAngle + delta, clockwise: delta >= 0)
    }

    /// CGPath's `addArc(tangent1End:tangent2End:radius:)` (canvas' and PostScript's arcTo): a line from the current
    /// point towards `tangent1End`, rounded into the line from `tangent1End` to `tangent2End` by an arc of `radius`
    /// tangent to both. Collinear points or a zero radius give a line to `tangent1End`; with no current point the
    /// path moves to `tangent1End` first.
    public mutating func addArc(tangent1End t1: Point, tangent2End t2: Point, radius: Double) {
        guard t1.x.isFinite, t1.y.isFinite, t2.x.isFinite, t2.y.isFinite, radius.isFinite else { return }
        guard let p0 = currentPoint else { move(to: t1); return }
        let ax = p0.x - t1.x, ay = p0.y - t1.y, bx = t2.x - t1.x, by = t2.y - t1.y
        let la = (ax * ax + ay * ay).squareRoot(), lb = (bx * bx + by * by).squareRoot()
        let r = abs(radius)
        guard la > 0, lb > 0, r > 0 else { addLine(to: t1); return }
        let ux = ax / la, uy = ay / la, vx = bx / lb, vy = by / lb
        let cosine = max(-1, min(1, ux * vx + uy * vy))
        let theta = acos(cosine) // the angle at t1 between the two lines
        guard theta > 1e-9, theta < .pi - 1e-9 else { addLine(to: t1); return }
        let along = r / tan(theta / 2) // from t1 to each tangent point
        let a = Point(x: t1.x + ux * along, y: t1.y + uy * along), b = Point(x: t1.x + vx * along, y: t1.y + vy * along)
        let bisector = ((ux + vx) * (ux + vx) + (uy + vy) * (uy + vy)).squareRoot()
        let toCentre = r / sin(theta / 2)
        let c = Point(x: t1.x + (ux + vx) / bisector * toCentre, y: t1.y + (uy + vy) / bisector * toCentre)
        let start = atan2(a.y - c.y, a.x - c.x), end = atan2(b.y - c.y, b.x - c.x)
        var sweep = end - start
        if sweep > .pi { sweep -= 2 * .pi } else if sweep <= -.pi { sweep += 2 * .pi }
        addArc(center: c, radius: r, startAngle: start, endAngle: start + sweep, clockwise: sweep > 0)
    }

    /// A closed rectangle (a subpath of its own).
    public mutating func addRect(_ rect: Rect) { addPath(Path(rect: rect)) }

    /// A closed ellipse inscribed in `rect` (a subpath of its own).
    public mutating func addEllipse(in rect: Rect) { addPath(Path(ellipseIn: rect)) }

    // MARK: Length, trimming, containment

    /// The length of the path: lines exactly, curves by adaptive flattening to 0.01 pt; moves add nothing, a close
    /// adds its line back to the subpath's start.
    public var length: Double { segments().reduce(0) { $0 + $1.length } }

    /// The part of the path between the fractions `start` and `end` of its length (0…1, clamped; `end` ≤ `start`
    /// gives an empty path): what a shape layer's `strokeStart`/`strokeEnd` stroke. Lines and curves are cut exactly
    /// where the length falls (curves at the parameter found along their flattening).
    public func trimmed(from start: Double, to end: Double) -> Path {
        func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        let s = unit(start), e = unit(end)
        let all = segments()
        let total = all.reduce(0) { $0 + $1.length }
        guard e > s, total > 0 else { return Path() }
        if s == 0 && e == 1 { return self }
        let from = s * total, to = e * total
        var out = Path()
        var walked = 0.0
        var last: Point?
        for seg in all {
            let a = walked, b = walked + seg.length
            walked = b
            guard b > from, a < to, seg.length > 0 else { continue }
            let t0 = seg.parameter(atLength: max(from - a, 0)), t1 = seg.parameter(atLength: min(to, b) - a)
            let piece = seg.portion(t0, t1)
            if last != piece.start { out.move(to: piece.start) }
            switch piece.kind {
            case .line: out.addLine(to: piece.end)
            case .curve(let c1, let c2): out.addCurve(to: piece.end, control1: c1, control2: c2)
            }
            last = piece.end
        }
        return out
    }

    /// Whether `p` is inside the filled path, each subpath closed, by the fill rule (CGPath's `contains`).
    public func contains(_ p: Point, using rule: FillRule = .nonZero) -> Bool {
        var winding = 0
        for polygon in polygons() where polygon.count > 2 {
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                if a.y <= p.y {
                    if b.y > p.y && cross(a, b, p) > 0 { winding += 1 }
                } else if b.y <= p.y && cross(a, b, p) < 0 {
                    winding -= 1
                }
            }
        }
        return rule == .evenOdd ? winding % 2 != 0 : winding != 0
    }

    private func cross(_ a: Point, _ b: Point, _ p: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y) }

    /// Each subpath as a polygon (curves flattened).
    private func polygons() -> [[Point]] {
        var result: [[Point]] = [], current: [Point] = []
        var subpathStart: Point?
        for e in elements {
            switch e {
            case .move(let p):
                if !current.isEmpty { result.append(current) }
                current = [p]; subpathStart = p
            case .line(let p): current.append(p)
            case .curve(let c1, let c2, let p):
                let from = current.last ?? c1
                PathSegment(start: from, end: p, kind: .curve(c1, c2)).flatten(into: &current)
            case .close:
                if !current.isEmpty { result.append(current) }
                current = subpathStart.map { [$0] } ?? []
            }
        }
        if current.count > 1 { result.append(current) }
        return result
    }

    /// The drawn pieces: lines (closes included) and curves, with their lengths.
    private func segments() -> [PathSegment] {
        var result: [PathSegment] = []
        var current: Point?, subpathStart: Point?
        for e in elements {
            switch e {
            case .move(let p): current = p; subpathStart = p
            case .line(let p):
                result.append(PathSegment(start: current ?? p, end: p, kind: .line)); current = p
            case .curve(let c1, let c2, let p):
                result.append(PathSegment(start: current ?? c1, end: p, kind: .curve(c1, c2))); current = p
            case .close:
                if let c = current, let s = subpathStart, c != s { result.append(PathSegment(start: c, end: s, kind: .line)) }
                current = subpathStart
            }
        }
        return result
    }
}

/// One line or cubic of a path, with its length and a table of lengths along it.
struct PathSegment {
    enum Kind { case line, curve(Point, Point) }
    let start: Point, end: Point, kind: Kind
    /// (parameter, length walked) at the flattening points of a curve.
    private(set) var table: [(t: Double, length: Double)] = []
    private(set) var length = 0.0

    init(start: Point, end: Point, kind: Kind) {
        self.start = start; self.end = end; self.kind = kind
        switch kind {
        case .line: length = hypot(end.x - start.x, end.y - start.y)
        case .curve:
            var points: [(Double, Point)] = [(0, start)]
            subdivide(0, 1, start, end, depth: 0, into: &points)
            var walked = 0.0
            table = [(0, 0)]
            for i in 1..<points.count {
                walked += hypot(points[i].1.x - points[i - 1].1.x, points[i].1.y - points[i - 1].1.y)
                table.append((points[i].0, walked))
            }
            length = walked.isFinite ? walked : 0
        }
    }

    func point(at t: Double) -> Point {
        switch kind {
        case .line: return Point(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
        case .curve(let c1, let c2):
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return Point(x: a * start.x + b * c1.x + c * c2.x + d * end.x, y: a * start.y + b * c1.y + c * c2.y + d * end.y)
        }
    }

    /// Adaptive flattening: halves until the chord is within 0.01 pt of the curve's midpoint (16 levels at most). A
    /// chord's shortfall grows with the square of that distance: at 0.05 pt a quarter circle of radius 10 measured
    /// 0.018 short, now within the tests' 0.01.
    private func subdivide(_ t0: Double, _ t1: Double, _ p0: Point, _ p1: Point, depth: Int, into points: inout [(Double, Point)]) {
        let tm = (t0 + t1) / 2, pm = point(at: tm)
        let chordMid = Point(x: (p0.x + p1.x) / 2, y: (p0.y + p1.y) / 2)
        if depth >= 16 || (depth >= 2 && hypot(pm.x - chordMid.x, pm.y - chordMid.y) <= 0.01) || !pm.x.isFinite || !pm.y.isFinite {
            points.append((t1, p1))
            return
        }
        subdivide(t0, tm, p0, pm, depth: depth + 1, into: &points)
        subdivide(tm, t1, pm, p1, depth: depth + 1, into: &points)
    }

    func flatten(into points: inout [Point]) {
        switch kind {
        case .line: points.append(end)
        case .curve: for entry in table.dropFirst() { points.append(point(at: entry.t)) }
        }
    }

    /// The parameter at which `walked` of the length lies.
    func parameter(atLength walked: Double) -> Double {
        guard length > 0 else { return 0 }
        switch kind {
        case .line: return min(max(walked / length, 0), 1)
        case .curve:
            guard let k = table.firstIndex(where: { $0.length >= walked }), k > 0 else { return walked <= 0 ? 0 : 1 }
            let (ta, la) = table[k - 1], (tb, lb) = table[k]
            return lb > la ? ta + (tb - ta) * (walked - la) / (lb - la) : tb
        }
    }

    /// The piece between parameters `t0` and `t1` (de Casteljau for curves).
    func portion(_ t0: Double, _ t1: Double) -> (start: Point, end: Point, kind: Kind) {
        switch kind {
        case .line: return (point(at: t0), point(at: t1), .line)
        case .curve(let c1, let c2):
            // The curve after t0, then its part up to the matching parameter of t1.
            let (_, right) = split(start, c1, c2, end, at: t0)
            let u = t0 < 1 ? (t1 - t0) / (1 - t0) : 1
            let (left, _) = split(right.0, right.1, right.2, right.3, at: u)
            return (left.0, left.3, .curve(left.1, left.2))
        }
    }

    private typealias Cubic = (Point, Point, Point, Point)
    private func split(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, at t: Double) -> (Cubic, Cubic) {
        func lerp(_ a: Point, _ b: Point) -> Point { Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        let a = lerp(p0, p1), b = lerp(p1, p2), c = lerp(p2, p3)
        let d = lerp(a, b), e = lerp(b, c), f = lerp(d, e)
        return ((p0, a, d, f), (f, e, c, p3))
    }
}
