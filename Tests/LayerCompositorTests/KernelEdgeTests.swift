import CKernels
@testable import LayerCompositor
import LayerGraphics
import TestSupport
import Testing

// The AVX2 kernels at the ends of their planes. Every plane here ends just before a page that may not be
// touched (`GuardedMemory`), so a read one byte past a plane's memory faults at once in any build: the test
// process dies, where an ordinary allocation would let the kernel read a neighbour's memory unnoticed (the
// address sanitizer's heap-buffer-overflow in the shadow kernel, issue 15). The walks crowd the last rows and
// columns, where the kernels' windows and gathers reach furthest.

private let avx2Off: Comment = "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"

/// A shadow's mask laid out as `AlphaMask` lays it out (rows padded to a multiple of 4, no more), at a guard page.
private func guardedMask(width: Int, height: Int, using rng: inout SplitMix) -> (GuardedMemory, ScalarPlane) {
    let stride = (width + 3) & ~3
    let memory = GuardedMemory(count: stride * height) { _ in UInt8.random(in: 0...255, using: &rng) }
    return (memory, ScalarPlane(base: UnsafeRawPointer(memory.bytes), bytesPerRow: stride, width: width, height: height))
}

/// The AVX2 tinted mask over `count` pixels against the Swift taps and blend, bit for bit.
private func tintMatchesTheSwiftBlend(_ plane: ScalarPlane, _ wx: FixedWalk, _ wy: FixedWalk, count: Int, tint: UInt32) -> Bool {
    var expected = [UInt32](repeating: 0xff40_8020, count: count), actual = expected
    var sx = wx, sy = wy
    for i in 0..<count {
        blendTint(tint, alpha88: plane.bilinear8Fixed(sx.nextInside(), sy.nextInside()), tintAlpha: Int(tint >> 24), over: &expected[i])
    }
    let done = actual.withUnsafeMutableBufferPointer {
        lp_tint_mask_bilinear_avx2($0.baseAddress!, count, plane.base.assumingMemoryBound(to: UInt8.self), plane.bytesPerRow,
                                   Int32(wx.t), Int32(wx.step), Int32(wy.t), Int32(wy.step), tint)
    }
    return done == count && actual == expected
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func shadowWindowsStopAtTheMasksLastRow() {
    // Eight pixels whose first half steps from the third-last row onto the second-last, while the second half stays
    // on the second-last: the first half's bottom taps are on the last row, the second half's are too, and nothing
    // below it may be read. (The kernel read a third row for both halves when either straddled two rows: one row past
    // the mask for the second half. That is the over-read ASan reported with `--rotate=60 --shadow`.)
    var rng = SplitMix(state: 5)
    let width = 64, height = 24
    let (memory, plane) = guardedMask(width: width, height: height, using: &rng)
    let wx = FixedWalk(position: 20 << 16, step: 1 << 16, count: width)
    let wy = FixedWalk(position: ((height - 2) << 16) - 0x5000, step: 0x2000, count: height)
    #expect(wx.staysInside(count: 8) && wy.staysInside(count: 8) && plane.gatherStaysInside(count: 8, wx, wy))
    #expect(tintMatchesTheSwiftBlend(plane, wx, wy, count: 8, tint: 0xff10_2030))
    withExtendedLifetime(memory) {}
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func shadowKernelReadsNothingPastTheMask() {
    // Random walks over the last rows and columns of masks of several widths (stride = width, or padded to 4),
    // steep and gentle, up and down: every one the compositor would hand the kernel must stay in the mask's memory
    // and match the Swift blend.
    var rng = SplitMix(state: 17)
    var runs = 0, mismatches = 0
    for width in [13, 16, 29, 64] {
        let height = 19
        let (memory, plane) = guardedMask(width: width, height: height, using: &rng)
        for walk in 0..<600 {
            let count = Int.random(in: 1...40, using: &rng)
            let gentle = walk % 3 != 0
            let x = Double.random(in: 0...Double(width), using: &rng)
            let y = Double.random(in: Double(height - 4)...Double(height), using: &rng)
            let dx = Double.random(in: gentle ? -0.5...0.5 : -1.5...1.5, using: &rng)
            let dy = Double.random(in: gentle ? -0.2...0.2 : -1.5...1.5, using: &rng)
            let wx = FixedWalk(x, dx, count: width), wy = FixedWalk(y, dy, count: height)
            guard wx.staysInside(count: count), wy.staysInside(count: count), plane.gatherStaysInside(count: count, wx, wy) else { continue }
            if !tintMatchesTheSwiftBlend(plane, wx, wy, count: count, tint: 0xc060_3010) { mismatches += 1 }
            runs += 1
        }
        withExtendedLifetime(memory) {}
    }
    #expect(runs > 300, "enough walks reached the last rows (\(runs))")
    #expect(mismatches == 0)
}

/// Planes of a 4:2:0 picture with rows padded by `padding` bytes, each ending at a guard page.
private final class GuardedYUVPlanes {
    let luma, cb, cr: GuardedMemory
    let sampler: PlanarYUVSampler

    init(width: Int, height: Int, padding: Int, using rng: inout SplitMix) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        luma = GuardedMemory(count: (width + padding) * height) { _ in UInt8.random(in: 0...255, using: &rng) }
        cb = GuardedMemory(count: (cw + padding) * ch) { _ in UInt8.random(in: 0...255, using: &rng) }
        cr = GuardedMemory(count: (cw + padding) * ch) { _ in UInt8.random(in: 0...255, using: &rng) }
        sampler = PlanarYUVSampler(
            y: ScalarPlane(base: UnsafeRawPointer(luma.bytes), bytesPerRow: width + padding, width: width, height: height),
            u: ScalarPlane(base: UnsafeRawPointer(cb.bytes), bytesPerRow: cw + padding, width: cw, height: ch),
            v: ScalarPlane(base: UnsafeRawPointer(cr.bytes), bytesPerRow: cw + padding, width: cw, height: ch),
            alpha: nil, grid: ChromaGrid(shift: (1, 1), location: .left),
            k: YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), wide: false, nearest: false)
    }
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func videoWalkReadsNothingPastItsPlanes() {
    // The 4:2:0 walk (windows and gathers) along the bottom rows of planes without row padding and with a little.
    var rng = SplitMix(state: 29)
    var runs = 0, tally = ChannelTally()
    for padding in [0, 2, 6] {
        let width = 70, height = 34
        let planes = GuardedYUVPlanes(width: width, height: height, padding: padding, using: &rng)
        let s = planes.sampler
        for walk in 0..<500 {
            let count = Int.random(in: 8...60, using: &rng)
            let gentle = walk % 2 == 0
            let x = Double.random(in: 0...Double(width), using: &rng), y = Double.random(in: Double(height - 5)...Double(height), using: &rng)
            let dx = Double.random(in: gentle ? -1...1 : -2...2, using: &rng), dy = Double.random(in: gentle ? -0.1...0.1 : -2...2, using: &rng)
            let lx = FixedWalk(x, dx, count: s.y.width), ly = FixedWalk(y, dy, count: s.y.height)
            let cx = FixedWalk(Double(s.grid.x(Float(x))), dx * Double(s.grid.scaleX), count: s.u.width)
            let cy = FixedWalk(Double(s.grid.y(Float(y))), dy * Double(s.grid.scaleY), count: s.u.height)
            guard lx.staysInside(count: count), ly.staysInside(count: count), cx.staysInside(count: count), cy.staysInside(count: count),
                  s.gatherStaysInside(count: count, lx: lx, ly: ly, cx: cx, cy: cy) else { continue }
            var scalar = [UInt32](repeating: 0, count: count), gathered = scalar
            scalar.withUnsafeMutableBufferPointer { s.fillInsideScalar($0.baseAddress!, count: count, lx: lx, ly: ly, cx: cx, cy: cy) }
            gathered.withUnsafeMutableBufferPointer {
                s.fillInsideGather($0.baseAddress!, count: count, matrix: s.gatherMatrixIfEnabled!, lx: lx, ly: ly, cx: cx, cy: cy)
            }
            tally.add(scalar, gathered, count: count)
            runs += 1
        }
    }
    #expect(runs > 300, "enough walks reached the last rows (\(runs))")
    tally.expectWithinOne()
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func projectiveWalkReadsNothingPastItsPlanes() {
    // Projective rows spilling past every edge (the kernel clamps them to the planes), on planes without padding and
    // with two bytes: wherever `projectiveKernelFits` lets the kernel run, it stays in the planes' memory.
    var rng = SplitMix(state: 31)
    var ran = 0, tally = ChannelTally()
    for padding in [0, 2] {
        let planes = GuardedYUVPlanes(width: 66, height: 30, padding: padding, using: &rng)
        let s = planes.sampler
        for _ in 0..<400 {
            let count = Int.random(in: 1...70, using: &rng)
            let row = randomProjectiveRow(width: 66, height: 30, count: count, spill: 6, using: &rng)
            var twin = [UInt32](repeating: 0, count: count), kernel = twin
            guard kernel.withUnsafeMutableBufferPointer({ s.fillProjective($0.baseAddress!, count: count, row) }) else { continue }
            twin.withUnsafeMutableBufferPointer { s.fillProjectiveScalar($0.baseAddress!, count: count, row) }
            tally.add(twin, kernel, count: count)
            ran += 1
        }
    }
    #expect(ran > 300, "the kernel ran on most rows (\(ran))")
    tally.expectWithinOne()
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func texelRowsReadNothingPastTheirPlanes() {
    // Whole rows of a picture placed texel for pixel, to its right edge, on every row, of planes without padding and
    // with a little (odd widths: a chroma row one sample short of a pair): the texel kernel and the projective one at
    // its ends stay inside the planes' memory, and give the projective kernel's pixels.
    var rng = SplitMix(state: 304)
    var taken = 0
    for (width, padding) in [(66, 0), (67, 0), (67, 2)] {
        let height = 29
        let planes = GuardedYUVPlanes(width: width, height: height, padding: padding, using: &rng)
        let s = planes.sampler
        for y in 0..<height {
            for start in [-3, 0, 1, 8, width - 20] {
                let count = width - start
                let row = lp_row_projection(x0: Double(start) + 0.5, dx: 1, y0: Double(y) + 0.5, dy: 0, w0: 1, dw: 0)
                var fast = [UInt32](repeating: 0, count: count), reference = fast
                guard fast.withUnsafeMutableBufferPointer({ s.fillTexelForPixel($0.baseAddress!, count: count, row, blendingAt: nil) }) else { continue }
                _ = reference.withUnsafeMutableBufferPointer { s.fillProjective($0.baseAddress!, count: count, row) }
                #expect(fast == reference, "row \(y) from \(start), \(width) wide")
                taken += 1
            }
        }
    }
    #expect(taken > 200, "texel rows taken (\(taken))")
}
