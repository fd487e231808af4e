import CKernels
import LayerGraphics

/// Runs of samples along a straight, evenly stepped line of texels: the deep interior's fast path.
///
/// Over a few pixels a projective map is affine to within a tiny fraction of a texel, so the deep interior
/// is walked in short segments whose ends are computed exactly; the samplers then step in 16.16 fixed point,
/// with integer bilinear weights, instead of doing float work per tap.
extension ContentSampler {
    /// Writes `count` premultiplied BGRA words sampled at (x + i·dx, y + i·dy), texel units.
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double) {
        for i in 0..<count { dst[i] = pack(sample(Float(x + Double(i) * dx), Float(y + Double(i) * dy))) }
    }

    /// Segments of 16 pixels: samplers with a vector kernel say more.
    var longestSegment: Int { 16 }

    /// No per-pixel projective kernel: the deep interior walks segments.
    @inline(__always)
    func fillProjective(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection) -> Bool { false }

    /// No texel-for-pixel kernel: the projective kernel or the segments do such rows too.
    @inline(__always)
    func fillTexelForPixel(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection, blendingAt opacity: Float?) -> Bool { false }
}

/// A 16.16 fixed-point walk along one axis of a plane, clamped to its edges.
struct FixedWalk {
    var t: Int
    let step: Int
    let last: Int          // (count − 1) in 16.16

    /// Starts at texel position `p` (centre rule: pixel i at i + 0.5) with `dp` per step.
    @inline(__always)
    init(_ p: Double, _ dp: Double, count: Int) {
        // Rounded to nearest without a libm call (these run once per segment).
        let start = (p - 0.5) * 65536, delta = dp * 65536
        t = Int(max(-1e15, min(1e15, start + (start < 0 ? -0.5 : 0.5))))
        step = Int(max(-1e15, min(1e15, delta + (delta < 0 ? -0.5 : 0.5))))
        last = (count - 1) << 16
    }

    /// Starts at 16.16 position `t` (already shifted by the centre rule) with `step` per step.
    @inline(__always)
    init(position t: Int, step: Int, count: Int) {
        self.t = t; self.step = step; last = (count - 1) << 16
    }

    /// Whether every position of a walk of `count` steps stays strictly inside the plane (both taps valid), so
    /// that the unclamped `nextInside()` may be used.
    @inline(__always)
    func staysInside(count: Int) -> Bool {
        let end = t &+ step &* (count &- 1)
        return t >= 0 && end >= 0 && t < last && end < last
    }

    /// Like `next()` without the clamps (see `staysInside`).
    @inline(__always)
    mutating func nextInside() -> (i0: Int, i1: Int, f: Int) {
        let c = t
        t &+= step
        let i0 = c &>> 16
        return (i0, i0 &+ 1, (c &>> 8) & 0xff)
    }

    /// The two taps and the 8-bit weight of the second, then advances.
    @inline(__always)
    mutating func next() -> (i0: Int, i1: Int, f: Int) {
        let c = min(max(t, 0), last)
        t &+= step
        let i0 = c &>> 16
        return (i0, min(i0 &+ 1, last &>> 16), (c &>> 8) & 0xff)
    }
}

extension ScalarPlane {
    /// 8-bit bilinear sample in 8.8 fixed point.
    @inline(__always)
    func bilinear8Fixed(_ x: (i0: Int, i1: Int, f: Int), _ y: (i0: Int, i1: Int, f: Int)) -> Int {
        let r0 = base + y.i0 &* bytesPerRow, r1 = base + y.i1 &* bytesPerRow
        let a = Int(r0.load(fromByteOffset: x.i0, as: UInt8.self)), b = Int(r0.load(fromByteOffset: x.i1, as: UInt8.self))
        let c = Int(r1.load(fromByteOffset: x.i0, as: UInt8.self)), d = Int(r1.load(fromByteOffset: x.i1, as: UInt8.self))
        let top = a &<< 8 &+ (b &- a) &* x.f, bottom = c &<< 8 &+ (d &- c) &* x.f
        return (top &<< 8 &+ (bottom &- top) &* y.f) &>> 8
    }
}

extension PlanarYUVSampler {
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double) {
        if wide || nearest || alpha != nil {
            for i in 0..<count { dst[i] = pack(sample(Float(x + Double(i) * dx), Float(y + Double(i) * dy))) }
            return
        }
        let q = fixed
        var lx = FixedWalk(x, dx, count: self.y.width), ly = FixedWalk(y, dy, count: self.y.height)
        var cx = FixedWalk(Double(grid.x(Float(x))), dx * Double(grid.scaleX), count: u.width)
        var cy = FixedWalk(Double(grid.y(Float(y))), dy * Double(grid.scaleY), count: u.height)
        if lx.staysInside(count: count) && ly.staysInside(count: count) && cx.staysInside(count: count) && cy.staysInside(count: count) {
            if let matrix = gatherMatrixIfEnabled, count >= 8, gatherStaysInside(count: count, lx: lx, ly: ly, cx: cx, cy: cy) {
                fillInsideGather(dst, count: count, matrix: matrix, lx: lx, ly: ly, cx: cx, cy: cy)
            } else {
                fillInsideVector(dst, count: count, lx: lx, ly: ly, cx: cx, cy: cy)
            }
            return
        }
        for i in 0..<count {
            let tx = lx.next(), ty = ly.next(), ux = cx.next(), uy = cy.next()
            let luma = self.y.bilinear8Fixed(tx, ty)
            let cb = u.bilinear8Fixed(ux, uy), cr = v.bilinear8Fixed(ux, uy)
            dst[i] = q.bgra(luma, cb, cr)
        }
    }

    /// The walk well inside the picture (`FixedWalk.staysInside` holds for all four walks), one pixel at a time:
    /// no clamping per tap. The vector walk's tail, and its reference in the tests. Written out with locals so that
    /// the walk, the planes and the coefficients stay in registers.
    @inline(__always)
    func fillInsideScalar(_ dst: UnsafeMutablePointer<UInt32>, count: Int, lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) {
        let q = fixed
        var ltx = lx.t, lty = ly.t, ctx = cx.t, cty = cy.t
        let lsx = lx.step, lsy = ly.step, csx = cx.step, csy = cy.step
        let yBase = self.y.base, yStride = self.y.bytesPerRow
        let uBase = u.base, vBase = v.base, cStride = u.bytesPerRow
        @inline(__always) func lerp2(_ p0: Int, _ p1: Int, _ fx: Int, _ fy: Int) -> Int {
            let a = p0 & 0xff, b = p0 &>> 8, c = p1 & 0xff, d = p1 &>> 8
            let top = a &<< 8 &+ (b &- a) &* fx, bottom = c &<< 8 &+ (d &- c) &* fx
            return (top &<< 8 &+ (bottom &- top) &* fy) &>> 8
        }
        @inline(__always) func pair(_ base: UnsafeRawPointer, _ offset: Int) -> Int {
            Int(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        }
        for i in 0..<count {
            let lxi = ltx &>> 16, lyi = lty &>> 16, lfx = (ltx &>> 8) & 0xff, lfy = (lty &>> 8) & 0xff
            let cxi = ctx &>> 16, cyi = cty &>> 16, cfx = (ctx &>> 8) & 0xff, cfy = (cty &>> 8) & 0xff
            ltx &+= lsx; lty &+= lsy; ctx &+= csx; cty &+= csy
            let lo = lyi &* yStride &+ lxi
            let luma = lerp2(pair(yBase, lo), pair(yBase, lo &+ yStride), lfx, lfy)
            let co = cyi &* cStride &+ cxi
            let cb = lerp2(pair(uBase, co), pair(uBase, co &+ cStride), cfx, cfy)
            let cr = lerp2(pair(vBase, co), pair(vBase, co &+ cStride), cfx, cfy)
            dst[i] = q.bgra(luma, cb, cr)
        }
    }
}

extension BGRASampler {
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double) {
        if nearest {
            for i in 0..<count { dst[i] = pack(sample(Float(x + Double(i) * dx), Float(y + Double(i) * dy))) }
            return
        }
        var wx = FixedWalk(x, dx, count: width), wy = FixedWalk(y, dy, count: height)
        for i in 0..<count {
            let tx = wx.next(), ty = wy.next()
            let r0 = base + ty.i0 * pixelsPerRow, r1 = base + ty.i1 * pixelsPerRow
            let a = r0[tx.i0], b = r0[tx.i1], c = r1[tx.i0], d = r1[tx.i1]
            // Two channels at a time, in the two 32-bit halves of a 64-bit word (B and R, G and A), 8-bit weights.
            @inline(__always) func spread(_ w: UInt32) -> (UInt64, UInt64) {
                (UInt64(w & 0xff) | UInt64((w >> 16) & 0xff) << 32, UInt64((w >> 8) & 0xff) | UInt64(w >> 24) << 32)
            }
            let fx = UInt64(tx.f), fy = UInt64(ty.f)
            let (a0, a1) = spread(a), (b0, b1) = spread(b), (c0, c1) = spread(c), (d0, d1) = spread(d)
            @inline(__always) func mix(_ p: UInt64, _ q: UInt64, _ f: UInt64) -> UInt64 { p &* (256 &- f) &+ q &* f }
            @inline(__always) func narrow(_ v: UInt64) -> UInt32 {
                let r = (v &+ 0x0000_8000_0000_8000) &>> 16
                return UInt32(truncatingIfNeeded: r & 0xff) | UInt32(truncatingIfNeeded: (r &>> 32) & 0xff) << 16
            }
            let lo = narrow(mix(mix(a0, b0, fx), mix(c0, d0, fx), fy))
            let hi = narrow(mix(mix(a1, b1, fx), mix(c1, d1, fx), fy))
            dst[i] = lo | hi << 8
        }
    }
}

extension NV12Sampler {
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double) {
        for i in 0..<count { dst[i] = pack(sample(Float(x + Double(i) * dx), Float(y + Double(i) * dy))) }
    }
}

/// YUVToRGB in fixed point for 8.8 inputs: coefficients scaled by 2^14.
struct YUVFixed {
    let yOffset: Int, cOffset: Int, yScale: Int, crToR: Int, cbToG: Int, crToG: Int, cbToB: Int

    @inline(__always)
    init(_ k: YUVToRGB) {
        yOffset = Int((k.yOffset * 256).rounded()); cOffset = Int((k.cOffset * 256).rounded())
        func q(_ v: Float) -> Int { Int((v * 16384).rounded()) }
        yScale = q(k.yScale); crToR = q(k.crToR); cbToG = q(k.cbToG); crToG = q(k.crToG); cbToB = q(k.cbToB)
    }

    /// Opaque BGRA from 8.8 fixed-point Y, Cb, Cr.
    @inline(__always)
    func bgra(_ y: Int, _ cb: Int, _ cr: Int) -> UInt32 {
        let l = (y &- yOffset) &* yScale, u = cb &- cOffset, v = cr &- cOffset
        let round = 1 << 21
        // Branch-free clamp to 0…255: clear negatives, saturate above 255.
        @inline(__always) func c(_ x: Int) -> UInt32 {
            var v = (x &+ round) &>> 22
            v &= ~(v &>> 63)
            v = (v | ((255 &- v) &>> 63)) & 0xff
            return UInt32(truncatingIfNeeded: v)
        }
        return c(l &+ cbToB &* u) | c(l &+ cbToG &* u &+ crToG &* v) &<< 8 | c(l &+ crToR &* v) &<< 16 | 0xff00_0000
    }
}
