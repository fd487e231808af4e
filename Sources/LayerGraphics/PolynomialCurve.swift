import Foundation

/// A function as 32 cubic pieces, read back by evaluating the piece a value falls in: the colour converter's curves
/// where the CPU has AVX-512, whose two-register permutes pick a piece's four coefficients for eight pixels at a time
/// from registers (one instruction each) where a table needs a gather, which costs as much as the rest of the chain.
/// Each piece is fitted at the Chebyshev nodes of its interval (within a few millionths for the transfer functions;
/// `PolynomialCurveTests` states each curve's error).
///
/// The pieces cover 0…1 evenly (`unit`: transfer functions of a code value), or octaves from 2^`firstExponent`, one
/// or two pieces an octave (`octaves`: functions of light, as fine for dark values as for bright ones), indexed by the
/// float's own bits. Values below the range read its first value, above it its last.
/// Memory as `LinearTable`'s: freed by the owner (`deallocate()`).
struct PolynomialCurve: @unchecked Sendable {
    enum Domain: Equatable {
        case unit
        case octaves(firstExponent: Int, perOctave: Int)
    }
    static let pieces = 32

    let domain: Domain
    /// c₀ of the 32 pieces, then c₁, c₂, c₃: a piece's value is ((c₃·t + c₂)·t + c₁)·t + c₀ for t in 0…1 across it.
    private let values: UnsafeMutablePointer<Float>
    /// `octaves`: the bits of the first value, the last bits + 1, and the shift from bits past the first to a piece.
    let firstBits: UInt32, endBits: UInt32, shift: UInt32

    /// The coefficients as the AVX-512 kernel reads them (`lp_video_color`).
    var coefficients: UnsafePointer<Float> { UnsafePointer(values) }

    init(_ domain: Domain, _ f: (Double) -> Double) {
        self.domain = domain
        if case .octaves(let e, let perOctave) = domain {
            precondition(perOctave == 1 || perOctave == 2, "one or two pieces an octave")
            shift = perOctave == 1 ? 23 : 22
            firstBits = UInt32(127 + e) << 23
            endBits = firstBits + UInt32(Self.pieces) << shift
        } else {
            (firstBits, endBits, shift) = (0, 0, 0)
        }
        values = .allocate(capacity: 4 * Self.pieces)
        for piece in 0..<Self.pieces {
            let c = Self.fitCubic { t in f(Self.argument(domain, piece: piece, t: t)) }
            for k in 0..<4 { values[k * Self.pieces + piece] = Float(c[k]) }
        }
    }

    func deallocate() { values.deallocate() }

    /// The argument at position t (0…1) across `piece`.
    static func argument(_ domain: Domain, piece: Int, t: Double) -> Double {
        switch domain {
        case .unit: (Double(piece) + t) / Double(pieces)
        case .octaves(let e, let perOctave):
            pow(2, Double(e + piece / perOctave)) * (1 + (Double(piece % perOctave) + t) / Double(perOctave))
        }
    }

    /// The cubic in t through `g` at the four Chebyshev nodes of 0…1 (near the best cubic there): c₀…c₃.
    static func fitCubic(_ g: (Double) -> Double) -> [Double] {
        let nodes = (0..<4).map { j in (1 - cos(Double(2 * j + 1) * .pi / 8)) / 2 }
        // Vandermonde system, solved by Gaussian elimination with partial pivoting (4 × 4).
        var a = nodes.map { t in [1, t, t * t, t * t * t, g(t)] }
        for col in 0..<4 {
            let pivot = (col..<4).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            a.swapAt(col, pivot)
            for r in 0..<4 where r != col {
                let factor = a[r][col] / a[col][col]
                for c in col..<5 { a[r][c] -= factor * a[col][c] }
            }
        }
        return (0..<4).map { a[$0][4] / a[$0][$0] }
    }

    /// The piece x falls in and its position across it, as the kernel computes them (exact float operations).
    @inline(__always) func locate(_ x: Float) -> (piece: Int, t: Float) {
        switch domain {
        case .unit:
            let p = min(max(x, 0), 1) * Float(Self.pieces)
            let piece = min(Int32(p), Int32(Self.pieces - 1))
            return (Int(piece), p - Float(piece))
        case .octaves:
            // A negative x has the sign bit set and clamps to the top: callers pass non-negative values.
            let offset = min(max(x.bitPattern, firstBits), endBits - 1) - firstBits
            return (Int(offset >> shift), Float(offset & (1 << shift - 1)) * (shift == 23 ? 1 / Float(1 << 23) : 1 / Float(1 << 22)))
        }
    }

    /// f(x): the piece's cubic by Horner's rule, each step a fused multiply-add, as the kernel computes it.
    @inline(__always) func callAsFunction(_ x: Float) -> Float {
        let (i, t) = locate(x)
        let n = Self.pieces
        var v = values[2 * n + i].addingProduct(values[3 * n + i], t)
        v = values[n + i].addingProduct(v, t)
        return values[i].addingProduct(v, t)
    }
}
