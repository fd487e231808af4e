import CKernels

/// The deep interior's 8-bit planar YUV walk, eight pixels at a time.
///
/// Baseline x86-64 (SSE2, what Swift builds for) has no gathers, so the taps are still read as one 16-bit load
/// of two adjacent bytes each, packed four to a 64-bit word. Everything after the loads runs in lanes: the
/// horizontal lerps in 16-bit lanes (exact: the 8.8 result fits, intermediate wrap-around cancels), the vertical
/// lerps and the colour matrix in floats, and the packing to BGRA by the float "magic number" rounding (the generic
/// SIMD float → integer conversion is a library call). Only operations that lower to single SSE2 instructions
/// are used: no 32-bit lane multiplies, no `pointwiseMin` (it is not inlined).
///
/// Against the scalar fixed-point walk (`fillInsideScalar`) a channel differs by at most 1: the vertical lerp
/// keeps its fraction instead of truncating to 8.8, and rounding ties go to even.
extension PlanarYUVSampler {
    /// `fillInsideScalar`, vectorised; same preconditions (every tap of the four walks inside the planes).
    @inline(__always)
    func fillInsideVector(_ dst: UnsafeMutablePointer<UInt32>, count: Int, lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) {
        let groups = count / 8
        if groups > 0 {
            let m = YUVVectorMatrix(fixed)
            var ltx = lx.t, lty = ly.t, ctx = cx.t, cty = cy.t
            let lsx = lx.step, lsy = ly.step, csx = cx.step, csy = cy.step
            let yBase = self.y.base, yStride = self.y.bytesPerRow
            let uBase = u.base, vBase = v.base, cStride = u.bytesPerRow
            // The same walks' fractions in lanes, for the weights.
            var vlx = FractionLanes(lx), vly = FractionLanes(ly), vcx = FractionLanes(cx), vcy = FractionLanes(cy)
            @inline(__always) func pair(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
                UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            }
            for g in 0..<groups {
                // Each 64-bit word holds four pixels' (left, right) byte pairs of one row of one plane.
                // Luma and chroma gathered apart, to keep the accumulators in registers.
                var yTop = SIMD2<UInt64>(), yBottom = SIMD2<UInt64>()
                for half in 0..<2 {
                    var top: UInt64 = 0, bottom: UInt64 = 0
                    for k in 0..<4 {
                        let o = (lty &>> 16) &* yStride &+ (ltx &>> 16)
                        ltx &+= lsx; lty &+= lsy
                        top |= pair(yBase, o) &<< UInt64(16 &* k); bottom |= pair(yBase, o &+ yStride) &<< UInt64(16 &* k)
                    }
                    yTop[half] = top; yBottom[half] = bottom
                }
                var uTop = SIMD2<UInt64>(), uBottom = SIMD2<UInt64>(), vTop = SIMD2<UInt64>(), vBottom = SIMD2<UInt64>()
                for half in 0..<2 {
                    var ut: UInt64 = 0, ub: UInt64 = 0, vt: UInt64 = 0, vb: UInt64 = 0
                    for k in 0..<4 {
                        let o = (cty &>> 16) &* cStride &+ (ctx &>> 16)
                        ctx &+= csx; cty &+= csy
                        let s = UInt64(16 &* k)
                        ut |= pair(uBase, o) &<< s; ub |= pair(uBase, o &+ cStride) &<< s
                        vt |= pair(vBase, o) &<< s; vb |= pair(vBase, o &+ cStride) &<< s
                    }
                    uTop[half] = ut; uBottom[half] = ub; vTop[half] = vt; vBottom[half] = vb
                }
                let fl = vlx.weights, fc = vcx.weights
                let gl = vly.weights256, gc = vcy.weights256
                vlx.advance(); vly.advance(); vcx.advance(); vcy.advance()
                let luma = bilinear(yTop, yBottom, fl, gl)
                let cb = bilinear(uTop, uBottom, fc, gc), cr = bilinear(vTop, vBottom, fc, gc)
                UnsafeMutableRawPointer(dst + 8 &* g).storeBytes(of: m.bgra(luma, cb, cr), as: SIMD8<UInt32>.self)
            }
        }
        let done = groups * 8
        if done < count {
            fillInsideScalar(dst + done, count: count - done, lx: lx.advanced(by: done), ly: ly.advanced(by: done),
                             cx: cx.advanced(by: done), cy: cy.advanced(by: done))
        }
    }
}

/// Bilinear in 16-bit lanes. `top` and `bottom` hold eight (left, right) byte pairs of two rows; `fx` is the
/// second tap's 8-bit weight, `wy` the bottom row's weight × 256. Returns 8.8 values.
///
/// The horizontal lerp a·256 + (b − a)·fx is exact in 16 bits (the result is at most 255·256; the wrap-around
/// of b − a cancels). The vertical one takes the high halves of 16×16-bit products (`pmulhuw`):
/// top·(65535 − wy) + bottom·wy, over 65536, is low by 1.5 units of 1/256 on average, which `YUVVectorMatrix`
/// adds back.
@inline(__always)
func bilinear(_ top: SIMD2<UInt64>, _ bottom: SIMD2<UInt64>, _ fx: SIMD8<UInt16>, _ wy: SIMD8<UInt16>) -> SIMD8<UInt16> {
    @inline(__always) func lerp(_ pairs: SIMD2<UInt64>) -> SIMD8<UInt16> {
        let v = unsafeBitCast(pairs, to: SIMD8<UInt16>.self)
        let a = v & 0xff, b = v &>> 8
        return (a &<< 8) &+ (b &- a) &* fx
    }
    return multiplyHigh(lerp(top), ~wy) &+ multiplyHigh(lerp(bottom), wy)
}

/// (a · b) >> 16 per 16-bit lane (`pmulhuw`).
@inline(__always)
func multiplyHigh(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
    SIMD8<UInt16>(truncatingIfNeeded: (SIMD8<UInt32>(truncatingIfNeeded: a) &* SIMD8<UInt32>(truncatingIfNeeded: b)) &>> 16)
}

/// The fractional parts of eight consecutive positions of a `FixedWalk`: the low 16 bits of a sum depend only on
/// the low 16 bits of its terms, so they walk in 16-bit lanes.
struct FractionLanes {
    var t: SIMD8<UInt16>
    let step8: SIMD8<UInt16>

    @inline(__always)
    init(_ w: FixedWalk) {
        let t0 = UInt16(truncatingIfNeeded: w.t), s = UInt16(truncatingIfNeeded: w.step)
        t = SIMD8(t0, t0 &+ s, t0 &+ 2 &* s, t0 &+ 3 &* s, t0 &+ 4 &* s, t0 &+ 5 &* s, t0 &+ 6 &* s, t0 &+ 7 &* s)
        step8 = SIMD8(repeating: 8 &* s)
    }

    @inline(__always) mutating func advance() { t &+= step8 }

    /// The second tap's 8-bit weights (`FixedWalk.next().f`).
    @inline(__always) var weights: SIMD8<UInt16> { t &>> 8 }

    /// The same weights × 256.
    @inline(__always) var weights256: SIMD8<UInt16> { t & 0xff00 }
}

extension FixedWalk {
    /// The walk `n` steps further on.
    @inline(__always)
    func advanced(by n: Int) -> FixedWalk {
        var w = self
        w.t &+= step &* n
        return w
    }
}

/// `YUVFixed` in float lanes, for 8.8 inputs: the same (quantised) coefficients, so the vector walk matches
/// the scalar one; offsets (and the vertical lerp's average shortfall) folded into one constant per channel.
struct YUVVectorMatrix {
    let yScale, cbToB, cbToG, crToG, crToR: SIMD8<Float>
    let b0, g0, r0: SIMD8<Float>

    @inline(__always)
    init(_ q: YUVFixed) {
        // The vertical lerp's average shortfall (1.5 units of 1/256, see `bilinear`) is added back in the offsets.
        let m = lp_yuv_matrix(q, shortfall: 1.5)
        yScale = SIMD8(repeating: m.yScale); cbToB = SIMD8(repeating: m.cbToB); cbToG = SIMD8(repeating: m.cbToG)
        crToG = SIMD8(repeating: m.crToG); crToR = SIMD8(repeating: m.crToR)
        b0 = SIMD8(repeating: m.b0); g0 = SIMD8(repeating: m.g0); r0 = SIMD8(repeating: m.r0)
    }

    /// Opaque BGRA words from 8.8 Y, Cb, Cr.
    @inline(__always)
    func bgra(_ y: SIMD8<UInt16>, _ cb: SIMD8<UInt16>, _ cr: SIMD8<UInt16>) -> SIMD8<UInt32> {
        @inline(__always) func float(_ v: SIMD8<UInt16>) -> SIMD8<Float> { SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: v)) }
        let l = float(y) * yScale, u = float(cb), v = float(cr)
        let b = l + u * cbToB + b0
        let g = l + u * cbToG + v * crToG + g0
        let r = l + v * crToR + r0
        return packOpaque(b, g, r)
    }
}

/// Rounds B, G, R lanes to 0…255 and packs them with alpha 255.
///
/// Adding 1.5·2^23 leaves round(x) in the low mantissa bits (exact for |x| < 2^22, ties to even). After the clamp
/// those are 0…255 above a constant whose low 16 bits are zero, so G and R need no mask once shifted: the
/// constant's bits land in the alpha byte, which is set anyway.
@inline(__always)
func packOpaque(_ b: SIMD8<Float>, _ g: SIMD8<Float>, _ r: SIMD8<Float>) -> SIMD8<UInt32> {
    @inline(__always) func bits(_ x: SIMD8<Float>) -> SIMD8<UInt32> {
        var v = x.replacing(with: 255, where: x .> 255)      // minps
        v = v.replacing(with: 0, where: v .< 0)              // maxps
        return unsafeBitCast(v + 12_582_912, to: SIMD8<UInt32>.self)
    }
    return (bits(b) & 0xff) | (bits(g) &<< 8) | (bits(r) &<< 16) | 0xff00_0000
}
