import Foundation
import LayerGraphics
import LayerKit

/// A shape layer's path (SEMANTICS-LAYERS.md §1, "Raster"): rasterised by cairo at a scale step taken from the world
/// matrix, kept in the `ShapeCache`, and drawn as contents are (bilinear) over its drawn extent, not its bounds, so
/// it shows outside them unless `masksToBounds` (or a mask) clips it.
extension Lowering {
    /// The most raster pixels a shape has on a side.
    static let maxShapeSide = 4096.0
    /// Extents beyond this many points on a side are refused (nothing is drawn): a hostile width or coordinate.
    static let maxShapeExtent = 2 * ShapeRasterizer.maxPathSide

    /// The draw of `layer`'s shape, when it has one that draws something reaching the viewport.
    func makeShapeOps(_ layer: LayerSnapshot, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape]) -> [DrawOp] {
        guard let payload = layer.payload as? ShapePayload, !payload.drawsNothing else { return [] }
        guard let extent = shapeCache.extent(layerID: layer.layerID, payload: payload),
              extent.width.isFinite, extent.height.isFinite, extent.minX.isFinite, extent.minY.isFinite,
              max(extent.width, extent.height) <= Self.maxShapeExtent else { return [] }
        let scale = Self.rasterScale(extent: extent, h: h)
        // Snapped outward to whole raster pixels, plus one transparent pixel a side so bilinear edges fade to nothing.
        let x0 = (extent.minX * scale).rounded(.down) - 1, y0 = (extent.minY * scale).rounded(.down) - 1
        let x1 = (extent.maxX * scale).rounded(.up) + 1, y1 = (extent.maxY * scale).rounded(.up) + 1
        let rect = Rect(x: x0 / scale, y: y0 / scale, width: (x1 - x0) / scale, height: (y1 - y0) / scale)
        var area = rect
        if layer.masksToBounds {
            area = rect.intersection(layer.bounds.standardized)
            if area.isNull || area.width <= 0 || area.height <= 0 { return [] }
        }
        // Nothing of it on screen: no raster either.
        guard let placement = place(area, h, planes, toLocal, clips) else { return [] }
        let raster = shapeCache.raster(layerID: layer.layerID, payload: payload, extent: extent, rect: rect, scale: scale,
                                       width: Int(x1 - x0), height: Int(y1 - y0))
        let image = raster.image
        let draw = ContentsDraw(sampler: SamplerChoice(.image(image), nearest: false), rect: plainShape(rect),
                                map: ContentsMap(rect: rect, source: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                                                 center: Rect(x: 0, y: 0, width: 1, height: 1), contentsScale: scale),
                                clippedToShape: layer.masksToBounds, isOpaque: false, owner: image)
        return [.body(BodyDraw(placement: placement, shape: roundedShape(of: layer), background: nil, contents: draw, border: nil, opacity: 1))]
    }

    /// §1's raster scale S: the longest image, in target pixels, of a one-point step along x or y at any corner of
    /// `extent` through `h`, rounded up to a power of √2, clamped to [1/8, 16], then lowered until the extent is at
    /// most `maxShapeSide` pixels a side. Corners behind the eye do not count; with none in front S is 1.
    static func rasterScale(extent: Rect, h: Homography) -> Double {
        let longest = screenScale(over: extent, h: h)
        // Steps of √2: k half-octaves. A hair of tolerance keeps an exact 1 (or 2) from rounding up a step.
        var k = longest > 0 ? (2 * log2(longest) - 1e-9).rounded(.up) : 0
        k = min(max(k, -6), 8)
        let side = max(extent.width, extent.height)
        // The raster adds a pixel of margin a side and one for snapping outward: those count too.
        while side * pow(2, k / 2) + 3 > maxShapeSide && k > -60 { k -= 1 }
        return pow(2, k / 2)
    }
}
