import Foundation
@testable import LayerKit
import Testing

// SEMANTICS-ANIMATION.md §7: KeyframeMath.

private func near(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-12) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
}

private func near(_ a: (index: Int, local: Double), _ index: Int, _ local: Double, _ tolerance: Double = 1e-12) -> Bool {
    a.index == index && abs(a.local - local) <= tolerance
}

@Suite("Keyframe maths (§7)")
struct KeyframeMathTests {
    // MARK: Key times

    @Test func validKeyTimesAreKeptForLinearAndCubic() {
        for mode in [CalculationMode.linear, .cubic] {
            #expect(KeyframeMath.effectiveKeyTimes([0, 0.2, 1], count: 3, mode: mode) == [0, 0.2, 1])
            #expect(KeyframeMath.effectiveKeyTimes([0, 0.5, 0.5, 1], count: 4, mode: mode) == [0, 0.5, 0.5, 1])
        }
    }

    @Test func invalidKeyTimesFallBackOnEvenSpacing() {
        let even3: [Double] = [0, 0.5, 1]
        let invalid: [[Double]?] = [nil, [], [0, 1], [0, 0.5, 0.7, 1], [0.1, 0.5, 1], [0, 0.5, 0.9], [0, 0.6, 0.5],
                                    [0, -0.1, 1], [0, 1.2, 1], [0, .nan, 1], [0, .infinity, 1]]
        for mode in [CalculationMode.linear, .cubic] {
            for k in invalid {
                #expect(KeyframeMath.effectiveKeyTimes(k, count: 3, mode: mode) == even3, "\(String(describing: k))")
            }
        }
        #expect(KeyframeMath.effectiveKeyTimes(nil, count: 4, mode: .linear) == [0, 1.0 / 3, 2.0 / 3, 1])
        #expect(KeyframeMath.effectiveKeyTimes(nil, count: 1, mode: .linear) == [0])
        #expect(KeyframeMath.effectiveKeyTimes([0, 1], count: 0, mode: .linear) == [])
    }

    @Test func discreteKeyTimesHaveOneMoreEntry() {
        #expect(KeyframeMath.effectiveKeyTimes([0, 0.2, 0.5, 1], count: 3, mode: .discrete) == [0, 0.2, 0.5, 1])
        // n entries are start times, 1 appended (ours).
        #expect(KeyframeMath.effectiveKeyTimes([0, 0.2, 0.5], count: 3, mode: .discrete) == [0, 0.2, 0.5, 1])
        #expect(KeyframeMath.effectiveKeyTimes([0, 0.5, 1], count: 3, mode: .discrete) == [0, 0.5, 1, 1])
        // Invalid: i/n.
        let even: [Double] = [0, 1.0 / 3, 2.0 / 3, 1]
        for k: [Double]? in [nil, [0, 0.2, 0.5, 0.9], [0.1, 0.2, 0.5], [0, 0.5, 0.2], [0, 1], [0, 0.2, 0.4, 0.6, 1], [0, .nan, 1]] {
            #expect(KeyframeMath.effectiveKeyTimes(k, count: 3, mode: .discrete) == even, "\(String(describing: k))")
        }
        #expect(KeyframeMath.effectiveKeyTimes(nil, count: 1, mode: .discrete) == [0, 1])
    }

    @Test func pacedModesIgnoreKeyTimes() {
        for mode in [CalculationMode.paced, .cubicPaced] {
            #expect(KeyframeMath.effectiveKeyTimes([0, 0.2, 1], count: 3, mode: mode) == [0, 0.5, 1])
        }
        #expect(CalculationMode(rawValue: "cubicPaced") == .cubicPaced)
    }

    // MARK: Segments

    @Test func theSegmentIsTheLastKeyTimeReached() {
        let k: [Double] = [0, 0.25, 1]
        #expect(near(KeyframeMath.segment(at: 0, keyTimes: k, mode: .linear), 0, 0))
        #expect(near(KeyframeMath.segment(at: 0.125, keyTimes: k, mode: .linear), 0, 0.5))
        #expect(near(KeyframeMath.segment(at: 0.25, keyTimes: k, mode: .linear), 1, 0))
        #expect(near(KeyframeMath.segment(at: 0.625, keyTimes: k, mode: .linear), 1, 0.5))
        #expect(near(KeyframeMath.segment(at: 1, keyTimes: k, mode: .linear), 1, 1))
        // Outside [0, 1] (and NaN): clamped.
        #expect(near(KeyframeMath.segment(at: -1, keyTimes: k, mode: .cubic), 0, 0))
        #expect(near(KeyframeMath.segment(at: 2, keyTimes: k, mode: .cubic), 1, 1))
        #expect(near(KeyframeMath.segment(at: .nan, keyTimes: k, mode: .cubic), 0, 0))
        #expect(near(KeyframeMath.segment(at: 0.5, keyTimes: [0], mode: .linear), 0, 0))
    }

    @Test func equalNeighboursJump() {
        let k: [Double] = [0, 0.5, 0.5, 1]
        let before = KeyframeMath.segment(at: 0.4999, keyTimes: k, mode: .linear)
        #expect(before.index == 0 && abs(before.local - 0.9998) < 1e-12)
        #expect(near(KeyframeMath.segment(at: 0.5, keyTimes: k, mode: .linear), 2, 0))
        #expect(near(KeyframeMath.segment(at: 0.75, keyTimes: k, mode: .linear), 2, 0.5))
        // A last segment of zero length has been jumped at its time: the last value.
        #expect(near(KeyframeMath.segment(at: 1, keyTimes: [0, 1, 1], mode: .linear), 1, 1))
        #expect(near(KeyframeMath.segment(at: 0.5, keyTimes: [0, 1, 1], mode: .linear), 0, 0.5))
    }

    @Test func discreteHoldsAValue() {
        let k: [Double] = [0, 0.2, 0.5, 1]   // three values
        let held = [(0.0, 0), (0.19, 0), (0.2, 1), (0.49, 1), (0.5, 2), (0.7, 2), (1, 2)]
        for (u, index) in held {
            #expect(near(KeyframeMath.segment(at: u, keyTimes: k, mode: .discrete), index, 0), "\(u)")
        }
        // n key times with 1 appended: the last value only at the very end.
        let appended: [Double] = [0, 0.5, 1, 1]
        #expect(KeyframeMath.segment(at: 0.99, keyTimes: appended, mode: .discrete).index == 1)
        #expect(KeyframeMath.segment(at: 1, keyTimes: appended, mode: .discrete).index == 2)
    }

    @Test func bisectionAgreesWithALinearScan() {
        var rng = SplitMix64(seed: 21)
        for _ in 0..<300 {
            let n = Int.random(in: 2...40, using: &rng)
            var k = (0..<n).map { _ in (Double.random(in: 0...1, using: &rng) * 8).rounded() / 8 }.sorted()
            k[0] = 0; k[n - 1] = 1
            let u = (Double.random(in: 0...1, using: &rng) * 16).rounded() / 16   // often exactly on a key time
            var expected = 0
            for i in 0..<n where k[i] <= u { expected = i }
            expected = min(expected, n - 2)
            #expect(KeyframeMath.segment(at: u, keyTimes: k, mode: .linear).index == expected, "\(k) at \(u)")
            #expect(KeyframeMath.segment(at: u, keyTimes: k, mode: .discrete).index == expected, "\(k) at \(u)")
        }
    }

    // MARK: Cubic

    private let line: [[Double]] = [[0], [1], [3], [7]]
    private let even4: [Double] = [0, 1.0 / 3, 2.0 / 3, 1]

    @Test func allZeroIsCatmullRom() {
        // Inner segment: ½(2P₁ + (P₂−P₀)v + (2P₀−5P₁+4P₂−P₃)v² + (−P₀+3P₁−3P₂+P₃)v³) at v = ½ is 1.8125.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: nil, continuity: nil, bias: nil), [1.8125]))
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: [0, 0, 0, 0], continuity: [0], bias: []),
                     [1.8125]))
        // End segment (P₋₁ = P₀): D₀ = ½, S₁ = 3/2 → 0.125·½ + ½ − 0.125·3/2 = 0.375.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 0, local: 0.5, tension: nil, continuity: nil, bias: nil), [0.375]))
        // Last segment (P₄ = P₃): D₂ = 3, S₃ = 2 → 1.5 + 0.375 + 3.5 − 0.25 = 5.125.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 2, local: 0.5, tension: nil, continuity: nil, bias: nil), [5.125]))
        // Per component.
        let plane = line.map { [$0[0], 10 * $0[0]] }
        #expect(near(KeyframeMath.hermite(plane, keyTimes: even4, index: 1, local: 0.5, tension: nil, continuity: nil, bias: nil),
                     [1.8125, 18.125]))
    }

    @Test func theSplinePassesThroughItsValues() {
        var rng = SplitMix64(seed: 22)
        for _ in 0..<100 {
            let values = (0..<5).map { _ in [Double.random(in: -10...10, using: &rng), Double.random(in: -10...10, using: &rng)] }
            let t = (0..<5).map { _ in Double.random(in: -1...1, using: &rng) }
            let c = (0..<5).map { _ in Double.random(in: -1...1, using: &rng) }
            let b = (0..<5).map { _ in Double.random(in: -1...1, using: &rng) }
            for i in 0..<4 {
                let start = KeyframeMath.hermite(values, keyTimes: [0, 0.1, 0.5, 0.6, 1], index: i, local: 0, tension: t, continuity: c, bias: b)
                let end = KeyframeMath.hermite(values, keyTimes: [0, 0.1, 0.5, 0.6, 1], index: i, local: 1, tension: t, continuity: c, bias: b)
                #expect(near(start, values[i], 1e-12) && near(end, values[i + 1], 1e-12))
            }
        }
    }

    @Test func tensionContinuityAndBiasShapeTheTangents() {
        // Tension 1: no tangents, the Hermite blend of the two ends (the midpoint at ½).
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: [1, 1, 1, 1], continuity: nil, bias: nil), [2]))
        // Bias 1 at key 1: D₁ = P₁ − P₀ = 1; S₂ = 3 → 0.5 + 0.125 + 1.5 − 0.375 = 1.75.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: nil, continuity: nil, bias: [0, 1]), [1.75]))
        // Continuity −1 at key 2: S₂ = P₂ − P₁ = 2; D₁ = 1.5 → 0.5 + 0.1875 + 1.5 − 0.25 = 1.9375.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: nil, continuity: [0, 0, -1], bias: nil), [1.9375]))
        // Outside [−1, 1] is clamped; NaN is 0.
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: [5, 5, 5, 5], continuity: nil, bias: nil), [2]))
        #expect(near(KeyframeMath.hermite(line, keyTimes: even4, index: 1, local: 0.5, tension: [.nan, .nan, .nan], continuity: nil, bias: nil),
                     [1.8125]))
    }

    @Test func unequalKeyTimesScaleTheTangents() {
        // Values 0, 1, 3 at 0, ¼, 1: Δ₀ = ¼, Δ₁ = ¾.
        let values: [[Double]] = [[0], [1], [3]], k: [Double] = [0, 0.25, 1]
        // Segment 0: D₀ = ½ (end), S₁ = 3/2 · 2Δ₀/(Δ₀+Δ₁) = ¾ → 0.0625 + 0.5 − 0.09375.
        #expect(near(KeyframeMath.hermite(values, keyTimes: k, index: 0, local: 0.5, tension: nil, continuity: nil, bias: nil), [0.46875]))
        // Segment 1: D₁ = 3/2 · 2Δ₁/(Δ₀+Δ₁) = 9/4, S₂ = 1 (end) → 0.5 + 0.28125 + 1.5 − 0.125.
        #expect(near(KeyframeMath.hermite(values, keyTimes: k, index: 1, local: 0.5, tension: nil, continuity: nil, bias: nil), [2.15625]))
        // Key times that are not one per value: no scaling.
        #expect(near(KeyframeMath.hermite(values, keyTimes: [0, 1], index: 0, local: 0.5, tension: nil, continuity: nil, bias: nil),
                     [0.0625 + 0.5 - 0.1875]))
    }

    @Test func oddShapesOfValuesDoNotTrap() {
        #expect(KeyframeMath.hermite([], keyTimes: [], index: 0, local: 0.5, tension: nil, continuity: nil, bias: nil) == [])
        #expect(KeyframeMath.hermite([[4, 5]], keyTimes: [0], index: 3, local: 0.5, tension: nil, continuity: nil, bias: nil) == [4, 5])
        let ragged: [[Double]] = [[0, 0, 9], [1, 1], [2, 2, 2], []]
        #expect(KeyframeMath.hermite(ragged, keyTimes: even4, index: 0, local: 0.5, tension: nil, continuity: nil, bias: nil).count == 2)
        #expect(KeyframeMath.hermite(ragged, keyTimes: even4, index: 99, local: 0.5, tension: nil, continuity: nil, bias: nil) == [])
        #expect(KeyframeMath.hermite(ragged, keyTimes: even4, index: -5, local: .nan, tension: nil, continuity: nil, bias: nil) == [0, 0])
    }

    // MARK: Paced

    @Test func pacedKeyTimesFollowTheDistance() {
        #expect(near(KeyframeMath.pacedKeyTimes(distances: [1, 3]), [0, 0.25, 1]))
        #expect(near(KeyframeMath.pacedKeyTimes(distances: [2, 2, 4]), [0, 0.25, 0.5, 1]))
        #expect(near(KeyframeMath.pacedKeyTimes(distances: [0, 5]), [0, 0, 1]))   // a value that does not move: a jump
        #expect(near(KeyframeMath.pacedKeyTimes(distances: [-1, 3]), [0, 0.25, 1]))
        #expect(near(KeyframeMath.pacedKeyTimes(distances: [1e308, 1e308]), [0, 0.5, 1]))
        // Nothing moves, or a distance is not a number: even spacing.
        #expect(KeyframeMath.pacedKeyTimes(distances: [0, 0]) == [0, 0.5, 1])
        #expect(KeyframeMath.pacedKeyTimes(distances: [1, .nan, 1]) == [0, 1.0 / 3, 2.0 / 3, 1])
        #expect(KeyframeMath.pacedKeyTimes(distances: [1, .infinity]) == [0, 0.5, 1])
        #expect(KeyframeMath.pacedKeyTimes(distances: []) == [0])
        // The last is exactly 1 and they never decrease.
        let tenths = KeyframeMath.pacedKeyTimes(distances: Array(repeating: 0.1, count: 10))
        #expect(tenths.last == 1 && zip(tenths, tenths.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func distanceIsEuclideanOverComponents() {
        #expect(KeyframeMath.distance([0, 0], [3, 4]) == 5)
        #expect(KeyframeMath.distance([1], [-2]) == 3)
        #expect(abs(KeyframeMath.distance([0, 0], [3e300, 4e300]) / 5e300 - 1) < 1e-15)
        #expect(KeyframeMath.distance([0, 0, 7], [3, 4]) == 5)
        #expect(KeyframeMath.distance([], [1]) == 0)
    }

    // MARK: Cubic paced

    /// The arc length of the spline from its start to (index, local), by a fine polyline.
    private func arcLength(_ values: [[Double]], to target: (index: Int, local: Double)) -> Double {
        let k = KeyframeMath.effectiveKeyTimes(nil, count: values.count, mode: .cubicPaced)
        var total = 0.0
        for segment in 0...target.index {
            let end = segment == target.index ? target.local : 1
            let steps = 4000
            var previous = KeyframeMath.hermite(values, keyTimes: k, index: segment, local: 0, tension: nil, continuity: nil, bias: nil)
            for j in 1...steps {
                let p = KeyframeMath.hermite(values, keyTimes: k, index: segment, local: end * Double(j) / Double(steps),
                                             tension: nil, continuity: nil, bias: nil)
                total += KeyframeMath.distance(previous, p)
                previous = p
            }
        }
        return total
    }

    @Test func cubicPacedWalksTheSplineAtConstantSpeed() {
        let values: [[Double]] = [[0, 0], [1, 2], [3, 3], [4, 0], [10, 1]]
        let table = KeyframeMath.ArcLengthTable(values: values, keyTimes: KeyframeMath.effectiveKeyTimes(nil, count: 5, mode: .cubicPaced),
                                                tension: nil, continuity: nil, bias: nil)
        let total = arcLength(values, to: (3, 1))
        #expect(abs(table.totalLength - total) < 1e-3 * total)
        for u in stride(from: 0.0, through: 1, by: 0.05) {
            let s = table.segment(at: u)
            #expect(abs(arcLength(values, to: s) - u * total) < 2e-3 * total, "u = \(u) → \(s)")
            let once = KeyframeMath.cubicPacedParameter(at: u, values: values, tension: nil, continuity: nil, bias: nil)
            #expect(once.index == s.index && once.local == s.local)
        }
        #expect(near(table.segment(at: 0), 0, 0))
        #expect(near(table.segment(at: 1), 3, 1))
        #expect(near(table.segment(at: .nan), 0, 0))
        // On a straight, evenly spaced line the interior is already uniform; the ends are not (their tangents are halved),
        // and pacing makes the whole walk uniform: position 3u.
        let straight: [[Double]] = [[0], [1], [2], [3]]
        let k = KeyframeMath.effectiveKeyTimes(nil, count: 4, mode: .cubicPaced)
        for u in stride(from: 0.0, through: 1, by: 0.1) {
            let s = KeyframeMath.cubicPacedParameter(at: u, values: straight, tension: nil, continuity: nil, bias: nil)
            let x = KeyframeMath.hermite(straight, keyTimes: k, index: s.index, local: s.local, tension: nil, continuity: nil, bias: nil)[0]
            #expect(abs(x - 3 * u) < 1e-3, "u = \(u)")
        }
    }

    @Test func aSplineWithoutLengthFallsBackOnEvenTimes() {
        let still: [[Double]] = [[2, 2], [2, 2], [2, 2]]
        let table = KeyframeMath.ArcLengthTable(values: still, keyTimes: [0, 0.5, 1], tension: nil, continuity: nil, bias: nil)
        #expect(table.totalLength == 0)
        #expect(near(table.segment(at: 0.25), 0, 0.5))
        #expect(near(table.segment(at: 0.5), 1, 0))
        let one = KeyframeMath.ArcLengthTable(values: [[1]], keyTimes: [0], tension: nil, continuity: nil, bias: nil)
        #expect(near(one.segment(at: 0.5), 0, 0))
        let huge = KeyframeMath.ArcLengthTable(values: [[0], [.infinity], [1]], keyTimes: [0, 0.5, 1], tension: nil, continuity: nil, bias: nil,
                                               samplesPerSegment: 0)
        let s = huge.segment(at: 0.3)
        #expect(s.index >= 0 && s.index <= 1 && s.local >= 0 && s.local <= 1)
    }
}
