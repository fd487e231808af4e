import Dispatch
import Foundation
import LayerGraphics
import LayerKit

/// Shadows (SEMANTICS.md, step 1): the layer's composited alpha, or its `shadowPath`, blurred by a Gaussian
/// of σ = `shadowRadius` in the layer's own plane, offset by `shadowOffset`, then drawn with the layer's transform.
///
/// Cost: the blur runs on a texture at 1/d of the layer's resolution, d ≈ σ/3, so a wide shadow costs about as
/// little as a narrow one; the box filter of the downsampling is subtracted from the Gaussian's variance.
/// A shape that has not changed since an earlier frame is not blurred again (`ShadowCache`).
extension Lowering {
    func makeShadow(_ layer: LayerSnapshot, color: Color, h: Homography, planes: [HalfPlane], toLocal: PixelToLocal,
                    clips: [ClipShape]) -> ShadowDraw? {
        let sigma = max(0, layer.shadowRadius)
        let d = max(1, (sigma / 3).rounded(.down))
        let sigmaTexels = (max(sigma * sigma / (d * d) - 1.0 / 12, 0)).squareRoot()
        let margin = Int((3 * sigmaTexels).rounded(.up)) + 2
        let maxSide = 8192

        var mask: AlphaMask
        let origin: (x: Int, y: Int)
        if let path = layer.shadowPath {
            let box = path.boundingBox
            guard !box.isNull, box.width > 0 || box.height > 0 else { return nil }
            let x0 = Int((box.minX / d).rounded(.down)) - margin, y0 = Int((box.minY / d).rounded(.down)) - margin
            let x1 = Int((box.maxX / d).rounded(.up)) + margin, y1 = Int((box.maxY / d).rounded(.up)) + margin
            guard x1 - x0 <= maxSide, y1 - y0 <= maxSide else { return nil }
            mask = AlphaMask(width: x1 - x0, height: y1 - y0)
            path.fill(into: mask, transform: AffineTransform2D(scaleX: 1 / d, y: 1 / d)
                .concatenating(AffineTransform2D(translationX: Double(-x0), y: Double(-y0))))
            origin = (x0, y0)
        } else {
            // The layer's own drawing at opacity 1, without its shadow, in texture space.
            let big = PixelRect(x0: -10_000_000, y0: -10_000_000, x1: 10_000_000, y1: 10_000_000)
            var sub = Lowering(viewport: big, executor: executor, shadowCache: shadowCache, shapeCache: shapeCache, rasterCache: rasterCache, tileCache: tileCache)
            sub.drawsShadowShape = true
            let world = Transform3D.makeScale(1 / d, 1 / d, 1)
            let ops = sub.lower(layer, world: world, planes: [], clips: [], asShadowSource: true)
            var area = ops.reduce(PixelRect.empty) { $0.union($1.bounds) }
            guard !area.isEmpty else { return nil }
            area = PixelRect(x0: area.x0 - margin, y0: area.y0 - margin, x1: area.x1 + margin, y1: area.y1 + margin)
            guard area.width <= maxSide, area.height <= maxSide else { return nil }
            var pixels = [UInt32](repeating: 0, count: area.width * area.height)
            pixels.withUnsafeMutableBufferPointer { buffer in
                let target = RenderTarget(base: buffer.baseAddress!, pixelsPerRow: area.width, originX: area.x0, originY: area.y0)
                executor.execute(ops, into: target, area: area)
            }
            mask = AlphaMask(width: area.width, height: area.height)
            for y in 0..<area.height {
                for x in 0..<area.width { mask.bytes[y * mask.bytesPerRow + x] = UInt8(pixels[y * area.width + x] >> 24) }
            }
            origin = (area.x0, area.y0)
        }
        if sigmaTexels > 0.2 { mask = shadowCache.blurred(mask, sigma: sigmaTexels, threads: executor.threads) }

        // Drawn only where the blurred mask may be above 0: its margin is wider than the blur reaches, and its zero
        // texels cost as much to walk as the others (a card's spinning shadow had a third of its pixels there).
        guard let drawn = mask.reach else { return nil }
        let off = layer.shadowOffset
        let local = Rect(x: Double(origin.x + drawn.x0) * d + off.width, y: Double(origin.y + drawn.y0) * d + off.height,
                         width: Double(drawn.width) * d, height: Double(drawn.height) * d)
        guard let placement = place(local, h, planes, toLocal, clips) else { return nil }
        var tint = color.bgraFloat * Float(min(max(layer.shadowOpacity, 0), 1))
        tint /= 255 // the mask's 0…255 multiplies it back
        return ShadowDraw(placement: placement, mask: mask, scale: Float(1 / d),
                          offsetX: Float(-off.width / d - Double(origin.x)), offsetY: Float(-off.height / d - Double(origin.y)),
                          color: tint, opacity: 1)
    }
}

extension AlphaMask {
    /// The texels whose bilinear samples may be above 0: the box of the nonzero texels grown by one on each side
    /// (a sample at a texel position t reads the texels around t − ½), within the mask; nil when all are 0.
    var reach: PixelRect? {
        var x0 = width, x1 = 0, y0 = height, y1 = 0
        for y in 0..<height {
            let row = bytes + y * bytesPerRow
            var first = 0
            while first < width && row[first] == 0 { first += 1 }
            if first == width { continue }
            var last = width - 1
            while row[last] == 0 { last -= 1 }
            x0 = min(x0, first); x1 = max(x1, last + 1); y0 = min(y0, y); y1 = y + 1
        }
        guard x0 < x1 else { return nil }
        return PixelRect(x0: max(x0 - 1, 0), y0: max(y0 - 1, 0), x1: min(x1 + 1, width), y1: min(y1 + 1, height))
    }
}

/// A separable Gaussian blur of an alpha mask, in place.
enum GaussianBlur {
    static func kernel(sigma: Double) -> [Float] {
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var k = (-radius...radius).map { i in Float(exp(-Double(i * i) / (2 * sigma * sigma))) }
        let sum = k.reduce(0, +)
        for i in k.indices { k[i] /= sum }
        return k
    }

    static func apply(to mask: AlphaMask, sigma: Double, threads: Int) {
        let k = kernel(sigma: sigma)
        let r = k.count / 2
        let w = mask.width, h = mask.height
        var aStore = [Float](repeating: 0, count: w * h), bStore = [Float](repeating: 0, count: w * h)
        aStore.withUnsafeMutableBufferPointer { a in
        bStore.withUnsafeMutableBufferPointer { b in
        k.withUnsafeBufferPointer { k in
            for y in 0..<h { for x in 0..<w { a[y * w + x] = Float(mask.bytes[y * mask.bytesPerRow + x]) } }
            // Rows, then columns, each pass spread over the cores; samples past the edge are 0 (the margin
            // keeps the shape away from them).
            let src = SharedPointer(a.baseAddress!), mid = SharedPointer(b.baseAddress!)
            let taps = SharedPointer(UnsafeMutablePointer(mutating: k.baseAddress!)), tapCount = k.count
            let out = SharedPointer(mask.bytes), stride = mask.bytesPerRow
            parallelRows(h, threads: threads) { y in
                let row = src.pointer + y * w
                for x in 0..<w {
                    var s: Float = 0
                    for j in max(0, r - x)..<min(tapCount, w - x + r) { s += taps.pointer[j] * row[x + j - r] }
                    mid.pointer[y * w + x] = s
                }
            }
            parallelRows(h, threads: threads) { y in
                for x in 0..<w {
                    var s: Float = 0
                    for j in max(0, r - y)..<min(tapCount, h - y + r) { s += taps.pointer[j] * mid.pointer[(y + j - r) * w + x] }
                    out.pointer[y * stride + x] = UInt8(min(max(s + 0.5, 0), 255))
                }
            }
        }
        }
        }
    }
}

/// A pointer handed to worker threads that each write their own rows.
struct SharedPointer<Pointee>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Pointee>
    init(_ pointer: UnsafeMutablePointer<Pointee>) { self.pointer = pointer }
}

/// Runs `body` for rows 0..<count, on all cores when `threads` > 1.
func parallelRows(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    if threads <= 1 { for y in 0..<count { body(y) } } else { DispatchQueue.concurrentPerform(iterations: count, execute: body) }
}
