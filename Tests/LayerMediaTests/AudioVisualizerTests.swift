import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
@testable import LayerMedia
import Testing
import TestSupport

/// A sound made of a formula, no decoder: each channel a sine of its own frequency and amplitude (0 Hz: silence).
final class SineSamples: AudioSampleSource, @unchecked Sendable {
    let sampleRate: Int
    let channelCount: Int
    let duration: Double
    let tones: [(frequency: Double, amplitude: Double)]

    init(sampleRate: Int = 16000, duration: Double = 10, tones: [(frequency: Double, amplitude: Double)]) {
        self.sampleRate = sampleRate
        channelCount = tones.count
        self.duration = duration
        self.tones = tones
    }

    func samples(channel: Int, from start: Int, count: Int) -> [Float] {
        let tone = tones[channel]
        return (start..<start + count).map { i in
            i < 0 || Double(i) >= duration * Double(sampleRate) ? 0
                : Float(tone.amplitude * sin(2 * .pi * tone.frequency * Double(i) / Double(sampleRate)))
        }
    }
}

/// `path` made by the ffmpeg CLI from lavfi `source` (a WAV: exact samples, no encoder in between).
func makeSound(_ source: String, in dir: URL, name: String, extra: [String] = []) throws -> String {
    let out = dir.appendingPathComponent(name).path
    let ffmpeg = Process()
    ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    ffmpeg.arguments = ["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source] + extra + [out]
    try ffmpeg.run()
    ffmpeg.waitUntilExit()
    try #require(ffmpeg.terminationStatus == 0, "the ffmpeg CLI (make deps installs it) made no '\(name)'")
    return out
}

/// The audio visualiser's maths: the FFT against the direct sum, a decoded sine's peak, silence's flat line.
@Suite("Audio visualizer")
struct AudioVisualizerTests {
    /// X[k] = Σ x[j]·e^(−2πi·jk/n), term by term.
    func directDFT(_ re: [Double], _ im: [Double]) -> ([Double], [Double]) {
        let n = re.count
        var outRe = [Double](repeating: 0, count: n), outIm = [Double](repeating: 0, count: n)
        for k in 0..<n {
            for j in 0..<n {
                let a = -2 * Double.pi * Double(j * k % n) / Double(n)
                outRe[k] += re[j] * cos(a) - im[j] * sin(a)
                outIm[k] += re[j] * sin(a) + im[j] * cos(a)
            }
        }
        return (outRe, outIm)
    }

    @Test(arguments: [2, 4, 8, 64, 512])
    func theFFTEqualsTheDirectDFT(size: Int) {
        var random = SplitMix(state: UInt64(size))
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) * 2 - 1 }
        let re = (0..<size).map { _ in unit() }, im = (0..<size).map { _ in unit() }
        let (wantRe, wantIm) = directDFT(re, im)
        var gotRe = re, gotIm = im
        FFT(size: size).transform(real: &gotRe, imaginary: &gotIm)
        var worst = 0.0
        for k in 0..<size { worst = max(worst, abs(gotRe[k] - wantRe[k]), abs(gotIm[k] - wantIm[k])) }
        #expect(worst < 1e-9 * Double(size), "size \(size): largest difference \(worst)")
    }

    @Test func anFFTSizeIsAPowerOfTwoWhateverIsAsked() {
        #expect(FFT(size: 1000).size == 1024 && FFT(size: 0).size == 2 && FFT(size: -5).size == 2 && FFT(size: Int.max).size == 65536)
    }

    @Test func aDecodedOneKilohertzSinePeaksAtItsBinWithItsAmplitude() throws {
        try withTemporaryDirectory { dir in
            // 44.1 kHz from the file, 16 kHz in the source: the resampler is on the way.
            let path = try makeSound("sine=frequency=1000:sample_rate=44100:duration=2", in: dir, name: "sine.wav")
            let source = try AudioFileSamples(path: path)
            #expect(source.sampleRate == 16000 && source.channelCount == 1 && abs(source.duration - 2) < 0.01)
            let spectrum = AudioSpectrum(size: 1024)
            let magnitudes = spectrum.magnitudes(of: source.samples(channel: 0, from: 8000, count: 1024))
            let peak = magnitudes.indices.max { magnitudes[$0] < magnitudes[$1] }!
            // 1000 Hz / (16000 / 1024 Hz a bin) = bin 64 exactly.
            #expect(peak == 64, "peak at bin \(peak)")
            // lavfi's sine has amplitude 1/8.
            #expect(abs(magnitudes[64] - 0.125) < 0.01, "peak magnitude \(magnitudes[64])")
            // Far from the tone only the window's leakage: 60 dB down.
            #expect(magnitudes[200] < 0.125e-3, "bin 200: \(magnitudes[200])")
        }
    }

    @Test func aSilentFileDrawsAFlatLineAndNoBars() throws {
        try withTemporaryDirectory { dir in
            let path = try makeSound("anullsrc=r=22050:cl=stereo", in: dir, name: "silence.wav", extra: ["-t", "1"])
            let layer = try AudioVisualizerLayer(path: path)
            #expect(layer.source.channelCount == 2)
            layer.bounds = Rect(x: 0, y: 0, width: 200, height: 100)
            for channel in 0..<2 {
                let payload = layer.trace(channel: channel, at: 0.5, size: Size(width: 200, height: 50))
                let ys = Set(payload.path.elements.compactMap { e -> Double? in
                    switch e { case .move(let p), .line(let p): p.y; default: nil }
                })
                #expect(ys == [25], "channel \(channel): the line lies on the band's middle")
                #expect(payload.path.elements.count >= 400)
            }
            layer.mode = .spectrum
            #expect(layer.trace(channel: 0, at: 0.5, size: Size(width: 200, height: 50)).drawsNothing)
        }
    }

    @Test func blocksReadInAnyOrderGiveTheSameSamples() throws {
        try withTemporaryDirectory { dir in
            let path = try makeSound("sine=frequency=330:beep_factor=4:duration=5", in: dir, name: "beeps.m4a", extra: ["-c:a", "aac"])
            let playing = try AudioFileSamples(path: path, cacheSeconds: 2)
            // In order, as playback reads, across block edges…
            let straight = (0..<8).map { playing.samples(channel: 0, from: $0 * 8000 + 7900, count: 400) }
            // …and after jumping about (each block decoded from its own seek, the old ones evicted).
            let seeking = try AudioFileSamples(path: path, cacheSeconds: 2)
            // The decoder's floating point differs in the last bits from one seek to another: far below a pixel.
            for i in [7, 3, 0, 5, 1, 6, 2, 4] {
                let again = seeking.samples(channel: 0, from: i * 8000 + 7900, count: 400)
                let worst = zip(again, straight[i]).map { abs($0 - $1) }.max() ?? 1
                #expect(worst < 1e-3, "window \(i): samples differ by up to \(worst)")
            }
            #expect(straight[3].contains { abs($0) > 0.05 }, "the tone is there")
            #expect(playing.cachedSeconds == 2 && seeking.cachedSeconds == 2, "memory stays bounded however much is read")
            // Before the start and after the end: silence, the count asked for.
            #expect(playing.samples(channel: 0, from: -500, count: 100) == [Float](repeating: 0, count: 100))
            #expect(playing.samples(channel: 0, from: 16000 * 60, count: 10) == [Float](repeating: 0, count: 10))
            #expect(playing.samples(channel: 3, from: 0, count: 10) == [Float](repeating: 0, count: 10))
        }
    }

    @Test func aFileWithoutAudioIsRefused() {
        #expect(throws: MediaError.self) { try AudioFileSamples(path: sample("sar.mp4")) }
    }

    /// 256×144: a stereo sine (440 Hz left at half scale, 1 kHz right at full) as ffplay shows it.
    func render(_ mode: AudioVisualizerLayer.Mode, at time: Double) -> Surface {
        let root = Layer()
        root.bounds = Rect(x: 0, y: 0, width: 256, height: 144)
        root.position = Point(x: 128, y: 72)
        root.backgroundColor = .black
        let layer = AudioVisualizerLayer(source: SineSamples(tones: [(440, 0.5), (1000, 1)]))
        layer.mode = mode
        layer.frame = root.bounds
        root.addSublayer(layer)
        return Compositor(threads: 1).render(root.snapshot(at: time), width: 256, height: 144)
    }

    @Test func theWaveformAndSpectrumOfASineLookAsFfplays() {
        let tolerance = GoldenTolerance(maxChannelDifference: 8, maxDifferingPixels: 40)
        for mode in AudioVisualizerLayer.Mode.allCases {
            if let message = GoldenImage.compare(render(mode, at: 1), area: "audio", name: mode.rawValue, tolerance: tolerance) {
                Issue.record(Comment(rawValue: message))
            }
        }
    }

    @Test func thePictureIsAFunctionOfTimeAndMode() {
        let a = render(.waveform, at: 1), b = render(.waveform, at: 1.013)
        #expect(!identical(a, b), "13 ms later a 440 Hz sine has moved by 0.7 of a cycle")
        #expect(identical(a, render(.waveform, at: 1)), "the same time draws the same")
        #expect(!identical(a, render(.spectrum, at: 1)))
        let layer = AudioVisualizerLayer(source: SineSamples(tones: [(440, 1)]))
        layer.cycleMode()
        #expect(layer.mode == .spectrum)
        layer.cycleMode()
        #expect(layer.mode == .waveform)
        layer.range = PlaybackRange(start: 0, end: 2, loops: true)
        #expect(layer.mediaTime(2.5) == 0.5 && layer.mediaTime(.nan) == 0 && layer.mediaTime(1e300) == 0.0)
    }

    @Test func anExportOfAnAudioOnlyFileShowsTheSoundChanging() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("tone.mp4").path
            let root = Layer()
            root.bounds = Rect(x: 0, y: 0, width: 128, height: 72)
            root.position = Point(x: 64, y: 36)
            root.backgroundColor = .black
            let layer = try AudioVisualizerLayer(path: sample("tone.m4a"))
            layer.frame = root.bounds
            root.addSublayer(layer)
            let stats = try Exporter(root: root, width: 128, height: 72, settings: EncoderSettings(crf: 18, frameRate: (10, 1)),
                                     start: 0, frameCount: 10, audioSource: sample("tone.m4a")).export(to: out)
            #expect(stats.frames == 10)
            let asset = try MediaAsset(path: out)
            #expect(asset.video != nil && asset.audio != nil)
            let decoded = try VideoFrameSource(path: out)
            let frames = try (2..<6).map { picture(try #require(try decoded.frame(at: Double($0) / 10 + 0.001)).pixelBuffer) }
            for i in 1..<frames.count { #expect(!identical(frames[i - 1], frames[i]), "frames \(i + 1) and \(i + 2)") }
            // Something is drawn: the line is bright somewhere on a black canvas.
            #expect((0..<72).contains { y in (0..<128).contains { x in frames[0].pixel(x: x, y: y).g > 128 } })
        }
    }
}
