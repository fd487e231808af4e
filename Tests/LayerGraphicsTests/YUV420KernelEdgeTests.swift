@testable import LayerGraphics
import TestSupport
import Testing

// The BGRA → 4:2:0 row steps (AVX2 and Swift) on rows that end just before a page that may not be touched
// (`GuardedMemory`): a read one pixel past a row's last faults at once, in any build. The conversion's own tests
// use a surface's buffer, where such a read would land unnoticed in the next row or the allocator's slack.

/// One row pair of `width` pixels, each row ending at a guard page, and the planes' codes from both step sets.
private func convertGuardedRows(width: Int, avx2: Bool, using rng: inout SplitMix) -> [UInt8] {
    let top = GuardedMemory(count: width * 4) { _ in UInt8.random(in: 0...255, using: &rng) }
    let bottom = GuardedMemory(count: width * 4) { _ in UInt8.random(in: 0...255, using: &rng) }
    let kernel = YUV420Kernel(matrix: .bt709, range: .limited, avx2: avx2)
    let chromaWidth = (width + 1) / 2
    var y = [UInt8](repeating: 0, count: 2 * width), cb = [UInt8](repeating: 0, count: chromaWidth), cr = cb
    let topPixels = UnsafeRawPointer(top.bytes).assumingMemoryBound(to: UInt32.self)
    let bottomPixels = UnsafeRawPointer(bottom.bytes).assumingMemoryBound(to: UInt32.self)
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * 17) { scratch in
        y.withUnsafeMutableBufferPointer { y in
            kernel.lumaRow(topPixels, width: width, into: y.baseAddress!, scratch: scratch.baseAddress!)
            kernel.lumaRow(bottomPixels, width: width, into: y.baseAddress! + width, scratch: scratch.baseAddress!)
        }
        cb.withUnsafeMutableBufferPointer { cb in
            cr.withUnsafeMutableBufferPointer { cr in
                kernel.chromaRow(topPixels, bottomPixels, width: width, cb: cb.baseAddress!, cr: cr.baseAddress!,
                                 scratch: scratch.baseAddress!)
            }
        }
    }
    withExtendedLifetime((top, bottom)) {}
    return y + cb + cr
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"))
func bgraRowStepsReadNothingPastARow() {
    // Widths 1…80 end the AVX2 steps at every place against the edge steps; the same seed gives both step sets
    // the same pixels, so their codes must agree byte for byte too.
    var differ: [Int] = []
    for width in 1...80 {
        var a = SplitMix(state: UInt64(width)), b = a
        if convertGuardedRows(width: width, avx2: true, using: &a) != convertGuardedRows(width: width, avx2: false, using: &b) {
            differ.append(width)
        }
    }
    #expect(differ.isEmpty, "the AVX2 and Swift steps differ at widths \(differ)")
}
