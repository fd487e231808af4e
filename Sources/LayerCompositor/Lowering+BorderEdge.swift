import LayerGraphics
import LayerKit

// Issue 18 item 2, where the border is a draw of its own (sublayers, a shape's path or tiles come between body and
// border; a gradient; a crossfade). The body's antialiased outer edge has then already blended the picture into
// the fringe pixels, and the border's own edge, at the same coverage c, cannot take it back: body·c·(1−c) shows
// (up to 64 levels). When the border is opaque, nothing of the body shows under it, so the body is cut at the
// border's mid-line instead of the outer edge: its antialiased edge then lies wholly under the opaque border,
// which alone makes the outer edge (as the fused draw does, Kernels.drawBody). Pixels under the border and
// inside it are unchanged.

extension Lowering {
    /// The shape to cut a layer's background, gradient and contents to when `border` is drawn by a later op:
    /// `shape` inset by `min(w/2, w − p)`, never below 0, where w is the border width and p the local length of
    /// the largest device pixel over the layer. From 2 device pixels of border on that is the mid-line, and the
    /// body's edge (½ pixel either side of it) touches neither the outer fringe nor the border's inner edge. A
    /// thinner border gets less inset — its inner edge must still have the body fully beneath it, else the
    /// backdrop would show there — and the body's edge reaches part of the outer fringe (at 1 pixel or less, all
    /// of it, as before the fix). A translucent border shows the body through it: the shape is kept whole.
    func bodyShape(under border: BorderDraw?, _ layer: LayerSnapshot, shape: RoundedRect, h: Homography,
                   planes: [HalfPlane], toLocal: PixelToLocal) -> RoundedRect {
        guard let border, border.color.w >= 255 else { return shape }
        let width = Float(layer.borderWidth)
        let pixel = largestPixel(of: layer.bounds.standardized, h: h, planes: planes, toLocal: toLocal)
        let inset = min(width / 2, width - pixel)
        guard inset.isFinite, inset > 0 else { return shape }
        return shape.inset(by: inset)
    }

    /// `contents` as drawn beneath a later border by a body cut to `cut` (from `shape`): contents that lie within
    /// the layer's shape (cut by it, or filling exactly its rect) are cut by the smaller shape too. Contents that
    /// reach past the shape (gravity, rounded corners without `masksToBounds`) are drawn whole, as before: their
    /// coverage is not the shape's.
    func cutContents(_ contents: ContentsDraw?, cutTo cut: RoundedRect, from shape: RoundedRect) -> ContentsDraw? {
        guard let c = contents, cut != shape, !c.clippedToShape, c.rect == shape else { return contents }
        return ContentsDraw(sampler: c.sampler, rect: c.rect, map: c.map, clippedToShape: true, isOpaque: c.isOpaque, owner: c.owner)
    }

    /// `ops` (a body's draws, cut to `cut`) told their whole `shape` and `contents`: a fade applied to each draw on its
    /// own (`allowsGroupOpacity = false`) draws them whole again, since the body then shows through the faded
    /// border, and a cut would leave a step at the mid-line.
    func rememberingWhole(_ ops: [DrawOp], cut: RoundedRect, shape: RoundedRect, contents: ContentsDraw?) -> [DrawOp] {
        guard cut != shape else { return ops }
        for op in ops {
            switch op {
            case .body(let b) where b.shape == cut: b.uncut = (shape, contents)
            case .gradient(let g) where g.shape == cut: g.uncutShape = shape
            default: break
            }
        }
        return ops
    }

    /// The length in the layer's plane of the largest device pixel over `rect` (the widest footprint at the
    /// corners of its screen polygon, where a projective map's scale is extreme); infinity when unknown.
    private func largestPixel(of rect: Rect, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal) -> Float {
        let poly = screenPolygon(rect, h, planes)
        if poly.isEmpty { return .infinity }
        var largest: Float = 0
        for p in poly.points {
            let w = toLocal.g * p.x + toLocal.h * p.y + toLocal.i
            guard w > 0, w.isFinite else { return .infinity }
            let f = toLocal.footprint(px: p.x, py: p.y)
            // uScale, vScale: pixels per local unit across an edge of constant u, v.
            largest = max(largest, 1 / f.uScale, 1 / f.vScale)
        }
        return largest.isFinite ? largest : .infinity
    }
}
