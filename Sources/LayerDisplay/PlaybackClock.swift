import LayerGraphics
import Foundation

/// Seconds of a monotonic host clock (never jumps with the wall clock).
func hostSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The clock that decides which frame is due: the audio device's position when there is sound (the master,
/// as in ffplay), else the host's monotonic clock. Times are on the playback timeline.
protocol PlaybackClock: AnyObject, Sendable {
    /// The timeline time now.
    var time: Double { get }
    var isPaused: Bool { get }
    func setPaused(_ paused: Bool)
    /// Moves to timeline time `t` (the clock holds there until playback resumes or the sound arrives).
    func seek(to t: Double)
}

/// Host time, started, stopped and moved by the player: the clock of a video without sound.
final class MonotonicClock: PlaybackClock {
    private let state: Guarded<(base: Double, hostAtBase: Double, paused: Bool)>

    init(start: Double) { state = Guarded((start, hostSeconds(), true)) }

    var time: Double {
        state.withLock { s in s.paused ? s.base : s.base + (hostSeconds() - s.hostAtBase) }
    }
    var isPaused: Bool { state.withLock { $0.paused } }

    func setPaused(_ paused: Bool) {
        state.withLock { s in
            guard s.paused != paused else { return }
            let now = hostSeconds()
            if paused { s.base += now - s.hostAtBase }
            s.hostAtBase = now
            s.paused = paused
        }
    }

    func seek(to t: Double) {
        state.withLock { s in s.base = t; s.hostAtBase = hostSeconds() }
    }
}
