/// What a playback did: CLI.md's `--stats` for a window.
public struct PlaybackStatistics: Sendable {
    /// Frames composited (shown or not).
    public var framesRendered = 0
    /// Frames shown on screen.
    public var framesPresented = 0
    /// Frames that were due but not shown because rendering fell behind the clock.
    public var framesDropped = 0
    /// Seconds from the start of `run()` to its end.
    public var wallSeconds = 0.0
    /// How long each frame took to composite, in milliseconds, in order.
    public var renderMilliseconds: [Double] = []
    /// The largest |frame time − master clock| when a frame reached the screen, in milliseconds.
    public var maxDriftMilliseconds = 0.0
    /// Whether the sound was the master clock.
    public var audioClock = false

    /// The `p` quantile (0…1; 0.5 the median, 0.99 the 99th percentile) of `renderMilliseconds`, nearest rank; 0 when no
    /// frame was rendered.
    public func percentile(_ p: Double) -> Double {
        let sorted = renderMilliseconds.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// One JSON object (CLI.md's keys).
    public var json: String {
        func f(_ v: Double) -> String { String(Double(Int((v * 1000).rounded())) / 1000) }
        return "{\"frames_rendered\": \(framesRendered), \"frames_presented\": \(framesPresented), \"frames_dropped\": \(framesDropped), "
            + "\"duration_s\": \(f(wallSeconds)), \"render_ms_p50\": \(f(percentile(0.5))), \"render_ms_p99\": \(f(percentile(0.99))), "
            + "\"fps\": \(f(Double(framesPresented) / max(wallSeconds, 1e-9))), \"av_drift_ms_max\": \(f(maxDriftMilliseconds)), "
            + "\"clock\": \"\(audioClock ? "audio" : "monotonic")\"}"
    }
}
