import Foundation
import LayerGraphics
import LayerKit

/// A layer that shows sound, as ffplay shows an audio-only input: one band per channel, drawn by shape layers at
/// the layer's time, either the waveform of a short window of samples around it (a line through the samples) or
/// its spectrum as bars (linear in frequency, 0 Hz to half the source's rate, decibels upwards).
///
/// ffplay's second picture is a spectrogram scrolling with playback: a history of columns, which is not a
/// function of the present time and would need a shape per column; bars show the same spectrum at one instant and
/// are a handful of rectangles, so an export seeking to t draws what playing draws at t.
///
/// The shapes are the layer's own parts (as a `PlayerLayer`'s picture): `sublayers` stays free for the app's own.
open class AudioVisualizerLayer: Layer {
    /// What the bands show.
    public enum Mode: String, Sendable, CaseIterable {
        /// ffplay's waveform: the samples of `waveformDuration` seconds centred on the layer's time.
        case waveform
        /// The spectrum of about 64 ms around the layer's time, as `spectrumBars` bars.
        case spectrum
    }

    /// Where the samples come from.
    public let source: any AudioSampleSource

    /// The sound at the layer's time is drawn: the picture changes as time passes.
    open override var drawsDifferentlyOverTime: Bool { true }
    /// The waveform (the default) or the spectrum.
    public var mode: Mode = .waveform
    /// How the layer's times map to media times (a looping playback wraps); nil: they are media times.
    public var range: PlaybackRange?
    /// Seconds added to the layer's time before `range` maps it: the media time shown at time 0 (a scene input's
    /// `start`), as `Player.timeOffset`.
    public var mediaStart = 0.0
    /// Seconds of sound across the width in `.waveform` mode (clamped to 1 ms…1 s); ffplay shows one sample per
    /// pixel, about 15 ms in a 640-pixel window at 44.1 kHz.
    public var waveformDuration = 0.025
    /// Bars across the width in `.spectrum` mode (clamped to 1…512).
    public var spectrumBars = 64
    /// The waveform's line and the bars' fill (white, as ffplay's).
    public var color: Color = .white
    /// The lines between the channels' bands (blue, as ffplay's); nil draws none.
    public var separatorColor: Color? = .blue {
        didSet { layoutBands() }
    }
    open override var bounds: Rect {
        didSet { layoutBands() }
    }

    private var traces: [AudioTraceLayer] = []
    private let separators = ShapeLayer()
    /// About 64 ms at the source's rate (a power of two): 15.6 Hz a bin at 16 kHz.
    let spectrum: AudioSpectrum

    /// A layer showing `source`'s sound.
    public init(source: any AudioSampleSource) {
        self.source = source
        var size = 2
        while Double(size) < 0.064 * Double(source.sampleRate) { size <<= 1 }
        spectrum = AudioSpectrum(size: size)
        super.init()
        separators.name = "separators"
        separators.fillColor = nil
        separators.lineWidth = 1
        for channel in 0..<max(1, min(source.channelCount, 2)) {
            let trace = AudioTraceLayer(channel: channel)
            trace.name = "channel \(channel)"
            trace.owner = self
            traces.append(trace)
            addPartSublayer(trace)
        }
        addPartSublayer(separators)
        layoutBands()
    }

    /// A layer showing the sound of `path`'s first audio stream (`AudioFileSamples` at 16 kHz).
    /// - Throws: `MediaError` when the file cannot be opened or has no audio.
    public convenience init(path: String) throws {
        self.init(source: try AudioFileSamples(path: path))
    }

    /// The next mode after the current one, then the first again (the `w` key of a window).
    public func cycleMode() {
        let all = Mode.allCases
        mode = all[(all.firstIndex(of: mode)! + 1) % all.count]
    }

    /// The media time shown at the layer's time `t` (shifted by `mediaStart`, then through `range`), kept within ±10⁹ s.
    public func mediaTime(_ t: Double) -> Double {
        let shifted = t + (mediaStart.isFinite ? mediaStart : 0)
        let m = range?.mediaTime(shifted) ?? shifted
        return m.isFinite ? min(max(m, -1e9), 1e9) : 0
    }

    /// One band per channel, top to bottom, and a line between neighbours. The parts never animate.
    private func layoutBands() {
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        let b = bounds.standardized
        let band = b.height / Double(max(traces.count, 1))
        var lines = Path()
        for (i, trace) in traces.enumerated() {
            trace.frame = Rect(x: b.minX, y: b.minY + Double(i) * band, width: b.width, height: band)
            if i > 0 {
                // On a pixel row's centre, so that the 1-point line is one crisp row as ffplay's (not two half-lit ones).
                let y = (b.minY + Double(i) * band).rounded(.down) + 0.5
                lines.move(to: Point(x: b.minX, y: y))
                lines.addLine(to: Point(x: b.maxX, y: y))
            }
        }
        separators.bounds = b  // the lines are in this layer's coordinates
        separators.position = Point(x: b.midX, y: b.midY)
        separators.path = lines
        separators.strokeColor = separatorColor
    }

    /// What channel `channel`'s band draws at the layer's time `time`, in a band of `size`.
    func trace(channel: Int, at time: Double, size: Size) -> ShapePayload {
        let rate = Double(source.sampleRate)
        let centre = Int((mediaTime(time) * rate).rounded(.down))
        var style = ShapeStyle()
        let rect = Rect(x: 0, y: 0, width: size.width, height: size.height)
        switch mode {
        case .waveform:
            let duration = waveformDuration.isFinite ? min(max(waveformDuration, 0.001), 1) : 0.025
            let n = max(2, Int(duration * rate))
            let samples = source.samples(channel: channel, from: centre - n / 2, count: n)
            style.fillColor = nil
            style.strokeColor = color
            style.lineWidth = 1
            style.lineJoin = .round
            return ShapePayload(path: AudioVisualization.waveform(samples, in: rect), style: style)
        case .spectrum:
            let n = spectrum.fft.size
            let magnitudes = spectrum.magnitudes(of: source.samples(channel: channel, from: centre - n / 2, count: n))
            style.fillColor = color
            return ShapePayload(path: AudioVisualization.spectrumBars(magnitudes, bars: min(max(spectrumBars, 1), 512), in: rect), style: style)
        }
    }
}

/// One channel's band: a shape layer whose path is made from the sound at the snapshot's time.
final class AudioTraceLayer: ShapeLayer {
    let channel: Int
    weak var owner: AudioVisualizerLayer?

    init(channel: Int) {
        self.channel = channel
        super.init()
    }

    override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        owner?.trace(channel: channel, at: time, size: presentation.bounds.standardized.size)
    }
}
