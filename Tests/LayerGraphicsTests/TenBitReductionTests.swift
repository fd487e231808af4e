@testable import LayerGraphics
import TestSupport
import Testing

@Suite("10-bit → 8-bit reduction")
struct TenBitReductionTests {
    @Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"))
    func avx2RowAgreesWithTheSwiftTwinUpToAGuardPage() {
        // Widths 1…70 end the 16-sample steps at every place against the tail; rows of both dither parities; codes
        // random with the extremes (0, 1023) and out-of-range words (a 16-bit word above 1023, 65535) mixed in.
        var differ: [Int] = []
        for width in 1...70 {
            var rng = SplitMix(state: UInt64(width))
            let words = (0..<width).map { _ in [0, 1023, 1024, 65535, 65534, UInt16.random(in: 0...1023, using: &rng)][Int.random(in: 0..<6, using: &rng)] }
            let source = GuardedMemory(count: 2 * width) { i in UInt8(truncatingIfNeeded: words[i / 2] >> (8 * (i % 2))) }
            let samples = UnsafeRawPointer(source.bytes).assumingMemoryBound(to: UInt16.self)
            for row in 0..<2 {
                var a = [UInt8](repeating: 0, count: width), b = a
                TenBitReduction.reduceRow(&a, samples, count: width, row: row, avx2: true)
                TenBitReduction.reduceRow(&b, samples, count: width, row: row, avx2: false)
                if a != b { differ.append(width) }
            }
            withExtendedLifetime(source) {}
        }
        #expect(differ.isEmpty, "the AVX2 and Swift rows differ at widths \(differ)")
    }

    @Test func limitedRangeCodesLandOnTheirEightBitCodesAndBlocksKeepTheirMean() throws {
        // Black 64 → 16, white 940 → 235, chroma 512 → 128 on every pixel; a code between (65 = 16.25) averages to
        // itself over each 2×2 block.
        for (code, expected) in [(UInt16(64), 16.0), (940, 235), (512, 128), (65, 16.25), (66, 16.5), (1023, 255)] {
            let picture = PixelBuffer(format: .yuv420p10, width: 6, height: 4) { plane, base, bpr in
                for i in 0..<(bpr / 2 * (plane == 0 ? 4 : 2)) { base.storeBytes(of: code, toByteOffset: 2 * i, as: UInt16.self) }
            }
            let reduced = TenBitReduction.reduce(picture)
            #expect(reduced.format == .yuv420p && reduced.width == 6 && reduced.height == 4)
            let y = reduced.planes[0]
            for by in stride(from: 0, to: 4, by: 2) {
                for bx in stride(from: 0, to: 6, by: 2) {
                    var sum = 0.0
                    for yy in by..<(by + 2) { for xx in bx..<(bx + 2) { sum += Double(y.base.load(fromByteOffset: yy * y.bytesPerRow + xx, as: UInt8.self)) } }
                    #expect(sum / 4 == expected, "code \(code): block mean \(sum / 4)")
                }
            }
        }
    }

    @Test func eightBitAndOtherFormatsPassThrough() {
        let picture = PixelBuffer(format: .yuv420p, width: 4, height: 4) { _, _, _ in }
        #expect(TenBitReduction.reduce(picture) === picture)
    }
}
