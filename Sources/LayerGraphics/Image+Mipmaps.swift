
extension Image {
    /// The mipmap chain below this image, largest first: each level half the size of the one above (rounded
    /// down, at least 1 pixel), box-filtered from it, down to 1×1. Level k's continuous pixel coordinates are
    /// level 0's scaled by (width_k / width, height_k / height), so a position maps between levels exactly.
    ///
    /// Built on first use, once per image, and kept with it; safe to call from any thread (a second caller
    /// waits for the first to finish building). Costs about a third of the image's memory, once.
    public var mipmaps: [Image] {
        mipmapCache.levels.withLock { levels in
            if let levels { return levels }
            var built: [Image] = []
            var above = self
            while above.width > 1 || above.height > 1 {
                above = above.boxFiltered(width: max(1, above.width / 2), height: max(1, above.height / 2))
                built.append(above)
            }
            levels = built
            return built
        }
    }

    /// This image resampled to `width`×`height` with a box filter: each output pixel is the area-weighted mean of
    /// the input pixels its footprint covers (premultiplied, so colour and alpha average together correctly).
    /// Halving averages exact 2×2 blocks; an odd size shares the middle pixel between neighbours.
    public func boxFiltered(width newWidth: Int, height newHeight: Int) -> Image {
        let columns = BoxTaps(from: width, to: newWidth), rows = BoxTaps(from: height, to: newHeight)
        // Horizontal pass into floats (B, G, R, A per pixel), then the vertical pass rounds into the new image.
        var wide = [SIMD4<Float>](repeating: .zero, count: newWidth * height)
        withUnsafePixels { src in
            wide.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = src.baseAddress! + y * width
                    for x in 0..<newWidth {
                        var sum = SIMD4<Float>.zero
                        for t in columns.range(x) { sum += unpackBGRA(row[t]) * columns.weights[t - columns.first[x] + columns.offset[x]] }
                        out[y * newWidth + x] = sum
                    }
                }
            }
        }
        return wide.withUnsafeBufferPointer { mid in
            Image(width: newWidth, height: newHeight) { out in
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        var sum = SIMD4<Float>.zero
                        for t in rows.range(y) { sum += mid[t * newWidth + x] * rows.weights[t - rows.first[y] + rows.offset[y]] }
                        out[y * newWidth + x] = packBGRA(sum)
                    }
                }
            }
        }
    }
}

/// Holds an image's mipmap levels once built (a class, so that the immutable image can fill it lazily).
final class MipmapCache: Sendable {
    let levels = Guarded<[Image]?>(nil)
}

/// The taps of a 1-D box filter from `from` samples to `to`: output i covers input [i·r, (i+1)·r), r = from/to,
/// and each input sample weighs by how much of it lies inside, over r.
struct BoxTaps {
    /// First input sample of each output, and where its weights start in `weights`.
    var first: [Int] = [], count: [Int] = [], offset: [Int] = []
    var weights: [Float] = []

    init(from: Int, to: Int) {
        let r = Double(from) / Double(to)
        for i in 0..<to {
            let a = Double(i) * r, b = Double(i + 1) * r
            let j0 = Int(a.rounded(.down)), j1 = min(from, Int(b.rounded(.up)))
            first.append(j0); count.append(j1 - j0); offset.append(weights.count)
            for j in j0..<j1 {
                let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                weights.append(Float(overlap / r))
            }
        }
    }

    func range(_ i: Int) -> Range<Int> { first[i]..<(first[i] + count[i]) }
}

/// A BGRA word as four floats in 0…255.
@inline(__always)
private func unpackBGRA(_ w: UInt32) -> SIMD4<Float> {
    SIMD4<Float>(Float(w & 0xff), Float((w >> 8) & 0xff), Float((w >> 16) & 0xff), Float(w >> 24))
}

/// Four floats in 0…255 rounded to nearest into a BGRA word.
@inline(__always)
private func packBGRA(_ c: SIMD4<Float>) -> UInt32 {
    @inline(__always) func q(_ v: Float) -> UInt32 { UInt32(min(max(v, 0), 255) + 0.5) }
    return q(c.x) | q(c.y) << 8 | q(c.z) << 16 | q(c.w) << 24
}
