import Foundation
import LayerGraphics

/// Inputs that broke while being read (a network stream cut mid-way, a read that timed out), as opposed to ones that
/// ended: a reader stops at either, and the host asks here afterwards which it was, to end with one error line
/// instead of passing a cut input off as a finished one.
public enum InputFailures {
    private static let failures = Guarded<[String]>([])

    /// Notes that reading `path` failed; `reason` is the whole message ("reading 'rtmp://…' failed: …").
    static func record(_ reason: String) {
        failures.withLock { if !$0.contains(reason) { $0.append(reason) } }
    }

    /// The first failure noted since the run began (or since `reset`), nil when every input read cleanly.
    public static var first: String? { failures.withLock { $0.first } }

    /// Forgets what was noted (tests run several exports in one process).
    public static func reset() { failures.withLock { $0.removeAll() } }
}
