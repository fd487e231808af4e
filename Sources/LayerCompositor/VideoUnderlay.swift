import LayerGraphics
import LayerKit

/// A frame that is a decoded 4:2:0 picture filling the target texel for pixel, with everything else drawn above
/// it inside one rectangle (a lower third, a logo, burnt-in subtitles over a full-frame video). An encoder takes the
/// picture's planes as they are and converts only the rectangle, which the surface holds composited; a full
/// composite would sample and convert back every pixel of the picture for the same result.
public struct OverlaidVideo: @unchecked Sendable {
    /// The picture under everything, of the target's size.
    public let picture: PixelBuffer
    /// The rectangle of the surface that was composited, in pixels (x0, y0 even; x1, y1 even or the target's
    /// edge). Outside it the frame is the picture; inside it the surface holds the whole composite.
    public let x0: Int, y0: Int, x1: Int, y1: Int
}

/// What `Compositor.renderFrame` drew.
public enum RenderedFrame: @unchecked Sendable {
    /// The surface holds the frame; the backdrop says what it shows (`render(_:into:over:)`).
    case surface(Backdrop?)
    /// The frame is `picture` with the surface's rectangle above it; the rest of the surface is stale.
    case overVideo(OverlaidVideo)
    /// The frame is only videos over a colour, to be drawn into 4:2:0 planes (`VideoMosaic.draw`); the surface is
    /// stale.
    case mosaic(VideoMosaic)
}

extension Compositor {
    /// Renders `root` for an encoder: as `render(_:into:over:)` does, except when the frame is a picture that
    /// `acceptsPicture` can take as it is (an 8-bit 4:2:0 `PixelBuffer` of the target's size, drawn upright at
    /// scale 1 from the origin, opaque, unclipped) under draws that all fall inside one rectangle: then only that
    /// rectangle is composited. With `acceptsMosaicPicture`, a frame of nothing but upright opaque videos that it
    /// takes, over a colour, is not composited at all but returned as a `VideoMosaic` (each video its own size).
    /// The tree is lowered once either way.
    public func renderFrame(_ root: LayerSnapshot, into surface: Surface, over previous: Backdrop?,
                            acceptsPicture: (PixelBuffer) -> Bool,
                            acceptsMosaicPicture: ((PixelBuffer) -> Bool)? = nil) -> RenderedFrame {
        let w = surface.width, h = surface.height
        guard w > 0 && h > 0 else { return .surface(nil) }
        // Cheap refusals first: most trees hold no picture of the target's size, and many no video at all.
        let videos = Self.videos(in: root, width: w, height: h)
        let underlayPossible = videos.fullFrame
        let mosaicPossible = acceptsMosaicPicture != nil && w % 2 == 0 && h % 2 == 0 && videos.any
        guard underlayPossible || mosaicPossible else {
            return .surface(render(root, into: surface, over: previous))
        }
        let viewport = PixelRect(x0: 0, y0: 0, x1: w, y1: h)
        let ops = Lowering(viewport: viewport, executor: executor, shadowCache: shadowCache, shapeCache: shapeCache, rasterCache: rasterCache, tileCache: tileCache)
            .lower(root, world: root.localTransform, planes: [], clips: [])
        guard underlayPossible, let (picture, above) = Self.underlay(ops, width: w, height: h), acceptsPicture(picture) else {
            if let acceptsMosaicPicture, let mosaic = Self.mosaic(ops, width: w, height: h, edgeCache: mosaicEdges, accepts: acceptsMosaicPicture) {
                return .mosaic(mosaic)
            }
            return .surface(executor.render(ops, into: surface, over: previous))
        }
        let drawn = ops[above...].reduce(PixelRect.empty) { $0.union($1.bounds) }.intersection(viewport)
        guard !drawn.isEmpty else {
            return .overVideo(OverlaidVideo(picture: picture, x0: 0, y0: 0, x1: 0, y1: 0))
        }
        // Whole chroma samples: rows in pairs; columns from the even one at or before the first drawn column (its
        // chroma reads the column to its right) to past the even column after the last (its chroma reads to its left).
        let region = PixelRect(x0: drawn.x0 & ~1, y0: drawn.y0 & ~1,
                               x1: min(w, (drawn.x1 + 2) & ~1), y1: min(h, (drawn.y1 + 1) & ~1))
        executor.render(ops, into: surface, region: region)
        return .overVideo(OverlaidVideo(picture: picture, x0: region.x0, y0: region.y0, x1: region.x1, y1: region.y1))
    }

    /// Whether visible layers of the tree show 8-bit 4:2:0 pictures: any at all (a mosaic may be possible), and one
    /// of exactly `width` × `height` (an underlay may be). One walk; it stops at the first full-frame picture.
    private static func videos(in s: LayerSnapshot, width: Int, height: Int) -> (any: Bool, fullFrame: Bool) {
        if s.isHidden { return (false, false) }
        var found = (any: false, fullFrame: false)
        // (A converted HDR frame counts at its own size: the draw picks the level, `underlay` checks the one picked.)
        if case .pixelBuffer(let b)? = s.contents, b.format == .yuv420p {
            found = (true, b.frameSize == Size(width: Double(width), height: Double(height)))
        }
        for sublayer in s.sublayers where !found.fullFrame {
            let inner = videos(in: sublayer, width: width, height: height)
            found = (found.any || inner.any, inner.fullFrame)
        }
        return found
    }

    /// The picture a draw list starts with, and the index of the first draw above it: an optional opaque
    /// background (hidden by the picture), then the picture drawn texel for pixel over the whole target, opaque,
    /// with no clip, border or transparency.
    private static func underlay(_ ops: [DrawOp], width: Int, height: Int) -> (PixelBuffer, Int)? {
        for (i, op) in ops.prefix(2).enumerated() {
            guard case .body(let body) = op, body.opacity >= 1, body.border == nil, body.placement.clips.isEmpty,
                  body.bodyTint == nil else { return nil }
            guard let contents = body.contents else {
                // Only a fill beneath the picture may come first.
                if i == 0, body.background != nil { continue }
                return nil
            }
            guard let buffer = contents.owner as? PixelBuffer, buffer.format == .yuv420p, buffer.width == width,
                  buffer.height == height, !(contents.clippedToShape && body.shape.maxRadius > 0) else { return nil }
            let t = body.placement.toLocal
            // Pixel → plane by a unit scale and no move, plane → texel by the identity: texel = pixel.
            guard t.g == 0, t.h == 0, t.b == 0, t.d == 0, t.i > 0, near(t.a / t.i, 1), near(t.e / t.i, 1),
                  abs(t.c / t.i) < 1e-3, abs(t.f / t.i) < 1e-3 else { return nil }
            let r = contents.rect, x = contents.map.x, y = contents.map.y
            guard x.isAffine, y.isAffine, r.minX <= 0, r.minY <= 0, Double(r.maxX) >= Double(width), Double(r.maxY) >= Double(height),
                  near(Double(x.start.scale), 1), abs(Double(x.start.offset)) < 1e-3,
                  near(Double(y.start.scale), 1), abs(Double(y.start.offset)) < 1e-3 else { return nil }
            return (buffer, i + 1)
        }
        return nil
    }

    /// Equal to within what float rounding of an identity leaves (a thousandth of a pixel across 4K).
    private static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 * max(1, abs(b)) }
}
