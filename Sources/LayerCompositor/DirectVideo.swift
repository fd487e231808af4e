import LayerGraphics
import LayerKit

/// A frame that is nothing but one 8-bit 4:2:0 video picture, upright and unclipped, over an opaque colour:
/// a display can show it without compositing, by handing the planes to a YUV texture that it scales itself
/// (what compositors do with video overlays). The compositor's own drawing of the same frame is the reference;
/// this is only a faster way to the same picture, up to the display's YUV conversion and scaling.
public struct DirectVideo: @unchecked Sendable {
    /// The decoded picture, shown whole (8-bit 4:2:0).
    public let buffer: PixelBuffer
    /// Where the picture lands, in pixels of the target (fractional edges allowed).
    public let rect: Rect
    /// The colour of the rest of the target (opaque).
    public let background: Color
    /// The target's width in pixels (the canvas `rect` is placed on).
    public var canvasWidth = 0
    /// The target's height in pixels.
    public var canvasHeight = 0
}

extension Compositor {
    /// The frame `root` would render into a `width`×`height` target, as a `DirectVideo` when it is just a video
    /// picture over an opaque colour; nil when anything else is drawn (effects, transforms other than a move and
    /// a scale, other formats), then render it.
    public func directVideo(_ root: LayerSnapshot, width: Int, height: Int) -> DirectVideo? {
        // Cheap refusals first: lowering a tree with a shadow would render the shadow's texture.
        guard Self.mayBeDirect(root) else { return nil }
        let viewport = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        let lowering = Lowering(viewport: viewport, executor: Executor(threads: 1), shadowCache: ShadowCache())
        let ops = lowering.lower(root, world: root.localTransform, planes: [], clips: [])
        var background: Color?
        var picture: (PixelBuffer, Rect)?
        for op in ops {
            guard case .body(let body) = op, body.opacity >= 1, body.border == nil, body.placement.clips.isEmpty,
                  body.bodyTint == nil else { return nil }
            let t = body.placement.toLocal
            // Upright: pixels map to the plane by a scale and a move only (no perspective, rotation or shear).
            guard t.g == 0, t.h == 0, t.b == 0, t.d == 0, t.a > 0, t.e > 0, t.i > 0 else { return nil }
            func pixelRect(_ r: RoundedRect) -> Rect {
                // u = (a·px + c) / i  ⇒  px = (u·i − c) / a; likewise for v.
                let x0 = (Double(r.minX) * t.i - t.c) / t.a, x1 = (Double(r.maxX) * t.i - t.c) / t.a
                let y0 = (Double(r.minY) * t.i - t.f) / t.e, y1 = (Double(r.maxY) * t.i - t.f) / t.e
                return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            }
            if let fill = body.background {
                // Only an opaque, square-cornered fill of the whole target, before the picture.
                let area = pixelRect(body.shape)
                guard picture == nil, fill.w >= 255, body.shape.maxRadius == 0, body.contents == nil,
                      area.minX <= 0, area.minY <= 0, area.maxX >= Double(width), area.maxY >= Double(height) else { return nil }
                background = Color(red: Double(fill.z) / 255, green: Double(fill.y) / 255, blue: Double(fill.x) / 255)
            }
            if let contents = body.contents {
                guard picture == nil, let buffer = contents.owner as? PixelBuffer, buffer.format == .yuv420p,
                      !(contents.clippedToShape && body.shape.maxRadius > 0) else { return nil }
                // The whole picture, once, across the rect (texel = local · scale + offset).
                let r = contents.rect
                let x = contents.map.x, y = contents.map.y
                guard x.isAffine && y.isAffine,
                      abs(Double(x.start.scale * r.minX + x.start.offset)) < 0.01,
                      abs(Double(x.start.scale * r.maxX + x.start.offset) - Double(buffer.width)) < 0.01,
                      abs(Double(y.start.scale * r.minY + y.start.offset)) < 0.01,
                      abs(Double(y.start.scale * r.maxY + y.start.offset) - Double(buffer.height)) < 0.01 else { return nil }
                picture = (buffer, pixelRect(r))
            }
        }
        guard let (buffer, rect) = picture else { return nil }
        return DirectVideo(buffer: buffer, rect: rect, background: background ?? .black, canvasWidth: width, canvasHeight: height)
    }

    /// No layer of the tree has a shadow, a mask, a border, group opacity, 3D depth or a turn: checks on the
    /// snapshot alone, so that the frames of a scene with effects are not lowered twice (here and to render).
    private static func mayBeDirect(_ s: LayerSnapshot) -> Bool {
        if s.isHidden { return true }
        if (s.shadowOpacity > 0 && s.shadowColor != nil) || s.mask != nil || s.borderWidth > 0 || s.opacity < 1 || s.preserves3D
            || s.transition != nil || s.contentsFade != nil
            // An aliased layer's picture edges are cut at pixel centres, which a display's own scaling would not do.
            || !s.allowsEdgeAntialiasing
            // What a layer class draws from its payload (a shape's raster…) is never a video picture: lowering it here
            // would only cost a rasterisation.
            || s.payload != nil
            || !isUpright(s.transform) || !isUpright(s.sublayerTransform) {
            return false
        }
        return s.sublayers.allSatisfy(mayBeDirect)
    }

    /// Scales and moves only, as seen on a plane at z = 0 (no rotation, shear or perspective tilt).
    private static func isUpright(_ m: Transform3D) -> Bool {
        m.m12 == 0 && m.m13 == 0 && m.m14 == 0 && m.m21 == 0 && m.m23 == 0 && m.m24 == 0 && m.m31 == 0 && m.m32 == 0
    }
}
