import CShims
import Dispatch
import Foundation
import LayerGraphics

/// Exports that are not one file written beside the target and renamed (CLI.md "Streams"): a stream to a server or
/// a pipe, or a playlist with its segments, written in place as the export goes.
extension Exporter {
    /// Writes to `target` in place. A failure or Ctrl-C leaves what was sent (a cut stream) or written (the whole
    /// segments and a playlist that lists them), and removes the segment that was being written (`….tmp`).
    func exportInPlace(_ target: OutputTarget, progress: ((Progress) -> Void)?) throws -> Statistics {
        do { return try writeInPlace(target, progress: progress) } catch let stop as InterruptedError {
            // Not "was not written": what was sent, or the whole segments, stay (CLI.md "Streams").
            throw MediaError("interrupted by \(InterruptedError.name(stop.signal)); '\(target.name)' ends where it was")
        }
    }

    private func writeInPlace(_ target: OutputTarget, progress: ((Progress) -> Void)?) throws -> Statistics {
        try Interruption.during {
            InputFailures.reset()
            do {
                let stats = try run(settings: settings, temporary: target.url, finalPath: target.name, progress: progress)
                try Interruption.check(writing: target.name)
                if let failed = target.writeFailure { throw MediaError(failed) }
                if let broken = InputFailures.first { throw MediaError(broken) }
                return stats
            } catch {
                for file in target.temporaryLeftovers() { unlink(file) }
                // The watchdog gives up on Ctrl-C too: the signal is the reason (else the scope raises it again).
                try Interruption.check(writing: target.name)
                // FFmpeg's own word for an abandoned write is "Immediate exit requested".
                if target.watchdog.didExpire && !(error is InterruptedError) { throw target.failure(lp_averror_exit()) }
                throw error
            }
        }
    }

    /// Sleeps until the uptime `nanoseconds` (real-time pacing).
    static func wait(until nanoseconds: UInt64) {
        let now = DispatchTime.now().uptimeNanoseconds
        if nanoseconds > now { usleep(UInt32(min(1_000_000, (nanoseconds - now) / 1000))) }
        if DispatchTime.now().uptimeNanoseconds < nanoseconds { wait(until: nanoseconds) }
    }
}
