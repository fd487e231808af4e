import CKernels

/// Premultiplied BGRA → 8-bit planar Y′CbCr 4:2:0, the picture a movie encoder takes.
///
/// The premultiplied values are converted as they are (the picture over black). Y is per pixel; Cb and Cr are
/// sited where MPEG-2/H.264 decoders read them by default: horizontally on the even column (taps ¼, ½, ¼ on
/// x − 1, x, x + 1), vertically between the two rows of the pair (their average). Beyond the left and right edges
/// the edge pixel repeats; an odd height's last row pairs with itself. Codes are rounded to nearest and stay in
/// 0…255. BT.601/709/2020 weights; limited range is Y 16…235 and C 16…240, full range 0…255.
public enum YUV420Conversion {
    /// Writes `surface` into three planes: Y of `surface.width` × `surface.height` codes, Cb and Cr of
    /// ⌈width / 2⌉ × ⌈height / 2⌉.
    ///
    /// Cost on one core: about 0.45 ns a pixel with the AVX2 steps (0.9–1.0 ms for 1920 × 1080), half the time of the
    /// Swift SIMD steps alone, timed alternately in one process (1.9–2.0 ms; libswscale takes 4–5 ms); 16 pixels a step.
    public static func convert(_ surface: Surface, matrix: ColorMatrix, range: ColorRange,
                               y: UnsafeMutablePointer<UInt8>, yStride: Int,
                               u: UnsafeMutablePointer<UInt8>, uStride: Int,
                               v: UnsafeMutablePointer<UInt8>, vStride: Int) {
        convert(surface, matrix: matrix, range: range, y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride,
                avx2: avx2KernelsEnabled)
    }

    /// `convert` with the AVX2 steps or without them (the tests compare the two).
    static func convert(_ surface: Surface, matrix: ColorMatrix, range: ColorRange,
                        y: UnsafeMutablePointer<UInt8>, yStride: Int,
                        u: UnsafeMutablePointer<UInt8>, uStride: Int,
                        v: UnsafeMutablePointer<UInt8>, vStride: Int, avx2: Bool) {
        let planes = Planes(y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride)
        let kernel = YUV420Kernel(matrix: matrix, range: range, avx2: avx2)
        for row in stride(from: 0, to: surface.height, by: 2) {
            kernel.convertRowPair(surface, row: row, columns: 0, surface.width, into: planes)
        }
    }

    /// Converts only columns `x0..<x1` of rows `y0..<y1` into planes that already hold a picture (`x0`, `y0` even;
    /// `x1`, `y1` even or the surface's edge): what a frame composited in one rectangle over a video needs. The
    /// rectangle's first chroma sample takes its left neighbour to be its own column, as at the picture's edge.
    public static func convert(_ surface: Surface, columns x0: Int, _ x1: Int, rows y0: Int, _ y1: Int,
                               matrix: ColorMatrix, range: ColorRange,
                               y: UnsafeMutablePointer<UInt8>, yStride: Int,
                               u: UnsafeMutablePointer<UInt8>, uStride: Int,
                               v: UnsafeMutablePointer<UInt8>, vStride: Int) {
        let a = max(0, x0) & ~1, b = min(surface.width, x1), top = max(0, y0) & ~1, bottom = min(surface.height, y1)
        guard a < b, top < bottom else { return }
        let planes = Planes(y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride)
        let kernel = YUV420Kernel(matrix: matrix, range: range, avx2: avx2KernelsEnabled)
        for row in stride(from: top, to: bottom, by: 2) {
            kernel.convertRowPair(surface, row: row, columns: a, b, into: planes)
        }
    }

    /// `convert` for planes that hold the conversion of the surface's previous frame, drawn over the same canvas
    /// as the new one (`previous` and `current` describe the two frames): only the row pairs and columns where
    /// either frame differs from the canvas are converted. The planes come out byte for byte as `convert` writes
    /// them. Frames over different canvases are converted whole.
    public static func convert(_ surface: Surface, matrix: ColorMatrix, range: ColorRange,
                               y: UnsafeMutablePointer<UInt8>, yStride: Int,
                               u: UnsafeMutablePointer<UInt8>, uStride: Int,
                               v: UnsafeMutablePointer<UInt8>, vStride: Int,
                               since previous: Backdrop, now current: Backdrop) {
        convert(surface, matrix: matrix, range: range, y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride,
                since: previous, now: current, avx2: avx2KernelsEnabled)
    }

    static func convert(_ surface: Surface, matrix: ColorMatrix, range: ColorRange,
                        y: UnsafeMutablePointer<UInt8>, yStride: Int,
                        u: UnsafeMutablePointer<UInt8>, uStride: Int,
                        v: UnsafeMutablePointer<UInt8>, vStride: Int,
                        since previous: Backdrop, now current: Backdrop, avx2: Bool) {
        let w = surface.width, h = surface.height
        guard previous.sharesCanvas(with: current), current.width == w, current.height == h else {
            convert(surface, matrix: matrix, range: range, y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride,
                    avx2: avx2)
            return
        }
        let planes = Planes(y: y, yStride: yStride, u: u, uStride: uStride, v: v, vStride: vStride)
        let kernel = YUV420Kernel(matrix: matrix, range: range, avx2: avx2)
        for row in stride(from: 0, to: h, by: 2) {
            guard let changed = Backdrop.changedColumns(rows: row..<min(row + 2, h), previous, current) else { continue }
            // Chroma at even column x filters x − 1, x, x + 1. The stretch starts at an even column whose left
            // neighbour is canvas in both rows (so the converter's edge repeat reads the true value there), and
            // ends past the last column whose filter reaches a changed pixel, or at the picture's edge.
            let x0 = max(0, (changed.start - 1) & ~1)
            let x1 = min(w, (changed.end + 2) & ~1)
            kernel.convertRowPair(surface, row: row, columns: x0, x1, into: planes)
        }
    }
}

/// The three planes a conversion writes.
struct Planes {
    let y: UnsafeMutablePointer<UInt8>, yStride: Int
    let u: UnsafeMutablePointer<UInt8>, uStride: Int
    let v: UnsafeMutablePointer<UInt8>, vStride: Int
}

extension YUV420Kernel {
    /// Converts columns x0..<x1 (x0 even) of rows `row` and `row + 1` (the row itself when it is the last of an
    /// odd height): luma and chroma together, so that the chroma pass reads the rows the luma passes left in the
    /// cache. (Luma and chroma in one loop would not fit the 16 SSE registers.) The stretch's first chroma filter
    /// takes its left neighbour to be column x0 itself, as at the picture's left edge.
    func convertRowPair(_ surface: Surface, row: Int, columns x0: Int, _ x1: Int, into p: Planes) {
        let h = surface.height, n = x1 - x0
        guard n > 0 else { return }
        let top = UnsafePointer(surface.pixels + row * surface.pixelsPerRow + x0)
        let bottom = row + 1 < h ? top + surface.pixelsPerRow : top
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * 17) { scratch in
            let scratch = scratch.baseAddress!
            lumaRow(top, width: n, into: p.y + row * p.yStride + x0, scratch: scratch)
            if row + 1 < h { lumaRow(bottom, width: n, into: p.y + (row + 1) * p.yStride + x0, scratch: scratch) }
            chromaRow(top, bottom, width: n, cb: p.u + (row / 2) * p.uStride + x0 / 2, cr: p.v + (row / 2) * p.vStride + x0 / 2,
                      scratch: scratch)
        }
    }
}

/// Four pixels: one SSE register.
typealias PixelQuad = SIMD4<UInt32>
typealias PixelQuads = (PixelQuad, PixelQuad, PixelQuad, PixelQuad)

/// The conversion's weights in fixed point, and its row loops.
///
/// The maths is dot products of 16-bit lanes. A pixel word read as 16-bit lanes is (G·2⁸ + B, A·2⁸ + R): masked
/// it gives (B, R), shifted (G, A), and `multiplyAdd` (one `pmaddwd`) weighs both lanes of each pixel and adds
/// them. Weights are rounded to 2⁻¹⁵ for Y and to 2⁻¹⁸ for C (which weighs sums of eight samples): a code is
/// off by less than 0.02 before rounding.
struct YUV420Kernel {
    /// Y weights × 2¹⁵ for (B, R) and (G, A), and the offset × 2¹⁵ with the rounding half.
    let yBR, yGA: SIMD8<Int16>
    let yOffset: SIMD4<Int32>
    /// C weights × 2¹⁸ for sums of eight samples (¼, ½, ¼ of two rows, times 8), and the offset likewise.
    let cbBR, cbGA, crBR, crGA: SIMD8<Int16>
    let cOffset: SIMD4<Int32>
    /// The same weights for the AVX2 steps (CKernels' `lp_bgra_luma_avx2` and `lp_bgra_chroma_avx2`, bit for bit
    /// `luma` and `chroma` on eight pixels a register), or nil for the Swift steps alone.
    let avx2: lp_bgra_yuv420_weights?

    init(matrix: ColorMatrix, range: ColorRange, avx2 useAVX2: Bool) {
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let (yBase, ySpan, cSpan): (Int32, Double, Double) = range == .limited ? (16, 219, 224) : (0, 255, 255)
        func lanes(_ first: Double, _ second: Double, _ scale: Double) -> SIMD8<Int16> {
            let a = Int16((first * scale).rounded()), b = Int16((second * scale).rounded())
            return SIMD8(a, b, a, b, a, b, a, b)
        }
        let ys = ySpan / 255
        yBR = lanes(kb * ys, kr * ys, 32768); yGA = lanes(kg * ys, 0, 32768)
        yOffset = SIMD4(repeating: (yBase << 15) + (1 << 14))
        // Cb = (B − Y′) / (2 (1 − kb)), Cr = (R − Y′) / (2 (1 − kr)), with Y′ = kr R + kg G + kb B.
        let cb = cSpan / 255 / 8 / (2 * (1 - kb)), cr = cSpan / 255 / 8 / (2 * (1 - kr))
        cbBR = lanes((1 - kb) * cb, -kr * cb, 262_144); cbGA = lanes(-kg * cb, 0, 262_144)
        crBR = lanes(-kb * cr, (1 - kr) * cr, 262_144); crGA = lanes(-kg * cr, 0, 262_144)
        // No clamp is needed. Y's weights are positive and sum to 1, so Y stays in its span; limited-range chroma
        // spans 16…240, and full range 0.5…255.5, centred 1/64 lower here so that both ends round inwards (pure
        // blue's Cb to 255, not 256).
        let center: Int32 = range == .limited ? 128 << 18 : (128 << 18) - (1 << 12)
        cOffset = SIMD4(repeating: center + (1 << 17))
        avx2 = !useAVX2 ? nil : lp_bgra_yuv420_weights(
            yB: yBR[0], yR: yBR[1], yG: yGA[0], yA: yGA[1], cbB: cbBR[0], cbR: cbBR[1], cbG: cbGA[0], cbA: cbGA[1],
            crB: crBR[0], crR: crBR[1], crG: crGA[0], crA: crGA[1], yOffset: yOffset[0], cOffset: cOffset[0])
    }

    /// The Y codes of one row.
    func lumaRow(_ src: UnsafePointer<UInt32>, width: Int, into dst: UnsafeMutablePointer<UInt8>,
                 scratch: UnsafeMutablePointer<UInt32>) {
        let whole = width / 16 * 16
        let done = avx2.map { lp_bgra_luma_avx2(dst, src, whole, $0) } ?? 0
        for x in stride(from: done, to: whole, by: 16) {
            UnsafeMutableRawPointer(dst + x).storeBytes(of: luma(src + x), as: SIMD16<UInt8>.self)
        }
        guard whole < width else { return }
        for i in 0..<16 { scratch[i] = src[min(whole + i, width - 1)] }
        let codes = luma(scratch)
        for i in 0..<(width - whole) { dst[whole + i] = codes[i] }
    }

    /// The Cb and Cr codes of one row pair.
    func chromaRow(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>, width: Int,
                   cb: UnsafeMutablePointer<UInt8>, cr: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<UInt32>) {
        // Steps 1…lastInside read columns x − 1 … x + 15 in place. The first and the last steps reach past an
        // edge: they run on copies with the edge pixel repeated.
        @inline(__always) func edgeStep(from x: Int) {
            for i in 0..<17 {
                let column = min(max(x - 1 + i, 0), width - 1)
                scratch[i] = top[column]; scratch[17 + i] = bottom[column]
            }
            let codes = chroma(scratch + 1, scratch + 18)
            for i in 0..<min(8, (width - x + 1) / 2) { cb[x / 2 + i] = codes.cb[i]; cr[x / 2 + i] = codes.cr[i] }
        }
        let lastInside = width / 16 - 1
        edgeStep(from: 0)
        if lastInside >= 1 {
            let done = avx2.map { lp_bgra_chroma_avx2(cb + 8, cr + 8, top + 16, bottom + 16, 16 * lastInside, $0) } ?? 0
            for x in stride(from: 16 + done, through: 16 * lastInside, by: 16) {
                let codes = chroma(top + x, bottom + x)
                UnsafeMutableRawPointer(cb + x / 2).storeBytes(of: codes.cb, as: SIMD8<UInt8>.self)
                UnsafeMutableRawPointer(cr + x / 2).storeBytes(of: codes.cr, as: SIMD8<UInt8>.self)
            }
        }
        let tail = 16 * max(1, lastInside + 1)
        if tail < width { edgeStep(from: tail) }
    }

    /// Y codes of the 16 pixels from `p`.
    @inline(__always)
    func luma(_ p: UnsafePointer<UInt32>) -> SIMD16<UInt8> {
        @inline(__always) func luma(_ p: PixelQuad) -> SIMD4<Int32> {
            (multiplyAdd(blueRed(p), yBR) &+ multiplyAdd(greenAlpha(p), yGA) &+ yOffset) &>> 15
        }
        let q = load(p)
        let codes = (luma(q.0), luma(q.1), luma(q.2), luma(q.3))
        return SIMD16<UInt8>(truncatingIfNeeded: unsafeBitCast(codes, to: SIMD16<Int32>.self))
    }

    /// Cb and Cr codes of the 8 even columns of 16 pixels of two rows, from `top` and `bottom`; `top[-1]` and
    /// `bottom[-1]` are read too (the left tap of the first column).
    @inline(__always)
    func chroma(_ top: UnsafePointer<UInt32>, _ bottom: UnsafePointer<UInt32>) -> (cb: SIMD8<UInt8>, cr: SIMD8<UInt8>) {
        let t = load(top), b = load(bottom), tl = load(top - 1), bl = load(bottom - 1)
        @inline(__always) func codes(_ first: ChromaTaps, _ second: ChromaTaps) -> (cb: SIMD4<Int32>, cr: SIMD4<Int32>) {
            let br = ChromaTaps.filter(first.sum(blueRed), second.sum(blueRed))
            let ga = ChromaTaps.filter(first.sum(greenAlpha), second.sum(greenAlpha))
            return ((multiplyAdd(br, cbBR) &+ multiplyAdd(ga, cbGA) &+ cOffset) &>> 18,
                    (multiplyAdd(br, crBR) &+ multiplyAdd(ga, crGA) &+ cOffset) &>> 18)
        }
        let low = codes(ChromaTaps(t.0, b.0, tl.0, bl.0), ChromaTaps(t.1, b.1, tl.1, bl.1))
        let high = codes(ChromaTaps(t.2, b.2, tl.2, bl.2), ChromaTaps(t.3, b.3, tl.3, bl.3))
        return (SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast((low.cb, high.cb), to: SIMD8<Int32>.self)),
                SIMD8<UInt8>(truncatingIfNeeded: unsafeBitCast((low.cr, high.cr), to: SIMD8<Int32>.self)))
    }

    @inline(__always)
    func load(_ p: UnsafePointer<UInt32>) -> PixelQuads {
        unsafeBitCast(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt32>.self), to: PixelQuads.self)
    }
}

/// Four columns' chroma taps: pixels x … x + 3 of both rows (`t`, `b`) and x − 1 … x + 2 (`tl`, `bl`).
///
/// Summed per channel in 16-bit lanes (at most 4 × 255), each 64-bit lane (two columns) then holds the sums at
/// (x − 1) + x in its low half and at x + (x + 1) in its high half: adding the halves gives ¼, ½, ¼ over both rows
/// (× 8) at even column x, at most 8 × 255 a field, so no carries.
struct ChromaTaps {
    let t, b, tl, bl: PixelQuad

    @inline(__always)
    init(_ t: PixelQuad, _ b: PixelQuad, _ tl: PixelQuad, _ bl: PixelQuad) { self.t = t; self.b = b; self.tl = tl; self.bl = bl }

    @inline(__always)
    func sum(_ channels: (PixelQuad) -> SIMD8<Int16>) -> SIMD8<Int16> {
        channels(t) &+ channels(b) &+ channels(tl) &+ channels(bl)
    }

    /// The filtered sums at the even columns of two `sum`s (eight columns), as 16-bit lanes like a pixel's.
    @inline(__always)
    static func filter(_ first: SIMD8<Int16>, _ second: SIMD8<Int16>) -> SIMD8<Int16> {
        let pairs = unsafeBitCast((first, second), to: SIMD4<UInt64>.self)
        return unsafeBitCast(SIMD4<UInt32>(truncatingIfNeeded: pairs &+ (pairs &>> 32)), to: SIMD8<Int16>.self)
    }
}

/// The (B, R) of four pixels as 16-bit lanes. (Masked as 16-bit lanes, not as 32-bit words: then LLVM still
/// sees the `pmaddwd` pattern of `multiplyAdd`.)
@inline(__always)
func blueRed(_ p: PixelQuad) -> SIMD8<Int16> {
    unsafeBitCast(unsafeBitCast(p, to: SIMD8<UInt16>.self) & 0xff, to: SIMD8<Int16>.self)
}

/// The (G, A) of four pixels as 16-bit lanes.
@inline(__always)
func greenAlpha(_ p: PixelQuad) -> SIMD8<Int16> {
    unsafeBitCast(unsafeBitCast(p, to: SIMD8<UInt16>.self) &>> 8, to: SIMD8<Int16>.self)
}

/// a₀b₀ + a₁b₁, a₂b₂ + a₃b₃, … in 32 bits: LLVM makes this one `pmaddwd`.
@inline(__always)
func multiplyAdd(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>) -> SIMD4<Int32> {
    let products = SIMD8<Int32>(truncatingIfNeeded: a) &* SIMD8<Int32>(truncatingIfNeeded: b)
    return products.evenHalf &+ products.oddHalf
}
