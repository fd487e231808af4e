import Foundation
@testable import LayerKit
import Testing

// SEMANTICS-ANIMATION.md §8: SpringSolver.

/// The last multiple of 1 ms in [0, horizon] at which |1 − y| ≥ 0.001, by walking forward: what `settlingDuration`
/// promises for critically damped and overdamped springs, computed the slow way.
private func bruteForceSettling(_ s: SpringSolver, horizon: Double) -> Double {
    var last = 0.0
    var j = 0.0
    while j * 0.001 <= horizon {
        if abs(1 - s.value(at: j * 0.001)) >= 0.001 { last = j * 0.001 }
        j += 1
    }
    return last
}

/// The residual of `m·y'' + c·y' + k·(y − 1) = 0` at τ by central differences, relative to `k`.
private func odeResidual(_ s: SpringSolver, damping c: Double, at tau: Double) -> Double {
    let h = 1e-4
    let y0 = s.value(at: tau - h), y1 = s.value(at: tau), y2 = s.value(at: tau + h)
    let second = (y2 - 2 * y1 + y0) / (h * h), first = (y2 - y0) / (2 * h)
    return abs(s.mass * second + c * first + s.stiffness * (y1 - 1)) / s.stiffness
}

@Suite("Spring solver (§8)")
struct SpringSolverTests {
    @Test func applesSampleSettlesInAbout2_78Seconds() {
        // m = 1, k = 100, c = 5: ω₀ = 10, ζ = 0.25, ω_d = √93.75, E = √(1 + (2.5/ω_d)²), ln(E/0.001)/2.5.
        let s = SpringSolver(mass: 1, stiffness: 100, damping: 5, initialVelocity: 0, allowsOverdamping: false)
        let e = (1 + 6.25 / 93.75).squareRoot()
        #expect(abs(s.settlingDuration - log(e / 0.001) / 2.5) < 1e-12)
        #expect(abs(s.settlingDuration - 2.78) < 0.005)
        // The envelope bounds the motion: settled from then on.
        for tau in stride(from: s.settlingDuration, through: s.settlingDuration + 5, by: 0.01) {
            #expect(abs(1 - s.value(at: tau)) < 0.001, "\(tau)")
        }
    }

    @Test func theThreeRegimesMatchHandValues() {
        // Undamped: y = 1 − cos τ (ω₀ = 1), and with v₀ = 1: 1 − cos τ + sin τ.
        let free = SpringSolver(mass: 1, stiffness: 1, damping: 0, initialVelocity: 0, allowsOverdamping: false)
        #expect(abs(free.value(at: .pi / 2) - 1) < 1e-12)
        #expect(abs(free.value(at: .pi) - 2) < 1e-12)
        #expect(free.settlingDuration == .infinity)
        let pushed = SpringSolver(mass: 1, stiffness: 1, damping: 0, initialVelocity: 1, allowsOverdamping: false)
        #expect(abs(pushed.value(at: .pi / 2) - 2) < 1e-12)
        // Critical, ω₀ = 10: y(0.1) = 1 − 2/e.
        let critical = SpringSolver(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0, allowsOverdamping: false)
        #expect(abs(critical.value(at: 0.1) - (1 - 2 / M_E)) < 1e-12)
        // Overdamped, ω₀ = 1, ζ = 1.25: r₊ = −0.5, r₋ = −2, a = 4/3.
        let over = SpringSolver(mass: 1, stiffness: 1, damping: 2.5, initialVelocity: 0, allowsOverdamping: true)
        #expect(abs(over.value(at: 1) - (1 - 4.0 / 3 * exp(-0.5) + 1.0 / 3 * exp(-2))) < 1e-12)
        // The same spring without allowsOverdamping is critical: 1 − e^(−τ)(1 + τ).
        let clamped = SpringSolver(mass: 1, stiffness: 1, damping: 2.5, initialVelocity: 0, allowsOverdamping: false)
        #expect(abs(clamped.value(at: 1) - (1 - 2 / M_E)) < 1e-12)
        // Heavier: m = 4, k = 1 → ω₀ = 0.5; c = 4 → ζ = 1: y(2) = 1 − e^(−1)(1 + 1).
        let heavy = SpringSolver(mass: 4, stiffness: 1, damping: 4, initialVelocity: 0, allowsOverdamping: true)
        #expect(abs(heavy.value(at: 2) - (1 - 2 / M_E)) < 1e-12)
    }

    @Test(arguments: [
        (1.0, 100.0, 5.0, 0.0, false), (1, 100, 5, 8, false), (2, 50, 3, -4, false),   // underdamped
        (1, 100, 20, 0, false), (1, 100, 20, 30, false), (1, 100, 60, 3, false),     // critical (the last: ζ = 3 clamped)
        (1, 100, 60, 0, true), (0.5, 10, 30, -5, true), (1, 100, 25, 40, true),      // overdamped
    ])
    func theMotionSolvesTheSpringEquation(_ m: Double, _ k: Double, _ c: Double, _ v0: Double, _ overdamp: Bool) {
        let s = SpringSolver(mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: overdamp)
        let zeta = c / (2 * (k * m).squareRoot())
        let effective = zeta > 1 && !overdamp ? 2 * (k * m).squareRoot() : c   // ζ treated as 1
        #expect(s.value(at: 0) == 0)
        #expect(abs(s.value(at: 1e-7) / 1e-7 - v0) < 1e-3 * max(1, abs(v0)), "y'(0) = v₀")
        for tau in [0.01, 0.1, 0.37, 1, 2.5] {
            #expect(odeResidual(s, damping: effective, at: tau) < 1e-4, "τ = \(tau)")
        }
        #expect(abs(s.value(at: 200) - 1) < 1e-9)   // the slowest here decays as e^(−0.34τ)
    }

    @Test(arguments: [
        (1.0, 100.0, 20.0, 0.0, false), (1, 100, 20, 30, false), (1, 100, 20, -10, false), (1, 100, 80, 0, false),
        (1, 100, 50, 0, true), (1, 100, 50, -10, true), (1, 100, 25, 40, true), (3, 20, 40, 2, true),
    ])
    func criticalAndOverdampedSettlingIsTheLastUnsettledMillisecond(_ m: Double, _ k: Double, _ c: Double, _ v0: Double, _ overdamp: Bool) {
        let s = SpringSolver(mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: overdamp)
        let expected = bruteForceSettling(s, horizon: 30)
        #expect(abs(s.settlingDuration - expected) < 1e-9, "\(s.settlingDuration) vs \(expected)")
    }

    @Test func criticalSettlingByHand() {
        // e^(−x)(1 + x) = 0.001 at x ≈ 9.2335, so τ ≈ 0.9233 with ω₀ = 10.
        let s = SpringSolver(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0, allowsOverdamping: false)
        #expect(abs(s.settlingDuration - 0.9233) < 0.0015)
    }

    @Test func parametersThatDescribeNoSpringJumpToTheEnd() {
        let bad: [(Double, Double, Double, Double)] = [
            (0, 100, 10, 0), (-1, 100, 10, 0), (.nan, 100, 10, 0), (.infinity, 100, 10, 0),
            (1, 0, 10, 0), (1, -5, 10, 0), (1, .nan, 10, 0), (1, .infinity, 10, 0),
            (1, 100, .nan, 0), (1, 100, .infinity, 0), (1, 100, 10, .nan), (1, 100, 10, -.infinity),
        ]
        for (m, k, c, v0) in bad {
            for overdamp in [false, true] {
                let s = SpringSolver(mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: overdamp)
                #expect(s.value(at: 0) == 0)
                #expect(s.value(at: 0.5) == 1, "\((m, k, c, v0))")
                #expect(s.settlingDuration == 0, "\((m, k, c, v0))")
            }
        }
        // Negative damping is no damping.
        let negative = SpringSolver(mass: 1, stiffness: 1, damping: -3, initialVelocity: 0, allowsOverdamping: false)
        #expect(abs(negative.value(at: .pi) - 2) < 1e-12)
        #expect(negative.settlingDuration == .infinity)
    }

    @Test func hostileTimesAndExtremeSpringsNeitherTrapNorHang() {
        let s = SpringSolver(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        #expect(s.value(at: .nan) == 1)
        #expect(s.value(at: .infinity) == 1)
        #expect(s.value(at: -1) == 0 && s.value(at: -.infinity) == 0)
        #expect(s.value(at: 1e300) == 1)
        #expect(SpringSolver(mass: 1, stiffness: 1, damping: 0, initialVelocity: 0, allowsOverdamping: false).value(at: .infinity) == 1)
        let extremes: [Double] = [1e-300, 1e-10, 1, 1e10, 1e300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for m in extremes {
            for k in extremes {
                for c in [0, 1e-300, 1, 1e300, .greatestFiniteMagnitude] {
                    for v0 in [0, -1e300, 1e300] {
                        for overdamp in [false, true] {
                            let spring = SpringSolver(mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: overdamp)
                            for tau in [1e-300, 0.001, 1, 1e6, 1e300] {
                                #expect(spring.value(at: tau).isFinite)
                            }
                            #expect(!spring.settlingDuration.isNaN && spring.settlingDuration >= 0, "\((m, k, c, v0, overdamp))")
                        }
                    }
                }
            }
        }
    }
}
