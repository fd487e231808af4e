import Foundation
import LayerGraphics

/// The pictures of the sound as paths, pure functions of samples and a rectangle: what an
/// `AudioVisualizerLayer`'s shape layers draw for one channel.
enum AudioVisualization {
    /// ffplay's waveform: a line through `samples` across `rect`, full scale reaching 9/20 of the height either
    /// side of the middle (ffplay's `h2 = h * 9 / 20`). Samples beyond ±1 are clipped, NaN reads as 0.
    static func waveform(_ samples: [Float], in rect: Rect) -> Path {
        var path = Path()
        guard samples.count >= 2, rect.width > 0, rect.height > 0 else { return path }
        let half = rect.height * 9 / 20, dx = rect.width / Double(samples.count - 1)
        for (i, s) in samples.enumerated() {
            let v = s.isNaN ? 0 : min(max(Double(s), -1), 1)
            let p = Point(x: rect.minX + Double(i) * dx, y: rect.midY - v * half)
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        return path
    }

    /// Spectrum bars: bins 1…n/2 of `magnitudes` (DC left out) shared among `bars` equal bars across `rect`, each
    /// as tall as the loudest of its bins on a decibel scale from `floorDecibels` (nothing) to 0 dBFS (the whole
    /// height), standing on the bottom edge. Bars under a tenth of a point are left out (silence draws nothing).
    static func spectrumBars(_ magnitudes: [Double], bars requested: Int, in rect: Rect, floorDecibels: Double = -80) -> Path {
        var path = Path()
        let bins = magnitudes.count - 1
        guard bins >= 1, rect.width > 0, rect.height > 0 else { return path }
        let bars = min(max(requested, 1), bins)
        let width = rect.width / Double(bars), gap = width >= 3 ? 1.0 : 0
        let floor = floorDecibels.isFinite && floorDecibels < 0 ? floorDecibels : -80
        for b in 0..<bars {
            let from = 1 + b * bins / bars, to = max(from + 1, 1 + (b + 1) * bins / bars)
            var loudest = 0.0
            for k in from..<min(to, magnitudes.count) where magnitudes[k].isFinite { loudest = max(loudest, magnitudes[k]) }
            let decibels = loudest > 0 ? 20 * log10(loudest) : floor
            let height = min(max((decibels - floor) / -floor, 0), 1) * rect.height
            guard height >= 0.1 else { continue }
            path.addRect(Rect(x: rect.minX + Double(b) * width, y: rect.maxY - height, width: width - gap, height: height))
        }
        return path
    }
}
