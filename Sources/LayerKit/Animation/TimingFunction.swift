/// How an animation's progress maps to its value's progress: a cubic Bézier from (0,0) to (1,1) with two
/// control points (CAMediaTimingFunction). Evaluated by solving x(t) = progress for t, then returning y(t).
public struct TimingFunction: Hashable, Sendable {
    /// The first control point (x clamped to 0…1).
    public let c1: (x: Double, y: Double)
    /// The second control point (x clamped to 0…1).
    public let c2: (x: Double, y: Double)

    /// The curve with control points (x1, y1) and (x2, y2); x outside 0…1 is clamped, as Core Animation requires.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        // x must stay monotonic for x(t) = progress to have one solution, as Core Animation requires.
        c1 = (min(max(x1, 0), 1), y1)
        c2 = (min(max(x2, 0), 1), y2)
    }

    /// Constant speed.
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// Starts slowly, ends at full speed.
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// Starts at full speed, ends slowly.
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// Starts and ends slowly.
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// Core Animation's default for implicit animations.
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    /// The named curves (CAMediaTimingFunctionName), for `TimingFunction(name: .easeInEaseOut)`.
    public enum Name: String, Sendable, CaseIterable {
        /// The curves of the same names above.
        case linear, easeIn, easeOut, easeInEaseOut, `default`
    }

    /// The named curve, as `CAMediaTimingFunction(name:)`.
    public init(name: Name) {
        switch name {
        case .linear: self = .linear
        case .easeIn: self = .easeIn
        case .easeOut: self = .easeOut
        case .easeInEaseOut: self = .easeInEaseOut
        case .default: self = .default
        }
    }

    /// The eased progress for `progress` in [0, 1].
    public func evaluate(_ progress: Double) -> Double {
        if progress <= 0 { return 0 }
        if progress >= 1 { return 1 }
        if c1.x == c1.y && c2.x == c2.y { return progress } // a straight line
        return bezier(solveT(forX: progress), c1.y, c2.y)
    }

    /// One coordinate of the curve at parameter t, endpoints 0 and 1.
    private func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    private func bezierSlope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// Newton's method from a good guess, falling back to bisection where the slope vanishes.
    private func solveT(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = bezier(t, c1.x, c2.x) - x
            if abs(error) < 1e-9 { return t }
            let slope = bezierSlope(t, c1.x, c2.x)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
        }
        var lo = 0.0, hi = 1.0
        t = x
        for _ in 0..<60 {
            let value = bezier(t, c1.x, c2.x)
            if abs(value - x) < 1e-9 { break }
            if value < x { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    public static func == (a: TimingFunction, b: TimingFunction) -> Bool {
        a.c1 == b.c1 && a.c2 == b.c2
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1.x); hasher.combine(c1.y); hasher.combine(c2.x); hasher.combine(c2.y)
    }
}
