import Dispatch
import Foundation

/// Turns a decoded picture whose colour the compositor cannot show as it is — HDR (PQ, HLG) or wide-gamut SDR
/// (BT.2020, Display P3) — into what it shows as it is: 10-bit Y′CbCr, BT.709 matrix and primaries, limited range,
/// the codes of an SDR BT.709 video (BT.1886 display, white at 203 nits). The one place where HDR becomes SDR:
/// window, stills and exports all take the converted picture, so one frame gives one set of pixels.
///
/// Per pixel: Y′CbCr → R′G′B′ (the source matrix); R′G′B′ → linear light in units of SDR white (PQ EOTF; HLG
/// inverse OETF with BT.2100's black lift, then the OOTF of a 0.005–1000-nit display, γ 1.2; BT.1886 for SDR); for
/// HDR, one intensity (luminance) is tone-mapped by the BT.2390 EETF in the PQ domain and the three channels scaled
/// by the same ratio (hue kept); source primaries → BT.709 in linear light; a colour outside BT.709 is moved toward
/// its own luminance until it fits, one brighter than white scaled down (no per-channel clipping, so no hue shift);
/// inverse BT.1886; BT.709 Y′CbCr with
/// an ordered dither on the 10-bit codes. The curves are tables made once per description (`LinearTable`,
/// `LogTable`).
///
/// Cost: one pass over the picture, split across the cores; see Benchmarks/hdr.sh.
public final class VideoColorConverter: @unchecked Sendable {
    /// The description it converts from.
    public let source: ColorDescription
    private let decode: LinearTable
    /// Linear intensity (units of SDR white; for HLG: scene luminance) → the factor that multiplies all three
    /// channels; nil for SDR, which is not tone-mapped.
    private let gain: LogTable?
    private let encode: LogTable
    private let row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>
    private let luma: SIMD3<Float>
    private let luma709: SIMD3<Float>

    /// The most the tone curve may multiply light by. Its black lift (BT.2390's E3, which the SDR display's BT.1886
    /// black takes back off) raises light near zero to the display's black, an unbounded ratio as light → 0: applied
    /// to one channel of a nearly black saturated pixel (noise), the ratio would make a visible speck. Capped, the
    /// change stays below one 8-bit code (it acts below 0.03 nits, where everything encodes to about code 0).
    static let maxBlackLift = 8.0

    /// A converter for pictures described by `source` (whose `needsConversion` should be true; any description works).
    public init(source: ColorDescription) {
        self.source = source
        let white = TransferCurves.sdrWhite
        switch source.transfer {
        case .pq:
            decode = LinearTable(count: 4096) { TransferCurves.pqToNits($0) / white }
            let curve = ToneCurve(sourceBlack: source.sourceBlack, sourcePeak: source.sourcePeak)
            gain = LogTable { i in min(curve(i * white) / white / i, Self.maxBlackLift) }
        case .hlg:
            // Scene light E; the OOTF F = Lw·Ys^(γ−1)·E of a 1000-nit display and the tone curve depend on the scene
            // luminance Ys alone, so they make one factor. BT.2100's black lift (E′ → (1 − β)·E′ + β, the display's
            // 0.005-nit black) is applied to luminance, not to each channel: per channel it would lift the zero
            // channels of a bright saturated colour (BT.709 red showing G, B ≈ 10 where libplacebo shows 0).
            decode = LinearTable(count: 4096) { TransferCurves.hlgToScene($0) }
            let peak = 1000.0, black = TransferCurves.hlgDisplayBlack, gamma = TransferCurves.hlgSystemGamma(peak: peak)
            let lift = TransferCurves.hlgBlackLift(black: black, peak: peak)
            let curve = ToneCurve(sourceBlack: black, sourcePeak: peak)
            gain = LogTable { ys in
                let lifted = TransferCurves.hlgToScene((1 - lift) * TransferCurves.sceneToHLG(ys) + lift)
                let display = peak * pow(ys, gamma)
                let mapped = curve(peak * pow(lifted, gamma))
                return peak * pow(ys, gamma - 1) / white * min(mapped / display, Self.maxBlackLift)
            }
        case .sdr, .unspecified:
            decode = LinearTable(count: 4096) { TransferCurves.sdrToNits($0) / white }
            gain = nil
        }
        encode = LogTable { TransferCurves.nitsToSDR($0 * white) }
        let primaries = source.primaries == .unspecified ? ColorPrimaries.bt709 : source.primaries
        let rows = primaries.toBT709.rows.map { SIMD3(Float($0.x), Float($0.y), Float($0.z)) }
        (row0, row1, row2) = (rows[0], rows[1], rows[2])
        let w = primaries.luminanceWeights
        luma = SIMD3(Float(w.x), Float(w.y), Float(w.z))
        luma709 = SIMD3(0.2126, 0.7152, 0.0722)
    }

    deinit {
        decode.deallocate()
        gain?.deallocate()
        encode.deallocate()
    }

    /// The picture converted: same size and chroma subsampling, 10 bits, BT.709 limited range. `buffer` must be
    /// planar Y′CbCr without alpha (8 or 10 bits); other formats are returned as they are.
    public func convert(_ buffer: PixelBuffer) -> PixelBuffer {
        guard let format = Self.outputFormat(for: buffer.format) else { return buffer }
        let shift = buffer.format.chromaShift
        let chromaRows = buffer.planes[1].height
        var planes = Array(repeating: (UnsafeMutableRawPointer(bitPattern: 64)!, 0), count: 3)
        return PixelBuffer(format: format, width: buffer.width, height: buffer.height, matrix: .bt709, range: .limited,
                           chromaLocation: buffer.chromaLocation) { plane, base, bytesPerRow in
            // The allocation hands planes over one at a time: remember them, convert once all three are known.
            planes[plane] = (base, bytesPerRow)
            guard plane == 2 else { return }
            let out = OutputPlanes(planes: planes)
            let bands = min(chromaRows, 8 * max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let rows = (chromaRows * band / bands)..<(chromaRows * (band + 1) / bands)
                if buffer.format.bitDepth > 8 {
                    self.convertRows(rows, of: buffer, shift: shift, sample: UInt16.self, into: out)
                } else {
                    self.convertRows(rows, of: buffer, shift: shift, sample: UInt8.self, into: out)
                }
            }
        }
    }

    /// The output planes' bases and bytes per row; each band of rows writes its own part of them.
    struct OutputPlanes: @unchecked Sendable { let planes: [(UnsafeMutableRawPointer, Int)] }

    /// Whether `convert` converts pictures of `format` (planar Y′CbCr without alpha, 8 or 10 bits).
    public static func canConvert(_ format: PixelFormat) -> Bool { outputFormat(for: format) != nil }

    static func outputFormat(for format: PixelFormat) -> PixelFormat? {
        switch format {
        case .yuv420p, .yuv420p10: .yuv420p10
        case .yuv422p, .yuv422p10: .yuv422p10
        case .yuv444p, .yuv444p10: .yuv444p10
        case .yuva420p, .nv12, .bgra: nil
        }
    }

    /// Converts the chroma rows `rows` (and the luma rows they cover).
    private func convertRows<Sample: FixedWidthInteger & UnsignedInteger>(
        _ rows: Range<Int>, of buffer: PixelBuffer, shift: (x: Int, y: Int), sample: Sample.Type,
        into out: OutputPlanes
    ) {
        let k = buffer.yuvToRGB
        // 0…255 coefficients → 0…1.
        let ys = k.yScale / 255, rCr = k.crToR / 255, gCb = k.cbToG / 255, gCr = k.crToG / 255, bCb = k.cbToB / 255
        let yOff = k.yOffset, cOff = k.cOffset
        let p = buffer.planes
        let chromaWidth = p[1].width
        // Everything the loop reads, as locals: no property access (and no reference counting) per pixel.
        let row0 = self.row0, row1 = self.row1, row2 = self.row2, luma = self.luma, luma709 = self.luma709
        let decode = self.decode, encode = self.encode, gain = self.gain ?? LogTable.one, toneMaps = self.gain != nil
        let (yOut, yStride) = out.planes[0], (uOut, uStride) = out.planes[1], (vOut, vStride) = out.planes[2]
        for cy in rows {
            let cbRow = (p[1].base + cy * p[1].bytesPerRow).assumingMemoryBound(to: Sample.self)
            let crRow = (p[2].base + cy * p[2].bytesPerRow).assumingMemoryBound(to: Sample.self)
            let uRow = (uOut + cy * uStride).assumingMemoryBound(to: UInt16.self)
            let vRow = (vOut + cy * vStride).assumingMemoryBound(to: UInt16.self)
            let lumaRows = (cy << shift.y)..<min(buffer.height, (cy + 1) << shift.y)
            for cx in 0..<chromaWidth {
                let cb = Float(cbRow[cx]) - cOff, cr = Float(crRow[cx]) - cOff
                let addR = rCr * cr, addG = gCb * cb + gCr * cr, addB = bCb * cb
                var sumCb: Float = 0, sumCr: Float = 0, n: Float = 0
                for y in lumaRows {
                    let yIn = (p[0].base + y * p[0].bytesPerRow).assumingMemoryBound(to: Sample.self)
                    let yRow = (yOut + y * yStride).assumingMemoryBound(to: UInt16.self)
                    for x in (cx << shift.x)..<min(buffer.width, (cx + 1) << shift.x) {
                        let l = ys * (Float(yIn[x]) - yOff)
                        // R′G′B′ → linear, in units of SDR white (HLG: scene light).
                        var c = SIMD3(decode(l + addR), decode(l + addG), decode(l + addB))
                        if toneMaps { c *= gain((c * luma).sum()) }
                        c = SIMD3((row0 * c).sum(), (row1 * c).sum(), (row2 * c).sum())
                        c = Self.intoGamut(c, luminance: (c * luma709).sum())
                        let e = SIMD3(encode(c.x), encode(c.y), encode(c.z))
                        let yPrime = (e * luma709).sum()
                        yRow[x] = Self.code(64 + 876 * yPrime + Self.dither(x, y))
                        sumCb += e.z - yPrime; sumCr += e.x - yPrime; n += 1
                    }
                }
                let d = Self.dither(cx, cy)
                uRow[cx] = Self.code(512 + 896 / 1.8556 * sumCb / n + d)
                vRow[cx] = Self.code(512 + 896 / 1.5748 * sumCr / n + d)
            }
        }
    }

    /// A colour BT.709 cannot show, made one it can without shifting its hue (clipping each channel would):
    /// outside the gamut (a channel below 0), it moves along the line to its own luminance until it fits
    /// (luminance kept, saturation given up); brighter than white (a channel above 1), all three channels are
    /// scaled down together. Colours inside, 0…1, are unchanged. Desaturating for brightness too would turn a
    /// pure red lifted 2 % above 1 by the tone curve's black lift into pink (its zero channels rising to codes
    /// ~19, the BT.1886 curve being steep at black); scaling keeps it red.
    @inline(__always) static func intoGamut(_ c: SIMD3<Float>, luminance: Float) -> SIMD3<Float> {
        var c = c
        let lo = c.min()
        if lo < 0 {
            let y = max(luminance, 0)
            let t = y > lo ? y / (y - lo) : 0
            c = SIMD3(repeating: y) + t * (c - SIMD3(repeating: y))
        }
        let hi = c.max()
        if hi > 1 { c /= hi }
        return c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
    }

    /// A 4×4 ordered (Bayer) dither offset in −0.5…0.5 code: breaks the bands a steep tone curve makes in smooth
    /// gradients, the same way on every frame (exports stay deterministic).
    @inline(__always) static func dither(_ x: Int, _ y: Int) -> Float {
        // The 4×4 Bayer matrix's entry, 0…15, from the bits of x ⊕ y and y interleaved.
        let z = x ^ y
        let rank = (z & 1) << 3 | (y & 1) << 2 | (z & 2) | (y >> 1 & 1)
        return Float(rank) / 16 - 15.0 / 32
    }

    @inline(__always) static func code(_ v: Float) -> UInt16 { UInt16(min(max(v + 0.5, 0), 1023)) }
}
