import LayerGraphics
import Foundation

/// Seconds of a monotonic host clock (never jumps with the wall clock).
func hostSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The clock that decides which frame is due: the audio device's position when there is sound (the master,
/// as in ffplay; on the host clock from the moment it plays until the device hands over sound, see `AudioOutput`),
/// else the host's monotonic clock. Times are on the playback timeline.
protocol PlaybackClock: AnyObject, Sendable {
    /// The timeline time now.
    var time: Double { get }
    var isPaused: Bool { get }
    func setPaused(_ paused: Bool)
    /// Moves to timeline time `t` (the clock holds there until playback resumes or the sound arrives).
    func seek(to t: Double)
    /// Timeline seconds per wall second (1: real time).
    var speed: Double { get }
    /// Runs `speed` times as fast from the time now.
    func setSpeed(_ speed: Double)
}

/// Host time, started, stopped and moved by the player: the clock of a video without sound.
final class MonotonicClock: PlaybackClock {
    private let state: Guarded<(base: Double, hostAtBase: Double, paused: Bool, speed: Double)>

    init(start: Double) { state = Guarded((start, hostSeconds(), true, 1)) }

    var time: Double {
        state.withLock { s in s.paused ? s.base : s.base + (hostSeconds() - s.hostAtBase) * s.speed }
    }
    var speed: Double { state.withLock { $0.speed } }

    func setSpeed(_ speed: Double) {
        state.withLock { s in
            let now = hostSeconds()
            if !s.paused { s.base += (now - s.hostAtBase) * s.speed }
            s.hostAtBase = now
            s.speed = speed
        }
    }
    var isPaused: Bool { state.withLock { $0.paused } }

    func setPaused(_ paused: Bool) {
        state.withLock { s in
            guard s.paused != paused else { return }
            let now = hostSeconds()
            if paused { s.base += (now - s.hostAtBase) * s.speed }
            s.hostAtBase = now
            s.paused = paused
        }
    }

    func seek(to t: Double) {
        state.withLock { s in s.base = t; s.hostAtBase = hostSeconds() }
    }
}
