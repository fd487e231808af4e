import CKernels
@testable import LayerGraphics
import TestSupport
import Testing

// The colour converter's step (one or two luma rows and their chroma row) with AVX2 against its Swift twin
// (`rowsSwift`), on rows that end just before a page that may not be touched (`GuardedMemory`): every width from 1 to
// 40 ends the eight-pixel steps (and the AVX-512 kernel's sixteen-column ones) at every place against the Swift tail,
// samples are random with the extreme codes mixed in, and both must agree bit for bit.

/// The descriptions the converter is made for: PQ and HLG (tone-mapped), and SDR wide gamut (BT.2020, Display P3).
private let descriptions = [
    ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq,
                     masteringDisplay: MasteringDisplay(minLuminance: 0.005, maxLuminance: 4000)),
    ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .hlg),
    ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .sdr),
    ColorDescription(matrix: .bt709, primaries: .displayP3, transfer: .sdr),
]

/// Converters for `description` with each kind of curve whose kernel runs here: the tables (AVX2) and, where the CPU
/// has AVX-512, the cubic pieces.
private func convertersWithEachKernel(_ description: ColorDescription) -> [VideoColorConverter] {
    [false, true].filter { !$0 || VideoColorConverter.avx512KernelRuns }.map {
        VideoColorConverter(source: description, interpolatesBlocks: true, polynomials: $0)
    }
}

/// A step's outputs: the Y codes of its rows, then the Cb and Cr codes.
private struct StepOutput: Equatable {
    var y: [[UInt8]]
    var cb: [UInt8], cr: [UInt8]
}

/// How a step's luma codes are drawn.
private enum LumaCodes {
    /// Random, a quarter of them the extremes (0 and the largest code).
    case random
    /// The codes of each chroma sample's pixels within a few codes of each other, around the interpolation's spread
    /// limit (`VideoColorConverter.blockSpreadLimit`), so that 4:2:0 blocks are interpolated, or not, or fall back
    /// where their ends pass different kinks of the chain.
    case close
    /// As `close`, but one block in sixteen over the limit: most eight-column groups are interpolated, so most pairs
    /// of them too (the AVX-512 kernel's sixteen-column body).
    case mostlyFlat
}

/// One step's samples: `rows` (1 or 2) luma rows of `width` pixels and their chroma row, with random chroma (a quarter
/// of it the extremes).
private struct StepInput {
    var format: PixelFormat, range: ColorRange
    var width: Int, rows: Int
    var luma: ([Int], [Int]), cb: [Int], cr: [Int]

    init(format: PixelFormat, range: ColorRange, width: Int, rows: Int, luma mode: LumaCodes, spreadLimit: Int,
         using rng: inout SplitMix) {
        self.format = format; self.range = range; self.width = width; self.rows = rows
        let top = (1 << format.bitDepth) - 1, step = 1 << format.chromaShift.x
        func randomCodes(_ count: Int) -> [Int] {
            (0..<count).map { _ in
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: 0
                case 1: top
                default: Int.random(in: 0...top, using: &rng)
                }
            }
        }
        luma = (randomCodes(width), randomCodes(width))
        if mode != .random {
            for x0 in stride(from: 0, to: width, by: step) {
                let spread = mode == .close
                    ? [0, 1, spreadLimit, spreadLimit + 1, spreadLimit + 2][Int.random(in: 0..<5, using: &rng)]
                    : Int.random(in: 0..<16, using: &rng) == 0 ? spreadLimit + 1 : Int.random(in: 0...spreadLimit, using: &rng)
                let base = Int.random(in: 0...(top - spread), using: &rng)
                for x in x0..<min(width, x0 + step) {
                    luma.0[x] = base + Int.random(in: 0...spread, using: &rng)
                    luma.1[x] = base + Int.random(in: 0...spread, using: &rng)
                }
                if mode == .mostlyFlat && spread > spreadLimit {
                    (luma.0[x0], luma.1[x0]) = (base, base + spread)  // over the limit, surely
                }
            }
        }
        let chromaWidth = (width + step - 1) / step
        cb = randomCodes(chromaWidth)
        cr = randomCodes(chromaWidth)
    }
}

/// The kernel's constants for samples of `format` and `range`, from a picture made only for its Y′CbCr coefficients
/// (matrix, range, bit depth).
private func constants(_ converter: VideoColorConverter, format: PixelFormat, range: ColorRange) -> lp_video_color {
    converter.kernelConstants(for: PixelBuffer(format: format, width: 2, height: 2, matrix: converter.source.matrix,
                                               range: range) { _, _, _ in })
}

/// The step through the AVX2 kernel or the Swift twin, starting at row `row`. Every input row ends at a guard page.
private func convertGuardedStep(_ converter: VideoColorConverter, _ input: StepInput, row: Int, avx2: Bool) -> StepOutput {
    let format = input.format, width = input.width, rows = input.rows
    let bytes = format.bitDepth > 8 ? 2 : 1
    func memory(_ codes: [Int]) -> GuardedMemory {
        GuardedMemory(count: codes.count * bytes) { i in UInt8(truncatingIfNeeded: bytes == 2 ? codes[i / 2] >> (8 * (i % 2)) : codes[i]) }
    }
    let luma0 = memory(input.luma.0), luma1 = memory(input.luma.1), cb = memory(input.cb), cr = memory(input.cr)
    let k = constants(converter, format: format, range: input.range)
    var y0 = [UInt8](repeating: 0, count: width), y1 = y0
    var cbOut = [UInt8](repeating: 0, count: input.cb.count), crOut = cbOut
    y0.withUnsafeMutableBufferPointer { y0 in
        y1.withUnsafeMutableBufferPointer { y1 in
            cbOut.withUnsafeMutableBufferPointer { cbOut in
                crOut.withUnsafeMutableBufferPointer { crOut in
                    converter.rows(k, yOut0: y0.baseAddress!, yOut1: rows == 2 ? y1.baseAddress! : nil,
                                   cbOut: cbOut.baseAddress!, crOut: crOut.baseAddress!, count: width,
                                   luma0: luma0.bytes, luma1: rows == 2 ? UnsafeRawPointer(luma1.bytes) : nil,
                                   cb: cb.bytes, cr: cr.bytes, sampleBytes: bytes, chromaShiftX: format.chromaShift.x,
                                   row: row, chromaRow: row >> format.chromaShift.y, avx2: avx2)
                }
            }
        }
    }
    withExtendedLifetime((luma0, luma1, cb, cr)) {}
    return StepOutput(y: rows == 2 ? [y0, y1] : [y0], cb: cbOut, cr: crOut)
}

/// What a 4:2:0 two-row step's eight-column groups, paired from column 0 as the AVX-512 kernel pairs them, make of
/// interpolation: pairs whose groups are both interpolated, and of those, pairs where a block's ends pass different
/// kinks of the chain (the Swift twin's rules: `blocksInterpolate`, `pixel`).
private func interpolatedPairs(_ converter: VideoColorConverter, _ input: StepInput) -> (both: Int, kinked: Int) {
    let k = constants(converter, format: input.format, range: input.range)
    func interpolates(_ group: Int) -> Bool {
        let columns = group..<min(input.width, group + 8)
        let luma0 = input.luma.0.map(UInt16.init), luma1 = input.luma.1.map(UInt16.init)
        return luma0.withUnsafeBufferPointer { l0 in
            luma1.withUnsafeBufferPointer { l1 in
                VideoColorConverter.blocksInterpolate(spreadLimit: Int(k.blockSpread), l0.baseAddress!, l1.baseAddress!, columns)
            }
        }
    }
    func kinked(_ x0: Int) -> Bool {
        let columns = x0..<(x0 + 2), cx = x0 / 2
        let codes = columns.flatMap { [input.luma.0[$0], input.luma.1[$0]] }
        let b = Float(input.cb[cx]) - k.cOffset, r = Float(input.cr[cx]) - k.cOffset
        let addR = k.rCr * r, addG = (k.gCb * b).addingProduct(k.gCr, r), addB = k.bCb * b
        let dark = converter.pixel(k, luma: UInt16(codes.min()!), addR: addR, addG: addG, addB: addB)
        let bright = converter.pixel(k, luma: UInt16(codes.max()!), addR: addR, addG: addG, addB: addB)
        return dark.kinks != bright.kinks
    }
    var both = 0, kinkedPairs = 0
    for x in stride(from: 0, to: input.width / 16 * 16, by: 16) where interpolates(x) && interpolates(x + 8) {
        both += 1
        if stride(from: x, to: x + 16, by: 2).contains(where: kinked) { kinkedPairs += 1 }
    }
    return (both, kinkedPairs)
}

@Suite("Video colour kernel edges")
struct VideoColorKernelEdgeTests {
    @Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"),
          arguments: [PixelFormat.yuv420p10, .yuv444p10, .yuv422p10, .yuv420p, .yuv422p])
    func avx2StepAgreesWithTheSwiftTwin(_ format: PixelFormat) {
        var differ: [String] = []
        let cases = descriptions.enumerated().flatMap { d, description in
            convertersWithEachKernel(description).map { (d, description, $0) }
        }
        for (d, description, converter) in cases {
            for range in [ColorRange.limited, .full] {
                for rows in format.chromaShift.y == 1 ? [1, 2] : [1] {
                    for width in 1...40 {
                        for (m, luma) in [LumaCodes.random, .close].enumerated() {
                            let seed = UInt64(d * 1000 + width) << 3 | UInt64(rows - 1) << 2 | (range == .full ? 2 : 0) | UInt64(m)
                            var rng = SplitMix(state: seed)
                            let input = StepInput(format: format, range: range, width: width, rows: rows, luma: luma,
                                                  spreadLimit: Int(constants(converter, format: format, range: range).blockSpread),
                                                  using: &rng)
                            let row = rows == 2 ? 2 * (width % 2) : width % 4  // every row of the dither
                            if convertGuardedStep(converter, input, row: row, avx2: true)
                                != convertGuardedStep(converter, input, row: row, avx2: false) {
                                differ.append("\(description.transfer)/\(description.primaries) \(range) \(rows) rows width \(width)"
                                              + " \(luma) luma" + (converter.usesPolynomials ? " polynomials" : ""))
                            }
                        }
                    }
                }
            }
        }
        #expect(differ.isEmpty, "the AVX2 and Swift steps differ: \(differ.prefix(8))")
    }

    /// The AVX-512 kernel converts 4:2:0 two rows sixteen columns at a time (video_color_blocks16.h): a pair of
    /// eight-column groups both interpolated takes one path, and a pair with one, or with a kink between a block's
    /// ends, another. Rows whose blocks are mostly flat reach all of them at every width's tail, and the test counts
    /// that they did.
    @Test(.enabled(if: VideoColorConverter.avx512KernelRuns, "the AVX-512 kernel does not run here"),
          arguments: [PixelFormat.yuv420p10, .yuv420p])
    func sixteenColumnPairsAgreeWithTheSwiftTwin(_ format: PixelFormat) {
        var differ: [String] = []
        var both = 0, kinked = 0, pairs = 0
        for (d, description) in descriptions.enumerated() {
            let converter = VideoColorConverter(source: description, interpolatesBlocks: true, polynomials: true)
            for range in [ColorRange.limited, .full] {
                let limit = Int(constants(converter, format: format, range: range).blockSpread)
                for width in 16...64 {
                    var rng = SplitMix(state: UInt64(d * 1000 + width) << 1 | (range == .full ? 1 : 0))
                    let input = StepInput(format: format, range: range, width: width, rows: 2, luma: .mostlyFlat,
                                          spreadLimit: limit, using: &rng)
                    let row = 2 * (width % 2)
                    if convertGuardedStep(converter, input, row: row, avx2: true)
                        != convertGuardedStep(converter, input, row: row, avx2: false) {
                        differ.append("\(description.transfer)/\(description.primaries) \(range) width \(width)")
                    }
                    let counted = interpolatedPairs(converter, input)
                    both += counted.both; kinked += counted.kinked; pairs += width / 16
                }
            }
        }
        #expect(differ.isEmpty, "the AVX-512 and Swift steps differ: \(differ.prefix(8))")
        // Not a tolerance: the draws are seeded, so these counts are fixed; they only show that each path ran.
        #expect(both > pairs / 3 && kinked >= 8, "pairs \(pairs), both interpolated \(both), kinked \(kinked)")
    }

    @Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"),
          arguments: [PixelFormat.yuv420p10, .yuv422p10, .yuv444p, .yuv420p])
    func wholePicturesAgreeWithAndWithoutAVX2(_ format: PixelFormat) {
        // Odd sizes (a last chroma column and row covering one luma pixel), random codes with the extremes mixed in:
        // the planes of both conversions, chroma averages included, are the same codes.
        var rng = SplitMix(state: 27)
        let top = (1 << format.bitDepth) - 1
        for (description, converter) in descriptions.flatMap({ d in convertersWithEachKernel(d).map { (d, $0) } }) {
            let picture = PixelBuffer(format: format, width: 37, height: 11, matrix: description.matrix, range: .limited) { plane, base, bpr in
                let rows = plane == 0 ? 11 : (11 + (1 << format.chromaShift.y) - 1) >> format.chromaShift.y
                for i in 0..<(bpr * rows / (format.bitDepth > 8 ? 2 : 1)) {
                    let code = [0, top, Int.random(in: 0...top, using: &rng)][Int.random(in: 0..<3, using: &rng)]
                    if format.bitDepth > 8 {
                        base.storeBytes(of: UInt16(code), toByteOffset: 2 * i, as: UInt16.self)
                    } else {
                        base.storeBytes(of: UInt8(code), toByteOffset: i, as: UInt8.self)
                    }
                }
            }
            let simd = converter.convert(picture, avx2: true), swift = converter.convert(picture, avx2: false)
            for p in 0..<3 {
                let a = simd.planes[p], b = swift.planes[p]
                for y in 0..<a.height {
                    for x in 0..<a.width {
                        let u = a.base.load(fromByteOffset: y * a.bytesPerRow + x, as: UInt8.self)
                        let v = b.base.load(fromByteOffset: y * b.bytesPerRow + x, as: UInt8.self)
                        if u != v { Issue.record("\(description.transfer) \(format) plane \(p) (\(x), \(y)): \(u) vs \(v)"); return }
                    }
                }
            }
        }
    }

    /// The codes above rarely show a float one unit in the last place off: with one step of the twin's cubic left
    /// unfused, every code of the tests above stayed the same, and this test failed. Here the chain's own results,
    /// Y′, B′ − Y′, R′ − Y′ and the kinks, are compared bit for bit, one run and two (the AVX-512 steps take runs in
    /// pairs, an odd one alone).
    @Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2 here, or LAYERPLAY_SIMD=baseline)"))
    func theChainsFloatsAreTheTwinsBitForBit() {
        var rng = SplitMix(state: 2390)
        var differ: [String] = []
        func code() -> Int32 {
            [0, 1023, Int32.random(in: 0...1023, using: &rng)][Int.random(in: 0..<3, using: &rng)]
        }
        for description in descriptions {
            for converter in convertersWithEachKernel(description) {
                let like = PixelBuffer(format: .yuv420p10, width: 2, height: 2, matrix: description.matrix, range: .limited) { _, _, _ in }
                var k = converter.kernelConstants(for: like)
                for trial in 0..<400 {
                    let runs = 1 + trial % 2, n = 8 * runs
                    let codes = (0..<n).map { _ in code() }
                    // Each pixel's chroma terms as the kernels make them from a chroma sample.
                    let chroma = (0..<n).map { _ in (b: Float(code()) - k.cOffset, r: Float(code()) - k.cOffset) }
                    let addR = chroma.map { k.rCr * $0.r }, addG = chroma.map { (k.gCb * $0.b).addingProduct(k.gCr, $0.r) }
                    let addB = chroma.map { k.bCb * $0.b }
                    var y = [Float](repeating: 0, count: n), dB = y, dR = y, kinks = [Int32](repeating: 0, count: n)
                    lp_video_color_chain(&k, converter.usesPolynomials ? 1 : 0, Int32(runs), codes, addR, addG, addB, &y, &dB, &dR, &kinks)
                    for i in 0..<n {
                        let twin = converter.pixel(k, luma: UInt16(codes[i]), addR: addR[i], addG: addG[i], addB: addB[i])
                        if twin.yPrime.bitPattern != y[i].bitPattern || twin.dB.bitPattern != dB[i].bitPattern
                            || twin.dR.bitPattern != dR[i].bitPattern || twin.kinks != kinks[i] {
                            differ.append("\(description.transfer)/\(description.primaries)\(converter.usesPolynomials ? " polynomials" : "") "
                                          + "code \(codes[i]): \(y[i]) vs \(twin.yPrime)")
                        }
                    }
                }
            }
        }
        #expect(differ.isEmpty, "\(differ.count) results differ: \(differ.prefix(6))")
    }
}
