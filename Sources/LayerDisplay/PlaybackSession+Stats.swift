import Foundation
import LayerKit

/// `i`: the playback's numbers over the picture, drawn with our own text layers (an `OnScreenDisplay` at the top
/// right), as mpv's stats page: frames per second shown, frames dropped, compositing times, A-V, speed.
extension PlaybackSession {
    /// Wall seconds between two updates of the overlay.
    static let statsInterval = 0.5

    /// Shows or hides the overlay.
    func toggleStatsOverlay() {
        if let overlay = statsOverlay {
            Transaction.withoutActions { overlay.layer.removeFromSuperlayer() }
            statsOverlay = nil
        } else {
            let overlay = OnScreenDisplay(name: "stats", corner: .topRight, hold: .infinity)
            self.overlay.add(overlay)
            statsOverlay = overlay
            statsSample = (hostSeconds(), statistics.framesPresented, statistics.framesDropped)
            overlay.show(statsText(fps: nil), at: hostSeconds(), sticky: true)
        }
        invalidate()
    }

    /// Updates the overlay's numbers every `statsInterval` (a paused window draws it again).
    func updateStatsOverlay() {
        guard let overlay = statsOverlay else { return }
        let now = hostSeconds()
        guard now - statsSample.wall >= Self.statsInterval else { return }
        let fps = Double(statistics.framesPresented - statsSample.presented) / (now - statsSample.wall)
        statsSample = (now, statistics.framesPresented, statistics.framesDropped)
        overlay.show(statsText(fps: fps), at: now, sticky: true)
        if clock.isPaused { invalidate() }
    }

    /// The overlay's lines.
    func statsText(fps: Double?) -> String {
        let recent = statistics.renderMilliseconds.suffix(120)
        var recentStats = PlaybackStatistics()
        recentStats.renderMilliseconds = Array(recent)
        return [
            "fps " + (fps.map { String(format: "%.1f", $0) } ?? "–") + (options.frameRate.map { String(format: " of %.3g", $0 * clock.speed) } ?? ""),
            "dropped \(statistics.framesDropped)",
            String(format: "render %.1f ms p50, %.1f ms p99", recentStats.percentile(0.5), recentStats.percentile(0.99)),
            String(format: "A-V %+.3f s  speed %.2f×", lastDifference / 1000, clock.speed),
            "canvas \(canvas.width)×\(canvas.height), window \(window.pixelSize.width)×\(window.pixelSize.height)",
        ].joined(separator: "\n")
    }
}
