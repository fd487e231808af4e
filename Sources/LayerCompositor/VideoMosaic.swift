import LayerGraphics
import LayerKit

/// A frame that is nothing but upright, opaque 8-bit 4:2:0 videos over one opaque colour: a video wall, a movie
/// letterboxed or pillarboxed to another size, a picture in picture without a shadow. An encoder that takes 4:2:0
/// can have each video resampled straight into its planes (`draw`), instead of every pixel being converted to
/// BGRA, composited and converted back: the same picture, up to a code of rounding, with the source's chroma
/// sampled where the output's sits rather than filtered out of converted pixels. Rounded corners and fractional
/// edges keep the compositor's own coverage; videos are drawn in order, each over what is beneath it.
public struct VideoMosaic: @unchecked Sendable {
    /// The colour under the videos as a premultiplied BGRA word (0: transparent black, what a surface starts as).
    public let backgroundWord: UInt32
    /// The target's size in pixels (even).
    public let width: Int, height: Int
    let tiles: [MosaicTile]

    /// The videos drawn, bottom first.
    public var pictures: [PixelBuffer] { tiles.map(\.picture) }
}

/// One video of a mosaic: its picture, how output pixels map to its texels, and its coverage.
struct MosaicTile {
    let picture: PixelBuffer
    let sampler: PlanarYUVSampler
    /// Luma texel (centre rule) of the pixel centre (px, py): (ax·px + cx, ay·py + cy).
    let ax: Double, cx: Double, ay: Double, cy: Double
    /// The pixels the draw may touch, inside the target.
    var bounds: PixelRect { edges.bounds }
    /// Its coverage row by row, found once per placement (`MosaicEdgeCache`).
    let edges: MosaicEdges
}

/// Where a mosaic video's layer sits on the target: everything its coverage depends on.
struct MosaicPlacement {
    let toLocal: PixelToLocal
    let shape: RoundedRect
    let contentsRect: RoundedRect
    let clippedToShape: Bool
    let deep: DeepInterior?
    let reach: DeepInterior?
    /// `masksToBounds` shapes in the video's own plane (its layer's, when it has sublayers), which cut it too.
    let clips: [ClipShape]
    /// The pixels the draw may touch, inside the target.
    let bounds: PixelRect

    /// The fraction of pixel (x, y) the video covers, as the compositor's body kernel finds it (`Kernels.drawBody`).
    func coverage(x: Int, y: Int) -> Float {
        guard x >= bounds.x0, x < bounds.x1, y >= bounds.y0, y < bounds.y1,
              let (u, v, f) = toLocal.local(px: Double(x) + 0.5, py: Double(y) + 0.5) else { return 0 }
        let covShape = LayerCompositor.coverage(of: shape, u: u, v: v, footprint: f)
        var k = contentsRect == shape ? covShape : LayerCompositor.coverage(of: contentsRect, u: u, v: v, footprint: f)
        if clippedToShape && contentsRect != shape { k *= covShape }
        for clip in clips where k > 0 { k *= LayerCompositor.coverage(of: clip.shape, u: u, v: v, footprint: f) }
        return k
    }

    /// The columns of row `y` the video may touch (inside its bounds), and those it certainly covers fully.
    func columns(row y: Int) -> (reach: (Int, Int), deep: (Int, Int))? {
        guard y >= bounds.y0, y < bounds.y1 else { return nil }
        var r = (bounds.x0, bounds.x1)
        func narrow(_ reach: DeepInterior?) -> Bool {
            guard let reach else { return true }
            guard let i = reach.interval(row: y) else { return false }
            r = (max(r.0, i.0), min(r.1, i.1))
            return true
        }
        guard narrow(reach), clips.allSatisfy({ narrow($0.reach) }), r.0 < r.1 else { return nil }
        var d = r
        func deepen(_ deep: DeepInterior?) -> Bool {
            guard let i = deep?.interval(row: y) else { return false }
            d = (max(d.0, i.0), min(d.1, i.1))
            return true
        }
        if !deepen(deep) || !clips.allSatisfy({ deepen($0.deep) }) || d.0 >= d.1 { d = (r.0, r.0) }
        return (r, d)
    }
}

extension Compositor {
    /// The draw list as a `VideoMosaic` when it is one: an optional opaque colour covering the target, then only
    /// bodies whose contents are 8-bit 4:2:0 pictures that `accepts` takes (bilinear, opaque, no alpha plane),
    /// drawn upright (a scale and a move: no rotation, shear or perspective), whole (no opacity, tint, border,
    /// background or nine-slice), cut only by clips in their own plane. Nil otherwise (then the frame is composited).
    static func mosaic(_ ops: [DrawOp], width: Int, height: Int, edgeCache: MosaicEdgeCache,
                       accepts: (PixelBuffer) -> Bool) -> VideoMosaic? {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, !ops.isEmpty else { return nil }
        var backgroundWord: UInt32 = 0
        var first = 0
        if case .body(let b) = ops[0], b.contents == nil {
            guard let color = b.background, color.w >= 255, b.opacity >= 1, b.border == nil, b.placement.clips.isEmpty,
                  b.bodyTint == nil, let opaque = b.opaqueArea else { return nil }
            // It must cover the whole target: every row's certainly opaque columns span it.
            for y in 0..<height {
                guard let i = opaque.interval(row: y), i.0 <= 0, i.1 >= width else { return nil }
            }
            backgroundWord = pack(color)
            first = 1
        }
        let viewport = PixelRect(x0: 0, y0: 0, x1: width, y1: height)
        var tiles: [MosaicTile] = []
        for op in ops[first...] {
            guard case .body(let b) = op, let contents = b.contents, case .planarYUV(let s) = contents.sampler,
                  !s.wide, !s.nearest, s.alpha == nil, contents.isOpaque,
                  let picture = contents.owner as? PixelBuffer, picture.format == .yuv420p, accepts(picture),
                  b.opacity >= 1, b.bodyTint == nil, b.border == nil, b.background == nil,
                  contents.map.x.isAffine, contents.map.y.isAffine else { return nil }
            let t = b.placement.toLocal
            guard t.g == 0, t.h == 0, t.b == 0, t.d == 0, t.i != 0, t.a != 0, t.e != 0,
                  b.placement.clips.allSatisfy({ $0.toLocal.isSame(as: t) }) else { return nil }
            let bounds = b.placement.bounds.intersection(viewport)
            if bounds.isEmpty { continue }
            // u = (a·px + c) / i, texel = u·scale + offset.
            let mx = contents.map.x.start, my = contents.map.y.start
            let ax = Double(mx.scale) * t.a / t.i, cx = Double(mx.scale) * t.c / t.i + Double(mx.offset)
            let ay = Double(my.scale) * t.e / t.i, cy = Double(my.scale) * t.f / t.i + Double(my.offset)
            let placement = MosaicPlacement(toLocal: t, shape: b.shape, contentsRect: contents.rect,
                                            clippedToShape: contents.clippedToShape, deep: b.deep, reach: b.reach,
                                            clips: b.placement.clips, bounds: bounds)
            tiles.append(MosaicTile(picture: picture, sampler: s, ax: ax, cx: cx, ay: ay, cy: cy,
                                    edges: edgeCache.edges(for: placement)))
        }
        guard !tiles.isEmpty else { return nil }
        return VideoMosaic(backgroundWord: backgroundWord, width: width, height: height, tiles: tiles)
    }
}
