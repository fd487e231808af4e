import Foundation

/// The one line a playing window keeps updated on a terminal, as ffplay's: the clock, the length, the last frame's
/// distance from the master clock and the frames dropped so far. Redrawn in place (a carriage return, no newline)
/// at most every `interval` seconds of wall time; `finish()` ends the line.
public final class StatusLine {
    private let length: Double
    private let interval: Double
    private var lastWritten = -Double.infinity
    private let write: (String) -> Void
    private var wrote = false

    /// - Parameters:
    ///   - length: the range's length in seconds (infinite: a still), for states that do not say theirs.
    ///   - interval: the least wall time between two redraws, in seconds.
    ///   - write: where the text goes (stderr).
    public init(length: Double, interval: Double = 0.1, write: @escaping (String) -> Void) {
        self.length = length; self.interval = interval; self.write = write
    }

    /// The line for `state`: "  12.34 / 60.00  A-V:  -0.003  dropped:    0".
    public static func text(_ state: PlaybackSession.State, length: Double) -> String {
        let total = length.isFinite ? String(format: " / %.2f", length) : ""
        // The time within the file (a loop's), so that it is read against the file's length (10.39 s into a looped
        // 1 s clip is 0.39 / 1.00).
        return String(format: "%7.2f", state.position ?? state.clock) + total
            + String(format: "  A-V:%7.3f  dropped:%5d", state.avDifferenceMilliseconds / 1000, state.framesDropped)
            + (state.isPaused ? "  paused" : "        ")
    }

    /// Redraws the line when `interval` has passed since the last time.
    public func update(_ state: PlaybackSession.State) {
        guard state.wallSeconds - lastWritten >= interval else { return }
        lastWritten = state.wallSeconds
        wrote = true
        write("\r" + Self.text(state, length: state.length ?? length))
    }

    /// Ends the line (a newline), if one was written.
    public func finish() {
        if wrote { write("\n") }
        wrote = false
    }
}
