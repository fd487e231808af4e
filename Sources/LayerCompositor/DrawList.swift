import LayerGraphics

/// Where one draw lands on the target: the inverse map from pixels to the layer's plane, the screen
/// polygon that bounds its work, and the ancestors' `masksToBounds` clips it must honour.
struct Placement {
    let toLocal: PixelToLocal
    let polygon: ConvexPolygon
    let bounds: PixelRect
    let clips: [ClipShape]
}

/// A rounded-rect clip of an ancestor that has `masksToBounds`, evaluated in that ancestor's plane.
struct ClipShape {
    let toLocal: PixelToLocal
    let shape: RoundedRect
    let bounds: PixelRect
    /// Where the clip certainly covers a pixel fully (nil: unknown): a clipped draw skips the clip's coverage
    /// there, as it skips its own (a video inside a rounded card would otherwise pay per pixel everywhere).
    let deep: DeepInterior?
    /// Where the clip may let anything through (nil: unknown): a clipped draw skips every pixel outside it.
    let reach: DeepInterior?

    init(toLocal: PixelToLocal, shape: RoundedRect, bounds: PixelRect) {
        self.toLocal = toLocal; self.shape = shape; self.bounds = bounds
        deep = DeepInterior(inner: shape, toLocal: toLocal)
        reach = DeepInterior(reachOf: shape, toLocal: toLocal)
    }
}

/// The sampler of one layer's contents, chosen once per draw (the per-pixel loop is specialised for it).
enum SamplerChoice {
    case bgra(BGRASampler)
    case planarYUV(PlanarYUVSampler)
    case nv12(NV12Sampler)
    case trilinear(TrilinearSampler)
}

/// A layer's contents as drawn: where they sit in the layer's plane and how local points map to texels.
struct ContentsDraw {
    let sampler: SamplerChoice
    /// The contents' rectangle in the layer's plane (after gravity).
    let rect: RoundedRect
    /// Local point to texel: affine, or piecewise affine with a nine-slice (`contentsCenter`).
    let map: ContentsMap
    /// `masksToBounds`: the contents are cut by the layer's rounded shape.
    let clippedToShape: Bool
    /// Contents that cover every pixel they touch with alpha 255 (opaque video, opaque images).
    let isOpaque: Bool
    /// Keeps the pixels alive while the draw list exists.
    let owner: AnyObject
}

/// One layer's own drawing in its plane: background, contents and (when no sublayer comes between) border.
/// A class: a draw holds a dozen references, and every band of every frame hands it (and the draws above it, as
/// occluders) around; copying the struct retained each of them, on both cores at once.
final class BodyDraw {
    let placement: Placement
    /// The bounds with the corner radii.
    let shape: RoundedRect
    /// Premultiplied B, G, R, A in 0…255.
    let background: SIMD4<Float>?
    let contents: ContentsDraw?
    let border: BorderDraw?
    let opacity: Float
    /// Multiplies the body's result — background, contents and border composed — per pixel (premultiplied B, G, R, A
    /// factors in 0…1; nil: none): a replicator instance's colour folded into the kernel, so a tinted video instance
    /// costs what an untinted one does (no group pass). Only with contents (plain colours are multiplied in place).
    let bodyTint: SIMD4<Float>?
    /// Where coverage is certainly full (nil: compute it everywhere).
    let deep: DeepInterior?
    /// Where the draw may change a pixel at all: the shape's reach, or the reach of a rect around the shape and
    /// contents that are not cut by it (nil: unknown, everywhere in the polygon).
    let reach: DeepInterior?
    /// Where an opaque border certainly covers the pixel alone: deep inside the shape (`outer`) and outside the
    /// reach of the border's inner edge (`inner`; nil when the border fills the shape). Nil without such a border.
    let borderBand: (outer: DeepInterior, inner: DeepInterior?)?
    /// The whole shape and contents of a body cut to its opaque border's mid-line (Lowering+BorderEdge.swift): a fade
    /// of each draw on its own puts them back (nil: not cut).
    var uncut: (shape: RoundedRect, contents: ContentsDraw?)? = nil

    /// Where the draw is certainly opaque, so that it hides every draw beneath it (nil: nowhere known).
    /// With an opaque background, or opaque contents that cover the whole shape, that is all of the shape but its
    /// antialiased edge, borders included (anything over an opaque pixel leaves it opaque); with opaque contents
    /// that do not, the deep interior.
    let opaqueArea: DeepInterior?

    /// Whether some of the draw is certainly opaque: then it hides the draws beneath it there. An opaque border
    /// alone counts (a card with sublayers draws its border last, over the edges of its video and shadow).
    var occludes: Bool { opaqueArea != nil || (opacity >= 1 && (bodyTint?.w ?? 1) >= 1 && borderBand != nil) }

    init(placement: Placement, shape: RoundedRect, background: SIMD4<Float>?, contents: ContentsDraw?, border: BorderDraw?,
         opacity: Float, bodyTint: SIMD4<Float>? = nil) {
        self.placement = placement; self.shape = shape; self.background = background; self.contents = contents
        self.border = border; self.opacity = opacity
        self.bodyTint = contents == nil || bodyTint == SIMD4(repeating: 1) ? nil : bodyTint
        // The innermost edge: the border's inner shape, and the contents' rect unless it encloses it.
        var inner = border?.inner ?? shape
        if let c = contents {
            let r = c.rect
            let enclosing = r.minX <= inner.minX && r.minY <= inner.minY && r.maxX >= inner.maxX && r.maxY >= inner.maxY
            if !enclosing {
                inner = inner.with(minX: max(inner.minX, r.minX), minY: max(inner.minY, r.minY),
                                   maxX: min(inner.maxX, r.maxX), maxY: min(inner.maxY, r.maxY))
            }
        }
        deep = DeepInterior(inner: inner, toLocal: placement.toLocal)
        let outer = DeepInterior(inner: shape, toLocal: placement.toLocal)
        // Contents not cut by the shape reach its rounded corners, and may reach beyond it: then the reach is that
        // of a square-cornered rect around both.
        if let c = contents, !c.clippedToShape {
            let around = RoundedRect(minX: min(shape.minX, c.rect.minX), minY: min(shape.minY, c.rect.minY),
                                     maxX: max(shape.maxX, c.rect.maxX), maxY: max(shape.maxY, c.rect.maxY), radii: .zero,
                                     aliased: shape.aliased)
            reach = DeepInterior(reachOf: around, toLocal: placement.toLocal)
        } else {
            reach = DeepInterior(reachOf: shape, toLocal: placement.toLocal)
        }
        // Under clips the opaque part is also narrowed to every clip's deep interior, row by row (`Kernels.holes`).
        if opacity >= 1, (self.bodyTint?.w ?? 1) >= 1, placement.clips.allSatisfy({ $0.deep != nil }) {
            let opaqueBackground = (background?.w ?? 0) >= 255
            let opaqueContents = contents?.isOpaque ?? false
            let coveringContents = contents.map {
                $0.rect.minX <= shape.minX && $0.rect.minY <= shape.minY && $0.rect.maxX >= shape.maxX && $0.rect.maxY >= shape.maxY
            } ?? false
            if opaqueBackground || (opaqueContents && coveringContents) { opaqueArea = outer }
            else if opaqueContents { opaqueArea = deep }
            else { opaqueArea = nil }
        } else {
            opaqueArea = nil
        }
        if let border, border.color.w >= 255, placement.clips.isEmpty, let outer {
            borderBand = (outer, DeepInterior(reachOf: border.inner, toLocal: placement.toLocal))
        } else {
            borderBand = nil
        }
    }
}

/// What an opaque draw hides from the draws beneath it, as they ask row by row: its `opaqueInterval`, or else its
/// opaque border's band (up to two stretches: left and right of its inner edge).
///
/// It holds the draw's shapes unretained: the draw list that made it keeps them alive while it is walked. Asking a
/// row through the draw's references retained and released each shape: on both cores at once, on the same objects,
/// row after row of every draw beneath, which cost more than the intervals themselves.
struct OpaqueRows {
    /// The draw's bounds' rows: other rows are not asked.
    let y0, y1: Int
    private let opaqueArea: Unmanaged<DeepInterior>?
    /// The draw, when clips narrow its opaque area (their shapes are asked through it).
    private let clipped: Unmanaged<BodyDraw>?
    private let borderOuter: Unmanaged<DeepInterior>?, borderInner: Unmanaged<DeepInterior>?

    init(_ d: BodyDraw) {
        y0 = d.placement.bounds.y0; y1 = d.placement.bounds.y1
        opaqueArea = d.opaqueArea.map { .passUnretained($0) }
        clipped = d.placement.clips.isEmpty ? nil : .passUnretained(d)
        let band = d.opacity >= 1 ? d.borderBand : nil
        borderOuter = band.map { .passUnretained($0.outer) }
        borderInner = band?.inner.map { .passUnretained($0) }
    }

    /// The columns of row `y` that the draw certainly paints opaque: its opaque area within every clip's deep interior.
    @inline(__always)
    func opaqueInterval(row y: Int) -> (Int, Int)? {
        guard let opaqueArea, var i = opaqueArea._withUnsafeGuaranteedRef({ $0.interval(row: y) }) else { return nil }
        guard let clipped else { return i }
        return clipped._withUnsafeGuaranteedRef({ Kernels.narrow(&i, toDeepInteriorOf: $0.placement.clips, row: y) }) ? i : nil
    }

    /// Appends the columns of row `y` that the draw certainly paints opaque: `opaqueInterval`, or else the stretches
    /// of its opaque border's band.
    @inline(__always)
    func append(row y: Int, to out: inout [(Int, Int)]) {
        if let i = opaqueInterval(row: y) { out.append(i); return }
        guard let borderOuter, let outer = borderOuter._withUnsafeGuaranteedRef({ $0.interval(row: y) }) else { return }
        guard let hull = borderInner?._withUnsafeGuaranteedRef({ $0.interval(row: y) }) else { out.append(outer); return }
        if hull.0 > outer.0 { out.append((outer.0, min(hull.0, outer.1))) }
        if hull.1 < outer.1 { out.append((max(hull.1, outer.0), outer.1)) }
    }
}

struct BorderDraw {
    let inner: RoundedRect
    let color: SIMD4<Float>
}

/// A blurred alpha texture in a layer's plane, tinted with the shadow colour.
struct ShadowDraw {
    let placement: Placement
    let mask: AlphaMask
    /// texel = local · scale + offset.
    let scale: Float, offsetX: Float, offsetY: Float
    let color: SIMD4<Float>
    let opacity: Float
}

/// Draws that must be composited together first (group opacity, a mask), on an intermediate buffer.
struct GroupDraw {
    let ops: [DrawOp]
    /// Draws whose alpha multiplies the group; nil when there is no mask.
    let mask: [DrawOp]?
    let opacity: Float
    let bounds: PixelRect
    /// A fade transition (SEMANTICS-ANIMATION.md §9): `ops` are the old picture, these the new, and the group is
    /// `(1 − fraction)·old + fraction·new` per pixel (premultiplied) before its mask and opacity apply.
    var crossfade: (ops: [DrawOp], fraction: Float)? = nil
    /// A replicator instance's colour (SEMANTICS-LAYERS.md §4): the group's pixels are multiplied by these premultiplied
    /// B, G, R, A factors in 0…1 (nil: unchanged).
    var tint: SIMD4<Float>? = nil
}

/// One entry of the draw list.
/// Immutable once built; the pointers it holds stay valid while the owners it keeps are alive.
indirect enum DrawOp: @unchecked Sendable {
    case body(BodyDraw)
    case shadow(ShadowDraw)
    case group(GroupDraw)
    /// A gradient layer's gradient (GradientDraw.swift).
    case gradient(GradientDraw)
    /// An emitter layer's particles (ParticleDraw.swift).
    case particles(ParticleDraw)

    var bounds: PixelRect {
        switch self {
        case .body(let b): return b.placement.bounds
        case .shadow(let s): return s.placement.bounds
        case .group(let g): return g.bounds
        case .gradient(let g): return g.placement.bounds
        case .particles(let p): return p.bounds
        }
    }

    /// The same draw with its opacity multiplied (when a group of one needs no intermediate buffer).
    func withOpacity(_ k: Float) -> DrawOp {
        switch self {
        case .body(let b):
            // A body cut under its border is drawn whole again: faded apart from the border, it shows through it.
            return .body(BodyDraw(placement: b.placement, shape: b.uncut?.shape ?? b.shape, background: b.background,
                                  contents: b.uncut.map { $0.contents } ?? b.contents, border: b.border, opacity: b.opacity * k,
                                  bodyTint: b.bodyTint))
        case .shadow(let s):
            return .shadow(ShadowDraw(placement: s.placement, mask: s.mask, scale: s.scale, offsetX: s.offsetX,
                                      offsetY: s.offsetY, color: s.color, opacity: s.opacity * k))
        case .group(let g):
            // A crossfade's two pictures are a layer's body: whole again, as above (fading them by 1 only does that).
            let crossfade = g.crossfade.map { (ops: $0.ops.map { $0.withOpacity(1) }, fraction: $0.fraction) }
            return .group(GroupDraw(ops: crossfade == nil ? g.ops : g.ops.map { $0.withOpacity(1) }, mask: g.mask,
                                    opacity: g.opacity * k, bounds: g.bounds, crossfade: crossfade, tint: g.tint))
        case .gradient(let g): return .gradient(g.withOpacity(k))
        case .particles(let p): return .particles(p.withOpacity(k))
        }
    }
}

extension Color {
    /// Premultiplied B, G, R, A in 0…255, as the kernels blend.
    var bgraFloat: SIMD4<Float> {
        let a = Float(min(max(alpha, 0), 1))
        func c(_ v: Double) -> Float { Float(min(max(v, 0), 1)) * a * 255 }
        return SIMD4(c(blue), c(green), c(red), a * 255)
    }
}
