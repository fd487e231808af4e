import LayerGraphics

/// What a layer class adds to its snapshot beyond `Layer`'s own values: a shape's path and stroke, a gradient's
/// colours, an app's own drawing state. Made by the class's `snapshotPayload(_:at:)` from its presentation values,
/// so it carries animated values; immutable and `Sendable`, as the snapshot that holds it.
public protocol LayerPayload: Sendable {
    /// Whether `other` would draw the same pixels (what is drawn from a payload is kept while it stays equal).
    func isEqual(to other: any LayerPayload) -> Bool
}

extension LayerPayload where Self: Equatable {
    public func isEqual(to other: any LayerPayload) -> Bool { (other as? Self) == self }
}

/// A payload drawn with a `DrawingContext` (cairo) into the layer's contents, at the layer's size ×
/// `contentsScale`, as `draw(in:)` is; drawn again only when the payload, the size or the scale changes. A class
/// whose payload the compositor draws itself (a shape, a gradient) gives a plain `LayerPayload` instead.
public protocol DrawnLayerPayload: LayerPayload {
    /// Draws into `context`, whose coordinates are the layer's `bounds` (y down).
    func draw(in context: DrawingContext, bounds: Rect)
}

/// The last drawing of a `DrawnLayerPayload`, kept on the layer.
struct DrawnPayloadCache {
    let payload: any DrawnLayerPayload
    let bounds: Rect
    let scale: Double
    let image: Image
}

extension Layer {
    /// The contents a drawn payload makes: the cached image while nothing it depends on changed.
    func contents(drawing payload: any DrawnLayerPayload, bounds: Rect, scale: Double) -> LayerContents? {
        let b = bounds.standardized
        guard b.width > 0, b.height > 0, b.width * scale <= 16384, b.height * scale <= 16384 else { return nil }
        if let cache = drawnPayloadCache, cache.bounds == b, cache.scale == scale, cache.payload.isEqual(to: payload) {
            return .image(cache.image)
        }
        let context = DrawingContext(size: b.size, scale: scale)
        context.translateBy(x: -b.minX, y: -b.minY)
        payload.draw(in: context, bounds: b)
        let image = context.makeImage()
        drawnPayloadCache = DrawnPayloadCache(payload: payload, bounds: b, scale: scale, image: image)
        return .image(image)
    }
}
