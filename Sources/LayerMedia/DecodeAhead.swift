import Foundation

/// Owns a `VideoFrameSource` on a dedicated decode thread (never the Swift concurrency pool). It answers
/// requests for frame times and, between requests, decodes the frame the next request will most likely ask
/// for (the last time plus the last step), so that an export's decoding overlaps its compositing.
final class DecodeAhead: @unchecked Sendable { // state guarded by `condition`
    private let source: VideoFrameSource
    private let condition = NSCondition()
    private var request: Double?
    private var answer: (time: Double, frame: VideoFrame?)?
    private var ahead: (time: Double, frame: VideoFrame?)?
    private var lastTime: Double?
    private var step = 0.0
    private var stopped = false
    private var storedWrap: (@Sendable (Double) -> Double)?
    /// Maps a predicted time past the end of a looping range back to its start.
    var wrap: (@Sendable (Double) -> Double)? {
        get { condition.lock(); defer { condition.unlock() }; return storedWrap }
        set { condition.lock(); storedWrap = newValue; condition.unlock() }
    }

    init(source: VideoFrameSource) {
        self.source = source
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.decode"
        thread.start()
    }

    /// Ends the decode thread (after the frame it is decoding).
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The frame shown at `seconds`; waits for the decode thread unless it was decoded ahead.
    func frame(at seconds: Double) -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        if let a = ahead, abs(a.time - seconds) < 1e-6 {
            ahead = nil
            remember(seconds)
            return a.frame
        }
        ahead = nil
        request = seconds
        condition.broadcast()
        while !(answer.map { $0.time == seconds } ?? false) && !stopped { condition.wait() }
        let frame = answer?.frame
        answer = nil
        remember(seconds)
        return frame
    }

    /// Notes a served time and the step from the previous one (what to decode next); wakes the thread.
    private func remember(_ seconds: Double) {
        // A jump back (a loop, a seek) keeps the step of the steady playback before it.
        if let last = lastTime, seconds > last { step = seconds - last }
        lastTime = seconds
        condition.broadcast()
    }

    private func run() {
        condition.lock()
        while true {
            while !stopped && request == nil && !(ahead == nil && step > 0 && lastTime != nil) { condition.wait() }
            if stopped { break }
            if let t = request {
                request = nil
                condition.unlock()
                let frame = try? source.frame(at: t)
                condition.lock()
                answer = (t, frame)
                condition.broadcast()
            } else if let last = lastTime {
                let next = storedWrap?(last + step) ?? last + step
                condition.unlock()
                let frame = try? source.frame(at: next)
                condition.lock()
                // Keep it only if nobody asked for something else meanwhile.
                if request == nil && lastTime == last { ahead = (next, frame) } else { ahead = nil }
                if ahead == nil && request == nil && lastTime == last { step = 0 } // nothing sensible to decode ahead
            }
        }
        condition.unlock()
    }
}
