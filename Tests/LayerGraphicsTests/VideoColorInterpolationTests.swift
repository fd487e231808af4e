@testable import LayerGraphics
import TestSupport
import Testing

// 4:2:0 blocks whose luma codes lie close together are converted from two runs of the chain (their darkest and
// brightest pixel) instead of four: the pictures this gives against every pixel through the chain, on random blocks
// spread up to the limit and beyond, grey, mildly and wildly coloured (out of gamut, past the chain's kinks).

@Suite("Video colour block interpolation")
struct VideoColorInterpolationTests {
    /// A 10-bit 4:2:0 picture of random 2×2 blocks: each block's luma within `spreads` codes of a random base,
    /// chroma within `chroma` of the middle.
    private func blocks(width: Int, height: Int, spreads: ClosedRange<Int>, chroma: Int, seed: UInt64) -> PixelBuffer {
        var rng = SplitMix(state: seed)
        let cw = width / 2, ch = height / 2
        var luma = [UInt16](repeating: 0, count: width * height)
        var cb = [UInt16](repeating: 512, count: cw * ch), cr = cb
        for by in 0..<ch {
            for bx in 0..<cw {
                let spread = Int.random(in: spreads, using: &rng), base = Int.random(in: 64...(940 - spread), using: &rng)
                for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    luma[(2 * by + y) * width + 2 * bx + x] = UInt16(base + Int.random(in: 0...spread, using: &rng))
                }
                cb[by * cw + bx] = UInt16(512 + Int.random(in: -chroma...chroma, using: &rng))
                cr[by * cw + bx] = UInt16(512 + Int.random(in: -chroma...chroma, using: &rng))
            }
        }
        return PixelBuffer(format: .yuv420p10, width: width, height: height, matrix: .bt2020, range: .limited) { plane, base, bpr in
            let (codes, w, h) = plane == 0 ? (luma, width, height) : (plane == 1 ? cb : cr, cw, ch)
            for y in 0..<h { for x in 0..<w { base.storeBytes(of: codes[y * w + x], toByteOffset: y * bpr + 2 * x, as: UInt16.self) } }
        }
    }

    /// The largest difference between two pictures' codes, and how many codes differ.
    private func difference(_ a: PixelBuffer, _ b: PixelBuffer) -> (largest: Int, count: Int) {
        var largest = 0, count = 0
        for p in 0..<3 {
            let u = a.planes[p], v = b.planes[p]
            for y in 0..<u.height {
                for x in 0..<u.width {
                    let d = abs(Int(u.base.load(fromByteOffset: y * u.bytesPerRow + x, as: UInt8.self))
                                - Int(v.base.load(fromByteOffset: y * v.bytesPerRow + x, as: UInt8.self)))
                    largest = max(largest, d)
                    count += d > 0 ? 1 : 0
                }
            }
        }
        return (largest, count)
    }

    @Test(arguments: [TransferFunction.pq, .hlg, .sdr], [false, true])
    func interpolatedBlocksStayWithinOneCodeOfTheChain(_ transfer: TransferFunction, polynomials: Bool) {
        let description = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: transfer,
                                           masteringDisplay: MasteringDisplay(minLuminance: 0.005, maxLuminance: 1000))
        let interpolating = VideoColorConverter(source: description, interpolatesBlocks: true, polynomials: polynomials)
        let exact = VideoColorConverter(source: description, interpolatesBlocks: false, polynomials: polynomials)
        var differing = 0
        for (i, chroma) in [0, 100, 448].enumerated() {
            let picture = blocks(width: 256, height: 128, spreads: 0...VideoColorConverter.blockSpreadLimit + 4, chroma: chroma,
                                 seed: UInt64(17 + i))
            // The AVX-512 kernel where it runs, else the twin (the kernels' parity is VideoColorKernelEdgeTests').
            let avx2 = polynomials ? VideoColorConverter.avx512KernelRuns : avx2KernelsEnabled
            let d = difference(interpolating.convert(picture, avx2: avx2), exact.convert(picture, avx2: avx2))
            #expect(d.largest <= 1, "\(transfer), chroma ±\(chroma): \(d.largest) codes from the chain")
            differing += d.count
        }
        // The blocks were interpolated (a line through a curve differs from it somewhere by a rounding).
        #expect(differing > 0)
    }
}
