import LayerGraphics
import LayerKit

/// Where contents land in a layer's bounds (contentsGravity) and which part of the pixels they show
/// (contentsRect), as Core Animation places them.
struct ContentsPlacement {
    /// The destination rectangle in the layer's space.
    let rect: Rect
    /// The source rectangle in pixels (may extend past the image: edge pixels extend).
    let source: Rect

    init(bounds: Rect, pixelSize: Size, gravity: ContentsGravity, contentsRect: Rect, contentsScale: Double) {
        let unit = contentsRect
        source = Rect(x: unit.minX * pixelSize.width, y: unit.minY * pixelSize.height,
                      width: unit.width * pixelSize.width, height: unit.height * pixelSize.height)
        let scale = contentsScale > 0 ? contentsScale : 1
        let natural = Size(width: source.width / scale, height: source.height / scale)
        let b = bounds
        func at(_ x: Double, _ y: Double, _ size: Size) -> Rect { Rect(x: x, y: y, width: size.width, height: size.height) }
        switch gravity {
        case .resize:
            rect = b
        case .resizeAspect, .resizeAspectFill:
            guard natural.width > 0, natural.height > 0 else { rect = b; break }
            let sx = b.width / natural.width, sy = b.height / natural.height
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let size = Size(width: natural.width * s, height: natural.height * s)
            rect = at(b.midX - size.width / 2, b.midY - size.height / 2, size)
        case .center: rect = at(b.midX - natural.width / 2, b.midY - natural.height / 2, natural)
        case .top: rect = at(b.midX - natural.width / 2, b.minY, natural)
        case .bottom: rect = at(b.midX - natural.width / 2, b.maxY - natural.height, natural)
        case .left: rect = at(b.minX, b.midY - natural.height / 2, natural)
        case .right: rect = at(b.maxX - natural.width, b.midY - natural.height / 2, natural)
        case .topLeft: rect = at(b.minX, b.minY, natural)
        case .topRight: rect = at(b.maxX - natural.width, b.minY, natural)
        case .bottomLeft: rect = at(b.minX, b.maxY - natural.height, natural)
        case .bottomRight: rect = at(b.maxX - natural.width, b.maxY - natural.height, natural)
        }
    }
}

extension SamplerChoice {
    /// The sampler for a layer's contents: trilinear (mipmaps) for an image whose `minificationFilter` asks for it,
    /// else `nearest` or bilinear as judged for the whole draw.
    /// Video frames (pixel buffers) fall back to bilinear for trilinear: a new frame arrives every few
    /// milliseconds, so a mipmap chain per frame would cost more than the aliasing it saves in a window.
    init(_ contents: LayerContents, nearest: Bool, layer: LayerSnapshot) {
        if layer.minificationFilter == .trilinear, case .image(let image) = contents {
            self = .trilinear(TrilinearSampler(image: image, bias: layer.minificationFilterBias,
                                               magnifyNearest: layer.magnificationFilter == .nearest))
            return
        }
        self.init(contents, nearest: nearest)
    }

    /// The sampler for `contents`, with nearest or bilinear filtering.
    init(_ contents: LayerContents, nearest: Bool) {
        switch contents {
        case .image(let image):
            self = image.withUnsafePixels { px in
                .bgra(BGRASampler(base: px.baseAddress!, pixelsPerRow: image.width, width: image.width, height: image.height, nearest: nearest))
            }
        case .pixelBuffer(let buffer):
            func plane(_ i: Int) -> ScalarPlane {
                let p = buffer.planes[i]
                return ScalarPlane(base: p.base, bytesPerRow: p.bytesPerRow, width: p.width, height: p.height)
            }
            let grid = ChromaGrid(shift: buffer.format.chromaShift, location: buffer.chromaLocation)
            switch buffer.format {
            case .bgra:
                let p = buffer.planes[0]
                self = .bgra(BGRASampler(base: p.base.assumingMemoryBound(to: UInt32.self), pixelsPerRow: p.bytesPerRow / 4,
                                         width: p.width, height: p.height, nearest: nearest))
            case .nv12:
                self = .nv12(NV12Sampler(y: plane(0), uv: plane(1), grid: grid, k: buffer.yuvToRGB, nearest: nearest))
            case .yuva420p:
                self = .planarYUV(PlanarYUVSampler(y: plane(0), u: plane(1), v: plane(2), alpha: plane(3), grid: grid,
                                                   k: buffer.yuvToRGB, wide: false, nearest: nearest))
            default:
                self = .planarYUV(PlanarYUVSampler(y: plane(0), u: plane(1), v: plane(2), alpha: nil, grid: grid,
                                                   k: buffer.yuvToRGB, wide: buffer.format.bitDepth > 8, nearest: nearest))
            }
        }
    }
}

extension LayerContents {
    var owner: AnyObject {
        switch self {
        case .image(let i): return i
        case .pixelBuffer(let p): return p
        }
    }
}
