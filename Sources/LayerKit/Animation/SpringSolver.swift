import Foundation

/// The normalised motion of a damped spring, SEMANTICS-ANIMATION.md §8 (WebKit's `SpringSolver.h`, OpenCoreAnimation):
/// `m·x'' + c·x' + k·x = 0` for the distance left, as the fraction `y(τ)` of the way done, `y(0) = 0`, `y'(0) = v₀`,
/// `y → 1`. A spring animation shows `from + (to − from)·y(τ)` with `τ` the basic time of §3 in seconds.
///
/// Parameters that describe no spring (mass or stiffness ≤ 0, any NaN or infinite parameter) make a spring that is
/// already there: `y = 1` for every `τ > 0`, settling in 0 s. Negative damping is 0 (Core Animation: damping ≥ 0).
public struct SpringSolver: Sendable {
    /// The mass on the spring.
    public let mass: Double
    /// The spring's stiffness, k.
    public let stiffness: Double
    /// The damping coefficient, c.
    public let damping: Double
    /// In units of `(to − from)` per second; positive is towards the target.
    public let initialVelocity: Double
    /// Whether damping above critical is kept (else it is treated as critical, as Core Animation does).
    public let allowsOverdamping: Bool

    /// The fraction of the distance within which the spring counts as settled (SwiftUI's documented epsilon).
    public static let settlingEpsilon = 0.001

    private enum Regime: Sendable {
        case invalid
        /// ζ < 1: `1 − e^(−decay·τ)(cos ω_d τ + b·sin ω_d τ)`, `decay = ζω₀`, `b = (ζω₀ − v₀)/ω_d`.
        case underdamped(decay: Double, omegaD: Double, b: Double)
        /// ζ = 1 (or ζ > 1 without `allowsOverdamping`): `1 − e^(−ω₀τ)(1 + β·τ)`, `β = ω₀ − v₀`.
        case critical(omega0: Double, beta: Double)
        /// ζ > 1 with `allowsOverdamping`: `1 − a·e^(r₊τ) − (1 − a)·e^(r₋τ)`.
        case overdamped(rPlus: Double, rMinus: Double, a: Double)
    }
    private let regime: Regime

    /// The motion of a spring with these parameters (see the type's note on parameters that describe no spring).
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
                allowsOverdamping: Bool = false) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
        regime = Self.regime(m: mass, k: stiffness, c: damping, v0: initialVelocity, allowsOverdamping: allowsOverdamping)
    }

    private static func regime(m: Double, k: Double, c: Double, v0: Double, allowsOverdamping: Bool) -> Regime {
        guard m.isFinite, k.isFinite, c.isFinite, v0.isFinite, m > 0, k > 0 else { return .invalid }
        let c = max(c, 0)
        // √(k/m) and 2√(k·m) as products of roots: neither overflows nor underflows for extreme but valid parameters.
        let rootK = k.squareRoot(), rootM = m.squareRoot()
        let omega0 = rootK / rootM
        let zeta = c / (2 * rootK * rootM)
        guard omega0.isFinite, omega0 > 0, zeta.isFinite else { return .invalid }
        if zeta < 1 {
            let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
            let decay = zeta * omega0
            let b = (decay - v0) / omegaD
            guard omegaD > 0, b.isFinite else { return .critical(omega0: omega0, beta: omega0 - v0) }
            return .underdamped(decay: decay, omegaD: omegaD, b: b)
        }
        if zeta == 1 || !allowsOverdamping {
            let beta = omega0 - v0
            return beta.isFinite ? .critical(omega0: omega0, beta: beta) : .invalid
        }
        // r± = −ω₀(ζ ∓ √(ζ²−1)); the slow root as −ω₀/(ζ + √(ζ²−1)) avoids the cancellation of ζ − √(ζ²−1).
        let root = zeta * ((1 - 1 / zeta) * (1 + 1 / zeta)).squareRoot()
        let rPlus = -omega0 / (zeta + root)
        let rMinus = -omega0 * (zeta + root)
        let a = (rMinus + v0) / (rMinus - rPlus)
        guard rPlus.isFinite, rMinus.isFinite, a.isFinite, rPlus < 0 else { return .invalid }
        return .overdamped(rPlus: rPlus, rMinus: rMinus, a: a)
    }

    /// `y(τ)`: 0 for `τ ≤ 0`, tending to 1. For parameters that describe no spring, NaN `τ`, or a value that would not be
    /// finite (an undamped spring at `τ = ∞`), 1.
    public func value(at tau: Double) -> Double {
        if tau <= 0 { return 0 }
        guard !tau.isNaN else { return 1 }
        let y = 1 - remainder(at: tau)
        return y.isFinite ? y : 1
    }

    /// `1 − y(τ)`, the signed fraction of the distance still to go (τ > 0).
    private func remainder(at tau: Double) -> Double {
        switch regime {
        case .invalid:
            return 0
        case let .underdamped(decay, omegaD, b):
            let envelope = exp(-decay * tau)
            if envelope == 0 { return 0 }
            return envelope * (cos(omegaD * tau) + b * sin(omegaD * tau))
        case let .critical(omega0, beta):
            let envelope = exp(-omega0 * tau)
            if envelope == 0 { return 0 }
            return envelope * (1 + beta * tau)
        case let .overdamped(rPlus, rMinus, a):
            return a * exp(rPlus * tau) + (1 - a) * exp(rMinus * tau)
        }
    }

    /// The seconds the spring takes to stay within `settlingEpsilon` of its target:
    /// - underdamped: the time its decay envelope reaches ε, `ln(E/ε)/(ζω₀)` with `E = √(1 + ((ζω₀ − v₀)/ω_d)²)` (an
    ///   upper bound of the last time `|1 − y| ≥ ε`); damping 0 never settles: `.infinity`;
    /// - critically damped and overdamped: the last time `|1 − y| ≥ ε` on a grid of 1 ms steps from 0.
    /// 0 for parameters that describe no spring.
    ///
    /// The grid search does not walk forward from 0: it starts from the time after which an upper bound of `|1 − y|`
    /// decreases below ε for good and steps back (at most ten million steps, after which that time itself is the
    /// answer); it gives up with `.infinity` when even that time is beyond 1e300 s.
    public var settlingDuration: Double {
        let epsilon = Self.settlingEpsilon
        switch regime {
        case .invalid:
            return 0
        case let .underdamped(decay, _, b):
            guard decay > 0 else { return .infinity }
            let e = hypot(1, b)
            let t = (log(e) - log(epsilon)) / decay
            return t.isNaN ? 0 : max(t, 0)
        case let .critical(omega0, beta):
            // |1 − y| ≤ e^(−ω₀τ)(1 + |β|τ), which decreases from τ = (|β| − ω₀)/(ω₀|β|) on.
            let peak = beta == 0 ? 0 : max(0, (abs(beta) - omega0) / (omega0 * abs(beta)))
            return lastExceedance(epsilon: epsilon, decreasingFrom: peak.isFinite ? peak : 0) { tau in
                exp(-omega0 * tau) * (1 + abs(beta) * tau)
            }
        case let .overdamped(rPlus, rMinus, a):
            // |1 − y| ≤ |a|e^(r₊τ) + |1 − a|e^(r₋τ), decreasing everywhere.
            return lastExceedance(epsilon: epsilon, decreasingFrom: 0) { tau in
                abs(a) * exp(rPlus * tau) + abs(1 - a) * exp(rMinus * tau)
            }
        }
    }

    /// The last multiple of 1 ms at which `|1 − y| ≥ ε`, given a bound of `|1 − y|` that decreases from `start` on.
    private func lastExceedance(epsilon: Double, decreasingFrom start: Double, bound: (Double) -> Double) -> Double {
        let step = 0.001
        // A time past which the bound, and so |1 − y|, stays below ε: doubling, then bisection.
        var low = start, high = max(start, step)
        while !(bound(high) < epsilon) {
            low = high
            high *= 2
            if high > 1e300 { return .infinity }
        }
        for _ in 0..<200 where high - low > step / 2 {
            let mid = low + (high - low) / 2
            if bound(mid) < epsilon { high = mid } else { low = mid }
        }
        // Step back along the grid from there to the last sample that is not settled.
        var j = (high / step).rounded(.up)
        for _ in 0..<10_000_000 {
            if j <= 0 { return 0 }
            if j - 1 == j { return high }   // beyond 2⁵³ ms the grid is coarser than a step
            if abs(remainder(at: j * step)) >= epsilon { return j * step }
            j -= 1
        }
        return high
    }
}
