import LayerGraphics
import LayerKit

/// Turns a snapshot into a flat draw list (SEMANTICS.md's transform chain and render order): world matrices
/// with flattening, clipping at w > ε, culling of back faces, `masksToBounds` clips, and groups where
/// opacity or a mask needs an intermediate buffer. Shadow textures are built here, once per frame.
struct Lowering {
    /// The area of the target (pixels) that can be drawn; ops outside are dropped.
    let viewport: PixelRect
    let executor: Executor
    /// Blurred shadow masks kept across frames by the compositor.
    let shadowCache: ShadowCache
    /// Shape layers' rasters kept across frames by the compositor (a fresh one by default: kept for one lowering).
    var shapeCache = ShapeCache()
    /// Rasterized layers' images kept across frames by the compositor (a fresh one by default: kept for one lowering).
    var rasterCache = RasterCache()
    /// Tiled layers' tiles kept across frames by the compositor (a fresh one by default: kept for one lowering).
    var tileCache = TileCache()
    /// Whether this lowering draws a layer's shape for its shadow (`makeShadow`): only alpha counts there, so an opaque
    /// HDR frame is drawn at whatever level it already holds rather than converted at another.
    var drawsShadowShape = false

    /// Lowers `layer`, whose map into target pixels is `world`, in front of the eye where `planes` hold.
    /// With `asShadowSource`, the layer's own shadow and opacity are left out (its shadow's shape is being drawn).
    /// `opacityScale` multiplies the layer's group opacity (a transform layer's opacity, given to each plane).
    /// `flipped`: an odd number of ancestors have `isGeometryFlipped`, so the layer's plane is mirrored in y; its
    /// contents are drawn mirrored back, upright, as Core Animation shows images under a flipped superlayer.
    /// - Parameter contentOnly: draw the layer's background, contents, sublayers and border only, without its shadow,
    ///   mask, opacity and transition (the parts of a transition, whose group effects are the live layer's).
    func lower(_ layer: LayerSnapshot, world: Transform3D, planes: [HalfPlane], clips: [ClipShape],
               asShadowSource: Bool = false, opacityScale: Double = 1, flipped: Bool = false, contentOnly: Bool = false) -> [DrawOp] {
        if layer.isHidden || (layer.opacity * opacityScale <= 0 && !asShadowSource && !contentOnly) { return [] }
        if layer.preserves3D {
            // Reached only as the root of a render or a mask: the context's space is then the target's, which
            // is exact for a root (its sublayers' depth is intact); superlayers lower their own via `lowerContext`.
            guard let back = Homography(plane: world).inverted() else { return [] }
            return lowerContext(of: layer, toContext: world, toTarget: .identity,
                                visible: planes.map { $0.pulledBack(through: back) }, clips: clips)
        }
        let h = Homography(plane: world)
        let planes = planes + [HalfPlane.inFront(of: h)]
        guard let inverse = h.inverted() else { return [] }
        let toLocal = PixelToLocal(inverse)
        let b = layer.bounds.standardized

        if isCulled(layer, h, planes) { return [] }

        let shape = roundedShape(of: layer)
        var ops: [DrawOp] = []

        // 1. Shadow, beneath everything the layer draws (clipped by the layer's own masksToBounds too).
        var ownClip: ClipShape? = nil
        if layer.masksToBounds {
            let poly = screenPolygon(b, h, planes)
            ownClip = ClipShape(toLocal: toLocal, shape: shape, bounds: poly.boundingBox)
        }
        if !asShadowSource, !contentOnly, layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0,
           let shadow = makeShadow(layer, color: color, h: h, planes: planes, toLocal: toLocal, clips: clips + (ownClip.map { [$0] } ?? [])) {
            ops.append(.shadow(shadow))
        }

        if let transition = layer.transition, !contentOnly, !asShadowSource {
            // A transition draws the old and the new content in place of 2–5 (§9); the group effects below are live.
            ops += transitionOps(layer, transition, world: world, planes: planes, clips: clips, toLocal: toLocal,
                                 shape: shape, h: h, flipped: flipped)
        } else if layer.shouldRasterize, !asShadowSource, !contentOnly,
                  let raster = rasterOps(layer, h: h, planes: planes, toLocal: toLocal, clips: clips, flipped: flipped) {
            // 2–5 from the layer's offscreen raster (Lowering+Rasterize.swift); its shadow is of the live subtree.
            ops += raster
        } else {
            ops += contentOps(layer, world: world, planes: planes, clips: clips, toLocal: toLocal, shape: shape, h: h,
                              ownClip: ownClip, flipped: flipped)
        }
        if contentOnly { return ops }
        return group(ops, of: layer, world: world, planes: planes, asShadowSource: asShadowSource, opacityScale: opacityScale,
                     flipped: flipped)
    }

    /// 2–5: background, contents, sublayers and border.
    private func contentOps(_ layer: LayerSnapshot, world: Transform3D, planes: [HalfPlane], clips: [ClipShape],
                            toLocal: PixelToLocal, shape: RoundedRect, h: Homography, ownClip: ClipShape?,
                            flipped: Bool) -> [DrawOp] {
        let b = layer.bounds.standardized
        var ops: [DrawOp] = []
        // 2–3. Background and contents; 5. the border, fused when no sublayer is drawn between them.
        let hasSublayers = !layer.sublayers.isEmpty
        let border: BorderDraw? = {
            guard layer.borderWidth > 0, let c = layer.borderColor, c.alpha > 0 else { return nil }
            return BorderDraw(inner: shape.inset(by: Float(layer.borderWidth)), color: c.bgraFloat)
        }()
        let contents = makeContents(layer, h: h, toLocal: toLocal, flipped: flipped)
        // A shape layer's path, between the contents and the sublayers (SEMANTICS-LAYERS.md §1): the border waits for it.
        let shapeOps = makeShapeOps(layer, h: h, planes: planes, toLocal: toLocal, clips: clips)
            + tiledOps(layer, h: h, planes: planes, toLocal: toLocal, clips: clips)   // a tiled layer's tiles (§6), likewise
        let borderWaits = hasSublayers || !shapeOps.isEmpty
        // What is drawn before, and apart from, the border op is cut under an opaque border (Lowering+BorderEdge.swift).
        let cut = bodyShape(under: border, layer, shape: shape, h: h, planes: planes, toLocal: toLocal)
        var background = layer.backgroundColor.flatMap { $0.alpha > 0 ? $0.bgraFloat : nil }
        // A gradient layer draws its background and gradient first (GradientDraw.swift); the rest follows as usual.
        if let gradient = gradientOps(layer, background: background, h: h, planes: planes, toLocal: toLocal, clips: clips, shape: cut) {
            ops += rememberingWhole(gradient, cut: cut, shape: shape, contents: nil)
            background = nil
        }
        if let fade = layer.contentsFade {
            // A crossfade (§5): the background, then the two contents mixed per pixel, then (when no sublayer comes
            // between) the border.
            if background != nil, let placement = place(b, h, planes, toLocal, clips) {
                ops += rememberingWhole([.body(BodyDraw(placement: placement, shape: cut, background: background, contents: nil, border: nil, opacity: 1))],
                                        cut: cut, shape: shape, contents: nil)
            }
            func drawn(_ whole: ContentsDraw?) -> [DrawOp] {
                guard let c = cutContents(whole, cutTo: cut, from: shape) else { return [] }
                let area = c.clippedToShape ? b : b.union(Rect(x: Double(c.rect.minX), y: Double(c.rect.minY),
                                                                 width: Double(c.rect.maxX - c.rect.minX), height: Double(c.rect.maxY - c.rect.minY)))
                guard let placement = place(area, h, planes, toLocal, clips) else { return [] }
                return rememberingWhole([.body(BodyDraw(placement: placement, shape: cut, background: nil, contents: c, border: nil, opacity: 1))],
                                        cut: cut, shape: shape, contents: whole)
            }
            let old = drawn(makeContents(layer, fade.from, h: h, toLocal: toLocal, flipped: flipped)), new = drawn(contents)
            let bounds = (old + new).reduce(PixelRect.empty) { $0.union($1.bounds) }.intersection(viewport)
            if !bounds.isEmpty {
                ops.append(.group(GroupDraw(ops: old, mask: nil, opacity: 1, bounds: bounds, crossfade: (new, Float(fade.fraction)))))
            }
            if let border, !borderWaits, let placement = place(b, h, planes, toLocal, clips) {
                ops.append(.body(BodyDraw(placement: placement, shape: shape, background: nil, contents: nil, border: border, opacity: 1)))
            }
        } else if background != nil || contents != nil || (border != nil && !borderWaits) {
            // Fused with the border, the body keeps the whole shape (the kernel shares the edge); else it is cut.
            let drawnShape = borderWaits ? cut : shape
            let bodyContents = borderWaits ? cutContents(contents, cutTo: cut, from: shape) : contents
            var area = b
            if let c = bodyContents, !c.clippedToShape {
                area = area.union(Rect(x: Double(c.rect.minX), y: Double(c.rect.minY),
                                       width: Double(c.rect.maxX - c.rect.minX), height: Double(c.rect.maxY - c.rect.minY)))
            }
            if let placement = place(area, h, planes, toLocal, clips) {
                ops += rememberingWhole([.body(BodyDraw(placement: placement, shape: drawnShape, background: background, contents: bodyContents,
                                                        border: borderWaits ? nil : border, opacity: 1))],
                                        cut: drawnShape, shape: shape, contents: contents)
            }
        }

        ops += shapeOps

        // 4. Sublayers, flattened into this layer's plane, back to front (Lowering+Siblings.swift).
        if hasSublayers, let replicator = layer.payload as? ReplicatorPayload {
            // A replicator draws its sublayers once per instance (Lowering+Replicator.swift).
            ops += replicatedSublayerOps(layer, replicator, world: world, planes: planes,
                                         clips: clips + (ownClip.map { [$0] } ?? []), flipped: flipped)
        } else if hasSublayers {
            let childClips = clips + (ownClip.map { [$0] } ?? [])
            ops += sublayerOps(of: layer, toPlane: Transform3D.flattening.concatenating(world), planes: planes,
                               clips: childClips, flipped: flipped != layer.isGeometryFlipped)
        }
        if borderWaits, let border, let placement = place(b, h, planes, toLocal, clips) {
            ops.append(.body(BodyDraw(placement: placement, shape: shape, background: nil, contents: nil, border: border, opacity: 1)))
        }
        // An emitter's particles, above the border (SEMANTICS-LAYERS.md §7), cut only by masksToBounds.
        ops += particleOps(layer, h: h, toLocal: toLocal, clips: clips + (ownClip.map { [$0] } ?? []), world: world)
        return ops
    }

    /// §9's pictures: the old node and the live one, each without its group effects, clipped to the live bounds, offset
    /// in the layer's plane (moveIn, push, reveal) or mixed (fade).
    private func transitionOps(_ layer: LayerSnapshot, _ t: TransitionState, world: Transform3D, planes: [HalfPlane],
                               clips: [ClipShape], toLocal: PixelToLocal, shape: RoundedRect, h: Homography,
                               flipped: Bool) -> [DrawOp] {
        let b = layer.bounds.standardized
        let poly = screenPolygon(b, h, planes)
        let inside = clips + [ClipShape(toLocal: toLocal, shape: shape, bounds: poly.boundingBox)]
        func part(_ node: LayerSnapshot?, _ dx: Double, _ dy: Double) -> [DrawOp] {
            guard let node else { return [] }
            let shift = Transform3D.makeTranslation(dx, dy, 0)
            let sh = Homography(plane: shift)
            return lower(node, world: shift.concatenating(world), planes: planes.map { $0.pulledBack(through: sh) },
                         clips: inside, flipped: flipped, contentOnly: true)
        }
        // e: towards the subtype's side (fromRight = (1, 0), fromTop = (0, −1)); E: the bounds along it.
        let e: (Double, Double)
        switch t.subtype {
        case .fromLeft: e = (-1, 0)
        case .fromRight: e = (1, 0)
        case .fromTop: e = (0, -1)
        case .fromBottom: e = (0, 1)
        }
        let extent = e.0 != 0 ? b.width : b.height
        let p = t.progress
        let incoming = (1 - p) * extent, outgoing = -p * extent
        switch t.type {
        case .fade:
            let old = part(t.old, 0, 0), new = part(layer, 0, 0)
            let bounds = (old + new).reduce(PixelRect.empty) { $0.union($1.bounds) }.intersection(viewport)
            if bounds.isEmpty { return [] }
            return [.group(GroupDraw(ops: old, mask: nil, opacity: 1, bounds: bounds, crossfade: (new, Float(p))))]
        case .moveIn: return part(t.old, 0, 0) + part(layer, incoming * e.0, incoming * e.1)
        case .push: return part(t.old, outgoing * e.0, outgoing * e.1) + part(layer, incoming * e.0, incoming * e.1)
        case .reveal: return part(layer, 0, 0) + part(t.old, outgoing * e.0, outgoing * e.1)
        }
    }

    /// The group: mask, then opacity.
    private func group(_ ops: [DrawOp], of layer: LayerSnapshot, world: Transform3D, planes: [HalfPlane],
                       asShadowSource: Bool, opacityScale: Double, flipped: Bool) -> [DrawOp] {
        var mask: [DrawOp]? = nil
        if let m = layer.mask {
            let a = m.localTransform
            let ah = Homography(plane: a)
            let mWorld = a.concatenating(Transform3D.flattening.concatenating(world))
            let mPlanes = planes.map { $0.pulledBack(through: ah) } + [HalfPlane.inFront(of: ah)]
            // Outside the mask's bounds is transparent: clip the mask tree to them.
            let mh = Homography(plane: mWorld)
            var maskClips: [ClipShape] = []
            if let mInverse = mh.inverted() {
                let poly = screenPolygon(m.bounds.standardized, mh, mPlanes + [HalfPlane.inFront(of: mh)])
                maskClips.append(ClipShape(toLocal: PixelToLocal(mInverse), shape: m.masksToBounds ? roundedShape(of: m) : plainShape(m.bounds),
                                           bounds: poly.boundingBox))
            }
            mask = lower(m, world: mWorld, planes: mPlanes, clips: maskClips, flipped: flipped)
        }
        let opacity: Float = asShadowSource ? 1 : Float(min(layer.opacity * opacityScale, 1))
        // Without group opacity (and not rasterized, which implies it) each draw takes the opacity on its own.
        let separately = !layer.allowsGroupOpacity && !layer.shouldRasterize
        if mask == nil && (opacity >= 1 || ops.count <= 1 || separately) {
            return opacity >= 1 ? ops : ops.map { $0.withOpacity(opacity) }
        }
        if mask == nil, let top = opaqueTop(of: ops) { return [DrawOp.body(top).withOpacity(opacity)] }
        var bounds = ops.reduce(PixelRect.empty) { $0.union($1.bounds) }
        if let mask { bounds = bounds.intersection(mask.reduce(PixelRect.empty) { $0.union($1.bounds) }) }
        bounds = bounds.intersection(viewport)
        if bounds.isEmpty { return [] }
        return [.group(GroupDraw(ops: ops, mask: mask, opacity: opacity, bounds: bounds))]
    }

    // MARK: Pieces

    /// The layer's shape: its bounds rounded by `cornerRadius` on `maskedCorners`, with `cornerCurve`'s corners (a
    /// continuous corner's radius clamped so that it fits, `ContinuousCorner.clampedRadius`), aliased when the layer
    /// does not allow edge antialiasing. Background, border, contents clip and `masksToBounds` clip all take it.
    func roundedShape(of layer: LayerSnapshot) -> RoundedRect {
        let b = layer.bounds.standardized
        let continuous = layer.cornerCurve == .continuous
        let r = Float(continuous ? ContinuousCorner.clampedRadius(layer.cornerRadius, width: b.width, height: b.height)
                                 : max(0, min(layer.cornerRadius, min(b.width, b.height) / 2)))
        let m = layer.maskedCorners
        return RoundedRect(minX: Float(b.minX), minY: Float(b.minY), maxX: Float(b.maxX), maxY: Float(b.maxY),
                           radii: SIMD4(m.contains(.layerMinXMinYCorner) ? r : 0, m.contains(.layerMaxXMinYCorner) ? r : 0,
                                        m.contains(.layerMinXMaxYCorner) ? r : 0, m.contains(.layerMaxXMaxYCorner) ? r : 0),
                           continuous: continuous && r > 0, aliased: !layer.allowsEdgeAntialiasing)
    }

    func plainShape(_ rect: Rect, aliased: Bool = false) -> RoundedRect {
        let b = rect.standardized
        return RoundedRect(minX: Float(b.minX), minY: Float(b.minY), maxX: Float(b.maxX), maxY: Float(b.maxY), radii: .zero,
                           aliased: aliased)
    }

    /// Whether `isDoubleSided = false` hides the layer: its projected bounds wind the other way (back face).
    func isCulled(_ layer: LayerSnapshot, _ h: Homography, _ planes: [HalfPlane]) -> Bool {
        if layer.isDoubleSided { return false }
        // The facing is the plane's: empty bounds (a shape layer with no frame) are judged by a unit square at their origin.
        var plane = layer.bounds.standardized
        if !(plane.width > 0 && plane.height > 0) { plane = Rect(x: plane.minX, y: plane.minY, width: 1, height: 1) }
        let face = screenPolygon(plane, h, planes)
        return face.isEmpty || face.signedArea2 <= 0
    }

    /// The part of a local rect in front of the eye, projected to pixels.
    func screenPolygon(_ rect: Rect, _ h: Homography, _ planes: [HalfPlane]) -> ConvexPolygon {
        var poly = ConvexPolygon(rect: rect.minX, rect.minY, rect.maxX, rect.maxY)
        for p in planes where !poly.isEmpty { poly = poly.clipped(by: p) }
        return poly.isEmpty ? poly : poly.projected(by: h)
    }

    /// Placement of a local rect: nil when nothing of it can reach the viewport.
    func place(_ rect: Rect, _ h: Homography, _ planes: [HalfPlane], _ toLocal: PixelToLocal, _ clips: [ClipShape]) -> Placement? {
        let poly = screenPolygon(rect, h, planes)
        if poly.isEmpty { return nil }
        var bounds = poly.boundingBox.intersection(viewport)
        for c in clips { bounds = bounds.intersection(c.bounds) }
        if bounds.isEmpty { return nil }
        return Placement(toLocal: toLocal, polygon: poly, bounds: bounds, clips: clips)
    }

    func makeContents(_ layer: LayerSnapshot, h: Homography, toLocal: PixelToLocal, flipped: Bool = false) -> ContentsDraw? {
        makeContents(layer, layer.contents, h: h, toLocal: toLocal, flipped: flipped)
    }

    /// `contents` placed as `layer` places its own (gravity, contentsRect, contentsCenter, filters).
    func makeContents(_ layer: LayerSnapshot, _ contents: LayerContents?, h: Homography, toLocal: PixelToLocal,
                      flipped: Bool = false) -> ContentsDraw? {
        guard var contents else { return nil }
        let pixelSize = contents.pixelSize
        let placement = ContentsPlacement(bounds: layer.bounds.standardized, pixelSize: pixelSize, gravity: layer.contentsGravity,
                                          contentsRect: layer.contentsRect, contentsScale: layer.contentsScale)
        let r = placement.rect
        var s = placement.source
        guard r.width > 0, r.height > 0, s.width != 0, s.height != 0 else { return nil }
        if case .pixelBuffer(let buffer) = contents, let levels = buffer.levels {
            // A converted HDR frame: the level this draw needs, its source rectangle in that level's pixels.
            let picture: PixelBuffer
            if drawsShadowShape && buffer.isOpaque {
                picture = buffer
            } else {
                let unitCenter = layer.contentsCenter.standardized == Rect(x: 0, y: 0, width: 1, height: 1)
                let texelsPerLocal = (abs(s.width) / r.width, abs(s.height) / r.height)
                picture = levels.pictureForDraw(level: unitCenter ? Self.drawnLevel(r, h: h, toLocal: toLocal, texelsPerLocal: texelsPerLocal) : 0)
            }
            let kx = Double(picture.width) / Double(levels.width), ky = Double(picture.height) / Double(levels.height)
            s = Rect(x: s.minX * kx, y: s.minY * ky, width: s.width * kx, height: s.height * ky)
            contents = .pixelBuffer(picture)
        }
        var map = ContentsMap(rect: r, source: s, center: layer.contentsCenter, contentsScale: layer.contentsScale)
        if flipped {
            // Upright in a mirrored plane: the rect's top shows the source's bottom (a nine-slice keeps its
            // horizontal slices only; vertically it stretches whole).
            map.y = AxisMap(local: r.minY, length: r.height, source: s.minY + s.height, length: -s.height, center: 0, 1,
                            contentsScale: layer.contentsScale)
        }
        let sx = Double(map.x.reference.scale), sy = Double(map.y.reference.scale)
        // Minifying or magnifying, judged at the centre of the contents: texels per pixel.
        var nearest = layer.magnificationFilter == .nearest
        if texelsPerPixelAtCentre(r, h: h, toLocal: toLocal, sx: sx, sy: sy) > 1.0001 {
            nearest = layer.minificationFilter == .nearest
        }
        return ContentsDraw(sampler: SamplerChoice(contents, nearest: nearest, layer: layer),
                            rect: plainShape(r, aliased: !layer.allowsEdgeAntialiasing), map: map,
                            clippedToShape: layer.masksToBounds, isOpaque: contents.isOpaque, owner: contents.owner)
    }

    /// The level of a frame's `PictureLevels` a draw of it into `r` needs: ⌊log₂ σ⌋ for σ the fewest texels a pixel
    /// step covers, along the target's x or y, over the corners and centre of `r` (0 where any part is magnified), so
    /// that along both axes of the target the level's texels are no larger than a pixel. (Along the axes, as mipmaps
    /// measure, rather than the Jacobian's smaller singular value: a layer turned edge-on under perspective shears
    /// its footprint, and the singular value would fall to full size for a few frames of a spin with no visible gain.)
    /// Corners behind the eye are left out (they are not drawn).
    static func drawnLevel(_ r: Rect, h: Homography, toLocal: PixelToLocal, texelsPerLocal: (Double, Double)) -> Int {
        var least = Double.infinity
        for (x, y) in [(r.minX, r.minY), (r.maxX, r.minY), (r.minX, r.maxY), (r.maxX, r.maxY), (r.midX, r.midY)] {
            let p = h.apply(x, y)
            guard p.w > 1e-9 else { continue }
            let f = toLocal.footprint(px: p.x / p.w, py: p.y / p.w)
            let a = Double(f.dudx) * texelsPerLocal.0, b = Double(f.dudy) * texelsPerLocal.0
            let c = Double(f.dvdx) * texelsPerLocal.1, d = Double(f.dvdy) * texelsPerLocal.1
            least = min(least, (a * a + c * c).squareRoot(), (b * b + d * d).squareRoot())
        }
        return least.isFinite ? PictureLevels.level(texelsPerPixel: least) : 0
    }

    /// How many texels one pixel step covers near the contents' centre (by the local footprint there).
    func texelsPerPixelAtCentre(_ r: Rect, h: Homography, toLocal: PixelToLocal, sx: Double, sy: Double) -> Double {
        let p = h.apply(r.midX, r.midY)
        guard p.w > 0 else { return 1 }
        let px = p.x / p.w, py = p.y / p.w
        let f = toLocal.footprint(px: px, py: py)
        let dudx = Double(f.dudx), dudy = Double(f.dudy), dvdx = Double(f.dvdx), dvdy = Double(f.dvdy)
        let ax = ((dudx * sx) * (dudx * sx) + (dvdx * sy) * (dvdx * sy)).squareRoot()
        let ay = ((dudy * sx) * (dudy * sx) + (dvdy * sy) * (dvdy * sy)).squareRoot()
        return max(ax, ay)
    }
}
