import CKernels
@testable import LayerCompositor
import LayerGraphics
import TestSupport
import Testing

// The fast kernels against the plain ones they replace, on random inputs: a regression in a vector path
// cannot hide behind golden images that happen not to exercise it.


/// The largest difference of any channel between two BGRA words.
func channelDifference(_ a: UInt32, _ b: UInt32) -> Int {
    var worst = 0
    for shift in stride(from: 0, to: 32, by: 8) {
        let x = Int((a >> UInt32(shift)) & 0xff), y = Int((b >> UInt32(shift)) & 0xff)
        worst = max(worst, abs(x - y))
    }
    return worst
}

/// How two fills of the same pixels compare, channel by channel.
struct ChannelTally {
    var pixels = 0, differing = 0, worst = 0

    mutating func add(_ a: [UInt32], _ b: [UInt32], count: Int) {
        for i in 0..<count {
            let d = channelDifference(a[i], b[i])
            worst = max(worst, d); pixels += 1
            if d > 0 { differing += 1 }
        }
    }

    /// What a float colour matrix beside an integer one may do: a channel off by 1, in a few pixels.
    func expectWithinOne(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(worst <= 1, "a channel differs by at most 1", sourceLocation: sourceLocation)
        #expect(differing * 10 <= pixels, "most pixels are identical (\(differing) of \(pixels) differ)", sourceLocation: sourceLocation)
    }
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

/// Random lines of texels (any direction, up to `slope` texels per pixel) that stay inside the planes (and that
/// `accept` takes), filled by the scalar walk and by `fast`: how many ran, and how their channels compare.
func compareWithTheScalarWalk(
    _ planes: RandomYUVPlanes, _ matrices: [YUVToRGB], walks: Int, counts: ClosedRange<Int>, slope: Double, using rng: inout SplitMix,
    accept: (PlanarYUVSampler, Int, FixedWalk, FixedWalk, FixedWalk, FixedWalk) -> Bool = { _, _, _, _, _, _ in true },
    _ fast: (PlanarYUVSampler, UnsafeMutablePointer<UInt32>, Int, FixedWalk, FixedWalk, FixedWalk, FixedWalk) -> Void
) -> (runs: Int, tally: ChannelTally) {
    var runs = 0, tally = ChannelTally()
    for k in matrices {
        let sampler = planes.sampler(k)
        for _ in 0..<walks {
            let count = Int.random(in: counts, using: &rng)
            let x = Double.random(in: 0...Double(planes.width), using: &rng), y = Double.random(in: 0...Double(planes.height), using: &rng)
            let dx = Double.random(in: -slope...slope, using: &rng), dy = Double.random(in: -slope...slope, using: &rng)
            let lx = FixedWalk(x, dx, count: planes.width), ly = FixedWalk(y, dy, count: planes.height)
            let cx = FixedWalk(Double(sampler.grid.x(Float(x))), dx * Double(sampler.grid.scaleX), count: planes.chromaWidth)
            let cy = FixedWalk(Double(sampler.grid.y(Float(y))), dy * Double(sampler.grid.scaleY), count: planes.chromaHeight)
            guard lx.staysInside(count: count), ly.staysInside(count: count), cx.staysInside(count: count), cy.staysInside(count: count),
                  accept(sampler, count, lx, ly, cx, cy) else { continue }
            var scalar = [UInt32](repeating: 0, count: count), other = [UInt32](repeating: 0, count: count)
            scalar.withUnsafeMutableBufferPointer { sampler.fillInsideScalar($0.baseAddress!, count: count, lx: lx, ly: ly, cx: cx, cy: cy) }
            other.withUnsafeMutableBufferPointer { fast(sampler, $0.baseAddress!, count, lx, ly, cx, cy) }
            runs += 1
            tally.add(scalar, other, count: count)
        }
    }
    return (runs, tally)
}

@Test func vectorYUVWalkMatchesTheScalarWalk() {
    var rng = SplitMix(state: 42)
    let planes = RandomYUVPlanes(width: 61, height: 37, using: &rng)
    let matrices = [YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), YUVToRGB(matrix: .bt601, range: .full, bitDepth: 8),
                    YUVToRGB(matrix: .bt2020, range: .limited, bitDepth: 8)]
    let (runs, tally) = compareWithTheScalarWalk(planes, matrices, walks: 300, counts: 1...40, slope: 3, using: &rng) {
        $0.fillInsideVector($1, count: $2, lx: $3, ly: $4, cx: $5, cy: $6)
    }
    #expect(runs > 200, "enough random walks stayed inside the planes")
    tally.expectWithinOne()
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func gatherYUVWalkMatchesTheScalarWalk() {
    var rng = SplitMix(state: 7)
    let planes = RandomYUVPlanes(width: 75, height: 41, using: &rng)
    let matrices = [YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), YUVToRGB(matrix: .bt601, range: .full, bitDepth: 8)]
    let (runs, tally) = compareWithTheScalarWalk(
        planes, matrices, walks: 400, counts: 8...70, slope: 2, using: &rng,
        accept: { $0.gatherStaysInside(count: $1, lx: $2, ly: $3, cx: $4, cy: $5) }
    ) { sampler, dst, count, lx, ly, cx, cy in
        sampler.fillInsideGather(dst, count: count, matrix: sampler.gatherMatrixIfEnabled!, lx: lx, ly: ly, cx: cx, cy: cy)
    }
    #expect(runs > 150, "enough random walks stayed inside the planes (\(runs))")
    tally.expectWithinOne()
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func shadowKernelMatchesTheScalarBlend() {
    // The AVX2 tinted mask against the Swift taps and blend it replaces: bit for bit, over random destinations.
    // Half the walks are gentle, as over a shadow's magnified mask (taps through the windows), half steep (gathers).
    var rng = SplitMix(state: 11)
    let width = 53, height = 29, stride = 56
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
    defer { bytes.deallocate() }
    for i in 0..<(stride * height) { bytes[i] = UInt8.random(in: 0...255, using: &rng) }
    let plane = ScalarPlane(base: UnsafeRawPointer(bytes), bytesPerRow: stride, width: width, height: height)
    var runs = 0
    for tint in [UInt32(0x8000_0000), 0xff10_2030, 0x4020_1008, 0] {
        for walk in 0..<200 {
            let count = Int.random(in: 1...64, using: &rng)
            let steep = walk % 2 == 0
            let wx = FixedWalk(Double.random(in: 0...Double(width), using: &rng), Double.random(in: steep ? -1.5...1.5 : -0.4...0.4, using: &rng), count: width)
            let wy = FixedWalk(Double.random(in: 0...Double(height), using: &rng), Double.random(in: steep ? -1.5...1.5 : -0.06...0.06, using: &rng), count: height)
            guard wx.staysInside(count: count), wy.staysInside(count: count), plane.gatherStaysInside(count: count, wx, wy) else { continue }
            // Eight guard pixels past the run: the last few pixels go through a lane mask and must leave them be.
            let destination = (0..<(count + 8)).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xff00_0000 }
            var expected = destination, actual = destination
            var sx = wx, sy = wy
            for i in 0..<count {
                blendTint(tint, alpha88: plane.bilinear8Fixed(sx.nextInside(), sy.nextInside()), tintAlpha: Int(tint >> 24), over: &expected[i])
            }
            let done = actual.withUnsafeMutableBufferPointer {
                lp_tint_mask_bilinear_avx2($0.baseAddress!, count, bytes, stride, Int32(wx.t), Int32(wx.step), Int32(wy.t), Int32(wy.step), tint)
            }
            #expect(done == count)
            #expect(actual == expected, "tint \(String(tint, radix: 16)), run \(runs), \(count) pixels")
            runs += 1
        }
    }
    #expect(runs > 100, "enough random walks stayed inside the mask (\(runs))")
}

@Test func gathersStayOffTheEndOfAnUnpaddedPlane() {
    // A gather reads two bytes past the right tap: on the last row of a plane without row padding, that is past
    // its memory, and the Swift kernels must be used there.
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 32 * 8)
    defer { bytes.deallocate() }
    let plane = ScalarPlane(base: UnsafeRawPointer(bytes), bytesPerRow: 32, width: 32, height: 8)
    let nearRightEdge = FixedWalk(22.5, 1, count: 32)          // taps up to columns 29, 30 (reads to 32)
    #expect(!plane.gatherStaysInside(count: 8, nearRightEdge, FixedWalk(6.7, 0, count: 8)), "last row pair, reads past the end")
    #expect(plane.gatherStaysInside(count: 8, nearRightEdge, FixedWalk(5.7, 0, count: 8)), "a row below is still there")
    #expect(plane.gatherStaysInside(count: 8, FixedWalk(10.5, 1, count: 32), FixedWalk(6.7, 0, count: 8)), "well inside the row")
}

/// A random projective row over a picture of `width`×`height` luma texels: from one point to another (reaching up
/// to `spill` texels past the edges), with depths at the ends between 0.5 and 2.
func randomProjectiveRow(width: Int, height: Int, count: Int, spill: Double, using rng: inout SplitMix) -> lp_row_projection {
    func point() -> (Double, Double) {
        (Double.random(in: -spill...(Double(width) + spill), using: &rng), Double.random(in: -spill...(Double(height) + spill), using: &rng))
    }
    let a = point(), b = point()
    let wa = Double.random(in: 0.5...2, using: &rng), wb = Double.random(in: 0.5...2, using: &rng)
    let steps = Double(max(count - 1, 1))
    return lp_row_projection(x0: a.0 * wa, dx: (b.0 * wb - a.0 * wa) / steps, y0: a.1 * wa, dy: (b.1 * wb - a.1 * wa) / steps,
                             w0: wa, dw: (wb - wa) / steps)
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func projectiveYUVKernelMatchesItsTwin() {
    // Every pixel of the AVX2 projective walk (tails and clamped positions past the edges included) against the
    // Swift twin at the same positions: the colour matrix in floats may move a channel by 1.
    var rng = SplitMix(state: 23)
    let planes = RandomYUVPlanes(width: 67, height: 43, using: &rng)
    var tally = ChannelTally()
    for k in [YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), YUVToRGB(matrix: .bt601, range: .full, bitDepth: 8)] {
        let sampler = planes.sampler(k)
        for _ in 0..<300 {
            let count = Int.random(in: 1...70, using: &rng)
            let row = randomProjectiveRow(width: planes.width, height: planes.height, count: count, spill: 3, using: &rng)
            var twin = [UInt32](repeating: 0, count: count), kernel = [UInt32](repeating: 0x1234_5678, count: count + 8)
            twin.withUnsafeMutableBufferPointer { sampler.fillProjectiveScalar($0.baseAddress!, count: count, row) }
            let ran = kernel.withUnsafeMutableBufferPointer { sampler.fillProjective($0.baseAddress!, count: count, row) }
            #expect(ran, "padded planes: the kernel takes every row in front of the eye")
            #expect(kernel[count...].allSatisfy { $0 == 0x1234_5678 }, "nothing written past the run")
            tally.add(twin, kernel, count: count)
        }
    }
    tally.expectWithinOne()
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func projectiveKernelMatchesItsTwinOnGentleRows() {
    // Rows of a card turned a little and scaled down (up to 3.5 texels a pixel across, a fifth of a row down): most
    // groups take each half's taps from one 16-byte load per row instead of gathers (the halves on different rows,
    // or a half across a row boundary, at times), the rest (the left edge) gather. Both against the twin, so a wrong
    // shuffle, window or row shows.
    var rng = SplitMix(state: 31)
    let planes = RandomYUVPlanes(width: 360, height: 48, using: &rng)
    let sampler = planes.sampler(YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8))
    var tally = ChannelTally()
    for _ in 0..<300 {
        let count = Int.random(in: 8...90, using: &rng)
        let w0 = Double.random(in: 0.8...1.2, using: &rng), dw = Double.random(in: -0.002...0.002, using: &rng)
        let x = Double.random(in: -2...300, using: &rng), y = Double.random(in: -1...49, using: &rng)
        let row = lp_row_projection(x0: x * w0, dx: Double.random(in: -3.5...3.5, using: &rng), y0: y * w0,
                                    dy: Double.random(in: -0.2...0.2, using: &rng), w0: w0, dw: dw)
        var twin = [UInt32](repeating: 0, count: count), kernel = [UInt32](repeating: 0, count: count)
        twin.withUnsafeMutableBufferPointer { sampler.fillProjectiveScalar($0.baseAddress!, count: count, row) }
        let ran = kernel.withUnsafeMutableBufferPointer { sampler.fillProjective($0.baseAddress!, count: count, row) }
        #expect(ran)
        tally.add(twin, kernel, count: count)
    }
    tally.expectWithinOne()
}

@Test func projectiveTwinSamplesWhereThePixelProjects() {
    // The twin's positions follow the samplers' conventions (centre rule, chroma siting): each pixel matches the
    // float sampler at its own projected texel, within the rounding of 8-bit weights (a chroma lerp low by up to a
    // level moves blue by about two). Half a texel off would differ by tens on these random planes.
    var rng = SplitMix(state: 29)
    let planes = RandomYUVPlanes(width: 40, height: 30, using: &rng)
    let sampler = planes.sampler(YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8))
    var worst = 0
    for _ in 0..<100 {
        let count = Int.random(in: 1...40, using: &rng)
        let row = randomProjectiveRow(width: planes.width, height: planes.height, count: count, spill: 0, using: &rng)
        var twin = [UInt32](repeating: 0, count: count)
        twin.withUnsafeMutableBufferPointer { sampler.fillProjectiveScalar($0.baseAddress!, count: count, row) }
        for i in 0..<count {
            let w = row.w0 + Double(i) * row.dw
            let tx = (row.x0 + Double(i) * row.dx) / w, ty = (row.y0 + Double(i) * row.dy) / w
            worst = max(worst, channelDifference(twin[i], pack(sampler.sample(Float(tx), Float(ty)))))
        }
    }
    #expect(worst <= 3, "within the fixed-point weights' rounding (worst \(worst))")
}

@Test func projectiveKernelStaysOffTheEndOfAnUnpaddedPlane() {
    // Without row padding, a gather on a plane's last row reads past its memory: such rows go to the segments.
    guard avx2KernelsEnabled else { return }
    let width = 32, height = 16
    let luma = UnsafeMutableRawPointer.allocate(byteCount: width * height, alignment: 16)
    let chroma = UnsafeMutableRawPointer.allocate(byteCount: width / 2 * height / 2, alignment: 16)
    defer { luma.deallocate(); chroma.deallocate() }
    let c = ScalarPlane(base: chroma, bytesPerRow: width / 2, width: width / 2, height: height / 2)
    let sampler = PlanarYUVSampler(y: ScalarPlane(base: luma, bytesPerRow: width, width: width, height: height), u: c, v: c, alpha: nil,
                                   grid: ChromaGrid(shift: (1, 1), location: .left),
                                   k: YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), wide: false, nearest: false)
    func row(atTexelRow y: Double) -> lp_row_projection { lp_row_projection(x0: 1, dx: 1, y0: y, dy: 0, w0: 1, dw: 0) }
    #expect(sampler.projectiveKernelFits(count: 20, row(atTexelRow: 4.5)), "rows well above the bottom")
    #expect(!sampler.projectiveKernelFits(count: 20, row(atTexelRow: 15.2)), "the bottom rows of an unpadded plane")
    #expect(!sampler.projectiveKernelFits(count: 20, lp_row_projection(x0: 1, dx: 1, y0: 4, dy: 0, w0: 1, dw: -0.1)),
            "behind the eye at the run's end")
}
