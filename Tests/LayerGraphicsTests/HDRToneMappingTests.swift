import Foundation
@testable import LayerGraphics
import Testing

// The formulas held to the standards' code values (BT.2100 narrow range, 10 bits: E′ = (D − 64)/876), and the
// converter's promises: one intensity tone-mapped (hue kept), monotone and continuous, in-gamut colours unchanged.

private func narrow(_ code: Double) -> Double { (code - 64) / 876 }

private func maxDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    let d = a - b
    return max(abs(d.x), abs(d.y), abs(d.z))
}

@Suite("HDR → SDR formulas")
struct TransferFormulaTests {
    @Test func pqCode509IsAHundredNits() {
        #expect(abs(TransferCurves.pqToNits(narrow(509)) - 100) < 1.5)
    }

    @Test func pqReferenceWhiteLiesBetweenCodes572And573() {
        #expect(TransferCurves.pqToNits(narrow(572)) <= 203)
        #expect(TransferCurves.pqToNits(narrow(573)) >= 203)
    }

    @Test(arguments: [(64.0, 0.0), (195, 1), (327, 10), (636, 400), (723, 1000), (940, 10_000)])
    func pqCodesMatchTheTable(_ code: Double, _ nits: Double) {
        #expect(abs(TransferCurves.pqToNits(narrow(code)) - nits) <= max(0.03 * nits, 0.02))
    }

    @Test func pqInverseUndoesTheEOTF() {
        for nits in [0.01, 1, 100, 203, 1000, 4000] {
            #expect(abs(TransferCurves.pqToNits(TransferCurves.nitsToPQ(nits)) / nits - 1) < 1e-9)
        }
    }

    @Test func hlgSeventyFivePercentIsReferenceWhiteOnAThousandNitDisplay() {
        let gamma = TransferCurves.hlgSystemGamma(peak: 1000)
        #expect(gamma == 1.2)
        let display = 1000 * pow(TransferCurves.hlgToScene(0.75), gamma)
        #expect(abs(display - 203) < 1.5)
        #expect(abs(1000 * pow(TransferCurves.hlgToScene(1), gamma) - 1000) < 1e-3)
    }

    @Test func hlgOETFInvertsItsInverse() {
        for e in stride(from: 0.0, through: 1, by: 0.05) {
            // The published constants have 8 digits: the two halves meet to about 1e-8.
            #expect(abs(TransferCurves.sceneToHLG(TransferCurves.hlgToScene(e)) - e) < 1e-7)
        }
    }

    @Test func sdrDisplayMapsItsCodeRangeToBlackAndWhite() {
        #expect(abs(TransferCurves.sdrToNits(0) - TransferCurves.sdrBlack) < 1e-9)
        #expect(abs(TransferCurves.sdrToNits(1) - TransferCurves.sdrWhite) < 1e-9)
        #expect(abs(TransferCurves.nitsToSDR(TransferCurves.sdrToNits(0.5)) - 0.5) < 1e-9)
    }

    @Test func bt2020ToBT709MatchesThePublishedMatrix() {
        let published: [SIMD3<Double>] = [SIMD3(1.660491, -0.587641, -0.072850), SIMD3(-0.124550, 1.132900, -0.008349),
                                          SIMD3(-0.018151, -0.100579, 1.118730)]
        let m = ColorPrimaries.bt2020.toBT709
        for (row, expected) in zip(m.rows, published) { #expect(maxDifference(row, expected) < 2e-4) }
        let w = ColorPrimaries.bt2020.luminanceWeights
        #expect(maxDifference(w, SIMD3(0.2627, 0.6780, 0.0593)) < 2e-4)
    }
}

@Suite("BT.2390 EETF")
struct ToneCurveTests {
    @Test(arguments: [203.0, 400, 1000, 4000, 10_000])
    func curveIsContinuousAndMonotone(_ peak: Double) {
        let curve = ToneCurve(sourceBlack: 0.005, sourcePeak: peak)
        var previous = curve(0)
        var nits = 0.001
        while nits <= peak {
            let value = curve(nits)
            #expect(value >= previous - 1e-9, "falls at \(nits) nits")
            // Continuity: a 1 % step in light never moves the output more than 1 %.
            #expect(value - previous <= 0.01 * value + 1e-6, "jumps at \(nits) nits")
            previous = value
            nits *= 1.01
        }
        // The peak lands on white, give or take BT.2390's black lift (a few nits for a 10 000-nit source).
        #expect(abs(curve(peak) / TransferCurves.sdrWhite - 1) < 0.025)
    }

    @Test func lightBelowTheKneePassesAlmostUnchanged() {
        // Below the knee (about 33 nits for a 1000-nit source) only the black lift adds: +6 % at 26 nits.
        let curve = ToneCurve(sourceBlack: 0, sourcePeak: 1000)
        for nits in [15.0, 20, 26] { #expect(abs(curve(nits) / nits - 1) < 0.12, "\(nits) → \(curve(nits))") }
        #expect(curve(100) < 95 && curve(400) < 200)
    }

    @Test func absurdRangesNeitherTrapNorMisbehave() {
        for (black, peak) in [(0.0, 0.0), (5000, 100), (-1, .infinity), (.nan, .nan), (0, 1e9)] {
            let curve = ToneCurve(sourceBlack: black, sourcePeak: peak)
            let a = curve(1), b = curve(100), c = curve(10_000)
            #expect(a.isFinite && b.isFinite && c.isFinite)
            #expect(a <= b && b <= c)
        }
    }

    @Test func masteringValuesAreClamped() {
        #expect(MasteringDisplay(minLuminance: 0, maxLuminance: 0).sanitized == nil)
        #expect(MasteringDisplay(minLuminance: 0.01, maxLuminance: .nan).sanitized == nil)
        #expect(MasteringDisplay(minLuminance: 0.01, maxLuminance: 1e9).sanitized?.maxLuminance == 10_000)
        let swapped = MasteringDisplay(minLuminance: 5000, maxLuminance: 1000).sanitized
        #expect(swapped?.maxLuminance == 1000 && swapped?.minLuminance == 100)
    }

    @Test func sourcePeakComesFromMasteringThenMaxCLLThenAThousandNits() {
        var d = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq)
        #expect(d.sourcePeak == 1000)
        d.contentLightLevel = ContentLightLevel(maxContentLightLevel: 600, maxFrameAverageLightLevel: 200)
        #expect(d.sourcePeak == 600)
        d.masteringDisplay = MasteringDisplay(minLuminance: 0.005, maxLuminance: 4000)
        #expect(d.sourcePeak == 4000)
        d.masteringDisplay = MasteringDisplay(minLuminance: 0, maxLuminance: 0)  // "unknown": MaxCLL decides
        #expect(d.sourcePeak == 600)
        d.transfer = .hlg
        #expect(d.sourcePeak == 1000)
    }
}

// MARK: - The converter

/// A 4:4:4 10-bit picture of one BT.2020 narrow-range colour given as R′G′B′ (0…1).
private func picture(_ rgb: SIMD3<Double>, matrix: ColorMatrix = .bt2020, size: Int = 4) -> PixelBuffer {
    let kr = matrix.kr, kb = matrix.kb
    let y = kr * rgb.x + (1 - kr - kb) * rgb.y + kb * rgb.z
    let codes = [64 + 876 * y, 512 + 896 * (rgb.z - y) / (2 * (1 - kb)), 512 + 896 * (rgb.x - y) / (2 * (1 - kr))]
    return PixelBuffer(format: .yuv444p10, width: size, height: size, matrix: matrix, range: .limited) { plane, base, bpr in
        for row in 0..<size {
            for x in 0..<size { base.storeBytes(of: UInt16(codes[plane].rounded()), toByteOffset: row * bpr + 2 * x, as: UInt16.self) }
        }
    }
}

/// The BT.709 R′G′B′ (0…1) of the converter's 8-bit output at (x, y), or, with `x` nil, the mean of a flat
/// picture's codes over its first 4×4 pixels (a whole period of the dither, which then adds nothing).
private func outputRGB(_ b: PixelBuffer, x: Int? = nil, y: Int = 0) -> SIMD3<Double> {
    #expect(b.format.bitDepth == 8 && b.matrix == .bt709 && b.range == .limited)
    func code(_ p: Int) -> Double {
        let plane = b.planes[p], s = p == 0 ? (x: 0, y: 0) : b.format.chromaShift
        func at(_ x: Int, _ y: Int) -> Double {
            Double(plane.base.load(fromByteOffset: (y >> s.y) * plane.bytesPerRow + (x >> s.x), as: UInt8.self))
        }
        guard x == nil else { return at(x!, y) }
        let tile = (0..<4).flatMap { y in (0..<4).map { x in at(x << s.x, y << s.y) } }
        return tile.reduce(0, +) / 16
    }
    let yy = (code(0) - 16) / 219, cb = (code(1) - 128) / 224, cr = (code(2) - 128) / 224
    return SIMD3(yy + 1.5748 * cr, yy - 0.1873 * cb - 0.4681 * cr, yy + 1.8556 * cb)
}

private func linear709(_ rgbPrime: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(TransferCurves.sdrToNits(rgbPrime.x), TransferCurves.sdrToNits(rgbPrime.y), TransferCurves.sdrToNits(rgbPrime.z))
        - SIMD3(repeating: TransferCurves.sdrBlack)
}

private func pq(_ nits: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(TransferCurves.nitsToPQ(nits.x), TransferCurves.nitsToPQ(nits.y), TransferCurves.nitsToPQ(nits.z))
}

@Suite("Video colour converter")
struct VideoColorConverterTests {
    let pqDescription = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq,
                                         masteringDisplay: MasteringDisplay(minLuminance: 0.0001, maxLuminance: 1000))

    @Test func pqGreysLandWhereLibplaceboPutsThem() {
        // libplacebo (bt.2390, no peak detection, 1000-nit mastering): 26/100/203/400/1000 nits → sRGB 103/176/214/241/255.
        let converter = VideoColorConverter(source: pqDescription)
        for (nits, expected) in [(26.0, 103.0), (100, 176), (203, 214), (400, 241), (1000, 255)] {
            let e = TransferCurves.nitsToPQ(nits)
            let out = outputRGB(converter.convert(picture(SIMD3(repeating: e))))
            #expect(abs(out.x * 255 - expected) <= 2, "\(nits) nits → \(out.x * 255)")
            #expect(abs(out.x - out.y) < 0.003 && abs(out.y - out.z) < 0.003, "a grey stays grey")
        }
    }

    @Test func toneMappingKeepsHue() {
        // A bright BT.709 colour carried in BT.2020 PQ: heavily compressed, but R:G:B keep their ratios.
        let source709 = SIMD3(0.8, 0.6, 0.4) * 500
        let source2020 = ColorPrimaries.bt2020.toBT709.inverse.apply(source709)
        let out = linear709(outputRGB(VideoColorConverter(source: pqDescription).convert(picture(pq(source2020)))))
        #expect(out.x < 0.6 * source709.x, "the colour was tone-mapped: \(out)")
        #expect(abs(out.y / out.x - 0.75) < 0.01)
        #expect(abs(out.z / out.x - 0.5) < 0.01)
    }

    /// The converter's gamut move on one colour.
    private func intoGamut(_ c: SIMD3<Float>) -> SIMD3<Float> {
        var (r, g, b) = (c.x, c.y, c.z)
        VideoColorConverter.intoGamut(&r, &g, &b)
        return SIMD3(r, g, b)
    }

    @Test func gamutMappingLeavesColoursInsideAlone() {
        for c in [SIMD3<Float>(1, 0, 0), SIMD3(0, 0, 0), SIMD3(1, 1, 1), SIMD3(0.3, 0.7, 0.01), SIMD3(0, 0.5, 1)] {
            #expect(intoGamut(c) == c)
        }
    }

    @Test func gamutMappingKeepsHueOutside() {
        // Below 0: toward luminance, luminance kept. Above 1: scaled, ratios kept.
        let under = SIMD3<Float>(-0.2, 0.9, 0.1), y = (under * SIMD3(0.2126, 0.7152, 0.0722)).sum()
        let fixed = intoGamut(under)
        #expect(fixed.min() >= 0 && abs((fixed * SIMD3(0.2126, 0.7152, 0.0722)).sum() - y) < 1e-5)
        let over = SIMD3<Float>(1.5, 0.75, 0.3)
        let scaled = intoGamut(over)
        #expect(scaled.x == 1 && abs(scaled.y - 0.5) < 1e-6 && abs(scaled.z - 0.2) < 1e-6)
    }

    @Test func sdrBT2020CarryingBT709ColoursGivesThemBack() {
        // SDR BT.2020 carrying BT.709 colours: the change of primaries gives back the BT.709 codes.
        let sdr2020 = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .sdr)
        let converter = VideoColorConverter(source: sdr2020)
        // (Colours away from black: a 10-bit source's rounding of a near-zero channel, through the change of
        // primaries and BT.1886's steep foot, moves it by several 8-bit codes whatever the converter does.)
        for colour in [SIMD3(0.9, 0.5, 0.4), SIMD3(0.4, 0.8, 0.5), SIMD3(0.5, 0.5, 0.9), SIMD3(0.6, 0.4, 0.3), SIMD3(1, 1, 1)] {
            let light = colour * colour * 203  // any in-gamut linear light
            let in2020 = ColorPrimaries.bt2020.toBT709.inverse.apply(light)
            let codes2020 = SIMD3(TransferCurves.nitsToSDR(in2020.x + 0.203), TransferCurves.nitsToSDR(in2020.y + 0.203),
                                  TransferCurves.nitsToSDR(in2020.z + 0.203))
            let out = outputRGB(converter.convert(picture(codes2020)))
            let expected = SIMD3(TransferCurves.nitsToSDR(light.x + 0.203), TransferCurves.nitsToSDR(light.y + 0.203),
                                 TransferCurves.nitsToSDR(light.z + 0.203))
            #expect(maxDifference(out, expected) * 255 < 1.5, "\(colour): \(out * 255) vs \(expected * 255)")
        }
    }

    @Test func outOfGamutColoursMoveTowardTheirLuminance() {
        // BT.2020's pure green lies far outside BT.709: it comes out green, inside 0…1, with its luminance kept.
        let sdr2020 = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .sdr)
        let out = outputRGB(VideoColorConverter(source: sdr2020).convert(picture(SIMD3(0.2, 0.8, 0.2))))
        #expect(out.y > out.x + 0.2 && out.y > out.z + 0.2)
        #expect(out.min() >= -0.01 && out.max() <= 1.01)
        let inLight = ColorPrimaries.bt2020.luminanceWeights * SIMD3(TransferCurves.sdrToNits(0.2), TransferCurves.sdrToNits(0.8), TransferCurves.sdrToNits(0.2))
        let outLight = SIMD3(0.2126, 0.7152, 0.0722) * linear709(out)
        #expect(abs(outLight.sum() + 0.203 - inLight.sum()) / inLight.sum() < 0.02)
    }

    @Test func hlgReferenceWhiteIsTheSameGreyAsPQReferenceWhite() {
        let hlg = VideoColorConverter(source: ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .hlg))
        let pqOut = outputRGB(VideoColorConverter(source: pqDescription).convert(picture(SIMD3(repeating: TransferCurves.nitsToPQ(203)))))
        let hlgOut = outputRGB(hlg.convert(picture(SIMD3(repeating: 0.75))))
        #expect(abs(pqOut.x - hlgOut.x) * 255 < 1.5)
    }

    @Test func subsampledPicturesKeepTheirLayout() {
        let converter = VideoColorConverter(source: pqDescription)
        for format in [PixelFormat.yuv420p10, .yuv422p10, .yuv420p] {
            let source = PixelBuffer(format: format, width: 7, height: 5, matrix: .bt2020, range: .limited) { plane, base, bpr in
                let value = plane == 0 ? 509 : 512, shift = plane == 0 ? (x: 0, y: 0) : format.chromaShift
                for row in 0..<((5 + (1 << shift.y) - 1) >> shift.y) {
                    for x in 0..<((7 + (1 << shift.x) - 1) >> shift.x) {
                        if format.bitDepth > 8 {
                            base.storeBytes(of: UInt16(value), toByteOffset: row * bpr + 2 * x, as: UInt16.self)
                        } else {
                            base.storeBytes(of: UInt8(value >> 2), toByteOffset: row * bpr + x, as: UInt8.self)
                        }
                    }
                }
            }
            let out = converter.convert(source)
            #expect(out.width == 7 && out.height == 5 && out.format.chromaShift == format.chromaShift && out.format.bitDepth == 8)
            #expect(abs(outputRGB(out, x: 6, y: 4).x * 255 - 176) <= 2, "\(format)")
        }
    }

    @Test func formatsItCannotConvertPassThrough() {
        let rgba = PixelBuffer(format: .bgra, width: 2, height: 2) { _, _, _ in }
        #expect(VideoColorConverter(source: pqDescription).convert(rgba) === rgba)
        #expect(!VideoColorConverter.canConvert(.nv12))
    }

    @Test func onlyHDRAndWideGamutNeedConversion() {
        #expect(!ColorDescription().needsConversion)
        #expect(!ColorDescription(primaries: .bt709, transfer: .sdr).needsConversion)
        #expect(!ColorDescription(primaries: .bt601PAL, transfer: .sdr).needsConversion)
        #expect(ColorDescription(primaries: .bt709, transfer: .hlg).needsConversion)
        #expect(ColorDescription(primaries: .displayP3, transfer: .sdr).needsConversion)
    }
}
