import Foundation

/// How a keyframe animation goes from one value to the next (CAAnimationCalculationMode). Raw values are Core
/// Animation's names (`kCAAnimationCubicPaced` is `"cubicPaced"`).
public enum CalculationMode: String, Sendable, CaseIterable {
    /// Straight between values; held until the next; at constant speed; along a Catmull-Rom (Kochanek–Bartels) spline; along the spline at constant speed.
    case linear, discrete, paced, cubic, cubicPaced
}

/// The arithmetic of keyframe animations, SEMANTICS-ANIMATION.md §7, on plain numbers: a keyframe value is a vector
/// of components (`[Double]`: a number is one component, a point two, a colour four), so that any interpolable value
/// can be mapped in and out.
public enum KeyframeMath {
    // MARK: Key times

    /// The key times §7 uses for `n` values:
    /// - `linear`, `cubic`: `keyTimes` when it is valid (`n` entries, first 0, last 1, each in [0, 1], finite, never
    ///   decreasing); otherwise evenly spaced `i/(n−1)`.
    /// - `discrete`: `n + 1` entries with the same rules (value `i` holds on `[k_i, k_{i+1})`), or `n` entries that obey
    ///   them except the last-is-1 rule, read as start times with 1 appended *(ours)*; otherwise `i/n`, `i` in `0…n`.
    /// - `paced`, `cubicPaced`: `keyTimes` is ignored; evenly spaced as for `linear`. (Paced key times come from the
    ///   distances between the values: `pacedKeyTimes(distances:)`.)
    ///
    /// `n ≤ 0` gives `[]`; one value gives `[0]` (`[0, 1]` discrete).
    public static func effectiveKeyTimes(_ keyTimes: [Double]?, count n: Int, mode: CalculationMode) -> [Double] {
        guard n > 0 else { return [] }
        func isValidPrefix(_ k: [Double]) -> Bool {
            guard k.first == 0 else { return false }
            var previous = 0.0
            for t in k {
                guard t.isFinite, t >= previous, t <= 1 else { return false }
                previous = t
            }
            return true
        }
        switch mode {
        case .discrete:
            if let k = keyTimes {
                if k.count == n + 1 && isValidPrefix(k) && k.last == 1 { return k }
                if k.count == n && isValidPrefix(k) { return k + [1] }
            }
            return (0...n).map { Double($0) / Double(n) }
        case .linear, .cubic:
            if let k = keyTimes, n > 1, k.count == n, isValidPrefix(k), k.last == 1 { return k }
            return evenlySpaced(n)
        case .paced, .cubicPaced:
            return evenlySpaced(n)
        }
    }

    /// `i/(n−1)` for `i` in `0..<n`, the last exactly 1; `[0]` for one value.
    static func evenlySpaced(_ n: Int) -> [Double] {
        guard n > 1 else { return n == 1 ? [0] : [] }
        return (0..<n).map { $0 == n - 1 ? 1 : Double($0) / Double(n - 1) }
    }

    // MARK: Segments

    /// The segment of (eased) progress `u`: `index` is the last `i` with `k_i ≤ u`, at most `keyTimes.count − 2` (that is
    /// `n − 2` for `n` values, `n − 1` for discrete's `n + 1` key times), and `local = (u − k_i)/(k_{i+1} − k_i)` in [0, 1]
    /// (`linear` and the others) or 0 (`discrete`: `index` is the value held). Equal neighbours jump: at `u = k_i = k_{i+1}`
    /// the later segment is taken, and a last segment of zero length has local 1.
    ///
    /// `u` is clamped to [0, 1] (NaN is 0) *(ours: keyframe values are not extrapolated)*. Fewer than two key times give
    /// `(0, 0)`. `keyTimes` is expected to be `effectiveKeyTimes`' result (sorted); it is searched by bisection.
    public static func segment(at u: Double, keyTimes: [Double], mode: CalculationMode) -> (index: Int, local: Double) {
        guard keyTimes.count >= 2 else { return (0, 0) }
        let u = u.isNaN ? 0 : min(max(u, 0), 1)
        // The last index with k_i ≤ u, or −1 when there is none.
        var low = -1, high = keyTimes.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if keyTimes[mid] <= u { low = mid } else { high = mid - 1 }
        }
        let i = min(max(low, 0), keyTimes.count - 2)
        if mode == .discrete { return (i, 0) }
        let k0 = keyTimes[i], k1 = keyTimes[i + 1]
        let span = k1 - k0
        let local = span > 0 ? (u - k0) / span : (u >= k0 ? 1 : 0)
        return (i, local.isNaN ? 0 : min(max(local, 0), 1))
    }

    // MARK: Cubic (Kochanek–Bartels)

    /// The point of the Kochanek–Bartels spline through `values` on segment `index` at local parameter `v` (§7's Hermite
    /// form `h00·P_i + h10·D_i + h01·P_{i+1} + h11·S_{i+1}`), component by component.
    ///
    /// Tangents at key `i` with tension `T`, continuity `C`, bias `B` (entry `i` of each array; missing entries and NaN
    /// are 0, values clamped to [−1, 1] *(ours)*):
    ///
    ///     D_i = (1−T)(1+C)(1+B)/2·(P_i − P_{i−1}) + (1−T)(1−C)(1−B)/2·(P_{i+1} − P_i)   outgoing
    ///     S_i = (1−T)(1−C)(1+B)/2·(P_i − P_{i−1}) + (1−T)(1+C)(1−B)/2·(P_{i+1} − P_i)   incoming
    ///
    /// then `D_i ·= 2Δ_i/(Δ_{i−1}+Δ_i)`, `S_i ·= 2Δ_{i−1}/(Δ_{i−1}+Δ_i)` with `Δ_i = k_{i+1} − k_i` (a factor of 1 when the
    /// sum is 0 or the key times are not one per value). Ends: `P_{−1} = P_0`, `P_n = P_{n−1}`, `Δ_{−1} = Δ_0`,
    /// `Δ_{n−1} = Δ_{n−2}`. All parameters 0 is Catmull–Rom.
    ///
    /// `index` is clamped to `0…n−2`; no values give `[]`, one value gives it. The result has the component count of the
    /// shorter of `P_i`, `P_{i+1}`; a neighbour with fewer components uses the segment's endpoint for the missing ones.
    public static func hermite(_ values: [[Double]], keyTimes: [Double], index: Int, local v: Double,
                               tension: [Double]?, continuity: [Double]?, bias: [Double]?) -> [Double] {
        let n = values.count
        guard n > 1 else { return values.first ?? [] }
        let i = min(max(index, 0), n - 2)
        func parameter(_ array: [Double]?, _ j: Int) -> Double {
            guard let array, j >= 0, j < array.count, !array[j].isNaN else { return 0 }
            return min(max(array[j], -1), 1)
        }
        // Δ_j with the end rules; nil when the key times do not describe the values.
        func delta(_ j: Int) -> Double? {
            guard keyTimes.count == n else { return nil }
            let j = min(max(j, 0), n - 2)
            return keyTimes[j + 1] - keyTimes[j]
        }
        func factor(_ numerator: Double?, _ a: Double?, _ b: Double?) -> Double {
            guard let numerator, let a, let b else { return 1 }
            let sum = a + b
            guard sum > 0, sum.isFinite else { return 1 }
            return 2 * numerator / sum
        }
        let pi = values[i], pj = values[i + 1]
        let previous = values[max(i - 1, 0)], next = values[min(i + 2, n - 1)]
        let (ti, ci, bi) = (parameter(tension, i), parameter(continuity, i), parameter(bias, i))
        let (tj, cj, bj) = (parameter(tension, i + 1), parameter(continuity, i + 1), parameter(bias, i + 1))
        // Outgoing tangent at i, incoming at i + 1, and their key-time scalings.
        let dInto = (1 - ti) * (1 + ci) * (1 + bi) / 2, dOut = (1 - ti) * (1 - ci) * (1 - bi) / 2
        let sInto = (1 - tj) * (1 - cj) * (1 + bj) / 2, sOut = (1 - tj) * (1 + cj) * (1 - bj) / 2
        let dScale = factor(delta(i), delta(i - 1), delta(i))
        let sScale = factor(delta(i), delta(i), delta(i + 1))
        let v = v.isNaN ? 0 : v
        let v2 = v * v, v3 = v2 * v
        let h00 = 2 * v3 - 3 * v2 + 1, h10 = v3 - 2 * v2 + v, h01 = -2 * v3 + 3 * v2, h11 = v3 - v2
        return (0..<min(pi.count, pj.count)).map { c in
            let p0 = pi[c], p1 = pj[c]
            let before = c < previous.count ? previous[c] : p0
            let after = c < next.count ? next[c] : p1
            let d = dScale * (dInto * (p0 - before) + dOut * (p1 - p0))
            let s = sScale * (sInto * (p1 - p0) + sOut * (after - p1))
            return h00 * p0 + h10 * d + h01 * p1 + h11 * s
        }
    }

    // MARK: Paced

    /// Key times from the distances between consecutive values (`n − 1` distances for `n` values): `k_i = L_i / L_total`
    /// with `L_i` the distance walked up to value `i`, the last exactly 1.
    ///
    /// §7 says "(even when L_total = 0)". We read it as "even spacing when L_total = 0", the fallback the same rule names
    /// for transforms and discrete types: values that do not move at all are spaced evenly, `i/(n−1)`; so is a list with a
    /// non-finite distance. Negative distances count by their size. No distances give `[0]`.
    public static func pacedKeyTimes(distances: [Double]) -> [Double] {
        let n = distances.count + 1
        let lengths = distances.map { abs($0) }
        guard lengths.allSatisfy(\.isFinite) else { return evenlySpaced(n) }
        // Scaled by the largest distance first, so that 1e308 + 1e308 does not overflow the total.
        guard let largest = lengths.max(), largest > 0 else { return evenlySpaced(n) }
        var cumulative = [0.0]
        cumulative.reserveCapacity(n)
        var sum = 0.0
        for l in lengths {
            sum += l / largest
            cumulative.append(sum)
        }
        return cumulative.enumerated().map { $0.offset == n - 1 ? 1 : min($0.element / sum, 1) }
    }

    /// The Euclidean distance between two component vectors (the shorter's count), without overflow of the squares:
    /// paced animations' distance for numbers, points, sizes, rects and colours.
    public static func distance(_ a: [Double], _ b: [Double]) -> Double {
        let differences = zip(a, b).map { abs($1 - $0) }
        guard let largest = differences.max(), largest > 0 else { return 0 }
        guard largest.isFinite else { return largest.isNaN ? .nan : .infinity }
        return largest * differences.reduce(0) { $0 + ($1 / largest) * ($1 / largest) }.squareRoot()
    }

    // MARK: Cubic paced

    /// The Kochanek–Bartels spline through some values, measured along its length so that progress can be walked at
    /// constant speed (`cubicPaced`). Each segment is sampled at `samplesPerSegment` equal steps of its local parameter and
    /// measured as the polyline through the samples (Euclidean in components); a progress maps to the local parameter by
    /// bisection on the cumulative lengths and linear interpolation between samples.
    public struct ArcLengthTable: Sendable {
        /// How many segments the spline has (values − 1).
        public let segmentCount: Int
        /// Samples measured along each segment.
        public let samplesPerSegment: Int
        /// The length walked at each sample, `segmentCount · samplesPerSegment + 1` entries from 0.
        public let cumulativeLengths: [Double]
        /// The evenly spaced key times to fall back on when the spline has no length.
        private let fallbackKeyTimes: [Double]

        /// `keyTimes` shape the spline (its tangents' scaling); `cubicPaced` ignores an animation's key times, so pass
        /// `effectiveKeyTimes(nil, count: n, mode: .cubicPaced)` (even spacing) to walk the curve `cubic` draws without key
        /// times. `samplesPerSegment` is at least 1 (64 by default).
        public init(values: [[Double]], keyTimes: [Double], tension: [Double]?, continuity: [Double]?, bias: [Double]?,
                    samplesPerSegment: Int = 64) {
            let samples = max(samplesPerSegment, 1)
            let segments = max(values.count - 1, 0)
            self.segmentCount = segments
            self.samplesPerSegment = samples
            self.fallbackKeyTimes = KeyframeMath.evenlySpaced(values.count)
            var lengths = [0.0]
            lengths.reserveCapacity(segments * samples + 1)
            var total = 0.0
            for s in 0..<segments {
                var previous = values[s]
                for j in 1...samples {
                    let point = KeyframeMath.hermite(values, keyTimes: keyTimes, index: s, local: Double(j) / Double(samples),
                                                     tension: tension, continuity: continuity, bias: bias)
                    let step = KeyframeMath.distance(previous, point)
                    total += step.isFinite ? step : 0
                    lengths.append(total)
                    previous = point
                }
            }
            cumulativeLengths = lengths
        }

        /// The spline's whole length.
        public var totalLength: Double { cumulativeLengths.last ?? 0 }

        /// The segment and local spline parameter at which a fraction `u` (clamped to [0, 1]) of the length has been
        /// walked. A spline of zero (or non-finite) length falls back on even key times, as `segment(at:)` with them.
        public func segment(at u: Double) -> (index: Int, local: Double) {
            guard segmentCount > 0 else { return (0, 0) }
            let total = totalLength
            let u = u.isNaN ? 0 : min(max(u, 0), 1)
            guard total > 0, total.isFinite else { return KeyframeMath.segment(at: u, keyTimes: fallbackKeyTimes, mode: .linear) }
            let target = u * total
            if target <= 0 { return (0, 0) }
            // The first sample whose length reaches the target (one exists: the last is the total).
            var low = 1, high = cumulativeLengths.count - 1
            while low < high {
                let mid = (low + high) / 2
                if cumulativeLengths[mid] >= target { high = mid } else { low = mid + 1 }
            }
            let before = cumulativeLengths[low - 1], after = cumulativeLengths[low]
            let within = after > before ? (target - before) / (after - before) : 1
            let position = Double(low - 1) + min(max(within, 0), 1)   // in samples from the start
            let index = min((low - 1) / samplesPerSegment, segmentCount - 1)
            let local = (position - Double(index * samplesPerSegment)) / Double(samplesPerSegment)
            return (index, min(max(local, 0), 1))
        }
    }

    /// `cubicPaced` in one call: the segment and local parameter at progress `u` along the Kochanek–Bartels spline through
    /// `values` (shaped with evenly spaced key times) walked at constant speed. Builds the table each time: an animation
    /// evaluated every frame should keep an `ArcLengthTable` instead.
    public static func cubicPacedParameter(at u: Double, values: [[Double]], tension: [Double]?, continuity: [Double]?,
                                           bias: [Double]?, samplesPerSegment: Int = 64) -> (index: Int, local: Double) {
        ArcLengthTable(values: values, keyTimes: evenlySpaced(values.count), tension: tension, continuity: continuity,
                       bias: bias, samplesPerSegment: samplesPerSegment).segment(at: u)
    }
}
