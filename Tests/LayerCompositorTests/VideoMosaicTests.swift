import Foundation
import LayerGraphics
import LayerKit
import Testing
import TestSupport
@testable import LayerCompositor

/// A test picture with detail in every plane: diagonal stripes in luma, a hue ramp across, a hard colour edge.
private func pattern(width: Int, height: Int, seed: Int) -> Image {
    let surface = Surface(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let stripe = ((x + y + seed) / 3) % 2 == 0
            let r = UInt8(truncatingIfNeeded: (x * 255) / max(width - 1, 1))
            let g = UInt8(truncatingIfNeeded: (y * 255) / max(height - 1, 1))
            let b: UInt8 = x > width / 2 + seed % 7 ? 230 : 20
            let k: UInt8 = stripe ? 40 : 0
            surface.setPixel(x: x, y: y, PremultipliedColor(r: r &- min(r, k), g: g, b: b, a: 255))
        }
    }
    return surface.makeImage()
}

/// Planes of the target's size, filled by the mosaic or converted from a composited surface.
private final class Planes {
    let width: Int, height: Int
    var y: [UInt8], u: [UInt8], v: [UInt8]
    init(width: Int, height: Int) {
        self.width = width; self.height = height
        y = [UInt8](repeating: 0, count: width * height)
        u = [UInt8](repeating: 0, count: width * height / 4)
        v = [UInt8](repeating: 0, count: width * height / 4)
    }
    func withWritable<R>(_ body: (WritablePlanes420) -> R) -> R {
        let w = width
        return y.withUnsafeMutableBufferPointer { y in
            u.withUnsafeMutableBufferPointer { u in
                v.withUnsafeMutableBufferPointer { v in
                    body(WritablePlanes420(y: y.baseAddress!, yStride: w, u: u.baseAddress!, uStride: w / 2, v: v.baseAddress!, vStride: w / 2))
                }
            }
        }
    }
    /// PSNR of one plane against another's, in dB, and the largest difference.
    static func compare(_ a: [UInt8], _ b: [UInt8]) -> (psnr: Double, worst: Int) {
        var sum = 0.0, worst = 0
        for (p, q) in zip(a, b) { let d = Int(p) - Int(q); sum += Double(d * d); worst = max(worst, abs(d)) }
        let mse = sum / Double(a.count)
        return (mse == 0 ? .infinity : 10 * log10(255 * 255 / mse), worst)
    }
}

@Suite("Video mosaic")
struct VideoMosaicTests {
    static let width = 256, height = 144

    /// Three videos over a colour: an SD (BT.601) one at a fractional place, scaled down, with rounded corners; an HD
    /// (BT.709) one scaled up and cropped by aspect fill; a third over the first's corner.
    static func wall() -> Layer {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.backgroundColor = Color(red: 0.1, green: 0.15, blue: 0.2)
        func tile(_ frame: Rect, _ picture: PixelBuffer, radius: Double, gravity: ContentsGravity = .resize) {
            let layer = Layer()
            layer.frame = frame
            layer.contents = .pixelBuffer(picture)
            layer.contentsGravity = gravity
            layer.cornerRadius = radius
            layer.masksToBounds = true
            root.addSublayer(layer)
        }
        tile(Rect(x: 10.5, y: 8.25, width: 120.3, height: 67.7),
             PixelBuffer(converting: pattern(width: 160, height: 90, seed: 0), to: .yuv420p, matrix: .bt601, range: .limited), radius: 9)
        tile(Rect(x: 140, y: 20, width: 100, height: 100),
             PixelBuffer(converting: pattern(width: 64, height: 48, seed: 5), to: .yuv420p, matrix: .bt709, range: .limited),
             radius: 16, gravity: .resizeAspectFill)
        tile(Rect(x: 90, y: 61, width: 80, height: 60),
             PixelBuffer(converting: pattern(width: 80, height: 60, seed: 2), to: .yuv420p, matrix: .bt601, range: .limited), radius: 12)
        return root
    }

    static func mosaic(_ root: Layer, compositor: Compositor = Compositor(threads: 1)) -> RenderedFrame {
        let surface = Surface(width: width, height: height)
        return compositor.renderFrame(root.snapshot(at: 0), into: surface, over: nil, acceptsPicture: { _ in false },
                                      acceptsMosaicPicture: { $0.range == .limited })
    }

    @Test func aWallOfVideosDrawnIntoPlanesMatchesTheCompositedAndConvertedFrame() throws {
        let root = Self.wall()
        guard case .mosaic(let mosaic) = Self.mosaic(root) else { Issue.record("three upright videos over a colour are a mosaic"); return }
        #expect(mosaic.pictures.count == 3)
        let drawn = Planes(width: Self.width, height: Self.height)
        drawn.withWritable { mosaic.draw(into: $0, background: mosaic.backgroundCodes(matrix: .bt709, range: .limited), matrix: .bt709,
                                          scratch: MosaicScratch()) }
        // The reference: the compositor's frame, converted as the encoder converts a surface.
        let surface = Compositor(threads: 1).render(root.snapshot(at: 0), width: Self.width, height: Self.height)
        let reference = Planes(width: Self.width, height: Self.height)
        reference.withWritable {
            YUV420Conversion.convert(surface, matrix: .bt709, range: .limited, y: $0.y, yStride: $0.yStride, u: $0.u, uStride: $0.uStride,
                                     v: $0.v, vStride: $0.vStride)
        }
        // Luma differs by rounding (and the bilinear weights' 7 bits); chroma is sampled where it sits rather than
        // filtered out of converted pixels, so its hard edges differ more.
        let y = Planes.compare(drawn.y, reference.y), u = Planes.compare(drawn.u, reference.u), v = Planes.compare(drawn.v, reference.v)
        // Measured: luma 56 dB (worst 9 codes, on an edge), chroma 50 and 49 dB (worst 6 and 7).
        #expect(y.psnr >= 50 && y.worst <= 14, "luma: \(y.psnr) dB, worst \(y.worst)")
        #expect(u.psnr >= 44 && v.psnr >= 44 && u.worst <= 12 && v.worst <= 12, "chroma: \(u) \(v)")
        // The background far from every video is exactly the converted colour.
        let corner = Self.width * (Self.height - 2) + 2
        #expect(drawn.y[corner] == reference.y[corner] && drawn.u[corner / 4] == reference.u[corner / 4])
    }

    @Test func whatAMosaicCannotDrawIsComposited() {
        func refuses(_ change: (Layer) -> Void, _ why: String) {
            let root = Self.wall()
            Transaction.withoutActions { change(root) }
            if case .mosaic = Self.mosaic(root) { Issue.record("\(why) must be composited") }
        }
        refuses({ $0.sublayers![1].transform = .makeRotation(0.05, 0, 0, 1) }, "a turned video")
        refuses({ $0.sublayers![1].opacity = 0.5 }, "a translucent video")
        refuses({ $0.sublayers![1].shadowOpacity = 0.5 }, "a shadow")
        refuses({ $0.sublayers![1].borderWidth = 2 }, "a border")
        refuses({ $0.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5) }, "a translucent background")
        refuses({ root in
            let band = Layer()
            band.frame = Rect(x: 0, y: 100, width: 256, height: 20)
            band.backgroundColor = Color(red: 1, green: 1, blue: 1)
            root.addSublayer(band)
        }, "a colour above the videos")
        refuses({ $0.sublayers![0].contents = .pixelBuffer(PixelBuffer(format: .yuv420p10, width: 64, height: 32) { _, _, _ in }) },
                "a 10-bit video")
        // Without the encoder's consent, or on an odd size, neither.
        let surface = Surface(width: Self.width, height: Self.height)
        if case .mosaic = Compositor(threads: 1).renderFrame(Self.wall().snapshot(at: 0), into: surface, over: nil, acceptsPicture: { _ in false }) {
            Issue.record("no mosaic without acceptsMosaicPicture")
        }
        let odd = Surface(width: Self.width - 1, height: Self.height)
        if case .mosaic = Compositor(threads: 1).renderFrame(Self.wall().snapshot(at: 0), into: odd, over: nil, acceptsPicture: { _ in false },
                                                             acceptsMosaicPicture: { _ in true }) {
            Issue.record("no mosaic on an odd size")
        }
    }

    @Test func aTileThatSitsStillKeepsItsCoverageFromFrameToFrame() {
        let compositor = Compositor(threads: 1)
        let root = Self.wall()
        guard case .mosaic(let first) = Self.mosaic(root, compositor: compositor),
              case .mosaic(let second) = Self.mosaic(root, compositor: compositor) else { Issue.record("not a mosaic"); return }
        #expect(first.tiles[0].edges === second.tiles[0].edges)
        Transaction.withoutActions { root.sublayers![0].position.x += 3 }
        guard case .mosaic(let moved) = Self.mosaic(root, compositor: compositor) else { Issue.record("not a mosaic"); return }
        #expect(moved.tiles[0].edges !== first.tiles[0].edges && moved.tiles[1].edges === first.tiles[1].edges)
    }
}

@Suite("Plane resampling kernels")
struct PlaneResamplingTests {
    /// The AVX2 steps against their Swift twins, bit for bit, and both against the float bilinear sampler to two codes
    /// on noise (the worst case of the fixed point), over scales that take the permute path and the gather path (wide steps, a mirror).
    @Test func theVectorStepsMatchTheirTwinsAndTheFloatSampler() {
        var random = SplitMix(state: 19)
        let width = 97, height = 41
        var bytes = [UInt8](repeating: 0, count: width * height)
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &random) }
        bytes.withUnsafeBytes { raw in
            let plane = ScalarPlane(base: raw.baseAddress!, bytesPerRow: width, width: width, height: height)
            for (a, c) in [(0.37, 3.2), (0.9, -1.3), (1.11, 0.4), (1.7, 2.0), (2.6, -4.0), (-0.9, 90.0)] {
                let columns = 70
                var vector = PlaneResampler(plane: plane, a: a, c: c, b: 0.83, d: 1.7, columns: 5, 5 + columns, avx2: true)
                var scalar = PlaneResampler(plane: plane, a: a, c: c, b: 0.83, d: 1.7, columns: 5, 5 + columns, avx2: false)
                var v = [UInt8](repeating: 0, count: columns), s = v
                for row in 0..<50 {
                    v.withUnsafeMutableBufferPointer { vector.resampleRow(row, columns: 5, 5 + columns, into: $0.baseAddress!) }
                    s.withUnsafeMutableBufferPointer { scalar.resampleRow(row, columns: 5, 5 + columns, into: $0.baseAddress!) }
                    if avx2KernelsEnabled { #expect(v == s, "scale \(a), row \(row)") }
                    for k in 0..<columns {
                        let exact = plane.bilinear8(Float(a * (Double(5 + k) + 0.5) + c), Float(0.83 * (Double(row) + 0.5) + 1.7))
                        #expect(abs(Float(s[k]) - exact) <= 2, "scale \(a), row \(row), column \(k): \(s[k]) against \(exact)")
                    }
                }
            }
        }
    }

    @Test func aMatrixChangeMatchesTheRoundTripThroughRGB() {
        guard let change = MatrixChange(from: .bt601, to: .bt709, range: .limited) else { Issue.record("601 → 709 is a change"); return }
        #expect(MatrixChange(from: .bt709, to: .bt709, range: .limited) == nil)
        let toRGB = YUVToRGB(matrix: .bt601, range: .limited, bitDepth: 8)
        var random = SplitMix(state: 7)
        let count = 53
        let cb = (0..<count).map { _ in UInt8.random(in: 40...216, using: &random) }, cr = (0..<count).map { _ in UInt8.random(in: 40...216, using: &random) }
        var dy = [[UInt8]](repeating: [UInt8](repeating: 0, count: count), count: 2), b2 = dy, r2 = dy
        for (k, avx2) in [true, false].enumerated() {
            change.convert(dy: &dy[k], cb2: &b2[k], cr2: &r2[k], cb: cb, cr: cr, count: count, avx2: avx2)
        }
        if avx2KernelsEnabled { #expect(dy[0] == dy[1] && b2[0] == b2[1] && r2[0] == r2[1]) }
        // Against YUV → RGB (601) → YUV (709) in floats, for a mid grey luma (no clamping in RGB).
        for i in 0..<count {
            let y: Float = 126
            let cbf = Float(cb[i]) - 128, crf = Float(cr[i]) - 128
            let base = toRGB.yScale * (y - 16)
            let r = base + toRGB.crToR * crf, g = base + toRGB.cbToG * cbf + toRGB.crToG * crf, b = base + toRGB.cbToB * cbf
            guard [r, g, b].allSatisfy({ (0...255).contains($0) }) else { continue }
            let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
            let y709 = 16 + luma * 219 / 255
            let cb709 = 128 + (b - luma) / 1.8556 * 224 / 255, cr709 = 128 + (r - luma) / 1.5748 * 224 / 255
            var moved = [UInt8(y)]
            MatrixChange.addHalfChange(&moved, [dy[1][i]], count: 1)
            #expect(abs(Float(moved[0]) - y709) <= 1, "luma \(moved[0]) against \(y709)")
            #expect(abs(Float(b2[1][i]) - cb709) <= 1 && abs(Float(r2[1][i]) - cr709) <= 1)
        }
        // The luma step's vector path and twin agree over the whole range.
        var a = (0..<64).map { UInt8($0 * 4) }, b = a
        let changes = (0..<64).map { UInt8(255 - $0 * 4) }
        MatrixChange.addHalfChange(&a, changes, count: 64, avx2: true)
        MatrixChange.addHalfChange(&b, changes, count: 64, avx2: false)
        if avx2KernelsEnabled { #expect(a == b) }
    }
}
