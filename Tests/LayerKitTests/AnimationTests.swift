import Foundation
import LayerGraphics
import Testing
@testable import LayerKit

@Suite("Timing functions")
struct TimingFunctionTests {
    @Test func namedCurvesHaveCoreAnimationsControlPoints() {
        #expect(TimingFunction.easeIn == TimingFunction(controlPoints: 0.42, 0, 1, 1))
        #expect(TimingFunction.easeInEaseOut == TimingFunction(controlPoints: 0.42, 0, 0.58, 1))
        #expect(TimingFunction.default == TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
    }

    @Test func linearIsTheIdentityAndEndsAreFixed() {
        for x in stride(from: 0.0, through: 1.0, by: 0.125) {
            #expect(abs(TimingFunction.linear.evaluate(x) - x) < 1e-12)
        }
        for f in [TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default] {
            #expect(f.evaluate(0) == 0)
            #expect(f.evaluate(1) == 1)
        }
    }

    /// y(t) at the t where x(t) = progress: checked against the curve sampled densely.
    @Test func easeInEaseOutMatchesTheSampledCurve() {
        let f = TimingFunction.easeInEaseOut
        func point(_ t: Double) -> (Double, Double) {
            let u = 1 - t
            return (3 * u * u * t * 0.42 + 3 * u * t * t * 0.58 + t * t * t, 3 * u * t * t + t * t * t)
        }
        var t = 0.0
        while t <= 1 {
            let (x, y) = point(t)
            #expect(abs(f.evaluate(x) - y) < 1e-6)
            t += 0.01
        }
        // Symmetric about the middle, slow at both ends.
        #expect(abs(f.evaluate(0.5) - 0.5) < 1e-9)
        #expect(f.evaluate(0.1) < 0.1)
        #expect(f.evaluate(0.9) > 0.9)
    }
}

@Suite("Media timing")
struct MediaTimingTests {
    func timing(_ configure: (inout MediaTiming) -> Void) -> MediaTiming {
        var t = MediaTiming()
        t.duration = 2
        configure(&t)
        return t
    }

    @Test func progressWithinOneIteration() {
        let t = timing { $0.beginTime = 1 }
        #expect(t.progress(at: 0.5) == nil)            // before, fill mode removed
        #expect(t.progress(at: 1)?.progress == 0)
        #expect(t.progress(at: 2)?.progress == 0.5)
        #expect(t.progress(at: 3) == nil)              // after
    }

    @Test func fillModesHoldTheEnds() {
        let both = timing { $0.beginTime = 1; $0.fillMode = .both }
        #expect(both.progress(at: 0)?.progress == 0)
        #expect(both.progress(at: 10)?.progress == 1)
        let forwards = timing { $0.fillMode = .forwards; $0.repeatCount = 3 }
        #expect(forwards.progress(at: 100)?.progress == 1)
        #expect(forwards.progress(at: 100)?.iteration == 2)
    }

    @Test func repeatsAndAutoreverses() {
        let r = timing { $0.repeatCount = .infinity }
        #expect(r.progress(at: 5)?.progress == 0.5)
        #expect(r.progress(at: 5)?.iteration == 2)
        let a = timing { $0.autoreverses = true; $0.repeatCount = 1 }
        #expect(a.activeDuration == 4)
        #expect(a.progress(at: 1)?.progress == 0.5)
        #expect(a.progress(at: 3)?.progress == 0.5)    // on the way back
        #expect(a.progress(at: 3.5)?.progress == 0.25)
    }

    @Test func speedAndOffset() {
        let t = timing { $0.speed = 2; $0.timeOffset = 0.5; $0.repeatCount = .infinity }
        // local = 0.25 · 2 + 0.5 = 1 → half of a 2 s iteration.
        #expect(t.progress(at: 0.25)?.progress == 0.5)
        let d = timing { $0.repeatDuration = 3 }
        #expect(d.activeDuration == 3)
        #expect(d.progress(at: 2.5)?.progress == 0.25)
        #expect(d.progress(at: 3) == nil)
    }
}

@Suite("Basic animations")
struct BasicAnimationTests {
    func layer() -> Layer {
        let l = Layer()
        l.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        l.position = Point(x: 10, y: 20)
        l.opacity = 0.8
        return l
    }

    func animation(_ keyPath: String, from: AnimationValue? = nil, to: AnimationValue? = nil, by: AnimationValue? = nil,
                   duration: Double = 2) -> BasicAnimation {
        let a = BasicAnimation(keyPath: keyPath)
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = duration
        // These tests add animations to trees they have already rendered (hosted): the clock's zero, not "now".
        a.beginTime = MediaTiming.beginTimeAtZero
        return a
    }

    @Test func fromToInterpolatesAndLeavesTheModelAlone() {
        let l = layer()
        l.add(animation("opacity", from: .number(0), to: .number(1)), forKey: "fade")
        #expect(l.snapshot(at: 0.5).opacity == 0.25)
        #expect(l.snapshot(at: 2.5).opacity == 0.8)    // removed on completion: the model value again
        #expect(l.opacity == 0.8)
    }

    @Test func endpointsFromByAndCurrentValues() {
        let l = layer()
        l.add(animation("position.x", to: .number(110)), forKey: "a")        // current → to
        #expect(l.snapshot(at: 1).position.x == 60)
        l.add(animation("position.x", by: .number(-10)), forKey: "a")        // current → current + by
        #expect(l.snapshot(at: 1).position.x == 5)
        l.add(animation("position.x", to: .number(40), by: .number(20)), forKey: "a") // to − by → to
        #expect(l.snapshot(at: 1).position.x == 30)
        l.add(animation("position", from: .point(Point(x: 0, y: 0)), by: .point(Point(x: 4, y: 8))), forKey: "a")
        #expect(l.snapshot(at: 1).position == Point(x: 2, y: 4))
    }

    @Test func additiveAddsToTheModelValueAndCumulativeRepeatsStack() {
        let l = layer()
        let a = animation("position.y", from: .number(0), to: .number(10))
        a.isAdditive = true
        a.isCumulative = true
        a.repeatCount = 3
        l.add(a, forKey: "bob")
        #expect(l.snapshot(at: 1).position.y == 25)    // 20 + 5
        #expect(l.snapshot(at: 3).position.y == 35)    // second iteration starts at 10
    }

    @Test func laterAnimationsOfAKeyPathApplyOnTopAndReplacingByKeyWorks() {
        let l = layer()
        l.add(animation("opacity", from: .number(0), to: .number(1)), forKey: "a")
        l.add(animation("opacity", from: .number(1), to: .number(1)), forKey: "b")
        #expect(l.snapshot(at: 1).opacity == 1)
        #expect(l.animationKeys() == ["a", "b"])
        l.removeAnimation(forKey: "b")
        #expect(l.snapshot(at: 1).opacity == 0.5)
        l.removeAllAnimations()
        #expect(l.animationKeys() == nil)
    }

    @Test func addingCopiesTheAnimation() {
        let l = layer()
        let a = animation("opacity", from: .number(0), to: .number(1))
        l.add(a, forKey: "fade")
        a.toValue = 0.0
        #expect(l.snapshot(at: 1).opacity == 0.5)
    }

    @Test func timingFunctionEasesTheValue() {
        let l = layer()
        let a = animation("cornerRadius", from: .number(0), to: .number(100))
        a.timingFunction = .easeIn
        l.add(a, forKey: "r")
        let expected = 100 * TimingFunction.easeIn.evaluate(0.25)
        #expect(abs(l.snapshot(at: 0.5).cornerRadius - expected) < 1e-9)
        #expect(l.snapshot(at: 0.5).cornerRadius < 25)
    }

    /// A spin: additive `transform.rotation.y`, linear, forever; the model transform (a tilt with
    /// perspective) applies after it, so the layer turns in its own plane's frame.
    @Test func additiveRotationKeyPathSpinsBeforeTheModelTransform() {
        let l = layer()
        let model = Transform3D.makeRotation(0.3, 0, 1, 0).concatenating(.makePerspective(distance: 500))
        l.transform = model
        let spin = animation("transform.rotation.y", from: .number(0), to: .number(2 * .pi), duration: 8)
        spin.isAdditive = true
        spin.repeatCount = .infinity
        l.add(spin, forKey: "spin")
        for t in [0.0, 1, 3.5, 9] {
            let angle = 2 * Double.pi * (t / 8 - (t / 8).rounded(.down))
            let expected = Transform3D.makeRotation(angle, 0, 1, 0).concatenating(model)
            #expect(l.snapshot(at: t).transform.isApproximatelyEqual(to: expected))
        }
        #expect(l.hasRunningAnimations(at: 100))
    }

    @Test func valueFunctionTurnsNumbersIntoTransforms() {
        let l = layer()
        let a = animation("transform", from: .number(0), to: .number(.pi))
        a.valueFunction = .rotate(axisX: 1, axisY: 1, axisZ: 0)
        l.add(a, forKey: "turn")
        #expect(l.snapshot(at: 1).transform.isApproximatelyEqual(to: .makeRotation(.pi / 2, 1, 1, 0)))
    }

    @Test func nonAdditiveComponentKeyPathSetsTheComponent() {
        let l = layer()
        l.transform = .makeScale(2, 2, 1)
        l.add(animation("transform.rotation.z", from: .number(0), to: .number(.pi / 2)), forKey: "r")
        let expected = Transform3D.makeScale(2, 2, 1).concatenating(.makeRotation(.pi / 4, 0, 0, 1))
        #expect(l.snapshot(at: 1).transform.isApproximatelyEqual(to: expected))
    }

    @Test func transformsInterpolateByComponents() {
        let l = layer()
        l.add(animation("transform", from: .transform(.identity), to: .transform(.makeRotation(.pi / 2, 0, 0, 1))), forKey: "r")
        #expect(l.snapshot(at: 1).transform.isApproximatelyEqual(to: .makeRotation(.pi / 4, 0, 0, 1)))
    }

    @Test func layerTimingShiftsItsSubtreesClock() {
        let parent = Layer(), child = layer()
        parent.addSublayer(child)
        parent.timeOffset = 1
        parent.speed = 2
        child.add(animation("opacity", from: .number(0), to: .number(1)), forKey: "fade")
        // child's time = (0.25 − 0) · 2 + 1 = 1.5 → 0.75.
        #expect(parent.snapshot(at: 0.25).sublayers[0].opacity == 0.75)
    }

    @Test func finishedAnimationsAreNotRunning() {
        let l = layer()
        l.add(animation("opacity", from: .number(0), to: .number(1)), forKey: "fade")
        #expect(l.hasRunningAnimations(at: 1))
        #expect(!l.hasRunningAnimations(at: 2))
    }
}
