import Foundation
import LayerGraphics
import LayerKit

/// `shouldRasterize` (SEMANTICS.md, chapter 4 of the book): the layer's background, contents, sublayers and border
/// are rendered once into an offscreen image of `rasterizationScale` × its bounds (its own space, before its
/// transform), kept in the `RasterCache` while the subtree draws the same, and that image is drawn through the
/// layer's world matrix like contents (so it pixelates when magnified past its scale). The layer's shadow, mask and
/// opacity apply to the image as a whole, outside it: rasterizing implies group opacity.
extension Lowering {
    /// The most raster pixels a rasterized layer has on a side (a larger layer is rasterized at a lower scale).
    static let maxRasterSide = 4096.0

    /// The raster's draw in place of `contentOps`, or nil when the layer cannot be rasterized (empty or unplaceable
    /// bounds) and is drawn as usual.
    func rasterOps(_ layer: LayerSnapshot, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal, clips: [ClipShape],
                   flipped: Bool) -> [DrawOp]? {
        let b = layer.bounds.standardized
        guard b.width > 0, b.height > 0, b.width.isFinite, b.height.isFinite, b.minX.isFinite, b.minY.isFinite else { return nil }
        let scale = min(layer.rasterizationScale, Self.maxRasterSide / max(b.width, b.height))
        let width = Int((b.width * scale).rounded(.up)), height = Int((b.height * scale).rounded(.up))
        guard scale > 0, width > 0, height > 0 else { return nil }
        // Nothing of it on screen: no raster either.
        guard let placement = place(b, h, planes, toLocal, clips) else { return [] }
        let image = rasterCache.image(for: layer, width: width, height: height, scale: scale, flipped: flipped) {
            renderRaster(of: layer, bounds: b, scale: scale, width: width, height: height, flipped: flipped)
        }
        let source = Rect(x: 0, y: 0, width: b.width * scale, height: b.height * scale)
        // Minifying or magnifying the raster: the layer's own filters choose, as for its contents.
        var nearest = layer.magnificationFilter == .nearest
        if texelsPerPixelAtCentre(b, h: h, toLocal: toLocal, sx: scale, sy: scale) > 1.0001 {
            nearest = layer.minificationFilter == .nearest
        }
        let draw = ContentsDraw(sampler: SamplerChoice(.image(image), nearest: nearest), rect: plainShape(b, aliased: !layer.allowsEdgeAntialiasing),
                                map: ContentsMap(rect: b, source: source, center: Rect(x: 0, y: 0, width: 1, height: 1),
                                                 contentsScale: scale),
                                clippedToShape: false, isOpaque: false, owner: image)
        return [.body(BodyDraw(placement: placement, shape: roundedShape(of: layer), background: nil, contents: draw,
                               border: nil, opacity: 1))]
    }

    /// Renders the layer's own drawing and subtree (no shadow, mask or opacity: those apply to the raster) with its
    /// bounds' origin at the image's top-left corner, `scale` pixels per point.
    private func renderRaster(of layer: LayerSnapshot, bounds b: Rect, scale: Double, width: Int, height: Int,
                              flipped: Bool) -> Image {
        let surface = Surface(width: width, height: height)
        let world = Transform3D.makeTranslation(-b.minX, -b.minY, 0).concatenating(Transform3D.makeScale(scale, scale, 1))
        let offscreen = Lowering(viewport: PixelRect(x0: 0, y0: 0, x1: width, y1: height), executor: executor,
                                 shadowCache: shadowCache, shapeCache: shapeCache, rasterCache: rasterCache, tileCache: tileCache)
        let ops = offscreen.lower(layer, world: world, planes: [], clips: [], flipped: flipped, contentOnly: true)
        executor.render(ops, into: surface, clear: true)
        return surface.makeImage()
    }
}
