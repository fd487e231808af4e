/// A function sampled once into a table and read back at the nearest sample: the colour converter's curves
/// (transfer functions, the tone curve) cost one load a pixel instead of `pow`s (in the AVX2 kernel one gather for
/// eight pixels; interpolating took two, and the gathers are most of the kernel's time).
///
/// The samples live in memory the table's owner frees (`deallocate()`), not in an array: a read in the hot loop
/// then costs no reference counting (an array read through a class property retains and releases it each time).
struct LinearTable: @unchecked Sendable {
    private let values: UnsafeMutablePointer<Float>
    private let scale: Float

    /// The samples and the scale from 0…1 to an index, as the AVX2 kernel reads them (`lp_video_color`).
    var samples: UnsafePointer<Float> { UnsafePointer(values) }
    var indexScale: Float { scale }

    /// `f` sampled at `count` + 1 evenly spaced points of 0…1.
    init(count: Int, _ f: (Double) -> Double) {
        values = .allocate(capacity: count + 1)
        for i in 0...count { values[i] = Float(f(Double(i) / Double(count))) }
        scale = Float(count)
    }

    func deallocate() { values.deallocate() }

    /// f(x) for x in 0…1 (clamped), at the nearest sample (off by at most half a step: 1/8192 of 0…1 for 4096).
    @inline(__always) func callAsFunction(_ x: Float) -> Float {
        values[Int(min(max(x, 0), 1) * scale + 0.5)]
    }
}

/// A function of a positive value sampled evenly in log₂ (256 points an octave over 2⁻²⁰…2⁸), indexed by the float's
/// own bits (exponent and top mantissa bits, rounded to the nearest sample: at most 0.14 % away in x): as fine for
/// dark values as for bright ones, with no `log` a pixel. Values below the range read f(2⁻²⁰), above it f(2⁸). Memory as `LinearTable`'s.
struct LogTable: @unchecked Sendable {
    static let lowExponent = -20, highExponent = 8
    static let mantissaShift: UInt32 = 15  // 23 − 8 bits: 256 steps an octave
    static let firstBits = UInt32(127 + lowExponent) << 23
    static let lastBits = UInt32(127 + highExponent) << 23
    private let values: UnsafeMutablePointer<Float>

    /// The samples, as the AVX2 kernel reads them (`lp_video_color`, with the bits and shift above).
    var samples: UnsafePointer<Float> { UnsafePointer(values) }

    init(_ f: (Double) -> Double) {
        let count = Int((Self.lastBits - Self.firstBits) >> Self.mantissaShift)
        values = .allocate(capacity: count + 1)
        for i in 0...count { values[i] = Float(f(Double(Float(bitPattern: Self.firstBits + (UInt32(i) << Self.mantissaShift))))) }
    }

    func deallocate() { values.deallocate() }

    /// f(x) for x ≥ 0 (a negative x has the sign bit set and clamps to the top: callers pass non-negative values).
    @inline(__always) func callAsFunction(_ x: Float) -> Float {
        let bits = min(max(x.bitPattern, Self.firstBits), Self.lastBits - 1)
        return values[Int((bits - Self.firstBits + (1 << (Self.mantissaShift - 1))) >> Self.mantissaShift)]
    }
}
