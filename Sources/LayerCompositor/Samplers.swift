import CKernels
import LayerGraphics

/// Reads premultiplied colour (B, G, R, A in 0…255) from contents at a texel position, where pixel i's
/// centre is at i + 0.5. Positions outside the image take the nearest edge pixel (contentsRect semantics).
protocol ContentSampler {
    func sample(_ x: Float, _ y: Float) -> SIMD4<Float>
    /// `count` samples along an evenly stepped line, as premultiplied BGRA words (SamplerRuns.swift).
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double)
    /// With a level of detail (log2 texels per pixel) for samplers that use one (TrilinearSampler.swift).
    static var usesLevelOfDetail: Bool { get }
    /// The longest run the deep interior hands to `fillRun` (`SpanWalk.linearSegments`): 16 pixels, or more for
    /// a vector kernel whose pixels cost little beside a segment's set-up.
    var longestSegment: Int { get }
    /// Samples `count` pixels along a projective row, each pixel projected exactly, when the sampler has a kernel
    /// for it and the row suits it; false (nothing written) otherwise, and the caller walks segments (GatherKernels.swift).
    func fillProjective(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection) -> Bool
    /// Samples `count` pixels of a projective row that places the picture texel for pixel, written to `dst` or, with
    /// an opacity, blended over it (`OpacityBlend`), when the sampler has a kernel for it; false (nothing written)
    /// otherwise (TexelForPixel.swift).
    func fillTexelForPixel(_ dst: UnsafeMutablePointer<UInt32>, count: Int, _ row: lp_row_projection, blendingAt opacity: Float?) -> Bool
    func sample(_ x: Float, _ y: Float, lod: Float) -> SIMD4<Float>
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double, lod: Float)
}

/// Bilinear weights and clamped taps along one axis.
struct Taps {
    var i0: Int, i1: Int, f: Float
    @inline(__always)
    init(_ p: Float, count: Int) {
        let x = min(max(p - 0.5, -1e6), 1e6)
        // floor without a libm call: truncate, then step down for negative non-integers.
        var i = Int(x)
        if Float(i) > x { i -= 1 }
        let fl = Float(i)
        var frac = x - fl
        if i < 0 { i = 0; frac = 0 }
        if i >= count - 1 { i = count - 1; frac = 0 }
        i0 = i; i1 = min(i + 1, count - 1); f = frac
    }
    @inline(__always)
    static func nearest(_ p: Float, count: Int) -> Int {
        let x = min(max(p, -1e6), 1e6)
        var i = Int(x)
        if Float(i) > x { i -= 1 }
        return min(max(i, 0), count - 1)
    }
}

/// A BGRA word as four floats in 0…255 (scalar conversions: the generic SIMD ones are not inlined).
@inline(__always)
func unpack(_ word: UInt32) -> SIMD4<Float> {
    SIMD4<Float>(Float(word & 0xff), Float((word >> 8) & 0xff), Float((word >> 16) & 0xff), Float(word >> 24))
}

/// Four floats in 0…255 (premultiplied, so no channel exceeds alpha) rounded into a BGRA word.
@inline(__always)
func pack(_ c: SIMD4<Float>) -> UInt32 {
    @inline(__always) func q(_ v: Float) -> UInt32 { UInt32(Int32(min(max(v, 0), 255) + 0.5)) }
    return q(c.x) | q(c.y) << 8 | q(c.z) << 16 | q(c.w) << 24
}

/// Premultiplied BGRA pixels: an `Image` or a `.bgra` `PixelBuffer`.
struct BGRASampler: ContentSampler {
    let base: UnsafePointer<UInt32>
    let pixelsPerRow: Int
    let width: Int, height: Int
    let nearest: Bool

    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> SIMD4<Float> {
        if nearest {
            return unpack(base[Taps.nearest(y, count: height) * pixelsPerRow + Taps.nearest(x, count: width)])
        }
        let tx = Taps(x, count: width), ty = Taps(y, count: height)
        let r0 = base + ty.i0 * pixelsPerRow, r1 = base + ty.i1 * pixelsPerRow
        let top = unpack(r0[tx.i0]) + (unpack(r0[tx.i1]) - unpack(r0[tx.i0])) * tx.f
        let bottom = unpack(r1[tx.i0]) + (unpack(r1[tx.i1]) - unpack(r1[tx.i0])) * tx.f
        return top + (bottom - top) * ty.f
    }
}

/// One scalar plane of 8- or 16-bit samples.
struct ScalarPlane {
    let base: UnsafeRawPointer
    let bytesPerRow: Int
    let width: Int, height: Int

    @inline(__always)
    func load8(_ x: Int, _ y: Int) -> Float { Float(base.load(fromByteOffset: y * bytesPerRow + x, as: UInt8.self)) }
    @inline(__always)
    func load16(_ x: Int, _ y: Int) -> Float {
        Float(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: y * bytesPerRow + x * 2, as: UInt16.self)))
    }

    @inline(__always)
    func bilinear8(_ x: Float, _ y: Float) -> Float {
        let tx = Taps(x, count: width), ty = Taps(y, count: height)
        let a = load8(tx.i0, ty.i0), b = load8(tx.i1, ty.i0), c = load8(tx.i0, ty.i1), d = load8(tx.i1, ty.i1)
        let top = a + (b - a) * tx.f, bottom = c + (d - c) * tx.f
        return top + (bottom - top) * ty.f
    }
    @inline(__always)
    func bilinear16(_ x: Float, _ y: Float) -> Float {
        let tx = Taps(x, count: width), ty = Taps(y, count: height)
        let a = load16(tx.i0, ty.i0), b = load16(tx.i1, ty.i0), c = load16(tx.i0, ty.i1), d = load16(tx.i1, ty.i1)
        let top = a + (b - a) * tx.f, bottom = c + (d - c) * tx.f
        return top + (bottom - top) * ty.f
    }
    @inline(__always)
    func nearest8(_ x: Float, _ y: Float) -> Float { load8(Taps.nearest(x, count: width), Taps.nearest(y, count: height)) }
    @inline(__always)
    func nearest16(_ x: Float, _ y: Float) -> Float { load16(Taps.nearest(x, count: width), Taps.nearest(y, count: height)) }
}

/// How a luma position maps to the chroma plane's sample grid: `c = p · scale − offset` (+ 0.5 for Taps' centre rule).
struct ChromaGrid {
    let scaleX: Float, offsetX: Float, scaleY: Float, offsetY: Float

    init(shift: (x: Int, y: Int), location: ChromaLocation) {
        scaleX = 1 / Float(1 << shift.x)
        scaleY = 1 / Float(1 << shift.y)
        // Centred siting: chroma sample j covers luma [j·2^s, (j+1)·2^s) and sits in its middle.
        // Co-sited (left/top): it sits on the centre of the first luma sample it covers.
        let cosited: Float = 0.5 - 0.5 * scaleX
        switch location {
        case .center: offsetX = 0; offsetY = 0
        case .left: offsetX = shift.x > 0 ? -cosited : 0; offsetY = 0
        case .topLeft: offsetX = shift.x > 0 ? -cosited : 0; offsetY = shift.y > 0 ? -(0.5 - 0.5 * scaleY) : 0
        }
    }
    @inline(__always) func x(_ p: Float) -> Float { p * scaleX - offsetX }
    @inline(__always) func y(_ p: Float) -> Float { p * scaleY - offsetY }
}

/// Planar YUV (8 or 10 bits, optional alpha plane) converted per sample with the buffer's own matrix and range.
struct PlanarYUVSampler: ContentSampler {
    let y: ScalarPlane, u: ScalarPlane, v: ScalarPlane
    let alpha: ScalarPlane?
    let grid: ChromaGrid
    let k: YUVToRGB
    let wide: Bool
    let nearest: Bool
    /// `k` in fixed point, for the runs.
    let fixed: YUVFixed
    /// `fixed` for the AVX2 kernel; nil when that kernel does not run here.
    let gatherMatrixIfEnabled: lp_yuv_matrix?
    /// From luma texels to the walks' 16.16 positions, for the projective kernel (GatherKernels.swift).
    let projectiveFixing: lp_yuv420_fixing
    /// The vector kernels (8-bit, bilinear, no alpha plane) take long segments.
    var longestSegment: Int { wide || nearest || alpha != nil ? 16 : SpanWalk.longestSegment }

    init(y: ScalarPlane, u: ScalarPlane, v: ScalarPlane, alpha: ScalarPlane?, grid: ChromaGrid, k: YUVToRGB, wide: Bool, nearest: Bool) {
        self.y = y; self.u = u; self.v = v; self.alpha = alpha; self.grid = grid; self.k = k; self.wide = wide
        self.nearest = nearest
        fixed = YUVFixed(k)
        gatherMatrixIfEnabled = avx2KernelsEnabled && !wide ? lp_yuv_matrix(fixed) : nil
        projectiveFixing = lp_yuv420_fixing(grid: grid, luma: y, chroma: u)
    }

    @inline(__always)
    func sample(_ px: Float, _ py: Float) -> SIMD4<Float> {
        let cx = grid.x(px), cy = grid.y(py)
        let yy: Float, cb: Float, cr: Float
        if wide {
            if nearest { yy = y.nearest16(px, py); cb = u.nearest16(cx, cy); cr = v.nearest16(cx, cy) }
            else { yy = y.bilinear16(px, py); cb = u.bilinear16(cx, cy); cr = v.bilinear16(cx, cy) }
        } else {
            if nearest { yy = y.nearest8(px, py); cb = u.nearest8(cx, cy); cr = v.nearest8(cx, cy) }
            else { yy = y.bilinear8(px, py); cb = u.bilinear8(cx, cy); cr = v.bilinear8(cx, cy) }
        }
        var rgb = yuvToBGRA(yy, cb, cr, k)
        if let alpha {
            let a = nearest ? alpha.nearest8(px, py) : alpha.bilinear8(px, py)
            rgb *= a / 255
            rgb.w = a
        }
        return rgb
    }
}

/// NV12: a luma plane and one interleaved U,V plane at half resolution both ways.
struct NV12Sampler: ContentSampler {
    let y: ScalarPlane
    let uv: ScalarPlane   // width counts U,V pairs
    let grid: ChromaGrid
    let k: YUVToRGB
    let nearest: Bool

    @inline(__always)
    func sample(_ px: Float, _ py: Float) -> SIMD4<Float> {
        let cx = grid.x(px), cy = grid.y(py)
        let yy = nearest ? y.nearest8(px, py) : y.bilinear8(px, py)
        let cb: Float, cr: Float
        if nearest {
            let i = Taps.nearest(cx, count: uv.width), j = Taps.nearest(cy, count: uv.height)
            cb = uv.load8(2 * i, j); cr = uv.load8(2 * i + 1, j)
        } else {
            let tx = Taps(cx, count: uv.width), ty = Taps(cy, count: uv.height)
            func lerp2(_ o: Int) -> Float {
                let a = uv.load8(2 * tx.i0 + o, ty.i0), b = uv.load8(2 * tx.i1 + o, ty.i0)
                let c = uv.load8(2 * tx.i0 + o, ty.i1), d = uv.load8(2 * tx.i1 + o, ty.i1)
                let top = a + (b - a) * tx.f, bottom = c + (d - c) * tx.f
                return top + (bottom - top) * ty.f
            }
            cb = lerp2(0); cr = lerp2(1)
        }
        return yuvToBGRA(yy, cb, cr, k)
    }
}

/// Y, Cb, Cr codes to opaque B, G, R, A in 0…255.
@inline(__always)
func yuvToBGRA(_ y: Float, _ cb: Float, _ cr: Float, _ k: YUVToRGB) -> SIMD4<Float> {
    let l = (y - k.yOffset) * k.yScale
    let u = cb - k.cOffset, v = cr - k.cOffset
    @inline(__always) func c(_ x: Float) -> Float { min(max(x, 0), 255) }
    return SIMD4<Float>(c(l + k.cbToB * u), c(l + k.cbToG * u + k.crToG * v), c(l + k.crToR * v), 255)
}
