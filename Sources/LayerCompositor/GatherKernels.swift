import CKernels

// The Swift side of the AVX2 kernels (CKernels): when they may run, and the calls.

extension ScalarPlane {
    /// Planes up to this size keep every walk position, and eight steps of it, in 32-bit lanes.
    static let largestGatherPlane = 16_384

    /// Whether an AVX2 kernel may walk this plane along `wx`, `wy` (both inside it) for `count` pixels: the plane is
    /// small enough for 32-bit lanes, and each gather's four bytes (two past the right tap) stay inside the plane's
    /// memory. Only a walk over the last row whose right tap is within two bytes of the row's end fails that
    /// (FFmpeg pads rows, our own planes may not).
    @inline(__always)
    func gatherStaysInside(count: Int, _ wx: FixedWalk, _ wy: FixedWalk) -> Bool {
        if width >= Self.largestGatherPlane || height >= Self.largestGatherPlane { return false }
        let column = max(wx.t, wx.t &+ wx.step &* (count &- 1)) &>> 16   // the rightmost left tap
        let row = max(wy.t, wy.t &+ wy.step &* (count &- 1)) &>> 16      // the lowest top tap
        return row &+ 2 < height || column &+ 4 <= bytesPerRow
    }
}

/// The deep interior's 4:2:0 walk with AVX2 gathers (CKernels/yuv420_bilinear_avx2.c): about 1.7 times the speed
/// of `fillInsideVector` (benchmark scene), whose taps must be assembled a byte pair at a time without gathers.
extension PlanarYUVSampler {
    /// The three planes as the AVX2 kernels take them.
    @inline(__always)
    var gatherPlanes: lp_yuv420_planes {
        lp_yuv420_planes(y: y.base.assumingMemoryBound(to: UInt8.self), u: u.base.assumingMemoryBound(to: UInt8.self),
                         v: v.base.assumingMemoryBound(to: UInt8.self), yStride: y.bytesPerRow, cStride: u.bytesPerRow)
    }

    /// Whether `fillInsideGather` may run this walk (`ScalarPlane.gatherStaysInside` for the three planes).
    @inline(__always)
    func gatherStaysInside(count: Int, lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) -> Bool {
        y.gatherStaysInside(count: count, lx, ly) && u.gatherStaysInside(count: count, cx, cy) && v.gatherStaysInside(count: count, cx, cy)
    }

    /// `fillInsideScalar` through the AVX2 kernel, eight pixels at a time, with the scalar walk for the rest.
    /// Same preconditions, plus `gatherStaysInside`. A channel differs from the scalar walk by at most 1.
    @inline(__always)
    func fillInsideGather(_ dst: UnsafeMutablePointer<UInt32>, count: Int, matrix: lp_yuv_matrix,
                          lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) {
        var planes = gatherPlanes
        var walks = lp_yuv420_walks(lx: Int32(truncatingIfNeeded: lx.t), lsx: Int32(truncatingIfNeeded: lx.step),
                                    ly: Int32(truncatingIfNeeded: ly.t), lsy: Int32(truncatingIfNeeded: ly.step),
                                    cx: Int32(truncatingIfNeeded: cx.t), csx: Int32(truncatingIfNeeded: cx.step),
                                    cy: Int32(truncatingIfNeeded: cy.t), csy: Int32(truncatingIfNeeded: cy.step))
        var matrix = matrix
        let done = lp_yuv420_bilinear_avx2(dst, count, &planes, &walks, &matrix)
        if done < count {
            fillInsideScalar(dst + done, count: count - done, lx: lx.advanced(by: done), ly: ly.advanced(by: done),
                             cx: cx.advanced(by: done), cy: cy.advanced(by: done))
        }
    }
}

extension lp_yuv420_fixing {
    /// From luma texels to the four walks' 16.16 positions (the centre rule, the chroma grid), clamped so that both
    /// taps stay inside each plane.
    init(grid: ChromaGrid, luma: ScalarPlane, chroma: ScalarPlane) {
        // The largest position whose right tap is inside, less its low byte (never read): exact as a float.
        @inline(__always) func limit(_ n: Int) -> Double { Double(((n - 1) << 16) - 256) }
        let sx = Double(grid.scaleX), sy = Double(grid.scaleY), ox = Double(grid.offsetX), oy = Double(grid.offsetY)
        self.init(lumaScaleX: 65536, lumaOffsetX: -32768, lumaLimitX: limit(luma.width),
                  lumaScaleY: 65536, lumaOffsetY: -32768, lumaLimitY: limit(luma.height),
                  chromaScaleX: sx * 65536, chromaOffsetX: -(ox + 0.5) * 65536, chromaLimitX: limit(chroma.width),
                  chromaScaleY: sy * 65536, chromaOffsetY: -(oy + 0.5) * 65536, chromaLimitY: limit(chroma.height))
    }
}

extension lp_row_projection {
    /// Row `py`'s pixels from x0 + k on, through `t` and the contents' map to texels (texel = local · scale + offset):
    /// what the deep interior hands a sampler's projective and texel-for-pixel kernels.
    @inline(__always)
    init(_ t: PixelToLocal, texelScale s: (Double, Double), texelOffset o: (Double, Double), x0: Int, py: Double, k: Double) {
        let px = Double(x0) + 0.5
        let w0 = t.g * px + t.h * py + t.i
        let u0 = t.a * px + t.b * py + t.c, v0 = t.d * px + t.e * py + t.f
        self.init(x0: (u0 + k * t.a) * s.0 + o.0 * (w0 + k * t.g), dx: t.a * s.0 + o.0 * t.g,
                  y0: (v0 + k * t.d) * s.1 + o.1 * (w0 + k * t.g), dy: t.d * s.1 + o.1 * t.g,
                  w0: w0 + k * t.g, dw: t.g)
    }
}

extension lp_yuv_matrix {
    /// `YUVFixed`'s quantised coefficients for 8.8 inputs, as floats: the same colours as the scalar walk.
    /// `shortfall` (in 1/256) is added to both offsets' inputs, for a lerp that comes out low on average.
    init(_ q: YUVFixed, shortfall: Float = 0) {
        let s: Float = 1.0 / 4_194_304  // 2^-22: coefficients are 2^14 × 8.8 inputs
        let ys = Float(q.yScale) * s, cb = Float(q.cbToB) * s, cbg = Float(q.cbToG) * s, crg = Float(q.crToG) * s, cr = Float(q.crToR) * s
        let yo = Float(q.yOffset) - shortfall, co = Float(q.cOffset) - shortfall
        self.init(yScale: ys, cbToB: cb, cbToG: cbg, crToG: crg, crToR: cr,
                  b0: -yo * ys - co * cb, g0: -yo * ys - co * (cbg + crg), r0: -yo * ys - co * cr)
    }
}

/// The deep interior's 4:2:0 walk with a division per pixel (CKernels' `lp_yuv420_projective_avx2`): a whole run in
/// one call, exact under perspective, with no segments to set up and no scalar tail.
extension PlanarYUVSampler {
    /// The 16.16 walk positions of pixel `i` of `row`: the kernel's arithmetic, operation for operation, in floats.
    @inline(__always)
    static func projectedPositions(_ i: Int, _ row: lp_row_projection, _ f: lp_yuv420_fixing) -> (lx: Int, ly: Int, cx: Int, cy: Int) {
        let k = Float(i)
        let rw = 1 / (Float(row.w0) + k * Float(row.dw))
        let u = (Float(row.x0) + k * Float(row.dx)) * rw, v = (Float(row.y0) + k * Float(row.dy)) * rw
        // Clamped as maxps/minps do (a NaN becomes 0), so that no input traps here.
        @inline(__always) func fixed(_ c: Float, _ scale: Double, _ offset: Double, _ limit: Double) -> Int {
            let p = c * Float(scale) + Float(offset), low = p > 0 ? p : 0
            return Int((low < Float(limit) ? low : Float(limit)).rounded(.toNearestOrEven))
        }
        return (fixed(u, f.lumaScaleX, f.lumaOffsetX, f.lumaLimitX), fixed(v, f.lumaScaleY, f.lumaOffsetY, f.lumaLimitY),
                fixed(u, f.chromaScaleX, f.chromaOffsetX, f.chromaLimitX), fixed(v, f.chromaScaleY, f.chromaOffsetY, f.chromaLimitY))
    }

    /// Whether the projective kernel may run over `count` pixels of `row`: the AVX2 kernels run, the picture is
    /// 8-bit bilinear without alpha, the row stays in front of the eye, and no gather reads past a plane's memory
    /// (a plane with less than two bytes of row padding must not be read on its last row: the walk's positions
    /// are monotonic along a row, so its ends bound the rows it reaches).
    @inline(__always)
    func projectiveKernelFits(count: Int, _ row: lp_row_projection) -> Bool {
        guard gatherMatrixIfEnabled != nil, !nearest, alpha == nil, count > 0 else { return false }
        // In front of the eye as the kernel computes the depth (in floats); it is linear along the row.
        guard Float(row.w0) > 0, Float(row.w0) + Float(count - 1) * Float(row.dw) > 0 else { return false }
        @inline(__always) func sized(_ p: ScalarPlane) -> Bool {
            p.width >= 2 && p.height >= 2 && p.width < ScalarPlane.largestGatherPlane && p.height < ScalarPlane.largestGatherPlane
        }
        guard sized(y) && sized(u) && sized(v) else { return false }
        let first = Self.projectedPositions(0, row, projectiveFixing), last = Self.projectedPositions(count - 1, row, projectiveFixing)
        // One row of slack for rounding between the ends and the lanes.
        @inline(__always) func safe(_ plane: ScalarPlane, _ a: Int, _ b: Int) -> Bool {
            plane.bytesPerRow >= plane.width + 2 || (max(a, b) >> 16) + 3 < plane.height
        }
        return safe(y, first.ly, last.ly) && safe(u, first.cy, last.cy) && safe(v, first.cy, last.cy)
    }

    @inline(__always)
    func fillProjective(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection) -> Bool {
        guard var matrix = gatherMatrixIfEnabled, projectiveKernelFits(count: count, row) else { return false }
        var planes = gatherPlanes
        var row = row, fixing = projectiveFixing
        lp_yuv420_projective_avx2(dst, count, &planes, &row, &fixing, &matrix)
        return true
    }

    /// The projective kernel's Swift twin, the reference in the tests: each pixel a one-step `fillInsideScalar` at
    /// the positions the kernel computes (so the taps and sums agree exactly; the colour matrix within 1).
    func fillProjectiveScalar(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection) {
        for i in 0..<count {
            let p = Self.projectedPositions(i, row, projectiveFixing)
            fillInsideScalar(dst + i, count: 1, lx: FixedWalk(position: p.lx, step: 0, count: y.width),
                             ly: FixedWalk(position: p.ly, step: 0, count: y.height),
                             cx: FixedWalk(position: p.cx, step: 0, count: u.width), cy: FixedWalk(position: p.cy, step: 0, count: u.height))
        }
    }
}
