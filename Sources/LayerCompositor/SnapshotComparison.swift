import LayerGraphics
import LayerKit

/// Whether two snapshots of a rasterized subtree draw the same pixels into the raster (`RasterCache`).
///
/// Snapshots are new objects every frame, so the comparison is by value: one walk of the subtree comparing the
/// presentation values that reach the raster, far cheaper than rendering it. Contents compare by identity (an image
/// is the same object while the layer keeps it), payloads by `isEqual(to:)`. Anything the comparison cannot vouch
/// for (a transition in progress) counts as different, so a stale raster is never shown.
enum SnapshotComparison {
    /// `a` and `b` as the roots of a raster: their own placement (position, transform, zPosition), opacity, shadow,
    /// mask and facing apply to the raster as a whole, outside it, so they may differ.
    static func rasterDrawsSame(_ a: LayerSnapshot, _ b: LayerSnapshot) -> Bool {
        if a === b { return true }
        return a.layerID == b.layerID && drawsSameContent(a, b)
    }

    /// Everything a layer draws in its own space: its background, contents, shape, border, clip and sublayers.
    private static func drawsSameContent(_ a: LayerSnapshot, _ b: LayerSnapshot) -> Bool {
        guard a.transition == nil, b.transition == nil else { return false }
        guard a.bounds == b.bounds, a.anchorPoint == b.anchorPoint, a.anchorPointZ == b.anchorPointZ,
              a.sublayerTransform == b.sublayerTransform, a.isGeometryFlipped == b.isGeometryFlipped,
              a.preserves3D == b.preserves3D, a.isHidden == b.isHidden,
              a.backgroundColor == b.backgroundColor, a.contents == b.contents, a.contentsGravity == b.contentsGravity,
              a.contentsRect == b.contentsRect, a.contentsCenter == b.contentsCenter, a.contentsScale == b.contentsScale,
              a.minificationFilter == b.minificationFilter, a.magnificationFilter == b.magnificationFilter,
              a.minificationFilterBias == b.minificationFilterBias, a.cornerRadius == b.cornerRadius,
              a.maskedCorners == b.maskedCorners, a.cornerCurve == b.cornerCurve,
              a.allowsEdgeAntialiasing == b.allowsEdgeAntialiasing,
              a.borderWidth == b.borderWidth, a.borderColor == b.borderColor,
              a.masksToBounds == b.masksToBounds,
              a.contentsFade?.from == b.contentsFade?.from, a.contentsFade?.fraction == b.contentsFade?.fraction,
              a.sublayers.count == b.sublayers.count else { return false }
        switch (a.payload, b.payload) {
        case (nil, nil): break
        case let (x?, y?): if !x.isEqual(to: y) { return false }
        default: return false
        }
        for (x, y) in zip(a.sublayers, b.sublayers) where !drawsSameTree(x, y) { return false }
        return true
    }

    /// A sublayer: its placement, opacity, shadow, mask and rasterization reach the raster too.
    private static func drawsSameTree(_ a: LayerSnapshot, _ b: LayerSnapshot) -> Bool {
        if a === b { return true }
        guard a.layerID == b.layerID, a.position == b.position, a.zPosition == b.zPosition, a.transform == b.transform,
              a.opacity == b.opacity, a.isDoubleSided == b.isDoubleSided, a.allowsGroupOpacity == b.allowsGroupOpacity,
              a.shouldRasterize == b.shouldRasterize, a.rasterizationScale == b.rasterizationScale,
              a.shadowColor == b.shadowColor, a.shadowOpacity == b.shadowOpacity, a.shadowOffset == b.shadowOffset,
              a.shadowRadius == b.shadowRadius, a.shadowPath == b.shadowPath else { return false }
        switch (a.mask, b.mask) {
        case (nil, nil): break
        case let (x?, y?): if !drawsSameTree(x, y) { return false }
        default: return false
        }
        return drawsSameContent(a, b)
    }
}
