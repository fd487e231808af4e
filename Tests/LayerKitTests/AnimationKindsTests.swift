import Foundation
import LayerGraphics
@testable import LayerKit
import Testing

// KeyframeAnimation (§7), SpringAnimation and AnimationGroup (§8) of SEMANTICS-ANIMATION.md, against values worked
// by hand from the spec's formulas.

private func stage() -> Layer {
    let l = Layer()
    l.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
    l.position = Point(x: 0, y: 0)
    return l
}

private func keyframes(_ keyPath: String, _ values: [Double], duration: Double = 1) -> KeyframeAnimation {
    let a = KeyframeAnimation(keyPath: keyPath)
    a.values = values
    a.duration = duration
    return a
}

private func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite("Keyframe animations")
struct KeyframeAnimationTests {
    @Test func linearGoesThroughTheValuesAtTheKeyTimes() {
        let l = stage()
        let a = keyframes("position.x", [0, 10, 30], duration: 2)
        a.keyTimes = [0, 0.5, 1]
        l.add(a, forKey: "k")
        #expect(near(l.presentation(at: 0.5).position.x, 5))    // u 0.25: half-way through the first segment
        #expect(near(l.presentation(at: 1.5).position.x, 20))   // u 0.75: half-way through the second
        a.keyTimes = [0, 0.9, 0.2] // invalid (decreasing): evenly spaced instead
        l.add(a, forKey: "k")
        #expect(near(l.presentation(at: 0.5).position.x, 5))
    }

    @Test func discreteHoldsEachValueOverItsShare() {
        let l = stage()
        let a = keyframes("opacity", [0.2, 0.5, 0.9], duration: 3)
        a.calculationMode = .discrete
        l.add(a, forKey: "k")
        #expect(l.presentation(at: 0.5).opacity == 0.2)
        #expect(l.presentation(at: 1.5).opacity == 0.5)
        #expect(l.presentation(at: 2.9).opacity == 0.9)
    }

    @Test func pacedSpacesKeyTimesByDistance() {
        let l = stage()
        let a = keyframes("position.x", [0, 10, 40])
        a.calculationMode = .paced
        a.keyTimes = [0, 0.5, 1] // ignored
        l.add(a, forKey: "k")
        // Key times 0, 0.25, 1: at u 0.5 a third of the way through the second segment.
        #expect(near(l.presentation(at: 0.5).position.x, 20))
        #expect(near(l.presentation(at: 0.125).position.x, 5))
    }

    @Test func perSegmentTimingFunctionsReplaceTheAnimationsOwn() {
        let l = stage()
        let a = keyframes("position.x", [0, 10, 20])
        a.timingFunctions = [.easeIn, .linear]
        a.timingFunction = .easeOut // ignored while timingFunctions is set
        l.add(a, forKey: "k")
        #expect(near(l.presentation(at: 0.25).position.x, 10 * TimingFunction.easeIn.evaluate(0.5)))
        #expect(near(l.presentation(at: 0.75).position.x, 15))
    }

    @Test func cubicIsACatmullRomSplineByDefault() {
        let l = stage()
        let line = keyframes("position.x", [0, 10, 20, 30])
        line.calculationMode = .cubic
        l.add(line, forKey: "k")
        #expect(near(l.presentation(at: 0.5).position.x, 15), "a spline through points on a line stays on it")
        // [0, 10, 0] at u 0.25: D0 = 5, S1 = 0, Hermite at ½: 0.125·5 + 0.5·10 = 5.625.
        let peak = keyframes("position.x", [0, 10, 0])
        peak.calculationMode = .cubic
        l.add(peak, forKey: "k")
        #expect(near(l.presentation(at: 0.25).position.x, 5.625))
        peak.tensionValues = [1, 1, 1] // tension 1: no tangents, the Hermite blend alone
        l.add(peak, forKey: "k")
        #expect(near(l.presentation(at: 0.25).position.x, 5))
    }

    @Test func cumulativeKeyframesStepByLastMinusFirst() {
        let l = stage()
        let a = keyframes("position.x", [0, 10])
        a.repeatCount = 2
        a.isCumulative = true
        l.add(a, forKey: "k")
        #expect(near(l.presentation(at: 1.5).position.x, 15))
    }

    @Test func aPathIsFollowedAndRotationModeFacesAlongIt() {
        let l = stage()
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 0, y: 100))                          // down
        path.addLine(to: Point(x: 100, y: 100))                        // right
        let a = KeyframeAnimation(keyPath: "position")
        a.path = path
        a.duration = 2
        a.rotationMode = .auto
        l.add(a, forKey: "move")
        let p = l.presentation(at: 0.5)
        #expect(near(p.position.x, 0) && near(p.position.y, 50))
        #expect(p.transform.isApproximatelyEqual(to: .makeRotation(.pi / 2, 0, 0, 1)), "facing down: a quarter turn clockwise")
        let q = l.presentation(at: 1.5)
        #expect(near(q.position.x, 50) && near(q.position.y, 100))
        #expect(q.transform.isApproximatelyEqual(to: .identity), "facing right")
        a.rotationMode = .autoReverse
        l.add(a, forKey: "move")
        #expect(l.presentation(at: 1.5).transform.isApproximatelyEqual(to: .makeRotation(.pi, 0, 0, 1)))
    }

    @Test func aCurveOfThePathIsWalkedAtConstantSpeedWhenPaced() {
        let l = stage()
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        // A curve whose parameter runs slowly at first: control points bunched at the start.
        path.addCurve(to: Point(x: 90, y: 0), control1: Point(x: 0, y: 0), control2: Point(x: 0, y: 0))
        let a = KeyframeAnimation(keyPath: "position")
        a.path = path
        a.duration = 1
        a.calculationMode = .paced
        l.add(a, forKey: "move")
        #expect(abs(l.presentation(at: 0.5).position.x - 45) < 0.05, "half the time, half the length")
        a.calculationMode = .linear
        l.add(a, forKey: "move")
        #expect(near(l.presentation(at: 0.5).position.x, 90 * 0.125), "linear follows the Bézier parameter: x = 90·t³")
    }

    @Test func noValuesDoNothingAndOneValueHolds() {
        let l = stage()
        l.opacity = 0.4
        l.add(keyframes("opacity", []), forKey: "none")
        #expect(l.presentation(at: 0.5).opacity == 0.4)
        l.add(keyframes("opacity", [0.7]), forKey: "one")
        #expect(l.presentation(at: 0.5).opacity == 0.7)
    }
}

@Suite("Spring animations")
struct SpringAnimationTests {
    /// §8's underdamped motion: y = 1 − e^(−ζω₀τ)(cos ω_d τ + ((ζω₀ − v₀)/ω_d) sin ω_d τ).
    func y(_ tau: Double, mass: Double = 1, stiffness: Double = 100, damping: Double = 10, v0: Double = 0) -> Double {
        let w0 = (stiffness / mass).squareRoot(), zeta = damping / (2 * (stiffness * mass).squareRoot())
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * w0 * tau) * (cos(wd * tau) + ((zeta * w0 - v0) / wd) * sin(wd * tau))
    }

    @Test func aSpringFollowsTheDampedMotionAndIgnoresTheTimingFunction() {
        let l = stage()
        let s = SpringAnimation(keyPath: "position.x")
        s.fromValue = 0.0
        s.toValue = 100.0
        s.duration = 1
        s.timingFunction = .easeIn
        l.add(s, forKey: "spring")
        #expect(near(l.presentation(at: 0.1).position.x, 100 * y(0.1)))
        #expect(near(y(0.1), 0.34031, 1e-4))
        #expect(l.presentation(at: 0.3).position.x > 100, "damping 10 overshoots")
        s.initialVelocity = 5
        l.add(s, forKey: "spring")
        #expect(near(l.presentation(at: 0.1).position.x, 100 * y(0.1, v0: 5)))
    }

    @Test func settlingDurationIsTheDocumentedEstimate() {
        let s = SpringAnimation(keyPath: "position.x")
        s.damping = 5
        #expect(abs(s.settlingDuration - 2.78) < 0.01, "\(s.settlingDuration)")
        s.damping = 0
        #expect(s.settlingDuration == .infinity)
        let copy = s.copy() as! SpringAnimation
        #expect(copy.damping == 0 && copy.stiffness == 100)
    }

    @Test func criticalDampingWithoutOverdamping() {
        let l = stage()
        let s = SpringAnimation(keyPath: "position.x")
        s.fromValue = 0.0; s.toValue = 1.0; s.duration = 2
        s.damping = 40 // ζ = 2: moves as ζ = 1
        l.add(s, forKey: "spring")
        let tau = 0.2, w0 = 10.0
        #expect(near(l.presentation(at: tau).position.x, 1 - exp(-w0 * tau) * (1 + w0 * tau)))
    }
}

@Suite("Animation groups")
struct AnimationGroupTests {
    @Test func childrenRunOnTheGroupsClockAndAreCutAtItsEnd() {
        let l = stage()
        l.opacity = 1
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0; fade.toValue = 0.0 // no duration: the group's
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0; move.toValue = 100.0; move.duration = 2; move.beginTime = 1
        let long = BasicAnimation(keyPath: "cornerRadius")
        long.fromValue = 0.0; long.toValue = 10.0; long.duration = 10
        let group = AnimationGroup()
        group.animations = [fade, move, long]
        group.duration = 2
        group.beginTime = 1
        l.add(group, forKey: "group")
        let p = l.presentation(at: 2.5)                          // 1.5 s into the group
        #expect(near(p.opacity, 0.25))
        #expect(near(p.position.x, 25), "a child's beginTime counts from the group's start")
        #expect(near(p.cornerRadius, 1.5), "a 10 s child in a 2 s group shows its first 2 s")
        #expect(l.presentation(at: 3.5).opacity == 1, "after the group, nothing")
        #expect(l.presentation(at: 0.5).opacity == 1, "before it, nothing")
    }

    @Test func theGroupsTimingFunctionBendsItsChildrensTime() {
        let l = stage()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0; move.toValue = 100.0; move.duration = 1
        let group = AnimationGroup()
        group.animations = [move]
        group.duration = 1
        group.timingFunction = .easeIn
        l.add(group, forKey: "group")
        #expect(near(l.presentation(at: 0.5).position.x, 100 * TimingFunction.easeIn.evaluate(0.5)))
    }
}

@Suite("Names a Core Animation user types")
struct AnimationNamesTests {
    @Test func namedTimingFunctionsAndPlainValues() {
        #expect(TimingFunction(name: .easeInEaseOut) == .easeInEaseOut)
        #expect(TimingFunction(name: .default) == .default)
        let a = BasicAnimation(keyPath: "position")
        a.fromValue = Point(x: 0, y: 0)
        a.toValue = Point(x: 10, y: 20)
        a.duration = 1
        let l = stage()
        l.add(a, forKey: "p")
        #expect(l.presentation(at: 0.5).position == Point(x: 5, y: 10))
        let c = BasicAnimation(keyPath: "backgroundColor")
        c.toValue = Color.red
        #expect(c.toValue?.animationValue == .color(.red))
    }
}
