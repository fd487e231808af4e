import CKernels

/// A 4:2:0 picture placed texel for pixel: an integer move at scale 1, no turn or perspective (each item of a
/// playlist's `fade` at 1080p60, issue 30, where the projective walk was 72 % of a frame). Its rows are converted
/// by `lp_yuv420_texel_row_avx2` (CKernels/yuv420_texel_avx2.c): the projective kernel's taps, weights and colour
/// matrix at the positions it would compute, so the pixels are the same, bit for bit; luma is read a byte a pixel
/// and chroma's shuffle and weights are set once a row. A faded picture is blended in the same pass.
///
/// The row is recognised from what the projective kernel itself sees (its floats): a step of exactly one texel
/// across, none down, no depth, and a first pixel on a texel's centre. Where its positions are clamped (the
/// picture's last column and row, a chroma sample's edge) or its reads would leave a row's bytes (the last few
/// pixels), the projective kernel does the pixels.
extension PlanarYUVSampler {
    /// How a row splits: `head` pixels for the projective kernel, then `body` (a multiple of 8) for the texel kernel
    /// from `row`, then the rest for the projective kernel again.
    struct TexelRowPlan {
        let head: Int, body: Int
        let row: lp_yuv420_texel_row
    }

    /// The plan for `count` pixels of `projection`, or nil when the row is not texel for pixel (or the texel kernel
    /// would do fewer than 8 of its pixels).
    func texelRowPlan(count: Int, _ projection: lp_row_projection) -> TexelRowPlan? {
        guard gatherMatrixIfEnabled != nil, !nearest, !wide, alpha == nil, count >= 8 else { return nil }
        guard Float(projection.w0) == 1, Float(projection.dw) == 0, Float(projection.dx) == 1, Float(projection.dy) == 0 else { return nil }
        let f = projectiveFixing
        // Luma 1:1, chroma half a sample a pixel (4:2:0, 4:2:2), at whole 16.16 offsets.
        guard f.lumaScaleX == 65536, f.lumaOffsetX == -32768, f.chromaScaleX == 32768,
              Float(f.chromaOffsetX) == Float(f.chromaOffsetX).rounded(.down) else { return nil }
        let u0 = Float(projection.x0), v0 = Float(projection.y0)
        guard abs(u0) < 65536, abs(v0) < 65536, u0 - u0.rounded(.down) == 0.5 else { return nil }
        // Every position below is then exact in the kernel's floats: luma column c + i, chroma s + i/2.
        let c = Int(u0.rounded(.down))
        let s = Int(Double(u0) * 32768) + Int(Float(f.chromaOffsetX))
        let first = Self.projectedPositions(0, projection, f)
        // The row: its luma weight must be 0 (a texel's centre, not clamped to the last row's limit).
        guard first.ly & 0xffff == 0 else { return nil }
        // Columns whose luma and chroma positions are not clamped: c + i in 0 ... width − 2, s + i·32768 in 0 ... limit.
        let chromaLimit = Int(f.chromaLimitX)
        let low = max(0, -c, (-s + 32767) >> 15)
        let high = min(count, y.width - 1 - c, ((chromaLimit - s) >> 15) + 1)
        guard high - low >= 8 else { return nil }
        let position = s + low * 32768, j0 = position >> 16
        // The kernel reads each chroma row's [j0, j0 + body/2 + 4): inside the row's samples.
        let body = min(high - low, 2 * (u.width - j0 - 4)) / 8 * 8
        guard body >= 8 else { return nil }
        let cy = first.cy >> 16, fy = (first.cy >> 8) & 0xff
        let luma = y.base + (first.ly >> 16) * y.bytesPerRow + c + low
        let top = cy * u.bytesPerRow + j0, bottom = top + u.bytesPerRow
        @inline(__always) func bytes(_ p: UnsafeRawPointer) -> UnsafePointer<UInt8> { p.assumingMemoryBound(to: UInt8.self) }
        return TexelRowPlan(head: low, body: body, row: lp_yuv420_texel_row(
            luma: bytes(luma), cbTop: bytes(u.base + top), cbBottom: bytes(u.base + bottom), crTop: bytes(v.base + top),
            crBottom: bytes(v.base + bottom), chromaFraction: Int32(position & 0xffff), chromaWeightY: Int32(fy)))
    }

    /// `count` pixels of `projection` written to `dst`, or blended over it at `opacity` (as `OpacityBlend` blends),
    /// when the row is texel for pixel; false (nothing written) otherwise. The same pixels as the projective kernel.
    func fillTexelForPixel(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ projection: lp_row_projection, blendingAt opacity: Float?) -> Bool {
        guard var matrix = gatherMatrixIfEnabled, let plan = texelRowPlan(count: count, projection),
              projectiveKernelFits(count: count, projection) else { return false }
        var row = plan.row
        fillProjective(dst, from: 0, count: plan.head, projection, blendingAt: opacity)
        _ = lp_yuv420_texel_row_avx2(dst + plan.head, plan.body, &row, &matrix, opacity ?? 1, opacity == nil ? 0 : 1)
        let done = plan.head + plan.body
        fillProjective(dst, from: done, count: count - done, projection, blendingAt: opacity)
        return true
    }

    /// Pixels `start ..< start + count` of a texel-for-pixel `projection` by the projective kernel (the row's ends).
    private func fillProjective(_ dst: UnsafeMutablePointer<UInt32>, from start: Int, count: Int, _ projection: lp_row_projection,
                                blendingAt opacity: Float?) {
        guard count > 0, var matrix = gatherMatrixIfEnabled else { return }
        var planes = gatherPlanes, fixing = projectiveFixing
        // Moved along in the kernel's own floats (a whole number of texels: exact).
        var row = lp_row_projection(x0: Double(Float(projection.x0)) + Double(start), dx: 1, y0: Double(Float(projection.y0)), dy: 0, w0: 1, dw: 0)
        guard let opacity else {
            lp_yuv420_projective_avx2(dst + start, count, &planes, &row, &fixing, &matrix)
            return
        }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: count) { tmp in
            lp_yuv420_projective_avx2(tmp.baseAddress!, count, &planes, &row, &fixing, &matrix)
            OpacityBlend.blendRow(dst + start, tmp.baseAddress!, count: count, opacity: opacity)
        }
    }

    /// The texel kernel's Swift twin, the reference in the tests: `plan.body` pixels of `plan.row`, the same integer
    /// sums and float operations in the same order, bit for bit.
    func fillTexelRowSwift(_ dst: UnsafeMutablePointer<UInt32>, _ plan: TexelRowPlan, blendingAt opacity: Float?) {
        let m = lp_yuv_matrix(fixed), r = plan.row, fy = Int(r.chromaWeightY)
        @inline(__always) func chroma(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, _ j: Int, _ fx: Int) -> Int {
            let t = Int(top[j]) * (256 - fx) + Int(top[j + 1]) * fx, b = Int(bottom[j]) * (256 - fx) + Int(bottom[j + 1]) * fx
            return (t << 8 + (b - t) * fy) >> 8
        }
        @inline(__always) func byte(_ v: Float) -> UInt32 {
            // cvtps (to nearest, ties to even), then the packs' saturation.
            UInt32(min(max(Int(v.rounded(.toNearestOrEven)), 0), 255))
        }
        for i in 0..<plan.body {
            let p = Int(r.chromaFraction) + i * 32768, j = p >> 16, fx = (p >> 8) & 0xff
            let l = Float(Int(r.luma[i]) << 8) * m.yScale
            let cb = Float(chroma(r.cbTop, r.cbBottom, j, fx)), cr = Float(chroma(r.crTop, r.crBottom, j, fx))
            let b = (l + cb * m.cbToB) + m.b0
            let g = (l + (cb * m.cbToG + cr * m.crToG)) + m.g0
            let red = (l + cr * m.crToR) + m.r0
            var word = byte(b) | byte(g) << 8 | byte(red) << 16 | 0xff00_0000
            if let opacity {
                OpacityBlend.blendRowSwift(dst + i, &word, count: 1, opacity: opacity)
            } else {
                dst[i] = word
            }
        }
    }
}
