import CKernels
@testable import LayerCompositor
import LayerGraphics
import LayerKit
import TestSupport
import Testing

// A 4:2:0 picture placed texel for pixel (TexelForPixel.swift, issue 30): the AVX2 row kernel against its Swift twin,
// the whole row against the projective kernel it stands in for (the same pixels, bit for bit, faded or not), which
// rows it takes, and that a picture at an integer position takes it.

private let avx2Off: Comment = "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"

/// `planes` as a sampler with chroma sited at `location`.
private func sampler(_ planes: RandomYUVPlanes, _ location: ChromaLocation, _ k: YUVToRGB = YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8)) -> PlanarYUVSampler {
    PlanarYUVSampler(y: ScalarPlane(base: planes.luma, bytesPerRow: planes.lumaStride, width: planes.width, height: planes.height),
                     u: ScalarPlane(base: planes.cb, bytesPerRow: planes.chromaStride, width: planes.chromaWidth, height: planes.chromaHeight),
                     v: ScalarPlane(base: planes.cr, bytesPerRow: planes.chromaStride, width: planes.chromaWidth, height: planes.chromaHeight),
                     alpha: nil, grid: ChromaGrid(shift: (1, 1), location: location), k: k, wide: false, nearest: false)
}

/// The row of pixels whose first samples texel (column, row), one texel a pixel across.
private func texelRow(column: Int, row: Int) -> lp_row_projection {
    lp_row_projection(x0: Double(column) + 0.5, dx: 1, y0: Double(row) + 0.5, dy: 0, w0: 1, dw: 0)
}

private func randomWords(_ count: Int, using rng: inout SplitMix) -> [UInt32] {
    (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) | 0xff00_0000 }
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func texelRowKernelMatchesItsSwiftTwin() {
    // Bit for bit, written and faded, for every chroma siting, over rows that start anywhere (odd columns: the other
    // chroma phase) on a picture of odd size.
    var rng = SplitMix(state: 301)
    let planes = RandomYUVPlanes(width: 67, height: 43, using: &rng)
    var rows = 0
    for location in [ChromaLocation.left, .center, .topLeft] {
        for k in [YUVToRGB(matrix: .bt709, range: .limited, bitDepth: 8), YUVToRGB(matrix: .bt601, range: .full, bitDepth: 8)] {
            let s = sampler(planes, location, k)
            for _ in 0..<200 {
                let count = Int.random(in: 8...80, using: &rng)
                let row = texelRow(column: Int.random(in: -6...60, using: &rng), row: Int.random(in: -2...44, using: &rng))
                guard let plan = s.texelRowPlan(count: count, row) else { continue }
                for opacity in [nil, Float(0.6)] {
                    let under = randomWords(plan.body, using: &rng)
                    var kernel = under, twin = under
                    var r = plan.row, matrix = s.gatherMatrixIfEnabled!
                    let done = kernel.withUnsafeMutableBufferPointer {
                        lp_yuv420_texel_row_avx2($0.baseAddress!, plan.body, &r, &matrix, opacity ?? 1, opacity == nil ? 0 : 1)
                    }
                    twin.withUnsafeMutableBufferPointer { s.fillTexelRowSwift($0.baseAddress!, plan, blendingAt: opacity) }
                    #expect(done == plan.body)
                    #expect(kernel == twin, "\(location), opacity \(String(describing: opacity)), \(plan.body) pixels from \(row.x0)")
                }
                rows += 1
            }
        }
    }
    #expect(rows > 600, "the kernel took most rows (\(rows))")
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func texelRowsAreTheProjectiveKernelsPixels() {
    // A whole row (its clamped ends by the projective kernel, its body by the texel kernel) against the projective
    // kernel alone, then blended as the deep interior blends it: the same words.
    var rng = SplitMix(state: 302)
    let planes = RandomYUVPlanes(width: 67, height: 43, using: &rng)
    var taken = 0
    for location in [ChromaLocation.left, .center, .topLeft] {
        let s = sampler(planes, location)
        for _ in 0..<300 {
            let count = Int.random(in: 1...90, using: &rng)
            let row = texelRow(column: Int.random(in: -10...66, using: &rng), row: Int.random(in: -2...44, using: &rng))
            for opacity in [nil, Float(0.37)] {
                let under = randomWords(count, using: &rng)
                var fast = under, reference = [UInt32](repeating: 0, count: count)
                guard fast.withUnsafeMutableBufferPointer({ s.fillTexelForPixel($0.baseAddress!, count: count, row, blendingAt: opacity) }) else { continue }
                let projected = reference.withUnsafeMutableBufferPointer { s.fillProjective($0.baseAddress!, count: count, row) }
                #expect(projected)
                if let opacity {
                    var blended = under
                    blended.withUnsafeMutableBufferPointer { OpacityBlend.blendRow($0.baseAddress!, reference, count: count, opacity: opacity) }
                    reference = blended
                }
                #expect(fast == reference, "\(location), opacity \(String(describing: opacity)), \(count) pixels from \(row.x0), \(row.y0)")
                taken += 1
            }
        }
    }
    #expect(taken > 600, "texel rows taken (\(taken))")
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func onlyTexelForPixelRowsAreTaken() {
    var rng = SplitMix(state: 303)
    let planes = RandomYUVPlanes(width: 67, height: 43, using: &rng)
    let s = sampler(planes, .left)
    #expect(s.texelRowPlan(count: 40, texelRow(column: 3, row: 7)) != nil)
    let declined: [(String, lp_row_projection)] = [
        ("between texels", lp_row_projection(x0: 3.8, dx: 1, y0: 7.5, dy: 0, w0: 1, dw: 0)),
        ("between rows", lp_row_projection(x0: 3.5, dx: 1, y0: 7.25, dy: 0, w0: 1, dw: 0)),
        ("scaled", lp_row_projection(x0: 3.5, dx: 0.5, y0: 7.5, dy: 0, w0: 1, dw: 0)),
        ("turned", lp_row_projection(x0: 3.5, dx: 1, y0: 7.5, dy: 0.01, w0: 1, dw: 0)),
        ("perspective", lp_row_projection(x0: 3.5, dx: 1, y0: 7.5, dy: 0, w0: 1, dw: 0.001)),
        // Its luma is clamped to the last row's limit (weight 255/256 on the last row), which the kernel cannot do.
        ("the last row", texelRow(column: 3, row: 42)),
    ]
    for (name, row) in declined {
        #expect(s.texelRowPlan(count: 40, row) == nil, "\(name)")
    }
    // A row that starts left of the picture leaves its clamped pixels to the projective kernel.
    let plan = s.texelRowPlan(count: 60, texelRow(column: -5, row: 7))
    #expect(plan?.head == 5)
}

@Test(.enabled(if: avx2KernelsEnabled, avx2Off))
func aPictureAtAnIntegerPositionIsTexelForPixel() throws {
    // What the fade's items are: a picture its own size at a whole pixel. Half a pixel off, or scaled, it is not.
    func rowOfPicture(at x: Double, width: Double) throws -> (PlanarYUVSampler, lp_row_projection) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 120, height: 60)
        let video = Layer()
        video.frame = Rect(x: x, y: 7, width: width, height: 32)
        video.contents = .pixelBuffer(PixelBuffer(format: .yuv420p, width: 64, height: 32) { plane, base, bytes in
            for i in 0..<bytes * (plane == 0 ? 32 : 16) { base.storeBytes(of: UInt8(truncatingIfNeeded: i &* 7), toByteOffset: i, as: UInt8.self) }
        })
        root.addSublayer(video)
        let snapshot = root.snapshot()
        let ops = Lowering(viewport: PixelRect(x0: 0, y0: 0, x1: 120, y1: 60), executor: Executor(threads: 1), shadowCache: ShadowCache())
            .lower(snapshot, world: snapshot.localTransform, planes: [], clips: [])
        guard case .body(let body)? = ops.last, let contents = body.contents, case .planarYUV(let s) = contents.sampler else {
            throw TexelTestError.noPicture
        }
        let m = contents.map
        let row = lp_row_projection(body.placement.toLocal, texelScale: (Double(m.x.reference.scale), Double(m.y.reference.scale)),
                                    texelOffset: (Double(m.x.reference.offset), Double(m.y.reference.offset)), x0: Int(x.rounded(.up)) + 1,
                                    py: 20.5, k: 0)
        return (s, row)
    }
    let (s, row) = try rowOfPicture(at: 13, width: 64)
    #expect(s.texelRowPlan(count: 60, row) != nil)
    let (s2, offGrid) = try rowOfPicture(at: 13.5, width: 64)
    #expect(s2.texelRowPlan(count: 60, offGrid) == nil)
    let (s3, scaled) = try rowOfPicture(at: 13, width: 96)
    #expect(s3.texelRowPlan(count: 60, scaled) == nil)
}

private enum TexelTestError: Error { case noPicture }
