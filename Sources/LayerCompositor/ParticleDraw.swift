import Foundation
import LayerGraphics
import LayerKit

/// One particle as drawn: its pixel box and the affine map from a pixel to the texel of one mipmap level of its
/// cell's image. Exact under a 2D (affine) transform; under perspective the map is the one at the particle's centre
/// (particles are small, so the error is a fraction of a pixel).
struct ParticleQuad {
    /// Pixels [x0, x1) × [y0, y1), within the viewport.
    var x0, y0, x1, y1: Int32
    /// The texel under pixel centre (cx, cy), and texels per pixel step: texel = t + M·(p − c).
    var cx, cy, tx, ty: Float
    var m00, m01, m10, m11: Float
    /// The part of the level drawn (`contentsRect`), in whole texels [ix0, ix1) × [iy0, iy1): taps outside are clear.
    var ix0, iy0, ix1, iy1: Int32
    /// Premultiplied tint factors (B, G, R, A), each 0…1.
    var tint: SIMD4<Float>
    /// Index into the draw's textures.
    var texture: Int32
    var nearest: Bool
}

/// An image level a particle samples: a raw pointer kept valid by the draw's `owners`.
struct ParticleTexture: @unchecked Sendable {
    let base: UnsafePointer<UInt32>
    let width: Int, height: Int
}

/// An emitter layer's particles (SEMANTICS-LAYERS.md §7), one draw for all of them: each band walks the quads that
/// touch it in painting order. A class, as `BodyDraw`: the list and its bands hand it around without copying.
final class ParticleDraw {
    let quads: [ParticleQuad]
    let textures: [ParticleTexture]
    /// Keeps the textures' pixels alive.
    let owners: [Image]
    let clips: [ClipShape]
    let bounds: PixelRect
    let additive: Bool
    let opacity: Float

    init(quads: [ParticleQuad], textures: [ParticleTexture], owners: [Image], clips: [ClipShape], bounds: PixelRect,
         additive: Bool, opacity: Float) {
        self.quads = quads; self.textures = textures; self.owners = owners; self.clips = clips; self.bounds = bounds
        self.additive = additive; self.opacity = opacity
    }

    func withOpacity(_ k: Float) -> ParticleDraw {
        ParticleDraw(quads: quads, textures: textures, owners: owners, clips: clips, bounds: bounds, additive: additive,
                     opacity: opacity * k)
    }
}

extension Lowering {
    /// An emitter layer's particles, above everything else the layer draws; clipped only by `clips` (the ancestors'
    /// and the layer's own `masksToBounds`), never culled by the bounds.
    /// With `preservesDepth`, each particle is drawn in the plane of its z (`world` maps the layer's 3D space to the
    /// target), back to front.
    func particleOps(_ layer: LayerSnapshot, h: Homography, toLocal: PixelToLocal, clips: [ClipShape], world: Transform3D) -> [DrawOp] {
        guard let payload = layer.payload as? EmitterPayload, !payload.particles.isEmpty else { return [] }
        let particles = payload.preservesDepth && !payload.isAdditive ? depthOrdered(payload.particles, layer.localTransform)
                                                                      : payload.particles
        var textures: [ParticleTexture] = [], owners: [Image] = []
        // Per cell, where level 0 and the mipmaps (levels 1…) sit in `textures`: added on first use, so a cell never
        // minified builds no mipmaps.
        var levelZero = [Int](repeating: -1, count: payload.cells.count)
        var mipmapStart = [Int](repeating: -1, count: payload.cells.count)
        func add(_ i: Image) {
            owners.append(i)
            textures.append(i.withUnsafePixels { ParticleTexture(base: $0.baseAddress!, width: i.width, height: i.height) })
        }
        func texture(cell: Int, level: Int, image: Image) -> Int {
            if level == 0 {
                if levelZero[cell] < 0 { levelZero[cell] = textures.count; add(image) }
                return levelZero[cell]
            }
            if mipmapStart[cell] < 0 { mipmapStart[cell] = textures.count; image.mipmaps.forEach(add) }
            return mipmapStart[cell] + level - 1
        }
        var quads: [ParticleQuad] = []
        quads.reserveCapacity(payload.particles.count)
        var bounds = PixelRect.empty
        for p in particles {
            guard p.color.alpha > 0, p.scale > 0, p.cell < payload.cells.count, let image = payload.cells[p.cell].contents else { continue }
            let look = payload.cells[p.cell]
            var ph = h, pt = toLocal
            if payload.preservesDepth, p.z != 0 {
                // The plane z = p.z of the layer's space: its own homography and pixel-to-local map.
                ph = Homography(plane: Transform3D.makeTranslation(0, 0, p.z).concatenating(world))
                guard let inverse = ph.inverted() else { continue }
                pt = PixelToLocal(inverse)
            }
            guard var q = quad(p, look, image: image, h: ph, toLocal: pt) else { continue }
            // Minifying picks the nearest mipmap level (log2 of texels per pixel, plus the bias), unless the filter is nearest.
            let rho = max((q.m00 * q.m00 + q.m10 * q.m10).squareRoot(), (q.m01 * q.m01 + q.m11 * q.m11).squareRoot())
            var level = 0
            if rho > 1.0001 {
                q.nearest = look.minificationFilter == .nearest
                if !q.nearest {
                    let lod = log2(Double(rho)) + look.minificationFilterBias
                    let levels = 1 + Int(log2(Double(max(image.width, image.height))).rounded(.down))
                    level = min(max(Int((lod).rounded()), 0), levels - 1)
                }
            } else {
                q.nearest = look.magnificationFilter == .nearest
            }
            let t = texture(cell: p.cell, level: level, image: image)
            q.texture = Int32(t)
            if level > 0 {
                // Level k's texel coordinates are level 0's scaled by its size ratio (`Image.mipmaps`).
                let tex = textures[t]
                let sx = Float(tex.width) / Float(image.width), sy = Float(tex.height) / Float(image.height)
                q.tx *= sx; q.ty *= sy; q.m00 *= sx; q.m01 *= sx; q.m10 *= sy; q.m11 *= sy
                q.ix0 = Int32((Float(q.ix0) * sx).rounded(.down)); q.ix1 = Int32((Float(q.ix1) * sx).rounded(.up))
                q.iy0 = Int32((Float(q.iy0) * sy).rounded(.down)); q.iy1 = Int32((Float(q.iy1) * sy).rounded(.up))
            }
            quads.append(q)
            bounds = bounds.union(PixelRect(x0: Int(q.x0), y0: Int(q.y0), x1: Int(q.x1), y1: Int(q.y1)))
        }
        for c in clips { bounds = bounds.intersection(c.bounds) }
        guard !quads.isEmpty, !bounds.isEmpty else { return [] }
        return [.particles(ParticleDraw(quads: quads, textures: textures, owners: owners, clips: clips, bounds: bounds,
                                        additive: payload.isAdditive, opacity: 1))]
    }

    /// `particles` back to front by their depth in the superlayer's space (the layer's own transform applied; ties
    /// keep the payload's order); those behind the eye are dropped.
    private func depthOrdered(_ particles: [EmitterParticle], _ m: Transform3D) -> [EmitterParticle] {
        var keyed: [(z: Double, i: Int)] = []
        keyed.reserveCapacity(particles.count)
        for (i, p) in particles.enumerated() {
            let z = p.x * m.m13 + p.y * m.m23 + p.z * m.m33 + m.m43
            let w = p.x * m.m14 + p.y * m.m24 + p.z * m.m34 + m.m44
            guard w > 1e-9, (z / w).isFinite else { continue }
            keyed.append((z / w, i))
        }
        keyed.sort { $0.z != $1.z ? $0.z < $1.z : $0.i < $1.i }
        return keyed.map { particles[$0.i] }
    }

    /// The quad of `p` at level 0 of `image`; nil when it lands nowhere on the viewport (or behind the eye).
    private func quad(_ p: EmitterParticle, _ look: EmitterCellLook, image: Image, h: Homography, toLocal: PixelToLocal) -> ParticleQuad? {
        // The drawn part of the image, in texels (contentsRect clamped to the image), and its size in points.
        let W = Double(image.width), H = Double(image.height)
        let r = look.contentsRect.standardized
        let sx0 = min(max(r.minX, 0), 1) * W, sx1 = min(max(r.maxX, 0), 1) * W
        let sy0 = min(max(r.minY, 0), 1) * H, sy1 = min(max(r.maxY, 0), 1) * H
        guard sx1 > sx0, sy1 > sy0 else { return nil }
        let k = p.scale / look.contentsScale
        let hx = (sx1 - sx0) * k / 2, hy = (sy1 - sy0) * k / 2
        // A particle larger than any canvas, or smaller than a thousandth of a pixel, is not drawn.
        guard hx < 1e6, hy < 1e6, hx > 1e-4 || hy > 1e-4 else { return nil }
        let c = cos(p.angle), s = sin(p.angle)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (ex, ey) in [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)] {
            let q = h.apply(p.x + c * ex - s * ey, p.y + s * ex + c * ey)
            guard q.w > 1e-9 else { return nil }
            let x = q.x / q.w, y = q.y / q.w
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        let box = PixelRect(x0: Int(max(minX.rounded(.down), -1e9)), y0: Int(max(minY.rounded(.down), -1e9)),
                            x1: Int(min(maxX.rounded(.up), 1e9)), y1: Int(min(maxY.rounded(.up), 1e9))).intersection(viewport)
        guard !box.isEmpty else { return nil }
        let centre = h.apply(p.x, p.y)
        guard centre.w > 1e-9 else { return nil }
        let cx = centre.x / centre.w, cy = centre.y / centre.w
        // Texel per pixel: (1/k)·R(−angle)·J, J the pixel-to-local Jacobian at the centre.
        let f = toLocal.footprint(px: cx, py: cy)
        let j00 = Double(f.dudx), j01 = Double(f.dudy), j10 = Double(f.dvdx), j11 = Double(f.dvdy)
        let ik = 1 / k
        let m00 = ik * (c * j00 + s * j10), m01 = ik * (c * j01 + s * j11)
        let m10 = ik * (-s * j00 + c * j10), m11 = ik * (-s * j01 + c * j11)
        guard m00.isFinite, m01.isFinite, m10.isFinite, m11.isFinite else { return nil }
        let a = p.color.alpha
        let tint = SIMD4<Float>(Float(p.color.blue * a), Float(p.color.green * a), Float(p.color.red * a), Float(a))
        return ParticleQuad(x0: Int32(box.x0), y0: Int32(box.y0), x1: Int32(box.x1), y1: Int32(box.y1),
                            cx: Float(cx), cy: Float(cy), tx: Float((sx0 + sx1) / 2), ty: Float((sy0 + sy1) / 2),
                            m00: Float(m00), m01: Float(m01), m10: Float(m10), m11: Float(m11),
                            ix0: Int32(sx0.rounded(.down)), iy0: Int32(sy0.rounded(.down)),
                            ix1: Int32(sx1.rounded(.up)), iy1: Int32(sy1.rounded(.up)),
                            tint: tint, texture: 0, nearest: false)
    }
}
