import CKernels
import LayerGraphics

/// The per-pixel work: each function walks the spans of one draw in one area and blends into the target.
/// Choices (sampler, border, clips, the deep interior) are made before the loops; loops are specialised per sampler.
enum Kernels {
    /// Product of the coverages of the ancestors' clips at a pixel centre.
    @inline(__always)
    static func clipCoverage(_ clips: [ClipShape], px: Double, py: Double) -> Float {
        var k: Float = 1
        // By index and by field: `for c in clips` copies each clip, retaining and releasing its interiors (class
        // references) per pixel, which cost more than the coverage itself (2,000 clipped particles: 60% of a frame).
        for i in clips.indices {
            k *= clipCoverage(clips[i].toLocal, clips[i].shape, px: px, py: py)
            if k <= 0 { return 0 }
        }
        return k
    }

    /// The coverage of one clip at a pixel centre.
    @inline(__always)
    static func clipCoverage(_ c: ClipShape, px: Double, py: Double) -> Float {
        clipCoverage(c.toLocal, c.shape, px: px, py: py)
    }

    /// The coverage at a pixel centre of `shape` seen through `t` (a clip's fields, passed without the clip).
    @inline(__always)
    static func clipCoverage(_ t: PixelToLocal, _ shape: RoundedRect, px: Double, py: Double) -> Float {
        let w = t.g * px + t.h * py + t.i
        if w <= 0 { return 0 }
        let u = Float((t.a * px + t.b * py + t.c) / w), v = Float((t.d * px + t.e * py + t.f) / w)
        return coverage(of: shape, u: u, v: v, footprint: t.footprint(px: px, py: py))
    }

    /// Narrows columns [a, b) of row `y` to where every clip may let something through (its reach); false when
    /// nothing is left.
    @inline(__always)
    static func narrow(_ a: inout Int, _ b: inout Int, toReachOf clips: [ClipShape], row y: Int) -> Bool {
        for k in clips.indices {
            guard let reach = clips[k].reach else { continue } // unknown: no claim
            guard let i = reach.interval(row: y) else { return false }
            a = max(a, i.0); b = min(b, i.1)
            if a >= b { return false }
        }
        return true
    }

    /// Narrows `interval` to the columns of row `y` deep inside every clip; false when nothing is left.
    @inline(__always)
    static func narrow(_ interval: inout (Int, Int), toDeepInteriorOf clips: [ClipShape], row y: Int) -> Bool {
        for k in clips.indices {
            guard let i = clips[k].deep?.interval(row: y) else { return false }
            interval = (max(interval.0, i.0), min(interval.1, i.1))
            if interval.0 >= interval.1 { return false }
        }
        return true
    }

    static func drawBody(_ d: BodyDraw, into target: RenderTarget, area: PixelRect, occluders: [OpaqueRows]) {
        guard let contents = d.contents else {
            drawBody(d, sampler: Optional<BGRASampler>.none, into: target, area: area, occluders: occluders); return
        }
        switch contents.sampler {
        case .bgra(let s): drawBody(d, sampler: s, into: target, area: area, occluders: occluders)
        case .planarYUV(let s): drawBody(d, sampler: s, into: target, area: area, occluders: occluders)
        case .nv12(let s): drawBody(d, sampler: s, into: target, area: area, occluders: occluders)
        case .trilinear(let s): drawBody(d, sampler: s, into: target, area: area, occluders: occluders)
        }
        withExtendedLifetime(contents.owner) {}
    }

    /// Background, contents and border of one layer, in that order, per pixel.
    static func drawBody<S: ContentSampler>(_ d: BodyDraw, sampler: S?, into target: RenderTarget, area: PixelRect,
                                            occluders: [OpaqueRows]) {
        let p = d.placement
        let t = p.toLocal
        let shape = d.shape
        let hasClips = !p.clips.isEmpty
        let contents = d.contents
        let cRect = contents?.rect ?? shape
        let cClip = contents?.clippedToShape ?? false
        let map = contents?.map ?? ContentsMap(x: AxisMap(AxisPiece(scale: 0, offset: 0)), y: AxisMap(AxisPiece(scale: 0, offset: 0)))
        // The deep interior measures linearity in the reference pieces' texels (the only pieces without a nine-slice).
        let sx = map.x.reference.scale, ox = map.x.reference.offset, sy = map.y.reference.scale, oy = map.y.reference.offset
        let background = d.background
        let border = d.border
        let opacity = d.opacity
        let tint = d.bodyTint
        // In the deep interior (of the draw and of every clip): the colour is the background and contents at
        // full coverage.
        let clipsHaveDeep = p.clips.allSatisfy { $0.deep != nil }
        let deep = hasClips && !clipsHaveDeep ? nil : d.deep
        // Clips in the draw's own plane (a video layer filling its rounded card) take the pixel's local point and
        // footprint instead of projecting it again; contents whose rect is the shape take the shape's coverage.
        let clipInPlane = p.clips.map { $0.toLocal.isSame(as: t) }
        let contentsRectIsShape = cRect == shape
        let solidWord: UInt32? = (sampler == nil && opacity >= 1 && (background?.w ?? 0) >= 255) ? pack(background!) : nil
        let deepBase = (background ?? .zero) * opacity
        // Whether everything beneath the border lies within the shape (background, contents clipped to it or filling
        // it): then body and border are one shape with one outer edge (see `shade`).
        let nestedInShape = sampler == nil || cClip || contentsRectIsShape

        /// Every step of SEMANTICS.md's per-layer order, with analytic coverage.
        @inline(__always)
        func shade(_ x: Int, _ py: Double, _ row: UnsafeMutablePointer<UInt32>) {
            let px = Double(x) + 0.5
            guard let (u, v, f) = t.local(px: px, py: py) else { return }
            let covShape = coverage(of: shape, u: u, v: v, footprint: f)
            var borderCoverage: Float = 0
            if let border, covShape > 0 {
                borderCoverage = max(covShape - coverage(of: border.inner, u: u, v: v, footprint: f), 0)
            }
            var c = SIMD4<Float>.zero
            if let border, borderCoverage >= 1, border.color.w >= 255 {
                // Wholly under an opaque border: nothing beneath shows.
                c = border.color
            } else {
            if let background, covShape > 0 { c = background * covShape }
            if let sampler {
                var cc = contentsRectIsShape ? covShape : coverage(of: cRect, u: u, v: v, footprint: f)
                if cClip { cc *= covShape }
                if cc > 0 {
                    let tx = map.x(u), ty = map.y(v)
                    let s = S.usesLevelOfDetail ? sampler.sample(tx, ty, lod: map.levelOfDetail(u, v, f)) : sampler.sample(tx, ty)
                    c = s * cc + c * (1 - s.w * (cc / 255))
                }
            }
            if let border, borderCoverage > 0 {
                // One shape: inside the border's inner edge the picture, between the edges the border, and the outer
                // coverage once. The picture's share of the pixel (already scaled by covShape) is hidden by the
                // border's share *of the covered part*: on the outer edge, where the inner edge is far, that is
                // all of it, so no picture shows through the border's fringe. Contents reaching past the shape
                // keep the plain over (their coverage is not the shape's).
                let hidden = nestedInShape ? min(borderCoverage / covShape, 1) : borderCoverage
                c = border.color * borderCoverage + c * (1 - border.color.w * (hidden / 255))
            }
            }
            if let tint { c *= tint }
            var k = opacity
            if hasClips {
                for ci in p.clips.indices {
                    k *= clipInPlane[ci] ? coverage(of: p.clips[ci].shape, u: u, v: v, footprint: f) : clipCoverage(p.clips[ci].toLocal, p.clips[ci].shape, px: px, py: py)
                    if k <= 0 { return }
                }
            }
            if k < 1 { c *= k }
            blend(c, over: &row[x])
        }

        /// The deep interior: full coverage, so only the colour is computed. Contents are sampled per pixel by a
        /// sampler's projective kernel where it has one, else in short segments with exact ends (perspective-correct
        /// to well under a texel) through the sampler's runs.
        let direct = opacity >= 1 && background == nil && (contents?.isOpaque ?? false) && tint == nil
        // Nothing but the opacity between the samples and the row (a faded video, a translucent image): whole runs.
        let plainOver = background == nil && tint == nil
        var scratch = [UInt32](repeating: 0, count: SpanWalk.longestSegment)
        @inline(__always)
        func texel(_ x: Double, _ py: Double) -> (Double, Double)? {
            let W = t.g * x + t.h * py + t.i
            if W <= 0 { return nil }
            let u = (t.a * x + t.b * py + t.c) / W, v = (t.d * x + t.e * py + t.f) / W
            return (u * Double(sx) + Double(ox), v * Double(sy) + Double(oy))
        }
        @inline(__always)
        func shadeDeep(_ x0: Int, _ x1: Int, _ py: Double, _ row: UnsafeMutablePointer<UInt32>) {
            if let solidWord {
                (row + x0).update(repeating: solidWord, count: x1 - x0)
                return
            }
            guard let sampler else {
                // A border-only body (a card with sublayers draws its border last) has nothing inside.
                if deepBase == .zero { return }
                for x in x0..<x1 { blend(deepBase, over: &row[x]) }
                return
            }
            scratch.withUnsafeMutableBufferPointer { tmp in
                /// Samples [x, x + n) with `fill`: straight into the row when nothing is beneath, else through `tmp`
                /// (n ≤ its count), then blended with the opacity and the background. `fill` may decline (false,
                /// nothing written): then nothing is blended either.
                @inline(__always)
                func compose(_ x: Int, _ n: Int, _ fill: (UnsafeMutablePointer<UInt32>) -> Bool) {
                    if direct {
                        _ = fill(row + x)
                        return
                    }
                    guard fill(tmp.baseAddress!) else { return }
                    if plainOver {
                        OpacityBlend.blendRow(row + x, tmp.baseAddress!, count: n, opacity: opacity)
                        return
                    }
                    for i in 0..<n {
                        var c = unpack(tmp[i])
                        let sourceAlpha = c.w
                        if opacity < 1 { c *= opacity }
                        if background != nil { c += deepBase * (1 - sourceAlpha * (1 / 255)) }
                        if let tint { c *= tint }
                        blend(c, over: &row[x + i])
                    }
                }
                var x = x0
                // A sampler with a per-pixel projective kernel takes the run whole (a map without nine-slice breaks),
                // in pieces of `tmp`'s size when it must be blended.
                if map.isAffine && !S.usesLevelOfDetail {
                    @inline(__always)
                    func projection(_ k: Double) -> lp_row_projection {
                        lp_row_projection(t, texelScale: (Double(sx), Double(sy)), texelOffset: (Double(ox), Double(oy)), x0: x0, py: py, k: k)
                    }
                    // A picture placed texel for pixel is converted (and faded) a row at a time (TexelForPixel.swift).
                    if direct || plainOver,
                       sampler.fillTexelForPixel(row + x0, count: x1 - x0, projection(0), blendingAt: direct ? nil : opacity) {
                        return
                    }
                    var accepted = true
                    while x < x1 && accepted {
                        let n = direct ? x1 - x : min(x1 - x, tmp.count)
                        let projection = projection(Double(x - x0))
                        compose(x, n) { accepted = sampler.fillProjective($0, count: n, projection); return accepted }
                        if accepted { x += n }
                    }
                }
                if x >= x1 { return }
                /// One run that lies in one piece of the contents map per axis (ContentsMap.swift).
                @inline(__always)
                func run(_ x: Int, _ n: Int, _ start: (Double, Double), _ step: (Double, Double), _ pieceX: Float, _ pieceY: Float) {
                    compose(x, n) { dst in
                        if S.usesLevelOfDetail {
                            let f = t.footprint(px: Double(x) + 0.5, py: py)
                            let lod = footprintLevel(dudx: f.dudx, dudy: f.dudy, dvdx: f.dvdx, dvdy: f.dvdy, scaleX: pieceX, scaleY: pieceY)
                            sampler.fillRun(dst, count: n, x: start.0, y: start.1, dx: step.0, dy: step.1, lod: lod)
                        } else {
                            sampler.fillRun(dst, count: n, x: start.0, y: start.1, dx: step.0, dy: step.1)
                        }
                        return true
                    }
                }
                // A nine-slice splits a segment where it crosses a break; an affine map passes it through as is.
                SpanWalk.linearSegments(x, x1, longest: sampler.longestSegment, texel: { texel($0, py) }) { x, n, start, step in
                    map.forEachPiece(n, start, step) { i, m, pieceStart, pieceStep, pieceX, pieceY in
                        run(x + i, m, pieceStart, pieceStep, pieceX, pieceY)
                    }
                }
            }
        }

        // An opaque border's band: pixels wholly under it take its colour without any coverage work (`hull`: the
        // row's pixels that the border's inner edge may reach, where the band stops).
        let band = d.borderBand
        let borderWord = band.map { _ in pack(d.border!.color * opacity * (tint ?? SIMD4(repeating: 1))) }
        let borderOpaque = opacity >= 1 && (tint?.w ?? 1) >= 1
        @inline(__always)
        func shadeEdge(_ a: Int, _ b: Int, _ bandRow: (outer: (Int, Int), hull: (Int, Int)?)?, _ py: Double,
                       _ row: UnsafeMutablePointer<UInt32>) {
            guard let borderWord, a < b, let (outer, hull) = bandRow else {
                for x in a..<b { shade(x, py, row) }
                return
            }
            var x = a
            while x < b {
                let inOuter = x >= outer.0 && x < outer.1
                let inHull = hull.map { x >= $0.0 && x < $0.1 } ?? false
                // The end of the current stretch: the next boundary of either interval.
                var end = b
                @inline(__always) func cut(_ edge: Int) { if edge > x && edge < end { end = edge } }
                cut(outer.0); cut(outer.1)
                if let hull { cut(hull.0); cut(hull.1) }
                if inOuter && !inHull {
                    if borderOpaque { (row + x).update(repeating: borderWord, count: end - x) }
                    else { for i in x..<end { blend(unpack(borderWord), over: &row[i]) } }
                } else {
                    for i in x..<end { shade(i, py, row) }
                }
                x = end
            }
        }

        /// The columns of row `y` that the shape and every clip may reach (the polygon has an antialiasing margin,
        /// rounded corners leave their squares' outer parts untouched); nil: none.
        @inline(__always)
        func reach(_ y: Int) -> (Int, Int)? {
            var a = Int.min, b = Int.max
            if let reach = d.reach {
                guard let r = reach.interval(row: y) else { return nil }
                (a, b) = r
            }
            for k in p.clips.indices {
                guard let reach = p.clips[k].reach else { continue }
                guard let r = reach.interval(row: y) else { return nil }
                a = max(a, r.0); b = min(b, r.1)
            }
            return a < b ? (a, b) : nil
        }

        // The band's and the deep interior's columns depend on the row only: found once per row, not per visible
        // run (a draw under another is cut into two runs a row).
        var rowOfIntervals = Int.min
        var bandRow: (outer: (Int, Int), hull: (Int, Int)?)? = nil
        var inside: (Int, Int)? = nil
        SpanWalk.forEachRun(p, area: area, occluders: occluders, target: target, reach: reach) { y, py, row, a, b in
            if y != rowOfIntervals {
                rowOfIntervals = y
                // The opaque border's band on this row (once for both sides of the interior).
                bandRow = band.flatMap { band in
                    band.outer.interval(row: y).map { (outer: $0, hull: band.inner?.interval(row: y)) }
                }
                inside = deep?.interval(row: y)
                if var i = inside, hasClips { inside = Self.narrow(&i, toDeepInteriorOf: p.clips, row: y) ? i : nil }
            }
            if let inside, inside.0 < b, inside.1 > a {
                let d0 = max(a, inside.0), d1 = min(b, inside.1)
                shadeEdge(a, d0, bandRow, py, row)
                shadeDeep(d0, d1, py, row)
                shadeEdge(d1, b, bandRow, py, row)
            } else {
                shadeEdge(a, b, bandRow, py, row)
            }
        }

    }

    /// A blurred shadow mask, tinted, in the layer's plane. Walked in short exact-ended segments like the
    /// deep interior (the mask is smooth, so a linear walk within a segment is exact to a fraction of a texel),
    /// with integer bilinear taps and an integer blend; ancestors' clips fall back to per-pixel coverage.
    static func drawShadow(_ d: ShadowDraw, into target: RenderTarget, area: PixelRect, occluders: [OpaqueRows]) {
        let p = d.placement
        let t = p.toLocal
        let mask = d.mask
        let plane = ScalarPlane(base: UnsafeRawPointer(mask.bytes), bytesPerRow: mask.bytesPerRow, width: mask.width, height: mask.height)
        let tint = d.color * d.opacity * 255      // premultiplied 0…255 at full mask
        let hasClips = !p.clips.isEmpty
        let tintWord = pack(tint)
        let tintAlpha = Int(tintWord >> 24)
        let scale = Double(d.scale), offX = Double(d.offsetX), offY = Double(d.offsetY)
        // The AVX2 kernel (CKernels/tint_mask_avx2.c) gives the same pixels as the loop below.
        let gather = avx2KernelsEnabled
        @inline(__always)
        func texel(_ x: Double, _ py: Double) -> (Double, Double)? {
            let W = t.g * x + t.h * py + t.i
            if W <= 0 { return nil }
            return ((t.a * x + t.b * py + t.c) / W * scale + offX, (t.d * x + t.e * py + t.f) / W * scale + offY)
        }
        SpanWalk.forEachRun(p, area: area, occluders: occluders, target: target) { _, py, row, a, b in
            // The mask is smooth (blurred): long segments, within the same bound, cost nothing visible.
            SpanWalk.linearSegments(a, b, longest: SpanWalk.longestSegment, texel: { texel($0, py) }) { x, n, start, step in
                var wx = FixedWalk(start.0, step.0, count: plane.width)
                var wy = FixedWalk(start.1, step.1, count: plane.height)
                if !hasClips && wx.staysInside(count: n) && wy.staysInside(count: n) {
                    var first = x
                    if gather, plane.gatherStaysInside(count: n, wx, wy) {
                        let done = lp_tint_mask_bilinear_avx2(row + x, n, mask.bytes, mask.bytesPerRow, Int32(truncatingIfNeeded: wx.t),
                                                              Int32(truncatingIfNeeded: wx.step), Int32(truncatingIfNeeded: wy.t),
                                                              Int32(truncatingIfNeeded: wy.step), tintWord)
                        wx = wx.advanced(by: done); wy = wy.advanced(by: done)
                        first = x + done
                    }
                    for i in first..<(x + n) {
                        let alpha = plane.bilinear8Fixed(wx.nextInside(), wy.nextInside())
                        if alpha > 0 { blendTint(tintWord, alpha88: alpha, tintAlpha: tintAlpha, over: &row[i]) }
                    }
                    return
                }
                for i in x..<(x + n) {
                    // Outside the mask is transparent (its margin fades to 0 before the edge, so clamping is exact).
                    var alpha = plane.bilinear8Fixed(wx.next(), wy.next())   // 8.8
                    if alpha <= 0 { continue }
                    if hasClips {
                        alpha = Int(Float(alpha) * clipCoverage(p.clips, px: Double(i) + 0.5, py: py))
                        if alpha <= 0 { continue }
                    }
                    blendTint(tintWord, alpha88: alpha, tintAlpha: tintAlpha, over: &row[i])
                }
            }
        }
        withExtendedLifetime(mask) {}
    }
}

/// dst = tint·m + dst·(1 − tint.a·m), m = alpha88 / 65280, in integers (two channels per 64-bit word).
@inline(__always)
func blendTint(_ tint: UInt32, alpha88: Int, tintAlpha: Int, over dst: inout UInt32) {
    let m = UInt64(min(alpha88, 65280) &>> 8)               // 0…255
    let keep = 255 &- (UInt64(tintAlpha) &* m &+ 127) / 255 // 0…255
    @inline(__always) func spread(_ w: UInt32) -> (UInt64, UInt64) {
        (UInt64(w & 0xff) | UInt64((w >> 16) & 0xff) << 32, UInt64((w >> 8) & 0xff) | UInt64(w >> 24) << 32)
    }
    let (t0, t1) = spread(tint), (d0, d1) = spread(dst)
    @inline(__always) func mix(_ t: UInt64, _ d: UInt64) -> UInt32 {
        // x/255 per 32-bit lane, rounded: (x + 128 + ((x + 128) >> 8)) >> 8, the shifted-in bits masked off.
        let v = t &* m &+ d &* keep &+ 0x0000_0080_0000_0080
        let q = ((v &+ ((v &>> 8) & 0x00ff_ffff_00ff_ffff)) &>> 8) & 0x0000_01ff_0000_01ff
        return UInt32(truncatingIfNeeded: min(q & 0xffff, 255)) | UInt32(truncatingIfNeeded: min(q &>> 32, 255)) << 16
    }
    dst = mix(t0, d0) | mix(t1, d1) << 8
}
