import CFFmpeg
import Foundation
import LayerGraphics
import Synchronization

/// Bounds how long one blocking read of an input may take: FFmpeg calls a container's interrupt callback while it
/// waits on a socket (every 100 ms or so), and this answers "give up" once the read that is under way has gone
/// `limit` seconds without finishing, once the reader is stopped, or on Ctrl-C. A dead or silent server then ends
/// in one error line, never in a hang (issue 28).
///
/// Armed around each open, probe and packet read (`FFmpegFormat`), so a live stream that keeps sending is never cut,
/// however long it runs.
final class IOWatchdog: Sendable {
    /// Seconds one read may block.
    let limit: Double
    /// Uptime in nanoseconds after which the read under way is abandoned; 0 while none is.
    private let deadline = Atomic<UInt64>(0)
    private let stopped = Atomic<Bool>(false)
    /// Whether a read was abandoned for taking too long (its error then says so, not "Immediate exit requested").
    private let expired = Atomic<Bool>(false)

    init(limit: Double) { self.limit = limit }

    /// Starts the clock for one blocking operation.
    func arm() {
        expired.store(false, ordering: .relaxed)
        deadline.store(DispatchTime.now().uptimeNanoseconds + UInt64(max(0.001, limit) * 1e9), ordering: .relaxed)
    }

    /// The operation finished.
    func disarm() { deadline.store(0, ordering: .relaxed) }

    /// Every read from now on gives up at once (the reader is going away).
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Whether the reader is going away or the user pressed Ctrl-C.
    var isCancelled: Bool { stopped.load(ordering: .relaxed) || Interruption.isPending }

    /// Whether the last read gave up because it took longer than `limit`.
    var didExpire: Bool { expired.load(ordering: .relaxed) }

    /// Whether FFmpeg should abandon what it is waiting for.
    var shouldInterrupt: Bool {
        if stopped.load(ordering: .relaxed) || Interruption.isPending { return true }
        let d = deadline.load(ordering: .relaxed)
        guard d != 0, DispatchTime.now().uptimeNanoseconds > d else { return false }
        expired.store(true, ordering: .relaxed)
        return true
    }

    /// Runs `body` armed.
    func during<T>(_ body: () throws -> T) rethrows -> T {
        arm()
        defer { disarm() }
        return try body()
    }

    /// The callback FFmpeg calls, with an unretained watchdog as its opaque pointer (the container's owner keeps
    /// the watchdog alive for as long as the container is open).
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<IOWatchdog>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
