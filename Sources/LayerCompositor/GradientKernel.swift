import LayerGraphics

/// The per-pixel work of a gradient (SEMANTICS-LAYERS.md §3): t at each pixel centre mapped into the layer's plane
/// (exact under perspective), its colour from the table, the shape's and clips' coverage at the edge, blended.
///
/// Banding: the colour is kept in float until the pixel is written, and then rounded with a 4×4 ordered (Bayer)
/// dither: ⌊v + θ⌋, θ in (0, 1) by the pixel's position. §3 said no dithering; the issue asks for gradients
/// without banding, and this keeps both promises that matter: every channel is within ±1 of the exact value (it is
/// either ⌊v⌋ or ⌈v⌉), and a frame is the same on every run (θ depends on the pixel only). One θ serves all four
/// channels, so a channel never exceeds alpha. The pattern is mirrored about the diagonal x = y, so a gradient
/// symmetric about it gives a symmetric picture.
extension Kernels {
    /// Pixels computed per pass of the parameter loop (the table coordinates of a stretch of a run).
    static let gradientChunk = 64

    static func drawGradient(_ d: GradientDraw, into target: RenderTarget, area: PixelRect, occluders: [OpaqueRows]) {
        let p = d.placement
        let t = p.toLocal
        let shape = d.shape
        let clips = p.clips
        let hasClips = !clips.isEmpty
        // Deep inside the shape and every clip, coverage is 1 and is not computed.
        let deep = hasClips && !clips.allSatisfy({ $0.deep != nil }) ? nil : d.deep
        let clipInPlane = clips.map { $0.toLocal.isSame(as: t) }
        let opacity = d.opacity
        let table = d.table
        let lastIndex = Double(table.entries.count - 1)
        let lo = table.lo, scale = table.scale
        let parameter = d.parameter
        let solid = table.isUniform
        // An affine map and an axial gradient make the table coordinate affine in the pixel: f = fx·x + fy·y + f0.
        var axialAffine: (fx: Double, fy: Double, f0: Double)? = nil
        if case let .axial(kx, ky, k0) = parameter, t.g == 0, t.h == 0, !solid {
            let ri = 1 / t.i
            axialAffine = ((kx * t.a + ky * t.d) * ri * scale, (kx * t.b + ky * t.e) * ri * scale,
                           ((kx * t.c + ky * t.f) * ri + k0 - lo) * scale)
        }
        /// Clamped (NaN: the first entry) and rounded to the nearest entry.
        @inline(__always)
        func index(_ f: Double) -> Int32 {
            // Rounded to nearest by the same 1.5·2²³ addition as `GradientDither.pack` (no checked conversion).
            let clamped = Float(f >= 0 ? (f <= lastIndex ? f : lastIndex) : 0)
            return Int32(bitPattern: (clamped + 12_582_912).bitPattern & 0x3f_ffff)
        }
        /// The table indices of pixels [x, x + n) of the row at centre height py.
        @inline(__always)
        func fillIndices(_ out: UnsafeMutablePointer<Int32>, _ x: Int, _ n: Int, _ py: Double) {
            if solid { out.update(repeating: 0, count: n); return }
            if let (fx, fy, f0) = axialAffine {
                // Summed in the same order for (x, y) and (y, x): a gradient symmetric about the diagonal stays so.
                for i in 0..<n { out[i] = index((fx * (Double(x + i) + 0.5) + fy * py) + f0) }
                return
            }
            for i in 0..<n {
                let px = Double(x + i) + 0.5
                let W = t.g * px + t.h * py + t.i
                // Behind the eye: never covered (the polygon is clipped in front), any entry will do.
                if !(W > 0) { out[i] = 0; continue }
                let u = (t.a * px + t.b * py + t.c) / W, v = (t.d * px + t.e * py + t.f) / W
                out[i] = index((parameter.t(u: u, v: v) - lo) * scale)
            }
        }
        /// The coverage of the shape and the clips at a pixel off the deep interior.
        @inline(__always)
        func edgeCoverage(_ x: Int, _ py: Double) -> Float {
            let px = Double(x) + 0.5
            guard let (u, v, f) = t.local(px: px, py: py) else { return 0 }
            var k = coverage(of: shape, u: u, v: v, footprint: f)
            if hasClips && k > 0 {
                for ci in clips.indices {
                    k *= clipInPlane[ci] ? coverage(of: clips[ci].shape, u: u, v: v, footprint: f) : clipCoverage(clips[ci], px: px, py: py)
                    if k <= 0 { return 0 }
                }
            }
            return k
        }
        @inline(__always)
        func reach(_ y: Int) -> (Int, Int)? {
            var a = Int.min, b = Int.max
            if let reach = d.reach {
                guard let r = reach.interval(row: y) else { return nil }
                (a, b) = r
            }
            for k in clips.indices {
                guard let reach = clips[k].reach else { continue }
                guard let r = reach.interval(row: y) else { return nil }
                a = max(a, r.0); b = min(b, r.1)
            }
            return a < b ? (a, b) : nil
        }

        let direct = opacity >= 1 && table.isOpaque
        var indices = [Int32](repeating: 0, count: gradientChunk)
        var rowOfIntervals = Int.min
        var inside: (Int, Int)? = nil
        var dither = GradientDither(row: 0)
        table.entries.withUnsafeBufferPointer { entries in
            indices.withUnsafeMutableBufferPointer { indexBuffer in
                let idx = indexBuffer.baseAddress!
                /// Pixels [x0, x1): the deep interior (`full`, coverage 1) or the edge.
                @inline(__always)
                func shade(_ x0: Int, _ x1: Int, full: Bool, _ py: Double, _ row: UnsafeMutablePointer<UInt32>) {
                    var x = x0
                    while x < x1 {
                        let n = min(gradientChunk, x1 - x)
                        fillIndices(idx, x, n, py)
                        if full && direct {
                            // Opaque colours at full coverage: written, nothing beneath shows.
                            for i in 0..<n { row[x + i] = dither.pack(entries[Int(idx[i])], x: x + i) }
                        } else {
                            for i in 0..<n {
                                let k = full ? opacity : opacity * edgeCoverage(x + i, py)
                                if k <= 0 { continue }
                                let c = entries[Int(idx[i])] * k
                                if c.w >= 254.999 { row[x + i] = dither.pack(c, x: x + i); continue }
                                if c.w <= 0 && c.x <= 0 && c.y <= 0 && c.z <= 0 { continue }
                                row[x + i] = dither.pack(c + unpack(row[x + i]) * (1 - c.w * (1 / 255)), x: x + i)
                            }
                        }
                        x += n
                    }
                }
                SpanWalk.forEachRun(p, area: area, occluders: occluders, target: target, reach: reach) { y, py, row, a, b in
                    if y != rowOfIntervals {
                        rowOfIntervals = y
                        dither = GradientDither(row: y)
                        inside = deep?.interval(row: y)
                        if var i = inside, hasClips { inside = Self.narrow(&i, toDeepInteriorOf: clips, row: y) ? i : nil }
                    }
                    if let inside, inside.0 < b, inside.1 > a {
                        let d0 = max(a, inside.0), d1 = min(b, inside.1)
                        shade(a, d0, full: false, py, row)
                        shade(d0, d1, full: true, py, row)
                        shade(d1, b, full: false, py, row)
                    } else {
                        shade(a, b, full: false, py, row)
                    }
                }
            }
        }
    }
}

/// The ordered dither of one row: θ = (B + ½) / 16 from the 4×4 Bayer matrix B, read as B[x mod 4][y mod 4] left of
/// the diagonal (x < y) and B[y mod 4][x mod 4] from it on, so that pixel (x, y) and pixel (y, x) share θ.
struct GradientDither {
    static let bayer: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
    let y: Int
    /// θ − ½ for x < y (by x mod 4) and for x ≥ y.
    let below: SIMD4<Float>, onOrAbove: SIMD4<Float>

    init(row y: Int) {
        self.y = y
        let r = y & 3
        func offset(_ b: Float) -> Float { (b + 0.5) / 16 - 0.5 }
        below = SIMD4(offset(Self.bayer[0 * 4 + r]), offset(Self.bayer[1 * 4 + r]), offset(Self.bayer[2 * 4 + r]), offset(Self.bayer[3 * 4 + r]))
        onOrAbove = SIMD4(offset(Self.bayer[r * 4 + 0]), offset(Self.bayer[r * 4 + 1]), offset(Self.bayer[r * 4 + 2]), offset(Self.bayer[r * 4 + 3]))
    }

    /// `c` (premultiplied 0…255) dithered into a BGRA word: c + θ − ½ rounded to nearest, which is ⌊c⌋ or ⌈c⌉ as
    /// ⌊c + θ⌋ is. Rounded by adding 1.5·2²³ (the rounded value lands in the low mantissa bits): Swift's checked
    /// float-to-integer conversions cost more than the rest of the pixel.
    @inline(__always)
    func pack(_ c: SIMD4<Float>, x: Int) -> UInt32 {
        var v = c + (x < y ? below[x & 3] : onOrAbove[x & 3])
        v = v.replacing(with: 0, where: v .< 0)
        v = v.replacing(with: 255, where: v .> 255)
        let q = unsafeBitCast(v + 12_582_912, to: SIMD4<UInt32>.self) & 0xff
        return q.x | q.y << 8 | q.z << 16 | q.w << 24
    }
}
