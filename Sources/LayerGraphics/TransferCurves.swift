import Foundation

/// The transfer curves of HDR and SDR video, in nits and normalised code values (0…1). Scalar and exact: the
/// colour converter samples them into tables once, so they are written for clarity, not speed.
public enum TransferCurves {
    // SMPTE ST 2084 constants.
    static let m1 = 2610.0 / 16384, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875

    /// PQ EOTF: a code value (0…1) → nits (0…10 000).
    public static func pqToNits(_ e: Double) -> Double {
        let p = pow(min(max(e, 0), 1), 1 / m2)
        return 10_000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// PQ inverse EOTF: nits → a code value (0…1).
    public static func nitsToPQ(_ nits: Double) -> Double {
        let y = pow(min(max(nits / 10_000, 0), 1), m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    // ARIB STD-B67 constants.
    static let hlgA = 0.17883277, hlgB = 0.28466892, hlgC = 0.55991073

    /// HLG inverse OETF: a code value (0…1) → relative scene light (0…1).
    public static func hlgToScene(_ e: Double) -> Double {
        let e = min(max(e, 0), 1)
        return e <= 0.5 ? e * e / 3 : (exp((e - hlgC) / hlgA) + hlgB) / 12
    }

    /// HLG OETF: relative scene light (0…1) → a code value (0…1).
    public static func sceneToHLG(_ light: Double) -> Double {
        let l = min(max(light, 0), 1)
        return l <= 1.0 / 12 ? (3 * l).squareRoot() : hlgA * log(12 * l - hlgB) + hlgC
    }

    /// The HLG OOTF's system gamma for a display of `peak` nits (BT.2100: 1.2 at 1000 nits).
    public static func hlgSystemGamma(peak: Double) -> Double { 1.2 + 0.42 * log10(peak / 1000) }

    /// The black of the 1000-nit display HLG is rendered for, nits (libplacebo's HDR black; a real display's).
    public static let hlgDisplayBlack = 0.005

    /// BT.2100's HLG black lift β = √(3·(Lb/Lw)^(1/γ)) for a display of `black`…`peak` nits: the EOTF reads
    /// E′ as (1 − β)·E′ + β, so code 0 shows the display's black.
    public static func hlgBlackLift(black: Double, peak: Double) -> Double {
        (3 * pow(black / peak, 1 / hlgSystemGamma(peak: peak))).squareRoot()
    }

    /// The SDR display the compositor's video codes are made for: BT.1886 with reference white at 203 nits
    /// (BT.2408's HDR reference white, where SDR white sits in an HDR picture) and 1000:1 contrast, the display
    /// libplacebo assumes for `bt709` output.
    public static let sdrWhite = 203.0
    /// The SDR display's black, nits (1000:1).
    public static let sdrBlack = 0.203
    static let bt1886Gamma = 2.4
    static var bt1886Parts: (a: Double, b: Double) {
        let w = pow(sdrWhite, 1 / bt1886Gamma), k = pow(sdrBlack, 1 / bt1886Gamma)
        return (pow(w - k, bt1886Gamma), k / (w - k))
    }

    /// BT.1886 EOTF of the SDR display: a code value (0…1) → nits (`sdrBlack`…`sdrWhite`).
    public static func sdrToNits(_ v: Double) -> Double {
        let (a, b) = bt1886Parts
        return a * pow(max(min(v, 1) + b, 0), bt1886Gamma)
    }

    /// Inverse BT.1886: nits → the SDR display's code value (0…1; black and below → 0).
    public static func nitsToSDR(_ nits: Double) -> Double {
        let (a, b) = bt1886Parts
        return min(max(pow(max(nits, 0) / a, 1 / bt1886Gamma) - b, 0), 1)
    }
}

/// The BT.2390 EETF: maps light of a source range onto the SDR display's range in the PQ domain, one intensity at a
/// time (never per channel, so hue stays). Linear below a knee, a Hermite spline from the knee to the source peak,
/// then the black lift. Knee offset 1 (libplacebo's default; BT.2390 itself writes 0.5): KS = 2·maxLum − 1, which
/// keeps mid-tones closer to the source's than BT.2390's narrower roll-off.
public struct ToneCurve: Sendable {
    let sourceBlackPQ: Double, sourceSpanPQ: Double
    let maxLum: Double, minLum: Double, knee: Double

    /// A curve from source light `sourceBlack…sourcePeak` nits to `targetBlack…targetPeak` nits.
    public init(sourceBlack: Double, sourcePeak: Double, targetBlack: Double = TransferCurves.sdrBlack,
                targetPeak: Double = TransferCurves.sdrWhite) {
        let peak = min(max(sourcePeak.isFinite ? sourcePeak : 1000, targetPeak), 10_000)
        let black = min(max(sourceBlack.isFinite ? sourceBlack : 0, 0), peak / 10)
        sourceBlackPQ = TransferCurves.nitsToPQ(black)
        sourceSpanPQ = max(TransferCurves.nitsToPQ(peak) - sourceBlackPQ, 1e-6)
        maxLum = min((TransferCurves.nitsToPQ(targetPeak) - sourceBlackPQ) / sourceSpanPQ, 1)
        minLum = max((TransferCurves.nitsToPQ(targetBlack) - sourceBlackPQ) / sourceSpanPQ, 0)
        knee = 2 * maxLum - 1
    }

    /// The display light, nits, for source light `nits`.
    public func callAsFunction(_ nits: Double) -> Double {
        let e1 = min(max((TransferCurves.nitsToPQ(nits) - sourceBlackPQ) / sourceSpanPQ, 0), 1)
        var e2 = e1
        if e1 > knee && knee < 1 {
            let t = (e1 - knee) / (1 - knee), t2 = t * t, t3 = t2 * t
            e2 = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLum
        }
        let one = 1 - e2
        e2 += minLum * one * one * one * one
        return TransferCurves.pqToNits(e2 * sourceSpanPQ + sourceBlackPQ)
    }
}
