import CKernels
import LayerGraphics

// Particles are many and small, so their pixels are done in 8-bit fixed point, the four channels of a pixel in the
// 16-bit lanes of one 64-bit word (B, R, G, A from the low end): a bilinear tap, the tint and the blend are a few
// integer multiplies per pixel, and floors and weights come from the 1.5·2²³ rounding trick (no checked conversions).

extension Kernels {
    /// Draws the particles of `d` that touch `area`, in painting order: each pixel of a particle's box samples its
    /// level bilinearly (or nearest), with taps outside the `contentsRect` part clear, multiplies by the tint, the
    /// draw's opacity and the clips' coverage, and is blended source-over or added (`additive`, clamped at 255).
    static func drawParticles(_ d: ParticleDraw, into target: RenderTarget, area: PixelRect) {
        let opacity = d.opacity
        d.quads.withUnsafeBufferPointer { quads in
            d.textures.withUnsafeBufferPointer { textures in
                for q in quads {
                    let x0 = max(Int(q.x0), area.x0), x1 = min(Int(q.x1), area.x1)
                    let y0 = max(Int(q.y0), area.y0), y1 = min(Int(q.y1), area.y1)
                    if x0 >= x1 || y0 >= y1 { continue }
                    let tex = textures[Int(q.texture)]
                    let tint = q.tint * opacity
                    let rows = QuadRows(q, tex, x0, x1, y0, y1)
                    if d.additive { rows.draw(tint, target, d.clips, AddParticle.self) }
                    else { rows.draw(tint, target, d.clips, PaintParticle.self) }
                }
            }
        }
    }
}

/// One quad clipped to a band, walked row by row.
struct QuadRows {
    let q: ParticleQuad
    let base: UnsafePointer<UInt32>
    let stride: Int
    let x0, x1, y0, y1: Int
    /// The drawn part of the texture, in whole texels [ix0, ix1) × [iy0, iy1).
    let ix0, iy0, ix1, iy1: Int

    init(_ q: ParticleQuad, _ tex: ParticleTexture, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) {
        self.q = q; base = tex.base; stride = tex.width
        self.x0 = x0; self.x1 = x1; self.y0 = y0; self.y1 = y1
        ix0 = Int(max(q.ix0, 0)); iy0 = Int(max(q.iy0, 0))
        ix1 = Int(min(q.ix1, Int32(tex.width))); iy1 = Int(min(q.iy1, Int32(tex.height)))
    }

    @inline(__always)
    func tap(_ x: Int, _ y: Int) -> UInt32 {
        x >= ix0 && x < ix1 && y >= iy0 && y < iy1 ? base[y * stride + x] : 0
    }

    /// The premultiplied texel under texel coordinates (u, v), spread into lanes: bilinear or nearest, clear outside
    /// the part.
    @inline(__always)
    func sample(_ u: Float, _ v: Float) -> UInt64 {
        if q.nearest { return spread(tap(floor(u), floor(v))) }
        let fu = u - 0.5, fv = v - 0.5
        let iu = floor(fu), iv = floor(fv)
        let w00: UInt32, w10: UInt32, w01: UInt32, w11: UInt32
        if iu >= ix0 && iu + 1 < ix1 && iv >= iy0 && iv + 1 < iy1 {
            // All four taps inside the part (most pixels): no per-tap test.
            let p = base + (iv * stride + iu)
            w00 = p[0]; w10 = p[1]; w01 = p[stride]; w11 = p[stride + 1]
        } else {
            w00 = tap(iu, iv); w10 = tap(iu + 1, iv); w01 = tap(iu, iv + 1); w11 = tap(iu + 1, iv + 1)
        }
        if (w00 | w10 | w01 | w11) == 0 { return 0 }
        let fx = weight(fu - Float(iu)), fy = weight(fv - Float(iv))
        return lerp(lerp(spread(w00), spread(w10), fx), lerp(spread(w01), spread(w11), fx), fy)
    }

    /// Walks the rows; `tint` is the premultiplied B, G, R, A factors (0…1).
    @inline(__always)
    func draw<B: ParticleBlend>(_ tint: SIMD4<Float>, _ target: RenderTarget, _ clips: [ClipShape], _: B.Type) {
        if ix0 >= ix1 || iy0 >= iy1 { return }
        let fixed = FixedTint(tint)
        // Texel coordinates where a bilinear tap can still land inside the part (half a texel beyond its edge).
        let uLo = Float(ix0) - 0.5, uHi = Float(ix1) + 0.5, vLo = Float(iy0) - 0.5, vHi = Float(iy1) + 0.5
        let hasClips = !clips.isEmpty, vector = vectorRows
        for y in y0..<y1 {
            let py = Float(y) + 0.5 - q.cy
            let px0 = Float(x0) + 0.5 - q.cx
            var u = q.tx + q.m00 * px0 + q.m01 * py
            var v = q.ty + q.m10 * px0 + q.m11 * py
            // Narrow the row to the columns whose texel lies within reach of the part: u and v are affine in x.
            var a = x0, b = x1
            if !narrow(&a, &b, start: u, step: q.m00, lo: uLo, hi: uHi) || !narrow(&a, &b, start: v, step: q.m10, lo: vLo, hi: vHi) {
                continue
            }
            // Only where every clip can let something through (a piece of a depth-sorted split is clipped to
            // its half of the canvas, and each particle is offered to both pieces).
            if hasClips && !Kernels.narrow(&a, &b, toReachOf: clips, row: y) { continue }
            u += q.m00 * Float(a - x0); v += q.m10 * Float(a - x0)
            let row = target.row(y) + a
            guard hasClips else { span(row, 0, b - a, u, v, fixed, vector, B.self); continue }
            // Deep inside every clip (most of a clipped emitter's pixels) nothing is covered partly: the plain
            // span; only the columns outside take each clip's coverage per pixel.
            var deep = (a, b)
            if !Kernels.narrow(&deep, toDeepInteriorOf: clips, row: y) { deep = (b, b) }
            let d0 = max(deep.0, a), d1 = max(min(deep.1, b), d0)
            for i in 0..<(d0 - a) { clippedPixel(i, row, u, v, a, y, tint, clips, B.self) }
            span(row, d0 - a, d1 - a, u, v, fixed, vector, B.self)
            for i in (d1 - a)..<(b - a) { clippedPixel(i, row, u, v, a, y, tint, clips, B.self) }
        }
    }

    /// Pixels [from, to) of a row whose pixel 0 samples (u, v), unclipped: the AVX2 kernel where it applies, the
    /// Swift twin for the rest.
    @inline(__always)
    private func span<B: ParticleBlend>(_ row: UnsafeMutablePointer<UInt32>, _ from: Int, _ to: Int, _ u: Float, _ v: Float,
                                        _ fixed: FixedTint, _ vector: Bool, _: B.Type) {
        guard to > from else { return }
        let k = Float(from)
        let su = u + q.m00 * k, sv = v + q.m10 * k
        var done = 0
        if vector {
            done = lp_particle_row_avx2(row + from, to - from, base, stride, Int32(ix0), Int32(iy0), Int32(ix1), Int32(iy1),
                                        su, sv, q.m00, q.m10, fixed.packed, B.isAdditive ? 1 : 0)
        }
        self.row(row + from, from: done, to: to - from, su, sv, fixed, B.self)
    }

    /// Pixel i of a row starting at column a, scaled by the clips' coverage there.
    @inline(__always)
    private func clippedPixel<B: ParticleBlend>(_ i: Int, _ row: UnsafeMutablePointer<UInt32>, _ u: Float, _ v: Float, _ a: Int,
                                                _ y: Int, _ tint: SIMD4<Float>, _ clips: [ClipShape], _: B.Type) {
        let k = Kernels.clipCoverage(clips, px: Double(a + i) + 0.5, py: Double(y) + 0.5)
        if k > 0 { pixel(i, row, u, v, FixedTint(tint * k), B.self) }
    }

    /// Whether rows go through the AVX2 kernel (`lp_particle_row_avx2`, the twin of `row`): bilinear, within its
    /// coordinate range.
    var vectorRows: Bool { avx2KernelsEnabled && !q.nearest && stride < 1 << 20 && iy1 < 1 << 20 }

    /// Pixels [from, to) of a row whose pixel 0 samples texel (u, v): the Swift kernel, which the AVX2 one matches bit
    /// for bit. Pixel i samples (u + du·i, v + dv·i), computed afresh (not accumulated), as the vector lanes do.
    @inline(__always)
    func row<B: ParticleBlend>(_ row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, _ u: Float, _ v: Float,
                               _ tint: FixedTint, _: B.Type) {
        for i in from..<to { pixel(i, row, u, v, tint, B.self) }
    }

    @inline(__always)
    private func pixel<B: ParticleBlend>(_ i: Int, _ row: UnsafeMutablePointer<UInt32>, _ u: Float, _ v: Float,
                                         _ tint: FixedTint, _: B.Type) {
        let k = Float(i)
        let texel = sample(u + q.m00 * k, v + q.m10 * k)
        if texel == 0 { return }
        let c = tint.apply(texel)
        if c == 0 { return }
        B.combine(c, &row[i])
    }

    /// Narrows [a, b) to the columns x where start + step·(x − x0) lies in (lo, hi), widened by a column each way;
    /// false when none is left.
    @inline(__always)
    private func narrow(_ a: inout Int, _ b: inout Int, start: Float, step: Float, lo: Float, hi: Float) -> Bool {
        if abs(step) < 1e-12 { return start > lo && start < hi }
        var i0 = (lo - start) / step, i1 = (hi - start) / step
        if i0 > i1 { swap(&i0, &i1) }
        guard i0.isFinite, i1.isFinite else { return false }
        a = max(a, x0 + Int(max(min(i0.rounded(.down), 1e9), -1e9)) - 1)
        b = min(b, x0 + Int(max(min(i1.rounded(.up), 1e9), -1e9)) + 1)
        return a < b
    }
}

/// ⌊x⌋ for |x| < 2²², by the 1.5·2²³ rounding trick on x − ½ (a tie may round up: the weight is then 0 or 256).
@inline(__always)
private func floor(_ x: Float) -> Int {
    Int((x - 0.5 + 12_582_912).bitPattern & 0x7f_ffff) - 0x40_0000
}

/// A fraction in 0…1 as a weight of 0…256, rounded.
@inline(__always)
private func weight(_ f: Float) -> UInt64 {
    UInt64((min(max(f, 0), 1) * 256 + 12_582_912).bitPattern & 0x1ff)
}

/// A BGRA word with its channels in 16-bit lanes: B, R, G, A from the low end.
@inline(__always)
private func spread(_ w: UInt32) -> UInt64 {
    UInt64(w & 0x00ff_00ff) | UInt64(w & 0xff00_ff00) << 24
}

/// Lanes back into a BGRA word (each lane at most 255).
@inline(__always)
private func gather(_ x: UInt64) -> UInt32 {
    UInt32(truncatingIfNeeded: x) | UInt32(truncatingIfNeeded: x >> 24)
}

private let laneMask: UInt64 = 0x00ff_00ff_00ff_00ff

/// Four 8-bit channels mixed as a + (b − a)·f/256 (f in 0…256), rounded.
@inline(__always)
private func lerp(_ a: UInt64, _ b: UInt64, _ f: UInt64) -> UInt64 {
    ((a &* (256 &- f) &+ b &* f &+ 0x0080_0080_0080_0080) >> 8) & laneMask
}

/// Each lane clamped to 255 (lanes hold at most 511).
@inline(__always)
private func saturate(_ x: UInt64) -> UInt64 {
    (x | (((x >> 8) & 0x0001_0001_0001_0001) &* 0xff)) & laneMask
}

/// The tint as factors of 0…256 per channel.
struct FixedTint {
    let b, g, r, a: UInt64

    @inline(__always)
    init(_ t: SIMD4<Float>) {
        @inline(__always) func f(_ v: Float) -> UInt64 { weight(v.isNaN ? 0 : v) }
        b = f(t.x); g = f(t.y); r = f(t.z); a = f(t.w)
    }

    /// B, G, R, A in the 16-bit lanes of one word, B lowest (the AVX2 kernel's operand).
    var packed: UInt64 { b | g << 16 | r << 32 | a << 48 }

    /// The spread texel times the tint, spread.
    @inline(__always)
    func apply(_ x: UInt64) -> UInt64 {
        let cb = ((x & 0xff) &* b &+ 128) >> 8, cr = (((x >> 16) & 0xff) &* r &+ 128) >> 8
        let cg = (((x >> 32) & 0xff) &* g &+ 128) >> 8, ca = ((x >> 48) &* a &+ 128) >> 8
        return cb | cr << 16 | cg << 32 | ca << 48
    }
}

/// How a particle's pixel (premultiplied and spread, as `FixedTint.apply` gives it) meets the target.
protocol ParticleBlend {
    static func combine(_ c: UInt64, _ dst: inout UInt32)
    static var isAdditive: Bool { get }
}

/// Source-over (every render mode but additive): dst·(1 − a) + src.
enum PaintParticle: ParticleBlend {
    static var isAdditive: Bool { false }
    @inline(__always)
    static func combine(_ c: UInt64, _ dst: inout UInt32) {
        let a = c >> 48
        let keep = 256 &- (a &+ (a >> 7))   // 255 → 0: an opaque pixel replaces the target
        let d = ((spread(dst) &* keep &+ 0x0080_0080_0080_0080) >> 8) & laneMask
        dst = gather(saturate(d &+ c))
    }
}

/// Plus: each premultiplied channel min(255, dst + src), alpha too.
enum AddParticle: ParticleBlend {
    static var isAdditive: Bool { true }
    @inline(__always)
    static func combine(_ c: UInt64, _ dst: inout UInt32) { dst = gather(saturate(spread(dst) &+ c)) }
}
