import CKernels
import Dispatch
import Foundation

/// Turns a decoded picture whose colour the compositor cannot show as it is — HDR (PQ, HLG) or wide-gamut SDR
/// (BT.2020, Display P3) — into what it shows as it is: 8-bit Y′CbCr, BT.709 matrix and primaries, limited range,
/// the codes of an SDR BT.709 video (BT.1886 display, white at 203 nits). The one place where HDR becomes SDR:
/// window, stills and exports all take the converted picture, so one frame gives one set of pixels.
///
/// Per pixel: Y′CbCr → R′G′B′ (the source matrix); R′G′B′ → linear light in units of SDR white (PQ EOTF; HLG
/// inverse OETF with BT.2100's black lift, then the OOTF of a 0.005–1000-nit display, γ 1.2; BT.1886 for SDR); for
/// HDR, one intensity (luminance) is tone-mapped by the BT.2390 EETF in the PQ domain and the three channels scaled
/// by the same ratio (hue kept); source primaries → BT.709 in linear light; a colour outside BT.709 is moved toward
/// its own luminance until it fits, one brighter than white scaled down (no per-channel clipping, so no hue shift);
/// inverse BT.1886; BT.709 Y′CbCr with an ordered dither on the 8-bit codes. The curves are tables made once per
/// description (`LinearTable`, `LogTable`).
///
/// Cost: one pass over the picture, split across the cores, two luma rows (and the chroma row they share) a step;
/// see Benchmarks/hdr.sh and Benchmarks/tenbit.sh.
public final class VideoColorConverter: @unchecked Sendable {
    /// The description it converts from.
    public let source: ColorDescription
    /// The chain's three curves: code value → linear light; linear intensity (units of SDR white; for HLG: scene
    /// luminance) → the factor that multiplies all three channels (nil for SDR, which is not tone-mapped); linear
    /// light → the SDR display's code value. As tables (the AVX2 kernel's) or as cubic pieces (the AVX-512
    /// kernel's, where the CPU has it: `prefersPolynomials`; the encode's without its clamp to 0…1); the twin reads
    /// the same form as the kernel, so one machine gives one set of pixels.
    private enum Curves {
        case tables(decode: LinearTable, gain: LogTable?, encode: LogTable)
        case polynomials(decode: PolynomialCurve, gain: PolynomialCurve?, encode: PolynomialCurve)
    }
    private let curves: Curves
    /// Whether the curves are the cubic pieces.
    var usesPolynomials: Bool {
        if case .polynomials = curves { true } else { false }
    }
    /// Whether light is tone-mapped (HDR): there is a gain curve.
    private var toneMaps: Bool {
        switch curves {
        case .tables(_, let gain, _): gain != nil
        case .polynomials(_, let gain, _): gain != nil
        }
    }
    /// The converted pictures' memory, used again once a picture is released (every byte of a picture is written).
    private let memory = PictureMemoryPool()
    /// How many pictures' memory it has allocated (the rest reused).
    var pictureAllocations: Int { memory.allocations }
    private let row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>
    private let luma: SIMD3<Float>
    /// Whether 4:2:0 blocks whose luma codes lie close together are interpolated (`blockSpreadLimit`); off, every
    /// pixel runs through the chain (the tests measure the difference).
    let interpolatesBlocks: Bool

    /// The most a 2×2 block's luma codes (10-bit scale; a quarter of it for 8-bit pictures) may spread for the block
    /// to be interpolated from two runs of the chain instead of four. At most 7: the kernels read 1 / spread from a
    /// register of the reciprocals of 0…7.
    static let blockSpreadLimit = 7

    /// The most the tone curve may multiply light by. Its black lift (BT.2390's E3, which the SDR display's BT.1886
    /// black takes back off) raises light near zero to the display's black, an unbounded ratio as light → 0: applied
    /// to one channel of a nearly black saturated pixel (noise), the ratio would make a visible speck. Capped, the
    /// change stays below one 8-bit code (it acts below 0.03 nits, where everything encodes to about code 0).
    static let maxBlackLift = 8.0

    /// A converter for pictures described by `source` (whose `needsConversion` should be true; any description works).
    public convenience init(source: ColorDescription) {
        self.init(source: source, interpolatesBlocks: true, polynomials: Self.prefersPolynomials)
    }

    /// Whether this machine's converters use the polynomial curves: the CPU has AVX-512 (F, VL) and the AVX2 kernels
    /// run; `LAYERPLAY_SIMD=avx2` keeps the tables (the pixels of a machine without AVX-512).
    public static let prefersPolynomials = avx512KernelRuns
        && ProcessInfo.processInfo.environment["LAYERPLAY_SIMD"] != "avx2"
    /// Whether the polynomial curves' kernel can run here (AVX-512 F and VL, and the AVX2 kernels on).
    static let avx512KernelRuns = avx2KernelsEnabled && lp_cpu_has_avx512() != 0

    /// `interpolatesBlocks` false: every pixel through the chain; `polynomials`: the curves as cubic pieces rather
    /// than tables (for the tests).
    init(source: ColorDescription, interpolatesBlocks: Bool, polynomials: Bool) {
        self.source = source
        self.interpolatesBlocks = interpolatesBlocks
        let white = TransferCurves.sdrWhite
        let decodeFunction: (Double) -> Double, gainFunction: ((Double) -> Double)?
        switch source.transfer {
        case .pq:
            decodeFunction = { TransferCurves.pqToNits($0) / white }
            let curve = ToneCurve(sourceBlack: source.sourceBlack, sourcePeak: source.sourcePeak)
            gainFunction = { i in min(curve(i * white) / white / i, Self.maxBlackLift) }
        case .hlg:
            // Scene light E; the OOTF F = Lw·Ys^(γ−1)·E of a 1000-nit display and the tone curve depend on the scene
            // luminance Ys alone, so they make one factor. BT.2100's black lift (E′ → (1 − β)·E′ + β, the display's
            // 0.005-nit black) is applied to luminance, not to each channel: per channel it would lift the zero
            // channels of a bright saturated colour (BT.709 red showing G, B ≈ 10 where libplacebo shows 0).
            decodeFunction = { TransferCurves.hlgToScene($0) }
            let peak = 1000.0, black = TransferCurves.hlgDisplayBlack, gamma = TransferCurves.hlgSystemGamma(peak: peak)
            let lift = TransferCurves.hlgBlackLift(black: black, peak: peak)
            let curve = ToneCurve(sourceBlack: black, sourcePeak: peak)
            gainFunction = { ys in
                let lifted = TransferCurves.hlgToScene((1 - lift) * TransferCurves.sceneToHLG(ys) + lift)
                let display = peak * pow(ys, gamma)
                let mapped = curve(peak * pow(lifted, gamma))
                return peak * pow(ys, gamma - 1) / white * min(mapped / display, Self.maxBlackLift)
            }
        case .sdr, .unspecified:
            decodeFunction = { TransferCurves.sdrToNits($0) / white }
            gainFunction = nil
        }
        if polynomials {
            let (a, b) = TransferCurves.bt1886Parts
            curves = .polynomials(
                decode: PolynomialCurve(.unit, decodeFunction), gain: gainFunction.map { PolynomialCurve(Self.gainDomain, $0) },
                encode: PolynomialCurve(Self.encodeDomain) { pow(max($0 * white, 0) / a, 1 / TransferCurves.bt1886Gamma) - b })
        } else {
            curves = .tables(decode: LinearTable(count: 4096, decodeFunction), gain: gainFunction.map { LogTable($0) },
                             encode: LogTable { TransferCurves.nitsToSDR($0 * white) })
        }
        let primaries = source.primaries == .unspecified ? ColorPrimaries.bt709 : source.primaries
        let rows = primaries.toBT709.rows.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        (row0, row1, row2) = (rows[0], rows[1], rows[2])
        let w = primaries.luminanceWeights
        luma = SIMD3(Float(w.x), Float(w.y), Float(w.z))
    }

    /// The gain's pieces: an octave each from 2⁻²⁴ to 2⁸ of SDR white (10,000 nits is 2^5.6).
    static let gainDomain = PolynomialCurve.Domain.octaves(firstExponent: -24, perOctave: 1)
    /// The encode's: half an octave each from 2⁻¹⁶ to 1 (below 2⁻¹⁰ is under the display's black, code 0).
    static let encodeDomain = PolynomialCurve.Domain.octaves(firstExponent: -16, perOctave: 2)

    deinit {
        switch curves {
        case .tables(let decode, let gain, let encode):
            decode.deallocate(); gain?.deallocate(); encode.deallocate()
        case .polynomials(let decode, let gain, let encode):
            decode.deallocate(); gain?.deallocate(); encode.deallocate()
        }
    }

    /// The picture converted: same size and chroma subsampling, 8 bits, BT.709 limited range. `buffer` must be
    /// planar Y′CbCr without alpha (8 or 10 bits); other formats are returned as they are. `avx2` chooses the
    /// AVX2 step or its Swift twin (the tests compare them).
    ///
    /// 8 bits straight from the chain (dithered), not 10 bits reduced afterwards: the compositor's surfaces are
    /// 8-bit, so the 10-bit picture and the pass that reduced it only cost time.
    public func convert(_ buffer: PixelBuffer, avx2: Bool = avx2KernelsEnabled) -> PixelBuffer {
        guard let format = Self.outputFormat(for: buffer.format) else { return buffer }
        let chromaRows = buffer.planes[1].height
        return PixelBuffer(format: format, width: buffer.width, height: buffer.height, matrix: .bt709, range: .limited,
                           chromaLocation: buffer.chromaLocation, pool: memory) { (out: PixelBuffer.WritablePlanes) in
            let bands = min(chromaRows, 8 * max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (chromaRows * band / bands)..<(chromaRows * (band + 1) / bands)
                self.convertRows(rows, of: buffer, into: out, avx2: avx2)
            }
        }
    }

    /// Whether `convert` converts pictures of `format` (planar Y′CbCr without alpha, 8 or 10 bits).
    public static func canConvert(_ format: PixelFormat) -> Bool { outputFormat(for: format) != nil }

    static func outputFormat(for format: PixelFormat) -> PixelFormat? {
        switch format {
        case .yuv420p, .yuv420p10: .yuv420p
        case .yuv422p, .yuv422p10: .yuv422p
        case .yuv444p, .yuv444p10: .yuv444p
        case .yuva420p, .nv12, .bgra: nil
        }
    }

    /// Converts the chroma rows `rows` and the luma rows they cover (one or two each: `rows(...)`).
    private func convertRows(_ rows: Range<Int>, of buffer: PixelBuffer, into out: PixelBuffer.WritablePlanes, avx2: Bool) {
        let k = kernelConstants(for: buffer)
        let p = buffer.planes, shift = buffer.format.chromaShift
        let sampleBytes = buffer.format.bitDepth > 8 ? 2 : 1
        let (yOut, yStride) = out.planes[0], (uOut, uStride) = out.planes[1], (vOut, vStride) = out.planes[2]
        for cy in rows {
            let y = cy << shift.y, two = shift.y == 1 && y + 1 < buffer.height
            func lumaOut(_ y: Int) -> UnsafeMutablePointer<UInt8> { (yOut + y * yStride).assumingMemoryBound(to: UInt8.self) }
            self.rows(k, yOut0: lumaOut(y), yOut1: two ? lumaOut(y + 1) : nil,
                      cbOut: (uOut + cy * uStride).assumingMemoryBound(to: UInt8.self),
                      crOut: (vOut + cy * vStride).assumingMemoryBound(to: UInt8.self), count: buffer.width,
                      luma0: p[0].base + y * p[0].bytesPerRow, luma1: two ? p[0].base + (y + 1) * p[0].bytesPerRow : nil,
                      cb: p[1].base + cy * p[1].bytesPerRow, cr: p[2].base + cy * p[2].bytesPerRow,
                      sampleBytes: sampleBytes, chromaShiftX: shift.x, row: y, chromaRow: cy, avx2: avx2)
        }
    }

    /// The constants of the per-pixel chain for pictures like `buffer` (its matrix, range and bit depth), as the
    /// kernels and the Swift twin read them: the curves of the converter's form, the other form's pointers nil. The
    /// curves stay owned by the converter.
    func kernelConstants(for buffer: PixelBuffer) -> lp_video_color {
        let c = buffer.yuvToRGB
        var tables: (decode: LinearTable, gain: LogTable?, encode: LogTable)?
        var pieces: (decode: PolynomialCurve, gain: PolynomialCurve?, encode: PolynomialCurve)?
        switch curves {
        case .tables(let decode, let gain, let encode): tables = (decode, gain, encode)
        case .polynomials(let decode, let gain, let encode): pieces = (decode, gain, encode)
        }
        // 0…255 coefficients → 0…1.
        return lp_video_color(
            logFirstBits: LogTable.firstBits, logLastBits: LogTable.lastBits, logShift: Int32(LogTable.mantissaShift),
            decode: tables?.decode.samples, decodeScale: tables?.decode.indexScale ?? 0,
            gain: tables?.gain?.samples, encode: tables?.encode.samples,
            ys: c.yScale / 255, rCr: c.crToR / 255, gCb: c.cbToG / 255, gCr: c.crToG / 255, bCb: c.cbToB / 255,
            yOffset: c.yOffset, cOffset: c.cOffset, luma: (luma.x, luma.y, luma.z),
            m: (row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z),
            cScale: (Float(224 / 1.8556), Float(224 / 1.5748)),
            encodeBlack: Float(TransferCurves.sdrBlack / TransferCurves.sdrWhite),
            blockSpread: interpolatesBlocks ? Int32(Self.blockSpreadLimit >> (10 - min(buffer.format.bitDepth, 10))) : -1,
            decodeCurve: pieces?.decode.coefficients, gainCurve: pieces?.gain?.coefficients,
            encodeCurve: pieces?.encode.coefficients, gainCurveFirstBits: pieces?.gain?.firstBits ?? 0,
            encodeCurveFirstBits: pieces?.encode.firstBits ?? 0, gainCurveShift: Int32(pieces?.gain?.shift ?? 23),
            encodeCurveShift: Int32(pieces?.encode.shift ?? 22))
    }

    /// One or two luma rows and their chroma row converted (`lp_video_color_rows_avx2` says what it writes):
    /// eight pixels at a time with AVX2 when `avx2`, the rest (or all) by the Swift twin.
    func rows(_ k: lp_video_color, yOut0: UnsafeMutablePointer<UInt8>, yOut1: UnsafeMutablePointer<UInt8>?,
              cbOut: UnsafeMutablePointer<UInt8>, crOut: UnsafeMutablePointer<UInt8>, count: Int, luma0: UnsafeRawPointer,
              luma1: UnsafeRawPointer?, cb: UnsafeRawPointer, cr: UnsafeRawPointer, sampleBytes: Int, chromaShiftX: Int,
              row: Int, chromaRow: Int, avx2: Bool) {
        var done = 0
        // The polynomial curves' kernel needs AVX-512; without it (a test's converter) the twin does them.
        if avx2 && (!usesPolynomials || Self.avx512KernelRuns) {
            withUnsafePointer(to: k) { k in
                let kernel = usesPolynomials ? lp_video_color_rows_avx512 : lp_video_color_rows_avx2
                done = kernel(k, yOut0, yOut1, cbOut, crOut, count, luma0, luma1, cb, cr, Int32(sampleBytes),
                              Int32(chromaShiftX), row, chromaRow)
            }
        }
        guard done < count else { return }
        func twin<Sample: FixedWidthInteger & UnsignedInteger>(_: Sample.Type) {
            rowsSwift(k, from: done, yOut0: yOut0, yOut1: yOut1, cbOut: cbOut, crOut: crOut, count: count,
                      luma0: luma0.assumingMemoryBound(to: Sample.self), luma1: luma1?.assumingMemoryBound(to: Sample.self),
                      cb: cb.assumingMemoryBound(to: Sample.self), cr: cr.assumingMemoryBound(to: Sample.self),
                      chromaShiftX: chromaShiftX, row: row, chromaRow: chromaRow)
        }
        if sampleBytes == 2 { twin(UInt16.self) } else { twin(UInt8.self) }
    }

    /// The Swift twin of `lp_video_color_rows_avx2`, luma pixels `start..<count` (`start` a multiple of 8, so of
    /// the chroma step too) and the chroma samples they cover: the same float operations in the same order (written
    /// out per channel, no SIMD3 sums, whose order is unspecified), multiply-adds fused (`addingProduct`) exactly
    /// where the kernels fuse them, so the two agree bit for bit. Eight columns at a
    /// time, as the kernel: blocks interpolated when `blocksInterpolate` says so, else every pixel through the chain.
    func rowsSwift<Sample: FixedWidthInteger & UnsignedInteger>(
        _ k: lp_video_color, from start: Int, yOut0: UnsafeMutablePointer<UInt8>, yOut1: UnsafeMutablePointer<UInt8>?,
        cbOut: UnsafeMutablePointer<UInt8>, crOut: UnsafeMutablePointer<UInt8>, count: Int, luma0: UnsafePointer<Sample>,
        luma1: UnsafePointer<Sample>?, cb: UnsafePointer<Sample>, cr: UnsafePointer<Sample>, chromaShiftX: Int,
        row: Int, chromaRow: Int
    ) {
        for group in stride(from: start, to: count, by: 8) {
            let columns = group..<min(count, group + 8)
            if let luma1, chromaShiftX == 1,
               Self.blocksInterpolate(spreadLimit: Int(k.blockSpread), luma0, luma1, columns),
               interpolatedBlocksSwift(k, columns: columns, yOut0: yOut0, yOut1: yOut1!, cbOut: cbOut, crOut: crOut,
                                       luma0: luma0, luma1: luma1, cb: cb, cr: cr, row: row, chromaRow: chromaRow) {
                continue
            } else {
                everyPixelSwift(k, columns: columns, yOut0: yOut0, yOut1: yOut1, cbOut: cbOut, crOut: crOut,
                                luma0: luma0, luma1: luma1, cb: cb, cr: cr, chromaShiftX: chromaShiftX, row: row,
                                chromaRow: chromaRow)
            }
        }
    }

    /// Whether the 2×2 blocks of `columns` (4:2:0's pixels sharing one chroma sample) are interpolated: when no
    /// block's luma codes spread over more than `spreadLimit` (negative: never).
    @inline(__always) static func blocksInterpolate<Sample: FixedWidthInteger & UnsignedInteger>(
        spreadLimit: Int, _ luma0: UnsafePointer<Sample>, _ luma1: UnsafePointer<Sample>, _ columns: Range<Int>
    ) -> Bool {
        guard spreadLimit >= 0 else { return false }
        for x0 in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
            let block = blockRange(luma0, luma1, x0..<min(columns.upperBound, x0 + 2))
            if Int(block.hi) - Int(block.lo) > spreadLimit { return false }
        }
        return true
    }

    /// The darkest and brightest luma code of the block of `columns` (one or two) in both rows.
    @inline(__always) static func blockRange<Sample: FixedWidthInteger & UnsignedInteger>(
        _ luma0: UnsafePointer<Sample>, _ luma1: UnsafePointer<Sample>, _ columns: Range<Int>
    ) -> (lo: Sample, hi: Sample) {
        var lo = min(luma0[columns.lowerBound], luma1[columns.lowerBound]), hi = max(luma0[columns.lowerBound], luma1[columns.lowerBound])
        for x in columns.dropFirst() { lo = min(lo, min(luma0[x], luma1[x])); hi = max(hi, max(luma0[x], luma1[x])) }
        return (lo, hi)
    }

    /// Each 2×2 block of `columns` (4:2:0, two rows) from two runs of the chain, at its darkest and its brightest luma
    /// code: a pixel's Y′ is interpolated between them by its luma code, the block's B′ − Y′ and R′ − Y′ by its
    /// pixels' average position (SEMANTICS.md, "Colour": why and how close).
    private func interpolatedBlocksSwift<Sample: FixedWidthInteger & UnsignedInteger>(
        _ k: lp_video_color, columns: Range<Int>, yOut0: UnsafeMutablePointer<UInt8>, yOut1: UnsafeMutablePointer<UInt8>,
        cbOut: UnsafeMutablePointer<UInt8>, crOut: UnsafeMutablePointer<UInt8>, luma0: UnsafePointer<Sample>,
        luma1: UnsafePointer<Sample>, cb: UnsafePointer<Sample>, cr: UnsafePointer<Sample>, row: Int, chromaRow: Int
    ) -> Bool {
        /// The block's chroma terms and its two runs of the chain.
        func ends(_ x0: Int) -> (lo: Sample, hi: Sample, dark: (yPrime: Float, dB: Float, dR: Float, kinks: Int32),
                                 bright: (yPrime: Float, dB: Float, dR: Float, kinks: Int32)) {
            let cx = x0 >> 1
            let b = Float(cb[cx]) - k.cOffset, r = Float(cr[cx]) - k.cOffset
            let addR = k.rCr * r, addG = (k.gCb * b).addingProduct(k.gCr, r), addB = k.bCb * b
            let (lo, hi) = Self.blockRange(luma0, luma1, x0..<min(columns.upperBound, x0 + 2))
            return (lo, hi, pixel(k, luma: lo, addR: addR, addG: addG, addB: addB),
                    pixel(k, luma: hi, addR: addR, addG: addG, addB: addB))
        }
        // A kink of the chain between a block's ends (the gamut moves, the encode's black) bends the line: the
        // kernel then runs the group's pixels one by one, so the twin does.
        for x0 in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
            let e = ends(x0)
            if e.dark.kinks != e.bright.kinks { return false }
        }
        for x0 in stride(from: columns.lowerBound, to: columns.upperBound, by: 2) {
            let cx = x0 >> 1, blockColumns = x0..<min(columns.upperBound, x0 + 2)
            let (lo, hi, dark, bright) = ends(x0)
            let inverse: Float = hi > lo ? 1 / Float(Int32(hi) - Int32(lo)) : 0
            var positions: Float = 0
            for (i, x) in blockColumns.enumerated() {
                let t0 = Float(Int32(luma0[x]) - Int32(lo)) * inverse, t1 = Float(Int32(luma1[x]) - Int32(lo)) * inverse
                let y0 = dark.yPrime.addingProduct(bright.yPrime - dark.yPrime, t0)
                let y1 = dark.yPrime.addingProduct(bright.yPrime - dark.yPrime, t1)
                yOut0[x] = Self.code((16.5 + Self.dither(x, row)).addingProduct(219, y0))
                yOut1[x] = Self.code((16.5 + Self.dither(x, row + 1)).addingProduct(219, y1))
                positions = i == 0 ? t0 + t1 : positions + (t0 + t1)
            }
            let pixels = Float(2 * blockColumns.count), inverseCount = 1 / pixels
            let sumB = (pixels * dark.dB).addingProduct(bright.dB - dark.dB, positions)
            let sumR = (pixels * dark.dR).addingProduct(bright.dR - dark.dR, positions)
            let bias = 128.5 + Self.dither(cx, chromaRow)
            cbOut[cx] = Self.code(bias.addingProduct(sumB, k.cScale.0 * inverseCount))
            crOut[cx] = Self.code(bias.addingProduct(sumR, k.cScale.1 * inverseCount))
        }
        return true
    }

    /// `columns` pixel by pixel through the chain, and the chroma samples they cover.
    private func everyPixelSwift<Sample: FixedWidthInteger & UnsignedInteger>(
        _ k: lp_video_color, columns group: Range<Int>, yOut0: UnsafeMutablePointer<UInt8>,
        yOut1: UnsafeMutablePointer<UInt8>?, cbOut: UnsafeMutablePointer<UInt8>, crOut: UnsafeMutablePointer<UInt8>,
        luma0: UnsafePointer<Sample>, luma1: UnsafePointer<Sample>?, cb: UnsafePointer<Sample>, cr: UnsafePointer<Sample>,
        chromaShiftX: Int, row: Int, chromaRow: Int
    ) {
        let rows = luma1 == nil ? 1 : 2, count = group.upperBound
        for cx in (group.lowerBound >> chromaShiftX)..<((count + (1 << chromaShiftX) - 1) >> chromaShiftX) {
            let b = Float(cb[cx]) - k.cOffset, r = Float(cr[cx]) - k.cOffset
            let addR = k.rCr * r, addG = (k.gCb * b).addingProduct(k.gCr, r), addB = k.bCb * b
            let columns = (cx << chromaShiftX)..<min(count, (cx + 1) << chromaShiftX)
            // Per column, the rows' differences summed; then the columns' sums, left to right (the kernel's order).
            var sumB: Float = 0, sumR: Float = 0
            for (i, x) in columns.enumerated() {
                var columnB: Float = 0, columnR: Float = 0
                for j in 0..<rows {
                    let (out, luma) = j == 0 ? (yOut0, luma0) : (yOut1!, luma1!)
                    let (yPrime, dB, dR, _) = pixel(k, luma: luma[x], addR: addR, addG: addG, addB: addB)
                    out[x] = Self.code((16.5 + Self.dither(x, row + j)).addingProduct(219, yPrime))
                    (columnB, columnR) = j == 0 ? (dB, dR) : (columnB + dB, columnR + dR)
                }
                (sumB, sumR) = i == 0 ? (columnB, columnR) : (sumB + columnB, sumR + columnR)
            }
            let inverseCount = 1 / Float(rows * columns.count)
            let bias = 128.5 + Self.dither(cx, chromaRow)
            cbOut[cx] = Self.code(bias.addingProduct(sumB, k.cScale.0 * inverseCount))
            crOut[cx] = Self.code(bias.addingProduct(sumR, k.cScale.1 * inverseCount))
        }
    }

    /// One pixel through the chain: its luma code and its chroma's R′, G′, B′ terms → BT.709 Y′ and the encoded
    /// colour differences B′ − Y′, R′ − Y′.
    @inline(__always) func pixel<Sample: FixedWidthInteger & UnsignedInteger>(
        _ k: lp_video_color, luma: Sample, addR: Float, addG: Float, addB: Float
    ) -> (yPrime: Float, dB: Float, dR: Float, kinks: Int32) {
        let (lw0, lw1, lw2) = k.luma, m = k.m
        let l = k.ys * (Float(luma) - k.yOffset)
        // R′G′B′ → linear, in units of SDR white (HLG: scene light); one gain from luminance.
        var cR = decoded(l + addR), cG = decoded(l + addG), cB = decoded(l + addB)
        if toneMaps {
            let g = gained(Self.dot(lw0, cR, lw1, cG, lw2, cB))
            cR *= g; cG *= g; cB *= g
        }
        var mR = Self.dot(m.0, cR, m.1, cG, m.2, cB)
        var mG = Self.dot(m.3, cR, m.4, cG, m.5, cB)
        var mB = Self.dot(m.6, cR, m.7, cG, m.8, cB)
        var kinks = Self.intoGamut(&mR, &mG, &mB)
        let black = k.encodeBlack
        kinks |= (mR < black ? 4 : 0) | (mG < black ? 8 : 0) | (mB < black ? 16 : 0)
        let eR = encoded(mR), eG = encoded(mG), eB = encoded(mB)
        let yPrime = Self.dot(0.2126, eR, 0.7152, eG, 0.0722, eB)
        return (yPrime, eB - yPrime, eR - yPrime, kinks)
    }

    /// a·x + b·y + c·z as the kernels' `dot3` computes it: a·x, then b·y and c·z added by fused multiply-adds.
    @inline(__always) static func dot(_ a: Float, _ x: Float, _ b: Float, _ y: Float, _ c: Float, _ z: Float) -> Float {
        (a * x).addingProduct(b, y).addingProduct(c, z)
    }

    /// The chain's three curves, from the tables or the cubic pieces (`usesPolynomials`), as the kernels read them.
    @inline(__always) private func decoded(_ x: Float) -> Float {
        switch curves {
        case .tables(let decode, _, _): decode(x)
        case .polynomials(let decode, _, _): decode(x)
        }
    }
    @inline(__always) private func gained(_ x: Float) -> Float {
        switch curves {
        case .tables(_, let gain, _): gain!(x)
        case .polynomials(_, let gain, _): gain!(x)
        }
    }
    @inline(__always) private func encoded(_ x: Float) -> Float {
        switch curves {
        case .tables(_, _, let encode): encode(x)
        case .polynomials(_, _, let encode): min(max(encode(x), 0), 1)
        }
    }

    /// A colour BT.709 cannot show, made one it can without shifting its hue (clipping each channel would):
    /// outside the gamut (a channel below 0), it moves along the line to its own luminance until it fits
    /// (luminance kept, saturation given up); brighter than white (a channel above 1), all three channels are
    /// scaled down together. Colours inside, 0…1, are unchanged. Returns which moves it made (1: toward luminance,
    /// 2: scaled down), where the chain has kinks. Desaturating for brightness too would turn a
    /// pure red lifted 2 % above 1 by the tone curve's black lift into pink (its zero channels rising to codes
    /// ~19, the BT.1886 curve being steep at black); scaling keeps it red.
    @discardableResult @inline(__always)
    static func intoGamut(_ r: inout Float, _ g: inout Float, _ b: inout Float) -> Int32 {
        let y = max(dot(0.2126, r, 0.7152, g, 0.0722, b), 0)
        let lo = min(min(r, g), b)
        var moves: Int32 = 0
        if lo < 0 {
            moves = 1
            let t = y > lo ? y / (y - lo) : 0
            r = y.addingProduct(t, r - y); g = y.addingProduct(t, g - y); b = y.addingProduct(t, b - y)
        }
        let hi = max(max(r, g), b)
        if hi > 1 {
            // One division, three multiplications (as the kernels: a division costs several multiplications).
            let scale = 1 / hi
            r *= scale; g *= scale; b *= scale; moves |= 2
        }
        r = min(max(r, 0), 1); g = min(max(g, 0), 1); b = min(max(b, 0), 1)
        return moves
    }

    /// A 4×4 ordered (Bayer) dither offset in −0.5…0.5 code: breaks the bands a steep tone curve makes in smooth
    /// gradients (and keeps the 8-bit codes' average where the 10-bit source had it), the same way on every frame
    /// (exports stay deterministic).
    @inline(__always) static func dither(_ x: Int, _ y: Int) -> Float {
        // The 4×4 Bayer matrix's entry, 0…15, from the bits of x ⊕ y and y interleaved.
        let z = x ^ y
        let rank = (z & 1) << 3 | (y & 1) << 2 | (z & 2) | (y >> 1 & 1)
        return Float(rank) / 16 - 15.0 / 32
    }

    /// An 8-bit code from a value with half a code already added: truncated (as the kernel's conversion) and
    /// clamped to 0…255.
    @inline(__always) static func code(_ v: Float) -> UInt8 { UInt8(clamping: Int32(v)) }
}
