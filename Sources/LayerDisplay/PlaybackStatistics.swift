/// What a playback did: CLI.md's `--stats` for a window.
public struct PlaybackStatistics: Sendable {
    /// Frames composited (shown or not).
    public var framesRendered = 0
    /// Frames shown on screen.
    public var framesPresented = 0
    /// Frames that were due but not shown because rendering fell behind the clock.
    public var framesDropped = 0
    /// Frames the video decoders skipped to catch up with the clock (non-reference frames; counted in `framesDropped`
    /// too, as due frames never shown).
    public var decoderDrops = 0
    /// Seconds from the start of `run()` to its end.
    public var wallSeconds = 0.0
    /// How long each frame took to composite, in milliseconds, in order.
    public var renderMilliseconds: [Double] = []
    /// The largest |frame time − master clock| when a frame reached the screen, in milliseconds.
    public var maxDriftMilliseconds = 0.0
    /// Whether the sound was the master clock.
    public var audioClock = false
    /// Wall milliseconds from the first frame on screen to the first frame of a later time (motion seen): how long
    /// the start stands still (issue 30 item 7); nil when nothing moved.
    public var motionStartMilliseconds: Double?
    /// When the first frame reached the screen (host seconds) and its time, for `motionStartMilliseconds`.
    var firstShown: (wall: Double, time: Double)?

    /// The `p` quantile (0…1; 0.5 the median, 0.99 the 99th percentile) of `renderMilliseconds`, nearest rank; 0 when no
    /// frame was rendered.
    public func percentile(_ p: Double) -> Double {
        let sorted = renderMilliseconds.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    /// Notes a frame of timeline time `time` on screen at host time `wall`.
    mutating func noteShown(_ time: Double, at wall: Double) {
        guard let first = firstShown else { firstShown = (wall, time); return }
        if motionStartMilliseconds == nil && time > first.time { motionStartMilliseconds = (wall - first.wall) * 1000 }
    }

    /// One JSON object (CLI.md's keys).
    public var json: String {
        func f(_ v: Double) -> String { String(Double(Int((v * 1000).rounded())) / 1000) }
        return "{\"frames_rendered\": \(framesRendered), \"frames_presented\": \(framesPresented), \"frames_dropped\": \(framesDropped), \"decoder_drops\": \(decoderDrops), "
            + "\"duration_s\": \(f(wallSeconds)), \"render_ms_p50\": \(f(percentile(0.5))), \"render_ms_p99\": \(f(percentile(0.99))), "
            + "\"fps\": \(f(Double(framesPresented) / max(wallSeconds, 1e-9))), \"av_drift_ms_max\": \(f(maxDriftMilliseconds)), "
            + "\"motion_start_ms\": \(motionStartMilliseconds.map(f) ?? "null"), "
            + "\"clock\": \"\(audioClock ? "audio" : "monotonic")\"}"
    }
}
