@testable import LayerGraphics
import TestSupport
import Testing

// The SIMD BGRA → 4:2:0 kernel (what MovieWriter encodes) against a plain Double implementation of the same
// definition, on random pictures of odd and even sizes, and against known codes of flat colours; the AVX2 steps
// against the Swift ones, byte for byte.


/// Three planes with padded rows; the padding starts at 0xAA so that a write past a row shows.
private struct Planes {
    let width, height, chromaWidth, chromaHeight, yStride, cStride: Int
    var y, cb, cr: [UInt8]
    static let padding: UInt8 = 0xAA

    init(width: Int, height: Int) {
        self.width = width; self.height = height
        chromaWidth = (width + 1) / 2; chromaHeight = (height + 1) / 2
        yStride = width + 7; cStride = chromaWidth + 5
        y = [UInt8](repeating: Self.padding, count: yStride * height)
        cb = [UInt8](repeating: Self.padding, count: cStride * chromaHeight)
        cr = cb
    }

    func luma(_ x: Int, _ row: Int) -> Int { Int(y[row * yStride + x]) }
    func chroma(_ x: Int, _ row: Int) -> (cb: Int, cr: Int) { (Int(cb[row * cStride + x]), Int(cr[row * cStride + x])) }

    /// Whether every byte past the end of each row still holds the padding.
    var paddingIntact: Bool {
        func intact(_ plane: [UInt8], _ w: Int, _ stride: Int) -> Bool {
            stride == 0 || plane.indices.allSatisfy { $0 % stride < w || plane[$0] == Self.padding }
        }
        return intact(y, width, yStride) && intact(cb, chromaWidth, cStride) && intact(cr, chromaWidth, cStride)
    }
}

/// The conversion as `MovieWriter` calls it, or with the AVX2 steps on or off when `avx2` says.
private func convert(_ surface: Surface, _ matrix: ColorMatrix, _ range: ColorRange, avx2: Bool = avx2KernelsEnabled) -> Planes {
    var p = Planes(width: surface.width, height: surface.height)
    let (ys, cs) = (p.yStride, p.cStride)
    p.y.withUnsafeMutableBufferPointer { y in
        p.cb.withUnsafeMutableBufferPointer { cb in
            p.cr.withUnsafeMutableBufferPointer { cr in
                YUV420Conversion.convert(surface, matrix: matrix, range: range, y: y.baseAddress!, yStride: ys,
                                         u: cb.baseAddress!, uStride: cs, v: cr.baseAddress!, vStride: cs, avx2: avx2)
            }
        }
    }
    return p
}

/// The definition, in Doubles: premultiplied values as they are; Y per pixel; C of the ¼, ½, ¼ taps at even x
/// (edge pixels repeated) averaged over the row pair (an odd last row twice); rounded, clamped to 0…255.
private func reference(_ s: Surface, _ matrix: ColorMatrix, _ range: ColorRange) -> Planes {
    var p = Planes(width: s.width, height: s.height)
    let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
    let (yBase, ySpan, cSpan) = range == .limited ? (16.0, 219.0, 224.0) : (0.0, 255.0, 255.0)
    func rgb(_ x: Int, _ y: Int) -> SIMD3<Double> {
        let c = s.pixel(x: min(max(x, 0), s.width - 1), y: min(y, s.height - 1))
        return SIMD3(Double(c.r), Double(c.g), Double(c.b))
    }
    func code(_ v: Double) -> UInt8 { UInt8(min(max(v.rounded(), 0), 255)) }
    for y in 0..<s.height {
        for x in 0..<s.width {
            let c = rgb(x, y)
            p.y[y * p.yStride + x] = code(yBase + ySpan * (kr * c.x + kg * c.y + kb * c.z) / 255)
        }
    }
    for cy in 0..<p.chromaHeight {
        for cx in 0..<p.chromaWidth {
            var sum = SIMD3<Double>.zero
            for y in [2 * cy, 2 * cy + 1] {
                sum += rgb(2 * cx - 1, y) + 2 * rgb(2 * cx, y) + rgb(2 * cx + 1, y)
            }
            let c = sum / 8, luma = kr * c.x + kg * c.y + kb * c.z
            p.cb[cy * p.cStride + cx] = code(128 + cSpan * (c.z - luma) / (2 * (1 - kb)) / 255)
            p.cr[cy * p.cStride + cx] = code(128 + cSpan * (c.x - luma) / (2 * (1 - kr)) / 255)
        }
    }
    return p
}

/// A surface of random words: every byte value, alpha included (premultiplied or not, the kernel takes them as
/// they are).
private func randomSurface(width: Int, height: Int, seed: UInt64) -> Surface {
    var rng = SplitMix(state: seed)
    let s = Surface(width: width, height: height)
    for i in 0..<(width * height) { s.pixels[i] = UInt32(truncatingIfNeeded: rng.next()) }
    return s
}

/// A surface of random premultiplied pixels (each colour byte at most the alpha), as a movie's frames hold: more
/// dark and equal values than random words.
private func randomPremultipliedSurface(width: Int, height: Int, seed: UInt64) -> Surface {
    var rng = SplitMix(state: seed)
    let s = Surface(width: width, height: height)
    for i in 0..<(width * height) {
        let a = UInt32.random(in: 0...255, using: &rng)
        let b = UInt32.random(in: 0...a, using: &rng), g = UInt32.random(in: 0...a, using: &rng), r = UInt32.random(in: 0...a, using: &rng)
        s.pixels[i] = b | g << 8 | r << 16 | a << 24
    }
    return s
}

private func flat(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255, width: Int = 37, height: Int = 5) -> Surface {
    let s = Surface(width: width, height: height)
    s.clear(to: .clear)
    for y in 0..<height { for x in 0..<width { s.setPixel(x: x, y: y, PremultipliedColor(bgra: UInt32(b) | UInt32(g) << 8 | UInt32(r) << 16 | UInt32(a) << 24)) } }
    return s
}

/// Every code of `p` and its 4:2:0 sample (Y, Cb, Cr) equals `expected`.
private func allCodes(_ p: Planes, _ expected: (y: Int, cb: Int, cr: Int)) -> Bool {
    (0..<p.height).allSatisfy { y in (0..<p.width).allSatisfy { x in p.luma(x, y) == expected.y } }
        && (0..<p.chromaHeight).allSatisfy { y in (0..<p.chromaWidth).allSatisfy { x in p.chroma(x, y) == (expected.cb, expected.cr) } }
}

@Suite("BGRA → YUV 4:2:0")
struct YUV420ConversionTests {
    @Test(arguments: [(1, 1), (3, 5), (17, 9), (64, 36), (33, 31), (48, 2), (95, 3)])
    func everyCodeIsWithinOneOfTheReference(_ width: Int, _ height: Int) {
        for matrix in ColorMatrix.allCases {
            for range in ColorRange.allCases {
                let s = randomSurface(width: width, height: height, seed: UInt64(width * 1000 + height))
                let got = convert(s, matrix, range), want = reference(s, matrix, range)
                var worst = (y: 0, c: 0)
                for y in 0..<height { for x in 0..<width { worst.y = max(worst.y, abs(got.luma(x, y) - want.luma(x, y))) } }
                for y in 0..<got.chromaHeight {
                    for x in 0..<got.chromaWidth {
                        let a = got.chroma(x, y), b = want.chroma(x, y)
                        worst.c = max(worst.c, abs(a.cb - b.cb), abs(a.cr - b.cr))
                    }
                }
                #expect(worst.y <= 1 && worst.c <= 1, "\(width)x\(height) \(matrix) \(range): Y off by \(worst.y), C by \(worst.c)")
                #expect(got.paddingIntact, "\(width)x\(height) \(matrix) \(range): wrote past the end of a row")
            }
        }
    }

    @Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"))
    func avx2StepsWriteTheSwiftStepsBytes() {
        // Widths 1…70 put the end of the AVX2 steps at every place against a row's edge steps and tail; the wide
        // sizes run long rows of steps. Random premultiplied pixels, as frames hold, and random words (any bytes).
        let sizes = (1...70).flatMap { w in (1...9).map { h in (w, h) } } + [(1921, 7), (1920, 4), (257, 3), (1000, 1)]
        var differ: [String] = [], overrun: [String] = []
        for (width, height) in sizes {
            let seed = UInt64(width * 100 + height)
            let surfaces = [("premultiplied", randomPremultipliedSurface(width: width, height: height, seed: seed)),
                            ("any words", randomSurface(width: width, height: height, seed: seed))]
            for ((kind, s), matrix, range) in surfaces.flatMap({ s in ColorMatrix.allCases.flatMap { m in ColorRange.allCases.map { (s, m, $0) } } }) {
                let swift = convert(s, matrix, range, avx2: false), avx2 = convert(s, matrix, range, avx2: true)
                let name = "\(width)x\(height) \(kind) \(matrix) \(range)"
                if swift.y != avx2.y || swift.cb != avx2.cb || swift.cr != avx2.cr { differ.append(name) }
                if !avx2.paddingIntact { overrun.append(name) }
            }
        }
        #expect(differ.count == 0, "the AVX2 steps give other codes in \(differ.count) cases, first \(differ.prefix(5))")
        #expect(overrun.count == 0, "the AVX2 steps wrote past a row's end in \(overrun.count) cases, first \(overrun.prefix(5))")
    }

    @Test func limitedRangeFlatColoursGiveTheirStudioCodes() {
        #expect(allCodes(convert(flat(255, 255, 255), .bt709, .limited), (235, 128, 128)))
        #expect(allCodes(convert(flat(0, 0, 0), .bt709, .limited), (16, 128, 128)))
        #expect(allCodes(convert(flat(255, 0, 0), .bt709, .limited), (63, 102, 240)))
        #expect(allCodes(convert(flat(255, 0, 0), .bt601, .limited), (81, 90, 240)))
        #expect(allCodes(convert(flat(0, 0, 255), .bt601, .limited), (41, 240, 110)))
    }

    @Test func fullRangeFlatColoursSpanEveryCode() {
        #expect(allCodes(convert(flat(255, 255, 255), .bt601, .full), (255, 128, 128)))
        #expect(allCodes(convert(flat(0, 0, 0), .bt601, .full), (0, 128, 128)))
        // Cb of pure blue and Cr of pure red are 255.5: they must end at 255, not wrap around to 0.
        #expect(allCodes(convert(flat(0, 0, 255), .bt601, .full), (29, 255, 107)))
        #expect(allCodes(convert(flat(255, 0, 0), .bt709, .full), (54, 99, 255)))
    }

    @Test func premultipliedPixelsAreThePictureOverBlack() {
        let halfWhite = convert(flat(128, 128, 128, 128), .bt709, .limited), grey = convert(flat(128, 128, 128), .bt709, .limited)
        #expect(halfWhite.y == grey.y && halfWhite.cb == grey.cb && halfWhite.cr == grey.cr)
    }

    @Test func chromaIsSitedOnTheLeftColumnBetweenTheRows() {
        // A blue column at x = 3 on black weighs ¼ in the samples at x = 2 (taps 1, 2, 3) and x = 4 (taps 3, 4, 5),
        // and nothing in those at 0 and 6; centred chroma would put it in the sample at x = 2 alone. Pure blue's Cb
        // is 128 + 112, so ¼ of it is 156; in the top row only, half that.
        let both = flat(0, 0, 0, width: 8, height: 2), top = flat(0, 0, 0, width: 8, height: 2)
        for y in 0..<2 { both.setPixel(x: 3, y: y, PremultipliedColor(bgra: 0xff00_00ff)) }
        top.setPixel(x: 3, y: 0, PremultipliedColor(bgra: 0xff00_00ff))
        #expect(convert(both, .bt709, .limited).cb == [128, 156, 156, 128, Planes.padding, Planes.padding, Planes.padding, Planes.padding, Planes.padding])
        #expect(convert(top, .bt709, .limited).cb == [128, 142, 142, 128, Planes.padding, Planes.padding, Planes.padding, Planes.padding, Planes.padding])
    }
}

// MARK: - Converting only what changed over a canvas

/// A frame over a canvas colour: `color` everywhere but a random stretch of random premultiplied pixels on most
/// rows (some rows untouched, some stretches at an edge or one pixel wide), and the backdrop that says so.
private func frameOverCanvas(width: Int, height: Int, color: UInt32, rng: inout SplitMix) -> (Surface, Backdrop) {
    let s = Surface(width: width, height: height)
    s.pixels.update(repeating: color, count: width * height)
    var spans = [Int32](repeating: 0, count: 2 * height)
    for y in 0..<height where Int.random(in: 0..<4, using: &rng) != 0 {
        let a = [0, Int.random(in: 0..<width, using: &rng)].randomElement(using: &rng)!
        let b = [width, a + 1, Int.random(in: (a + 1)...width, using: &rng)].randomElement(using: &rng)!
        for x in a..<b {
            let alpha = UInt32.random(in: 0...255, using: &rng)
            s.pixels[y * width + x] = UInt32.random(in: 0...alpha, using: &rng) | UInt32.random(in: 0...alpha, using: &rng) << 8
                | UInt32.random(in: 0...alpha, using: &rng) << 16 | alpha << 24
        }
        spans[2 * y] = Int32(a); spans[2 * y + 1] = Int32(b)
    }
    return (s, Backdrop(color: color, width: width, height: height, spans: spans))
}

extension YUV420ConversionTests {
    @Test func convertingWhatChangedOverACanvasWritesTheWholeConversionsBytes() {
        // Planes holding frame A, brought to frame B by converting what either drew on, must equal B converted
        // whole: a stretch started one column too far right (its chroma's left tap), ended too early (the right
        // tap of the next sample) or a row pair skipped shows here. Odd and even sizes, both kernels.
        var rng = SplitMix(state: 7)
        var differ: [String] = []
        for (width, height) in [(37, 9), (64, 16), (50, 7), (17, 4), (130, 11), (2, 3), (1, 5)] {
            for trial in 0..<12 {
                let color: UInt32 = trial % 3 == 0 ? 0xff20_2020 : 0xff10_8040
                let (a, before) = frameOverCanvas(width: width, height: height, color: color, rng: &rng)
                let (b, after) = frameOverCanvas(width: width, height: height, color: color, rng: &rng)
                for avx2 in [false, avx2KernelsEnabled] {
                    var p = convert(a, .bt709, .limited, avx2: avx2)
                    let (ys, cs) = (p.yStride, p.cStride)
                    p.y.withUnsafeMutableBufferPointer { y in
                        p.cb.withUnsafeMutableBufferPointer { cb in
                            p.cr.withUnsafeMutableBufferPointer { cr in
                                YUV420Conversion.convert(b, matrix: .bt709, range: .limited, y: y.baseAddress!, yStride: ys,
                                                         u: cb.baseAddress!, uStride: cs, v: cr.baseAddress!, vStride: cs,
                                                         since: before, now: after, avx2: avx2)
                            }
                        }
                    }
                    let whole = convert(b, .bt709, .limited, avx2: avx2)
                    if p.y != whole.y || p.cb != whole.cb || p.cr != whole.cr {
                        differ.append("\(width)x\(height) trial \(trial) avx2 \(avx2)")
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.count) conversions differ, first \(differ.prefix(4))")
    }

    @Test func framesOverDifferentCanvasesAreConvertedWhole() {
        var rng = SplitMix(state: 11)
        let (a, before) = frameOverCanvas(width: 40, height: 6, color: 0xff20_2020, rng: &rng)
        let (b, after) = frameOverCanvas(width: 40, height: 6, color: 0xff30_3030, rng: &rng)
        var p = convert(a, .bt601, .limited)
        let (ys, cs) = (p.yStride, p.cStride)
        p.y.withUnsafeMutableBufferPointer { y in
            p.cb.withUnsafeMutableBufferPointer { cb in
                p.cr.withUnsafeMutableBufferPointer { cr in
                    YUV420Conversion.convert(b, matrix: .bt601, range: .limited, y: y.baseAddress!, yStride: ys,
                                             u: cb.baseAddress!, uStride: cs, v: cr.baseAddress!, vStride: cs, since: before, now: after)
                }
            }
        }
        let whole = convert(b, .bt601, .limited)
        #expect(p.y == whole.y && p.cb == whole.cb && p.cr == whole.cr)
    }
}
