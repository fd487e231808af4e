import CKernels
import LayerGraphics

/// Bilinear resampling of one 8-bit plane in fixed point, row by row, in two separable steps: the two source rows
/// a output row falls between are blended into a 16-bit line (`vertical`), then each output column is blended from
/// two neighbours of that line (`horizontal`). Weights have 7 bits down (0…128: the line must fit 16-bit lanes)
/// and 8 across (0…256); taps follow `Taps` (the compositor's centre rule and edge clamping). Against the float
/// sampler a sample is off by at most two codes, on noise (a code of each weight's rounding and the final one),
/// and by less than one on pictures.
///
/// The AVX2 steps are CKernels' `lp_resample_vertical_avx2` and `lp_resample_horizontal_avx2`; the Swift steps
/// below are their twins (bit for bit, the reference in the tests) and do the columns the vector steps leave.
struct PlaneResampler {
    let plane: ScalarPlane
    /// Output column x samples the source at a·(x + ½) + c, row y at b·(y + ½) + d (texel units, centre rule).
    let a: Double, c: Double, b: Double, d: Double
    /// The output columns the taps are for.
    let x0: Int, x1: Int
    /// Per output column: left tap, and the two weights of 0…256 (left in the low 16 bits, right in the high ones).
    private var index: [Int32], weights: [Int32]
    /// The blended line: the plane's width and 32 more, zero (the AVX2 step reads up to 17 past a left tap).
    private var line: [Int16]
    private let useAVX2: Bool

    init(plane: ScalarPlane, a: Double, c: Double, b: Double, d: Double, columns x0: Int, _ x1: Int,
         avx2: Bool = avx2KernelsEnabled) {
        self.plane = plane; self.a = a; self.c = c; self.b = b; self.d = d; self.x0 = x0; self.x1 = x1
        useAVX2 = avx2
        let n = max(x1 - x0, 0)
        index = [Int32](repeating: 0, count: n)
        weights = [Int32](repeating: 0, count: n)
        for k in 0..<n {
            let (i, w) = Self.taps(a * (Double(x0 + k) + 0.5) + c, count: plane.width, steps: 256)
            index[k] = Int32(i)
            weights[k] = Int32(256 - w) | Int32(w) << 16
        }
        line = [Int16](repeating: 0, count: plane.width + 32)
    }

    /// The left tap and the right tap's weight (0…steps) at position `p`, by `Taps`' rule.
    @inline(__always)
    static func taps(_ p: Double, count: Int, steps: Float = 128) -> (Int, Int) {
        let t = Taps(Float(p), count: count)
        return (t.i0, Int((t.f * steps).rounded()))
    }

    /// Writes output row `y`'s columns `from ..< to` (inside the taps' columns) at `dst` (column `from` first), of
    /// `other` when given: a plane of the same size, which shares the taps (a picture's Cr with its Cb).
    mutating func resampleRow(_ y: Int, columns from: Int, _ to: Int, into dst: UnsafeMutablePointer<UInt8>,
                              of other: ScalarPlane? = nil) {
        guard from < to else { return }
        let plane = other ?? plane
        assert(plane.width == self.plane.width && plane.height == self.plane.height, "the taps are for another size")
        let (top, w) = Self.taps(b * (Double(y) + 0.5) + d, count: plane.height)
        let bottom = min(top + 1, plane.height - 1)
        let base = plane.base.assumingMemoryBound(to: UInt8.self)
        let width = plane.width, useAVX2 = useAVX2
        line.withUnsafeMutableBufferPointer { line in
            Self.vertical(line.baseAddress!, base + top * plane.bytesPerRow, base + bottom * plane.bytesPerRow,
                          count: width, weight: w, avx2: useAVX2)
            index.withUnsafeBufferPointer { index in
                weights.withUnsafeBufferPointer { weights in
                    Self.horizontal(dst, line.baseAddress!, index: index.baseAddress! + (from - x0),
                                    weights: weights.baseAddress! + (from - x0), count: to - from, avx2: useAVX2)
                }
            }
        }
    }

    /// line[i] = top[i]·(128 − weight) + bottom[i]·weight for `count` columns.
    @inline(__always)
    static func vertical(_ line: UnsafeMutablePointer<Int16>, _ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>,
                         count: Int, weight: Int, avx2: Bool) {
        var i = avx2 ? lp_resample_vertical_avx2(line, top, bottom, count, Int32(weight)) : 0
        let wt = Int16(128 - weight), wb = Int16(weight)
        while i < count {
            line[i] = Int16(top[i]) &* wt &+ Int16(bottom[i]) &* wb
            i += 1
        }
    }

    /// dst[i] = (line[index[i]]·w₀ + line[index[i] + 1]·w₁ + 2¹⁴) >> 15 for `count` columns.
    @inline(__always)
    static func horizontal(_ dst: UnsafeMutablePointer<UInt8>, _ line: UnsafePointer<Int16>, index: UnsafePointer<Int32>,
                           weights: UnsafePointer<Int32>, count: Int, avx2: Bool) {
        var i = avx2 ? lp_resample_horizontal_avx2(dst, line, index, weights, count) : 0
        while i < count {
            let k = Int(index[i]), w = weights[i]
            let sum = Int32(line[k]) &* (w & 0xffff) &+ Int32(line[k + 1]) &* (w >> 16)
            dst[i] = UInt8(truncatingIfNeeded: (sum &+ (1 << 14)) >> 15)
            i += 1
        }
    }
}

/// Chroma of one matrix re-expressed in another, for 8-bit codes of one range: converting to RGB and back changes
/// luma by a linear function of the chroma alone (the matrices' luma weights sum to 1) and chroma by a linear mix
/// of the two chroma samples. So a picture changes matrix by planes at its chroma's size: the luma's change (`dy`,
/// twice the change around 128: half-code steps, ±63 codes) is resampled beside the luma and added, and the mixed
/// chroma replaces the chroma. Bilinear resampling commutes with the linear maps, so this is the per-pixel change
/// up to rounding (and without the clamp of RGB to its cube that a round trip applies out of gamut).
struct MatrixChange {
    /// (dy, Cb, Cr) weights of (Cb − 128, Cr − 128) × 2¹² (CKernels' `lp_chroma_matrix_avx2`), and the same
    /// widened for the Swift steps (converted once, not per row).
    let k: [Int16], wide: [Int32]

    init?(from source: ColorMatrix, to target: ColorMatrix, range: ColorRange) {
        guard source != target else { return nil }
        let toRGB = YUVToRGB(matrix: source, range: range, bitDepth: 8)
        // RGB (0…255) added per chroma step: red, green, blue for Cb and for Cr; luma itself adds equally to all three.
        let cb = (r: 0.0, g: Double(toRGB.cbToG), b: Double(toRGB.cbToB))
        let cr = (r: Double(toRGB.crToR), g: Double(toRGB.crToG), b: 0.0)
        let kr = target.kr, kb = target.kb, kg = 1 - kr - kb
        let ySpan = range == .limited ? 219.0 : 255.0, cSpan = range == .limited ? 224.0 : 255.0
        func luma(_ c: (r: Double, g: Double, b: Double)) -> Double { kr * c.r + kg * c.g + kb * c.b }
        // Target codes per source chroma step: Y' = Y + ΔY, Cb' = 128 + (B − Y_rgb)/(2(1 − kb))·(cSpan/255), ….
        func dy(_ c: (r: Double, g: Double, b: Double)) -> Double { luma(c) * ySpan / 255 }
        func db(_ c: (r: Double, g: Double, b: Double)) -> Double { (c.b - luma(c)) / (2 * (1 - kb)) * cSpan / 255 }
        func dr(_ c: (r: Double, g: Double, b: Double)) -> Double { (c.r - luma(c)) / (2 * (1 - kr)) * cSpan / 255 }
        func q(_ x: Double) -> Int16 { Int16((x * 4096).rounded()) }
        k = [q(2 * dy(cb)), q(2 * dy(cr)), q(db(cb)), q(db(cr)), q(dr(cb)), q(dr(cr))]
        wide = k.map { Int32($0) }
    }

    /// The three planes for `count` chroma samples of a row.
    func convert(dy: UnsafeMutablePointer<UInt8>, cb2: UnsafeMutablePointer<UInt8>, cr2: UnsafeMutablePointer<UInt8>,
                 cb: UnsafePointer<UInt8>, cr: UnsafePointer<UInt8>, count: Int, avx2: Bool = avx2KernelsEnabled) {
        var i = avx2 ? k.withUnsafeBufferPointer { lp_chroma_matrix_avx2(dy, cb2, cr2, cb, cr, count, $0.baseAddress!) } : 0
        let k = wide
        @inline(__always) func mix(_ b: Int32, _ r: Int32, _ k0: Int32, _ k1: Int32) -> UInt8 {
            let products: Int32 = k0 &* b &+ k1 &* r
            let value: Int32 = (products &+ 526_336) >> 12  // + 128·2¹² + 2¹¹
            return UInt8(min(max(value, 0), 255))
        }
        while i < count {
            let b = Int32(cb[i]) - 128, r = Int32(cr[i]) - 128
            dy[i] = mix(b, r, k[0], k[1]); cb2[i] = mix(b, r, k[2], k[3]); cr2[i] = mix(b, r, k[4], k[5])
            i += 1
        }
    }

    /// y[i] moved by the change dy[i] holds (twice the change around 128), rounded half up, for `count` samples.
    static func addHalfChange(_ y: UnsafeMutablePointer<UInt8>, _ dy: UnsafePointer<UInt8>, count: Int,
                              avx2: Bool = avx2KernelsEnabled) {
        var i = avx2 ? lp_add_half_change_avx2(y, dy, count) : 0
        while i < count {
            y[i] = UInt8(clamping: (Int16(y[i]) &* 2 &+ Int16(dy[i]) &- 127) >> 1)
            i += 1
        }
    }
}
