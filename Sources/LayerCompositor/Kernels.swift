import LayerGraphics

/// The per-pixel work: each function walks the spans of one draw in one area and blends into the target.
/// Choices (sampler, border, clips) are made before the loops; the loops are specialised per sampler.
enum Kernels {
    /// Product of the coverages of the ancestors' clips at a pixel centre.
    @inline(__always)
    static func clipCoverage(_ clips: [ClipShape], px: Double, py: Double) -> Float {
        var k: Float = 1
        for c in clips {
            let t = c.toLocal
            let w = t.g * px + t.h * py + t.i
            if w <= 0 { return 0 }
            let u = Float((t.a * px + t.b * py + t.c) / w), v = Float((t.d * px + t.e * py + t.f) / w)
            k *= coverage(of: c.shape, u: u, v: v, footprint: t.footprint(px: px, py: py))
            if k <= 0 { return 0 }
        }
        return k
    }

    static func drawBody(_ d: BodyDraw, into target: RenderTarget, area: PixelRect) {
        guard let contents = d.contents else {
            drawBody(d, sampler: Optional<BGRASampler>.none, into: target, area: area); return
        }
        switch contents.sampler {
        case .bgra(let s): drawBody(d, sampler: s, into: target, area: area)
        case .planarYUV(let s): drawBody(d, sampler: s, into: target, area: area)
        case .nv12(let s): drawBody(d, sampler: s, into: target, area: area)
        }
        withExtendedLifetime(contents.owner) {}
    }

    /// Background, contents and border of one layer, in that order, per pixel.
    static func drawBody<S: ContentSampler>(_ d: BodyDraw, sampler: S?, into target: RenderTarget, area: PixelRect) {
        let p = d.placement
        let t = p.toLocal
        let shape = d.shape
        let hasClips = !p.clips.isEmpty
        let contents = d.contents
        let cRect = contents?.rect ?? shape
        let cClip = contents?.clippedToShape ?? false
        let sx = contents?.scaleX ?? 0, ox = contents?.offsetX ?? 0, sy = contents?.scaleY ?? 0, oy = contents?.offsetY ?? 0
        let background = d.background
        let border = d.border
        let opacity = d.opacity

        for y in area.y0..<area.y1 {
            guard let span = p.polygon.span(row: y) else { continue }
            let x0 = max(span.x0, area.x0), x1 = min(span.x1, area.x1)
            if x0 >= x1 { continue }
            let row = target.row(y)
            let py = Double(y) + 0.5
            var U = t.a * (Double(x0) + 0.5) + t.b * py + t.c
            var V = t.d * (Double(x0) + 0.5) + t.e * py + t.f
            var W = t.g * (Double(x0) + 0.5) + t.h * py + t.i
            for x in x0..<x1 {
                defer { U += t.a; V += t.d; W += t.g }
                if W <= 0 { continue }
                let rw = 1 / W
                let ud = U * rw, vd = V * rw
                let u = Float(ud), v = Float(vd)
                let f = Footprint(dudx: Float((t.a - ud * t.g) * rw), dudy: Float((t.b - ud * t.h) * rw),
                                  dvdx: Float((t.d - vd * t.g) * rw), dvdy: Float((t.e - vd * t.h) * rw))
                let covShape = coverage(of: shape, u: u, v: v, footprint: f)
                var c = SIMD4<Float>.zero
                if let background, covShape > 0 { c = background * covShape }
                if let sampler {
                    var cc = coverage(of: cRect, u: u, v: v, footprint: f)
                    if cClip { cc *= covShape }
                    if cc > 0 {
                        let s = sampler.sample(u * sx + ox, v * sy + oy)
                        c = s * cc + c * (1 - s.w * (cc / 255))
                    }
                }
                if let border, covShape > 0 {
                    let bc = max(covShape - coverage(of: border.inner, u: u, v: v, footprint: f), 0)
                    if bc > 0 { c = border.color * bc + c * (1 - border.color.w * (bc / 255)) }
                }
                var k = opacity
                if hasClips { k *= clipCoverage(p.clips, px: Double(x) + 0.5, py: py) }
                if k < 1 { c *= k }
                blend(c, over: &row[x])
            }
        }
    }

    /// A blurred shadow mask, tinted, in the layer's plane.
    static func drawShadow(_ d: ShadowDraw, into target: RenderTarget, area: PixelRect) {
        let p = d.placement
        let t = p.toLocal
        let mask = d.mask
        let plane = ScalarPlane(base: UnsafeRawPointer(mask.bytes), bytesPerRow: mask.bytesPerRow, width: mask.width, height: mask.height)
        let tint = d.color * d.opacity
        let hasClips = !p.clips.isEmpty
        let maxX = Float(mask.width), maxY = Float(mask.height)
        for y in area.y0..<area.y1 {
            guard let span = p.polygon.span(row: y) else { continue }
            let x0 = max(span.x0, area.x0), x1 = min(span.x1, area.x1)
            if x0 >= x1 { continue }
            let row = target.row(y)
            let py = Double(y) + 0.5
            var U = t.a * (Double(x0) + 0.5) + t.b * py + t.c
            var V = t.d * (Double(x0) + 0.5) + t.e * py + t.f
            var W = t.g * (Double(x0) + 0.5) + t.h * py + t.i
            for x in x0..<x1 {
                defer { U += t.a; V += t.d; W += t.g }
                if W <= 0 { continue }
                let rw = 1 / W
                let tx = Float(U * rw) * d.scale + d.offsetX, ty = Float(V * rw) * d.scale + d.offsetY
                if tx < 0 || ty < 0 || tx >= maxX || ty >= maxY { continue }
                var a = plane.bilinear8(tx, ty)
                if a <= 0 { continue }
                if hasClips { a *= clipCoverage(p.clips, px: Double(x) + 0.5, py: py) }
                blend(tint * a, over: &row[x])
            }
        }
        withExtendedLifetime(mask) {}
    }
}
