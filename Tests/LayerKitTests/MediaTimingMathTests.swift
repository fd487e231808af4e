@testable import LayerKit
import Testing

// SEMANTICS-ANIMATION.md §3: MediaTiming.basicTime(at:isRemovedOnCompletion:).

private func timing(duration: Double = 2, _ configure: (inout MediaTiming) -> Void = { _ in }) -> MediaTiming {
    var t = MediaTiming()
    t.duration = duration
    configure(&t)
    return t
}

private func near(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

/// The basic time at `t` is iteration `k`, `c` seconds in, progress `u` (each within 1e-12).
private func at(_ timing: MediaTiming, _ t: Double, removed: Bool = false, k: Double, u: Double, c: Double? = nil) -> Bool {
    guard let b = timing.basicTime(at: t, isRemovedOnCompletion: removed) else { return false }
    return near(b.iteration, k) && near(b.progress, u) && near(b.time, c ?? u * timing.effectiveDuration)
}

@Suite("Media timing maths (§3)")
struct MediaTimingMathTests {
    // MARK: The spec's worked examples

    @Test func beginTimeShiftsTheSpan() {
        let t = timing { $0.beginTime = 1 }
        #expect(at(t, 2, removed: true, k: 0, u: 0.5))
        #expect(t.basicTime(at: 3.5, isRemovedOnCompletion: true) == nil)
        #expect(t.basicTime(at: 0.5, isRemovedOnCompletion: true) == nil)
        #expect(at(t, 1, removed: true, k: 0, u: 0))
        // The span is half-open: at b + A it is over.
        #expect(t.basicTime(at: 3, isRemovedOnCompletion: false) == nil)
    }

    @Test func speedAndOffsetGiveTheLocalTime() {
        // x = (0.25 − 0)·2 + 0.5 = 1 → u = 0.5.
        let t = timing { $0.speed = 2; $0.timeOffset = 0.5 }
        #expect(at(t, 0.25, removed: true, k: 0, u: 0.5, c: 1))
        #expect(t.activeDuration == 1)
    }

    @Test func autoreverseWithHalfCountsEndsOnTheEndValue() {
        let half = timing(duration: 1) { $0.autoreverses = true; $0.repeatCount = 1.5; $0.fillMode = .forwards }
        #expect(half.localActiveDuration == 3)
        #expect(at(half, 10, k: 1, u: 1))
        // Removed on completion, the forwards fill shows nothing.
        #expect(half.basicTime(at: 10, isRemovedOnCompletion: true) == nil)
        let whole = timing(duration: 1) { $0.autoreverses = true; $0.repeatCount = 1; $0.fillMode = .forwards }
        #expect(at(whole, 10, k: 0, u: 0))
    }

    @Test func repeatDurationCanEndHalfWayBack() {
        let t = timing(duration: 1) { $0.autoreverses = true; $0.repeatDuration = 1.5; $0.fillMode = .forwards }
        #expect(t.localActiveDuration == 1.5)
        #expect(at(t, 1.5, k: 0, u: 0.5))
        #expect(at(t, 1.25, k: 0, u: 0.75))
        #expect(at(t, 0.5, k: 0, u: 0.5))
    }

    // MARK: The rules one by one

    @Test func repeatDurationWinsOverRepeatCount() {
        let t = timing(duration: 1) { $0.repeatCount = 5; $0.repeatDuration = 2.5; $0.fillMode = .forwards }
        #expect(t.localActiveDuration == 2.5)
        #expect(at(t, 2.25, k: 2, u: 0.25))
        #expect(at(t, 7, k: 2, u: 0.5))
        #expect(t.isFinished(at: 2.5, isRemovedOnCompletion: true))
    }

    @Test func theOffsetWrapsAroundTheActiveDuration() {
        // A 3 s animation with offset 1 plays 1 → 3, then 0 → 1, and still lasts 3 s.
        let t = timing(duration: 3) { $0.timeOffset = 1 }
        #expect(at(t, 0, k: 0, u: 1.0 / 3))
        #expect(at(t, 1.5, k: 0, u: 2.5 / 3, c: 2.5))
        #expect(at(t, 2.5, k: 0, u: 0.5 / 3, c: 0.5))
        #expect(t.basicTime(at: 3, isRemovedOnCompletion: false) == nil)
        // Held at the end of the span, it shows the limit from inside: 1 s into the iteration.
        var held = t
        held.fillMode = .both
        #expect(at(held, 3, k: 0, u: 1.0 / 3, c: 1))
        #expect(at(held, -1, k: 0, u: 1.0 / 3, c: 1))
        // With repeats the wrap is over the whole active duration, iterations included.
        let r = timing(duration: 1) { $0.repeatCount = 2; $0.timeOffset = 0.5; $0.fillMode = .both }
        #expect(at(r, 0, k: 0, u: 0.5))
        #expect(at(r, 1.2, k: 1, u: 0.7))
        #expect(at(r, 1.6, k: 0, u: 0.1))
        #expect(at(r, 5, k: 0, u: 0.5))
        // An offset beyond A, or negative, is reduced the same way.
        let far = timing(duration: 1) { $0.repeatCount = 2; $0.timeOffset = 4.5 }
        #expect(at(far, 0, k: 0, u: 0.5))
        let negative = timing(duration: 1) { $0.repeatCount = 2; $0.timeOffset = -0.25 }
        #expect(at(negative, 0, k: 1, u: 0.75))
        #expect(at(negative, 0.5, k: 0, u: 0.25))
    }

    @Test func negativeSpeedPlaysTheSpanBackwards() {
        let t = timing { $0.speed = -1; $0.fillMode = .both }
        #expect(t.activeDuration == 2)
        #expect(at(t, 0, k: 0, u: 1))          // starts at the end state
        #expect(at(t, 0.5, k: 0, u: 0.75))
        #expect(at(t, 1.5, k: 0, u: 0.25))
        #expect(at(t, 5, k: 0, u: 0))          // ends on the start state
        #expect(at(t, -5, k: 0, u: 1))         // filled backwards with the state it starts in
        let fast = timing { $0.speed = -2 }
        #expect(fast.activeDuration == 1)
        #expect(at(fast, 0.25, k: 0, u: 0.75))
        #expect(fast.basicTime(at: 1, isRemovedOnCompletion: false) == nil)
        let repeated = timing(duration: 1) { $0.speed = -1; $0.repeatCount = 2 }
        #expect(at(repeated, 0, k: 1, u: 1))
        #expect(at(repeated, 0.25, k: 1, u: 0.75))
        #expect(at(repeated, 1.25, k: 0, u: 0.75))
    }

    @Test func speedZeroFreezesAtTheOffsetForever() {
        let t = timing { $0.speed = 0; $0.timeOffset = 0.5; $0.beginTime = 1 }
        #expect(t.activeDuration == .infinity)
        #expect(at(t, 1, removed: true, k: 0, u: 0.25))
        #expect(at(t, 1e9, removed: true, k: 0, u: 0.25))
        #expect(t.basicTime(at: 0, isRemovedOnCompletion: true) == nil)
        #expect(!t.isFinished(at: 1e9, isRemovedOnCompletion: true))
        var filled = t
        filled.fillMode = .backwards
        #expect(at(filled, 0, k: 0, u: 0.25))
        let wrapped = timing { $0.speed = 0; $0.timeOffset = 5 }
        #expect(at(wrapped, 3, k: 0, u: 0.5))
    }

    @Test func fillModesOnEachSide() {
        for mode in [FillMode.removed, .forwards, .backwards, .both] {
            let t = timing { $0.beginTime = 1; $0.fillMode = mode }
            let before = t.basicTime(at: 0, isRemovedOnCompletion: false)
            let afterKept = t.basicTime(at: 4, isRemovedOnCompletion: false)
            let afterRemoved = t.basicTime(at: 4, isRemovedOnCompletion: true)
            let backwards = mode == .backwards || mode == .both
            let forwards = mode == .forwards || mode == .both
            #expect((before == BasicTime(iteration: 0, time: 0, progress: 0)) == backwards, "\(mode)")
            #expect(before == nil || backwards, "\(mode)")
            #expect((afterKept == BasicTime(iteration: 0, time: 2, progress: 1)) == forwards, "\(mode)")
            #expect(afterKept == nil || forwards, "\(mode)")
            #expect(afterRemoved == nil, "\(mode)")
            // Before the span, removal on completion changes nothing.
            #expect(t.basicTime(at: 0, isRemovedOnCompletion: true) == before, "\(mode)")
        }
    }

    @Test func theEndOfTheLastIterationBelongsToIt() {
        let three = timing { $0.repeatCount = 3; $0.fillMode = .forwards }
        #expect(at(three, 100, k: 2, u: 1))
        let fractional = timing { $0.repeatCount = 2.5; $0.fillMode = .forwards }
        #expect(at(fractional, 100, k: 2, u: 0.5))
        // d = 0.1, n = 3: A = 0.30000000000000004 is three periods, not three and 5e-17 s.
        let tenths = timing(duration: 0.1) { $0.repeatCount = 3; $0.fillMode = .forwards }
        #expect(at(tenths, 1, k: 2, u: 1))
        let byDuration = timing(duration: 0.1) { $0.repeatDuration = 0.3; $0.fillMode = .forwards }
        #expect(at(byDuration, 1, k: 2, u: 1))
        // Inside the span, a whole period starts the next iteration.
        let inside = timing(duration: 1) { $0.repeatCount = 3 }
        #expect(at(inside, 1, k: 1, u: 0))
        #expect(at(inside, 2.5, k: 2, u: 0.5))
    }

    @Test func autoreverseFoldsTheWayBack() {
        let t = timing(duration: 1) { $0.autoreverses = true; $0.repeatCount = 2 }
        #expect(t.localActiveDuration == 4)
        #expect(at(t, 0.25, k: 0, u: 0.25))
        #expect(at(t, 1.25, k: 0, u: 0.75))
        #expect(at(t, 2.25, k: 1, u: 0.25))
        #expect(at(t, 3.5, k: 1, u: 0.5))
    }

    @Test func infiniteRepeatsNeverEnd() {
        let t = timing(duration: 1) { $0.repeatCount = .infinity }
        #expect(t.localActiveDuration == .infinity)
        #expect(at(t, 1_000_000.5, removed: true, k: 1_000_000, u: 0.5))
        #expect(!t.isFinished(at: 1e300, isRemovedOnCompletion: true))
        let b = t.basicTime(at: 1e300, isRemovedOnCompletion: true)
        #expect(b != nil && b!.progress >= 0 && b!.progress <= 1 && b!.iteration.isFinite)
        // A forever-repeating animation has no state at t = ∞.
        #expect(t.basicTime(at: .infinity, isRemovedOnCompletion: true) == nil)
    }

    @Test func finishedMeansPastTheSpanWithNothingHeld() {
        let t = timing { $0.beginTime = 1 }
        #expect(!t.isFinished(at: 2.9, isRemovedOnCompletion: true))
        #expect(t.isFinished(at: 3, isRemovedOnCompletion: true))
        #expect(t.isFinished(at: 3, isRemovedOnCompletion: false))          // fill removed: nothing held
        var held = t
        held.fillMode = .forwards
        #expect(!held.isFinished(at: 3, isRemovedOnCompletion: false))
        #expect(held.isFinished(at: 3, isRemovedOnCompletion: true))
        let backwards = timing { $0.speed = -1 }
        #expect(backwards.isFinished(at: 2, isRemovedOnCompletion: true))
        #expect(!backwards.isFinished(at: 1.9, isRemovedOnCompletion: true))
        #expect(!t.isFinished(at: .nan, isRemovedOnCompletion: true))
        #expect(t.isFinished(at: .infinity, isRemovedOnCompletion: true))
        let invalid = timing { $0.speed = .nan }
        #expect(invalid.isFinished(at: 0, isRemovedOnCompletion: true))
    }

    @Test func activeDurationIsOnTheParentClock() {
        #expect(timing { $0.repeatDuration = 3; $0.speed = 2 }.activeDuration == 1.5)
        #expect(timing { $0.repeatCount = 2; $0.autoreverses = true; $0.speed = -4 }.activeDuration == 2)
        #expect(timing { $0.speed = 0 }.activeDuration == .infinity)
        #expect(timing { $0.repeatCount = .infinity }.activeDuration == .infinity)
        #expect(timing(duration: 0).effectiveDuration == 0.25)
        #expect(timing(duration: -1).effectiveDuration == 0.25)
        #expect(timing(duration: .nan).effectiveDuration == 0.25)
    }

    @Test func progressIsTheKeptBasicTime() {
        let timings = [
            timing { $0.beginTime = 1; $0.fillMode = .both },
            timing(duration: 1) { $0.autoreverses = true; $0.repeatCount = 2.5; $0.fillMode = .forwards },
            timing { $0.speed = -1.5; $0.timeOffset = 0.7; $0.fillMode = .backwards },
        ]
        for t in timings {
            for time in stride(from: -1.0, through: 6, by: 0.125) {
                let p = t.progress(at: time), b = t.basicTime(at: time, isRemovedOnCompletion: false)
                #expect(p?.iteration == b?.iteration && p?.progress == b?.progress, "\(time)")
                #expect((p == nil) == (b == nil))
            }
        }
    }

    // MARK: Hostile inputs

    static let hostile: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 0, -0.0, 1e-300, -1, 0.5,
                                    .greatestFiniteMagnitude, .leastNonzeroMagnitude]

    /// Nil, or a basic time inside its stated ranges.
    private func isSane(_ b: BasicTime?, _ t: MediaTiming) -> Bool {
        guard let b else { return true }
        let d = t.effectiveDuration
        return !b.iteration.isNaN && b.progress >= 0 && b.progress <= 1 && b.time >= 0 && b.time <= d
    }

    @Test(arguments: 0..<7)
    func hostileParametersNeitherTrapNorLeaveTheirRanges(_ parameter: Int) {
        for value in Self.hostile {
            for autoreverses in [false, true] {
                for fill in [FillMode.removed, .both] {
                    var t = timing(duration: 1) { $0.autoreverses = autoreverses; $0.fillMode = fill; $0.repeatCount = 2 }
                    switch parameter {
                    case 0: t.beginTime = value
                    case 1: t.duration = value
                    case 2: t.speed = value
                    case 3: t.timeOffset = value
                    case 4: t.repeatCount = value
                    case 5: t.repeatDuration = value
                    default: break   // the time alone is hostile
                    }
                    for time in Self.hostile + [1, 2.5] {
                        for removed in [false, true] {
                            let b = t.basicTime(at: time, isRemovedOnCompletion: removed)
                            #expect(isSane(b, t), "parameter \(parameter) = \(value), t = \(time)")
                            _ = t.isFinished(at: time, isRemovedOnCompletion: removed)
                        }
                        _ = t.progress(at: time)
                    }
                    _ = t.activeDuration
                }
            }
        }
    }

    @Test func nonFiniteTimingsHaveNoEffect() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(timing { $0.beginTime = value; $0.fillMode = .both }.basicTime(at: 0, isRemovedOnCompletion: false) == nil)
            #expect(timing { $0.speed = value; $0.fillMode = .both }.basicTime(at: 0, isRemovedOnCompletion: false) == nil)
            #expect(timing { $0.timeOffset = value; $0.fillMode = .both }.basicTime(at: 0, isRemovedOnCompletion: false) == nil)
        }
        #expect(timing().basicTime(at: .nan, isRemovedOnCompletion: false) == nil)
        // NaN counts and durations fall back on their defaults.
        #expect(at(timing { $0.repeatCount = .nan }, 1, k: 0, u: 0.5))
        #expect(at(timing { $0.repeatDuration = .nan }, 1, k: 0, u: 0.5))
    }

    @Test func randomTimingsStayInRange() {
        var rng = SplitMix64(seed: 42)
        let pool: [Double] = Self.hostile + [0.1, 0.3, 2, 3.7, -2.5, 1e6, -1e-9]
        for _ in 0..<20_000 {
            var t = MediaTiming()
            t.beginTime = pool.randomElement(using: &rng)!
            t.duration = pool.randomElement(using: &rng)!
            t.speed = pool.randomElement(using: &rng)!
            t.timeOffset = pool.randomElement(using: &rng)!
            t.repeatCount = pool.randomElement(using: &rng)!
            t.repeatDuration = pool.randomElement(using: &rng)!
            t.autoreverses = Bool.random(using: &rng)
            t.fillMode = [FillMode.removed, .forwards, .backwards, .both].randomElement(using: &rng)!
            let time = pool.randomElement(using: &rng)!
            let removed = Bool.random(using: &rng)
            #expect(isSane(t.basicTime(at: time, isRemovedOnCompletion: removed), t), "\(t) at \(time)")
            _ = t.isFinished(at: time, isRemovedOnCompletion: removed)
        }
    }
}

/// A small deterministic generator for the tests (Vigna's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
