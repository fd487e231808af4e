@testable import LayerCompositor
import LayerGraphics
import Testing

// The fast kernels against the plain ones they replace, on random inputs: a regression in a vector path
// cannot hide behind golden images that happen not to exercise it.

/// A deterministic generator (SplitMix64), so that a failure can be reproduced.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The largest difference of any channel between two BGRA words.
func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
    var worst = 0
    for shift in stride(from: 0, to: 32, by: 8) {
        let x = Int((a >> UInt32(shift)) & 0xff), y = Int((b >> UInt32(shift)) & 0xff)
        worst = max(worst, abs(x - y))
    }
    return worst
}

/// Random 8-bit planes (with padded rows) for a yuv420p picture of `width`×`height`.
final class RandomYUVPlanes {
    let width, height, chromaWidth, chromaHeight, lumaStride, chromaStride: Int
    let luma, cb, cr: UnsafeMutableRawPointer

    init(width: Int, height: Int, using rng: inout SplitMix) {
        self.width = width; self.height = height
        chromaWidth = (width + 1) / 2; chromaHeight = (height + 1) / 2
        lumaStride = width + 13; chromaStride = chromaWidth + 7
        func plane(_ count: Int) -> UnsafeMutableRawPointer {
            let p = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
            for i in 0..<count { p.storeBytes(of: UInt8.random(in: 0...255, using: &rng), toByteOffset: i, as: UInt8.self) }
            return p
        }
        luma = plane(lumaStride * height); cb = plane(chromaStride * chromaHeight); cr = plane(chromaStride * chromaHeight)
    }
    deinit { luma.deallocate(); cb.deallocate(); cr.deallocate() }

    func sampler(_ k: YUVToRGB) -> PlanarYUVSampler {
        PlanarYUVSampler(y: ScalarPlane(base: luma, bytesPerRow: lumaStride, width: width, height: height),
                         u: ScalarPlane(base: cb, bytesPerRow: chromaStride, width: chromaWidth, height: chromaHeight),
                         v: ScalarPlane(base: cr, bytesPerRow: chromaStride, width: chromaWidth, height: chromaHeight),
                         alpha: nil, grid: ChromaGrid(shift: (1, 1), location: .left), k: k, wide: false, nearest: false)
    }
}

@Test func vectorYUVWalkMatchesTheScalarWalk() {
    var rng = SplitMix(state: 42)
    let planes = RandomYUVPlanes(width: 61, height: 37, using: &rng)
    let matrices = [YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), YUVToRGB(matrix: .bt601, range: .full, bitDepth: 8),
                    YUVToRGB(matrix: .bt2020, range: .limited, bitDepth: 8)]
    var runs = 0, pixels = 0, differing = 0, worst = 0
    for k in matrices {
        let sampler = planes.sampler(k)
        for _ in 0..<300 {
            // A random line of texels: any direction, from a fraction of a texel to several texels per pixel.
            let count = Int.random(in: 1...40, using: &rng)
            let x = Double.random(in: 0...Double(planes.width), using: &rng), y = Double.random(in: 0...Double(planes.height), using: &rng)
            let dx = Double.random(in: -3...3, using: &rng), dy = Double.random(in: -3...3, using: &rng)
            let lx = FixedWalk(x, dx, count: planes.width), ly = FixedWalk(y, dy, count: planes.height)
            let cx = FixedWalk(Double(sampler.grid.x(Float(x))), dx * Double(sampler.grid.scaleX), count: planes.chromaWidth)
            let cy = FixedWalk(Double(sampler.grid.y(Float(y))), dy * Double(sampler.grid.scaleY), count: planes.chromaHeight)
            guard lx.staysInside(count: count), ly.staysInside(count: count), cx.staysInside(count: count), cy.staysInside(count: count)
            else { continue }
            var scalar = [UInt32](repeating: 0, count: count), vector = [UInt32](repeating: 0, count: count)
            scalar.withUnsafeMutableBufferPointer { sampler.fillInsideScalar($0.baseAddress!, count: count, lx: lx, ly: ly, cx: cx, cy: cy) }
            vector.withUnsafeMutableBufferPointer { sampler.fillInsideVector($0.baseAddress!, count: count, lx: lx, ly: ly, cx: cx, cy: cy) }
            runs += 1
            for i in 0..<count {
                let d = channelDifference(scalar[i], vector[i])
                worst = max(worst, d); pixels += 1
                if d > 0 { differing += 1 }
            }
        }
    }
    #expect(runs > 200, "enough random walks stayed inside the planes")
    #expect(worst <= 1, "a channel differs by at most 1")
    #expect(differing * 10 <= pixels, "most pixels are identical (\(differing) of \(pixels) differ)")
}
