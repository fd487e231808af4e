@testable import LayerGraphics
import Foundation
import TestSupport
import Testing

// The colour converter's curves as 32 cubic pieces (the AVX-512 kernel's) against the functions they were fitted
// to, and the whole chain with them against the chain with the tables (the AVX2 kernel's).

@Suite("Polynomial curves")
struct PolynomialCurveTests {
    /// The largest error of `curve` against `f` over `xs`, relative to max(|f|, `floor`).
    private func worstError(_ curve: PolynomialCurve, _ f: (Double) -> Double, over xs: [Double], floor: Double) -> Double {
        xs.map { x in abs(Double(curve(Float(x))) - f(Double(Float(x)))) / max(abs(f(Double(Float(x)))), floor) }.max()!
    }

    /// Measured: PQ 1.8·10⁻⁴ (its steep top piece), HLG 4·10⁻⁷, BT.1886 1.5·10⁻⁵; after the encode, under 0.03 of a code.
    @Test func transferFunctionsOfACodeValueFitWithinAFewTenThousandths() {
        let white = TransferCurves.sdrWhite
        let xs = (0...20_000).map { Double($0) / 20_000 }
        let curves: [(String, (Double) -> Double, Double)] = [
            ("PQ", { TransferCurves.pqToNits($0) / white }, 3e-4),
            ("HLG", { TransferCurves.hlgToScene($0) }, 1e-6),
            ("BT.1886", { TransferCurves.sdrToNits($0) / white }, 3e-5),
        ]
        for (name, f, bound) in curves {
            let curve = PolynomialCurve(.unit, f)
            defer { curve.deallocate() }
            // Relative above 1/1000 of SDR white (the display's black), absolute below.
            let error = worstError(curve, f, over: xs, floor: 1e-3)
            #expect(error < bound, "\(name): \(error)")
        }
    }

    /// Measured: 8.6·10⁻⁶ of the code range, 0.002 of an 8-bit code.
    @Test func theEncodeFitsWithinAHundredthOfACode() {
        let white = TransferCurves.sdrWhite, (a, b) = TransferCurves.bt1886Parts
        let f = { (x: Double) in pow(max(x * white, 0) / a, 1 / TransferCurves.bt1886Gamma) - b }
        let curve = PolynomialCurve(VideoColorConverter.encodeDomain, f)
        defer { curve.deallocate() }
        let xs = (0...20_000).map { pow(2, -16 + 16 * Double($0) / 20_000) }
        // In code values (0…1): absolute.
        let error = xs.map { abs(Double(curve(Float($0))) - f(Double(Float($0)))) }.max()!
        #expect(error < 4e-5, "\(error)")
    }

    /// Measured: 0.17 % (one piece an octave across the knee); after the encode, under 0.2 of a code (the tables',
    /// read at the nearest of 256 samples an octave, are off by as much).
    @Test func theToneCurvesGainFitsWithinAFewTenthsOfAPercent() {
        let white = TransferCurves.sdrWhite
        for peak in [1000.0, 4000, 10_000] {
            let tone = ToneCurve(sourceBlack: 0.005, sourcePeak: peak)
            let f = { (i: Double) in min(tone(i * white) / white / i, VideoColorConverter.maxBlackLift) }
            let curve = PolynomialCurve(VideoColorConverter.gainDomain, f)
            defer { curve.deallocate() }
            // From the display's black to 10,000 nits.
            let xs = (0...20_000).map { pow(2, -10 + 15.7 * Double($0) / 20_000) }
            let error = worstError(curve, f, over: xs, floor: 0)
            #expect(error < 3e-3, "peak \(peak): \(error)")
        }
    }

    @Test(arguments: [TransferFunction.pq, .hlg, .sdr])
    func theChainWithPolynomialsStaysWithinACodeOfTheTables(_ transfer: TransferFunction) {
        let description = ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: transfer,
                                           masteringDisplay: MasteringDisplay(minLuminance: 0.005, maxLuminance: 1000))
        let tables = VideoColorConverter(source: description, interpolatesBlocks: false, polynomials: false)
        let polynomials = VideoColorConverter(source: description, interpolatesBlocks: false, polynomials: true)
        var rng = SplitMix(state: 41)
        let picture = PixelBuffer(format: .yuv444p10, width: 256, height: 256, matrix: .bt2020, range: .limited) { _, base, bpr in
            for y in 0..<256 { for x in 0..<256 { base.storeBytes(of: UInt16.random(in: 0...1023, using: &rng), toByteOffset: y * bpr + 2 * x, as: UInt16.self) } }
        }
        let a = tables.convert(picture, avx2: false), b = polynomials.convert(picture, avx2: false)
        var worst = 0
        for p in 0..<3 {
            for y in 0..<256 {
                for x in 0..<256 {
                    let u = a.planes[p].base.load(fromByteOffset: y * a.planes[p].bytesPerRow + x, as: UInt8.self)
                    let v = b.planes[p].base.load(fromByteOffset: y * b.planes[p].bytesPerRow + x, as: UInt8.self)
                    worst = max(worst, abs(Int(u) - Int(v)))
                }
            }
        }
        #expect(worst <= 1, "\(transfer): \(worst) codes apart")
    }
}
