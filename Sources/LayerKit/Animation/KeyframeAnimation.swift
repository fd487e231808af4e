import Foundation
import LayerGraphics

/// Which way a layer moved along a path faces (CAAnimationRotationMode).
public enum RotationMode: String, Sendable {
    /// Turned to the path's tangent.
    case auto = "rotateAuto"
    /// Turned to the tangent, plus half a turn.
    case autoReverse = "rotateAutoReverse"
}

/// An animation through a list of values, or along a path (CAKeyframeAnimation), SEMANTICS-ANIMATION.md §7.
open class KeyframeAnimation: PropertyAnimation, @unchecked Sendable {
    /// The keyframes (any `AnimatableValue`: numbers, points, colours, transforms…).
    public var values: [any AnimatableValue]? { didSet { invalidate() } }
    /// A path for a point property (`position`): its first point and each element's end are the keyframes, and the
    /// value follows the path's lines and curves between them. Wins over `values`.
    public var path: Path? { didSet { invalidate() } }
    /// When each keyframe is reached, as fractions of the duration (ignored by `paced` and `cubicPaced`).
    public var keyTimes: [Double]? { didSet { invalidate() } }
    /// One timing function per segment; when set, the animation's own `timingFunction` is not used.
    public var timingFunctions: [TimingFunction]?
    /// How the animation goes from one keyframe to the next (linear by default).
    public var calculationMode: CalculationMode = .linear { didSet { invalidate() } }
    /// Kochanek–Bartels parameters per keyframe for `cubic` and `cubicPaced` (each −1…1, 0 by default).
    public var tensionValues: [Double]? { didSet { invalidate() } }
    /// Kochanek–Bartels continuity per keyframe for `cubic` and `cubicPaced` (each −1…1, 0 by default).
    public var continuityValues: [Double]? { didSet { invalidate() } }
    /// Kochanek–Bartels bias per keyframe for `cubic` and `cubicPaced` (each −1…1, 0 by default).
    public var biasValues: [Double]? { didSet { invalidate() } }
    /// With a `path`, turns the layer to face along it.
    public var rotationMode: RotationMode?

    open override func copy() -> Animation {
        let c = KeyframeAnimation(keyPath: keyPath)
        c.copyProperties(from: self)
        c.values = values; c.path = path; c.keyTimes = keyTimes; c.timingFunctions = timingFunctions
        c.calculationMode = calculationMode; c.tensionValues = tensionValues; c.continuityValues = continuityValues
        c.biasValues = biasValues; c.rotationMode = rotationMode
        return c
    }

    // MARK: Evaluation

    /// What the keyframes resolve to, built on first use after a change (not each frame).
    private var resolved: Keyframes?
    private func invalidate() { resolved = nil }

    private var keyframes: Keyframes {
        if let resolved { return resolved }
        let made = Keyframes(self)
        resolved = made
        return made
    }

    /// Per-segment timing functions replace the animation's own (§7).
    override func ease(_ progress: Double) -> Double {
        timingFunctions == nil ? super.ease(progress) : progress
    }

    open override func value(iteration: Double, fraction: Double, current: AnimationValue) -> AnimationValue? {
        let k = keyframes
        guard var v = k.value(at: fraction, timingFunctions: calculationMode == .discrete ? nil : timingFunctions) else { return nil }
        if isCumulative && iteration > 0, let first = k.first, let last = k.last, let step = last.subtracting(first),
           let repeated = step.scaled(by: iteration) {
            v = v.adding(repeated) ?? v
        }
        return v
    }

    open override func apply(to presentation: inout LayerPresentation, at time: Double) {
        super.apply(to: &presentation, at: time)
        // Facing along the path: R_z(θ) before the transform, θ the tangent's angle (y down: clockwise).
        guard let rotationMode, let b = basicTime(at: time), case .path(let geometry) = keyframes.source,
              let tangent = geometry.tangent(at: fraction(at: b), keyframes: keyframes, timingFunctions: timingFunctions) else { return }
        let angle = atan2(tangent.y, tangent.x) + (rotationMode == .autoReverse ? .pi : 0)
        presentation.transform = Transform3D.makeRotation(angle, 0, 0, 1).concatenating(presentation.transform)
    }
}

/// A keyframe animation's values, key times and splines, resolved once for its settings.
private struct Keyframes {
    enum Source {
        case values([AnimationValue])
        case path(PathGeometry)
    }
    let source: Source
    let mode: CalculationMode
    /// The key times segments are found in (from `keyTimes`, or from distances when paced).
    let keyTimes: [Double]
    /// Components of each value, when every value has them (cubic splines and paced distances need them).
    let components: [[Double]]?
    let tension: [Double]?, continuity: [Double]?, bias: [Double]?
    /// Arc lengths of the spline (cubicPaced).
    let arcTable: KeyframeMath.ArcLengthTable?

    init(_ a: KeyframeAnimation) {
        mode = a.calculationMode
        tension = a.tensionValues; continuity = a.continuityValues; bias = a.biasValues
        if let path = a.path, let geometry = PathGeometry(path), !geometry.segments.isEmpty || geometry.start != nil {
            source = .path(geometry)
            let n = geometry.segments.count + 1
            switch mode {
            case .paced, .cubicPaced: keyTimes = KeyframeMath.pacedKeyTimes(distances: geometry.segments.map(\.length))
            default: keyTimes = KeyframeMath.effectiveKeyTimes(a.keyTimes, count: n, mode: mode == .cubic ? .linear : mode)
            }
            components = nil
            arcTable = nil
            return
        }
        let values = (a.values ?? []).map(\.animationValue)
        source = .values(values)
        let comps = values.map(\.components)
        let all = comps.allSatisfy { $0 != nil } && Set(comps.map { $0?.count ?? 0 }).count == 1 ? comps.map { $0! } : nil
        components = all
        switch mode {
        case .paced, .cubicPaced:
            if let all, values.count > 1 {
                keyTimes = KeyframeMath.pacedKeyTimes(distances: zip(all, all.dropFirst()).map { KeyframeMath.distance($0, $1) })
            } else {
                keyTimes = KeyframeMath.effectiveKeyTimes(nil, count: values.count, mode: .linear)
            }
        default:
            keyTimes = KeyframeMath.effectiveKeyTimes(a.keyTimes, count: values.count, mode: mode)
        }
        if mode == .cubicPaced, let all, values.count > 1 {
            arcTable = KeyframeMath.ArcLengthTable(values: all, keyTimes: KeyframeMath.effectiveKeyTimes(nil, count: values.count, mode: .cubicPaced),
                                                   tension: tension, continuity: continuity, bias: bias)
        } else {
            arcTable = nil
        }
    }

    var first: AnimationValue? {
        switch source {
        case .values(let v): return v.first
        case .path(let g): return g.start.map { .point($0) }
        }
    }

    var last: AnimationValue? {
        switch source {
        case .values(let v): return v.last
        case .path(let g): return (g.segments.last?.end ?? g.start).map { .point($0) }
        }
    }

    /// The segment of progress `u` and the local parameter in it, after that segment's timing function.
    func segment(at u: Double, timingFunctions: [TimingFunction]?) -> (index: Int, local: Double) {
        if mode == .cubicPaced, let arcTable { return arcTable.segment(at: u) }
        var (i, v) = KeyframeMath.segment(at: u, keyTimes: keyTimes, mode: mode)
        if let functions = timingFunctions, i < functions.count { v = functions[i].evaluate(v) }
        return (i, v)
    }

    func value(at u: Double, timingFunctions: [TimingFunction]?) -> AnimationValue? {
        switch source {
        case .path(let geometry):
            if geometry.segments.isEmpty { return geometry.start.map { .point($0) } }
            let (i, v) = segment(at: u, timingFunctions: timingFunctions)
            if mode == .discrete { return .point(i == 0 ? geometry.start! : geometry.segments[i - 1].end) }
            let seg = geometry.segments[min(i, geometry.segments.count - 1)]
            // Paced walks each curve at constant speed; the others follow the Bézier parameter.
            return .point(seg.point(at: mode == .paced || mode == .cubicPaced ? seg.parameter(atLengthFraction: v) : v))
        case .values(let values):
            guard let firstValue = values.first else { return nil }
            if values.count == 1 { return firstValue }
            let (i, v) = segment(at: u, timingFunctions: timingFunctions)
            if mode == .discrete { return values[min(i, values.count - 1)] }
            let j = min(i, values.count - 2)
            if mode == .cubic || mode == .cubicPaced, let components {
                let point = KeyframeMath.hermite(components, keyTimes: mode == .cubic ? keyTimes : KeyframeMath.effectiveKeyTimes(nil, count: values.count, mode: .cubicPaced),
                                                 index: j, local: v, tension: tension, continuity: continuity, bias: bias)
                return values[j].withComponents(point)
            }
            return values[j].interpolated(to: values[j + 1], v)
        }
    }
}

/// A path as keyframe segments: its first point, then one segment per line, curve, close or later move.
struct PathGeometry {
    struct Segment {
        enum Kind { case line, curve(Point, Point), jump }
        let start: Point, end: Point, kind: Kind
        /// Arc length (a jump has none).
        let length: Double
        /// Cumulative lengths at the flattening parameters (curves only), for walking at constant speed.
        let table: [(t: Double, length: Double)]

        init(start: Point, end: Point, kind: Kind) {
            self.start = start; self.end = end; self.kind = kind
            switch kind {
            case .line: length = hypot(end.x - start.x, end.y - start.y); table = []
            case .jump: length = 0; table = []
            case .curve:
                // Flattened at 256 equal steps: well within 0.05 pt for any curve a layer moves along.
                var t: [(Double, Double)] = [(0, 0)]
                var previous = start, total = 0.0
                for k in 1...256 {
                    let p = Self.bezier(start, kind, end, Double(k) / 256)
                    total += hypot(p.x - previous.x, p.y - previous.y)
                    t.append((Double(k) / 256, total))
                    previous = p
                }
                length = total; table = t
            }
        }

        static func bezier(_ p0: Point, _ kind: Kind, _ p3: Point, _ t: Double) -> Point {
            guard case .curve(let p1, let p2) = kind else { return p0 }
            let u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }

        func point(at v: Double) -> Point {
            switch kind {
            case .line: return Point(x: start.x + (end.x - start.x) * v, y: start.y + (end.y - start.y) * v)
            case .jump: return v > 0 ? end : start
            case .curve: return Self.bezier(start, kind, end, v)
            }
        }

        /// The Bézier parameter at which `f` of the length has been walked.
        func parameter(atLengthFraction f: Double) -> Double {
            guard case .curve = kind, length > 0 else { return f }
            let target = f * length
            guard let k = table.firstIndex(where: { $0.length >= target }), k > 0 else { return 0 }
            let (t0, l0) = table[k - 1], (t1, l1) = table[k]
            return l1 > l0 ? t0 + (t1 - t0) * (target - l0) / (l1 - l0) : t1
        }

        /// The direction of travel at `v`; nil where the segment does not move.
        func tangent(at v: Double) -> Point? {
            let d: Point
            switch kind {
            case .jump: return nil
            case .line: d = Point(x: end.x - start.x, y: end.y - start.y)
            case .curve(let p1, let p2):
                let u = 1 - v
                func c(_ a: Double, _ b: Double, _ cc: Double, _ dd: Double) -> Double {
                    3 * u * u * (b - a) + 6 * u * v * (cc - b) + 3 * v * v * (dd - cc)
                }
                d = Point(x: c(start.x, p1.x, p2.x, end.x), y: c(start.y, p1.y, p2.y, end.y))
                if d.x == 0 && d.y == 0 { // a control point on an end: the chord's direction instead
                    let chord = Point(x: end.x - start.x, y: end.y - start.y)
                    return chord.x == 0 && chord.y == 0 ? nil : chord
                }
            }
            return d.x == 0 && d.y == 0 ? nil : d
        }
    }

    let start: Point?
    let segments: [Segment]

    init?(_ path: Path) {
        var start: Point?, current: Point?, subpathStart: Point?
        var segments: [Segment] = []
        for element in path.elements {
            switch element {
            case .move(let p):
                if start == nil { start = p } else if let c = current { segments.append(Segment(start: c, end: p, kind: .jump)) }
                current = p; subpathStart = p
            case .line(let p):
                let from = current ?? p
                if start == nil { start = from }
                segments.append(Segment(start: from, end: p, kind: .line)); current = p
            case .curve(let c1, let c2, let p):
                let from = current ?? c1
                if start == nil { start = from }
                segments.append(Segment(start: from, end: p, kind: .curve(c1, c2))); current = p
            case .close:
                if let c = current, let s = subpathStart { segments.append(Segment(start: c, end: s, kind: .line)); current = s }
            }
        }
        guard start != nil else { return nil }
        self.start = start
        self.segments = segments
    }

    /// The tangent at progress `u`, for `rotationMode`: a segment that does not move takes its nearest neighbour's.
    fileprivate func tangent(at u: Double, keyframes: Keyframes, timingFunctions: [TimingFunction]?) -> Point? {
        guard !segments.isEmpty else { return nil }
        let (i, v) = keyframes.segment(at: u, timingFunctions: timingFunctions)
        let index = min(i, segments.count - 1)
        let param = keyframes.mode == .paced || keyframes.mode == .cubicPaced ? segments[index].parameter(atLengthFraction: v) : v
        if let t = segments[index].tangent(at: param) { return t }
        for distance in 1..<max(segments.count, 1) {
            for j in [index - distance, index + distance] where j >= 0 && j < segments.count {
                if let t = segments[j].tangent(at: j < index ? 1 : 0) { return t }
            }
        }
        return nil
    }
}
