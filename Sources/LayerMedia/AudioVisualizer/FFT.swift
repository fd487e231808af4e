import Foundation

/// A radix-2 fast Fourier transform of one power-of-two size, its twiddle factors and bit-reversal table computed
/// once: the audio visualiser's spectrum (ffplay uses an RDFT for the same picture). Plain loops over arrays, no
/// allocation per transform beyond the caller's buffers. `Tests/LayerMediaTests/AudioVisualizerTests` checks it
/// against a direct DFT.
struct FFT: Sendable {
    /// Points of the transform, a power of two ≥ 2.
    let size: Int
    private let cosines: [Double], sines: [Double]
    private let reversed: [Int]

    /// - Parameter size: rounded up to a power of two in 2…65536 (a bad size is clamped, never a crash).
    init(size requested: Int) {
        var n = 2
        while n < min(max(requested, 2), 65536) { n <<= 1 }
        size = n
        cosines = (0..<n / 2).map { cos(-2 * Double.pi * Double($0) / Double(n)) }
        sines = (0..<n / 2).map { sin(-2 * Double.pi * Double($0) / Double(n)) }
        var bits = 0
        while 1 << bits < n { bits += 1 }
        reversed = (0..<n).map { i in
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            return r
        }
    }

    /// Transforms `real` + i·`imaginary` in place: X[k] = Σ x[j]·e^(−2πi·jk/n). Both must hold `size` values.
    func transform(real: inout [Double], imaginary: inout [Double]) {
        precondition(real.count == size && imaginary.count == size, "FFT of \(size) points given \(real.count)")
        for i in 0..<size where i < reversed[i] {
            real.swapAt(i, reversed[i])
            imaginary.swapAt(i, reversed[i])
        }
        var half = 1
        while half < size {
            let step = size / (half * 2)
            var start = 0
            while start < size {
                for k in 0..<half {
                    let wr = cosines[k * step], wi = sines[k * step]
                    let a = start + k, b = a + half
                    let tr = real[b] * wr - imaginary[b] * wi
                    let ti = real[b] * wi + imaginary[b] * wr
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
                start += half * 2
            }
            half *= 2
        }
    }
}

/// The magnitude spectrum of a window of samples: Hann-windowed, scaled so that a sine of amplitude A shows A at
/// its bin (the window's coherent gain divided out), bins 0…n/2 (DC to the Nyquist frequency).
struct AudioSpectrum: Sendable {
    let fft: FFT
    private let window: [Double]

    init(size: Int) {
        fft = FFT(size: size)
        let n = fft.size
        window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
    }

    /// `size / 2 + 1` magnitudes of `samples` (shorter input is padded with silence, longer cut; NaN and
    /// infinities count as silence).
    func magnitudes(of samples: [Float]) -> [Double] {
        let n = fft.size
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        for i in 0..<min(n, samples.count) {
            let s = Double(samples[i])
            re[i] = s.isFinite ? s * window[i] : 0
        }
        fft.transform(real: &re, imaginary: &im)
        // Hann's coherent gain is 1/2 and a real sine splits its energy between ±f: 4/n brings the peak to A.
        let scale = 4 / Double(n)
        return (0...n / 2).map { k in (re[k] * re[k] + im[k] * im[k]).squareRoot() * scale }
    }
}
