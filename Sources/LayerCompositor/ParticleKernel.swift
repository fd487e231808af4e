import LayerGraphics

extension Kernels {
    /// Draws the particles of `d` that touch `area`, in painting order: each pixel of a particle's box samples its
    /// level bilinearly (or nearest), with taps outside the `contentsRect` part clear, multiplies by the tint, the
    /// draw's opacity and the clips' coverage, and is blended source-over or added (`additive`, clamped at 255).
    static func drawParticles(_ d: ParticleDraw, into target: RenderTarget, area: PixelRect) {
        let hasClips = !d.clips.isEmpty
        let opacity = d.opacity
        d.quads.withUnsafeBufferPointer { quads in
            d.textures.withUnsafeBufferPointer { textures in
                for q in quads {
                    let x0 = max(Int(q.x0), area.x0), x1 = min(Int(q.x1), area.x1)
                    let y0 = max(Int(q.y0), area.y0), y1 = min(Int(q.y1), area.y1)
                    if x0 >= x1 || y0 >= y1 { continue }
                    let tex = textures[Int(q.texture)]
                    let tint = q.tint * opacity
                    if d.additive {
                        drawQuad(q, tex, tint, target, x0, x1, y0, y1, d.clips, hasClips) { c, dst in
                            dst = pack(unpack(dst) + c)
                        }
                    } else {
                        drawQuad(q, tex, tint, target, x0, x1, y0, y1, d.clips, hasClips) { c, dst in blend(c, over: &dst) }
                    }
                }
            }
        }
    }

    /// One quad's pixels; `combine` (source-over or plus) is chosen once per quad, outside the loops.
    @inline(__always)
    private static func drawQuad(_ q: ParticleQuad, _ tex: ParticleTexture, _ tint: SIMD4<Float>, _ target: RenderTarget,
                                 _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int, _ clips: [ClipShape], _ hasClips: Bool,
                                 _ combine: (SIMD4<Float>, inout UInt32) -> Void) {
        let ix0 = Int(max(q.ix0, 0)), iy0 = Int(max(q.iy0, 0))
        let ix1 = Int(min(q.ix1, Int32(tex.width))), iy1 = Int(min(q.iy1, Int32(tex.height)))
        if ix0 >= ix1 || iy0 >= iy1 { return }
        // Texel coordinates where a bilinear tap can still land inside the drawn part (half a texel beyond its edge).
        let uLo = Float(ix0) - 0.5, uHi = Float(ix1) + 0.5, vLo = Float(iy0) - 0.5, vHi = Float(iy1) + 0.5
        let base = tex.base, stride = tex.width
        @inline(__always) func tap(_ x: Int, _ y: Int) -> UInt32 {
            x >= ix0 && x < ix1 && y >= iy0 && y < iy1 ? base[y * stride + x] : 0
        }
        for y in y0..<y1 {
            let py = Float(y) + 0.5 - q.cy
            let px0 = Float(x0) + 0.5 - q.cx
            var u = q.tx + q.m00 * px0 + q.m01 * py
            var v = q.ty + q.m10 * px0 + q.m11 * py
            // Narrow the row to the columns whose texel lies within reach of the part: u and v are affine in x.
            var a = x0, b = x1
            if !narrow(&a, &b, start: u, step: q.m00, lo: uLo, hi: uHi, x0: x0)
                || !narrow(&a, &b, start: v, step: q.m10, lo: vLo, hi: vHi, x0: x0) { continue }
            u += q.m00 * Float(a - x0); v += q.m10 * Float(a - x0)
            let row = target.row(y)
            for x in a..<b {
                defer { u += q.m00; v += q.m10 }
                var c: SIMD4<Float>
                if q.nearest {
                    let word = tap(Int((u).rounded(.down)), Int((v).rounded(.down)))
                    if word == 0 { continue }
                    c = unpack(word)
                } else {
                    let fu = u - 0.5, fv = v - 0.5
                    let iu = Int(fu.rounded(.down)), iv = Int(fv.rounded(.down))
                    let w00 = tap(iu, iv), w10 = tap(iu + 1, iv), w01 = tap(iu, iv + 1), w11 = tap(iu + 1, iv + 1)
                    if (w00 | w10 | w01 | w11) == 0 { continue }
                    let s = fu - Float(iu), t = fv - Float(iv)
                    let top = unpack(w00) + (unpack(w10) - unpack(w00)) * s
                    let bottom = unpack(w01) + (unpack(w11) - unpack(w01)) * s
                    c = top + (bottom - top) * t
                }
                c *= tint
                if hasClips {
                    let k = clipCoverage(clips, px: Double(x) + 0.5, py: Double(y) + 0.5)
                    if k <= 0 { continue }
                    c *= k
                }
                combine(c, &row[x])
            }
        }
    }

    /// Narrows [a, b) to the columns x where start + step·(x − x0) lies in (lo, hi); false when none is left.
    @inline(__always)
    private static func narrow(_ a: inout Int, _ b: inout Int, start: Float, step: Float, lo: Float, hi: Float, x0: Int) -> Bool {
        if abs(step) < 1e-12 {
            return start > lo && start < hi
        }
        // Solve lo < start + step·i < hi for i (the column offset from x0), widened by one column each way.
        var i0 = (lo - start) / step, i1 = (hi - start) / step
        if i0 > i1 { swap(&i0, &i1) }
        guard i0.isFinite, i1.isFinite else { return false }
        let first = x0 + Int(max(min(i0.rounded(.down), 1e9), -1e9)) - 1
        let last = x0 + Int(max(min(i1.rounded(.up), 1e9), -1e9)) + 1
        a = max(a, first); b = min(b, last)
        return a < b
    }
}
