import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT while a file is being written are noted rather than fatal, so that the writer
/// stops, removes its temporary and says so in one line, instead of leaving `.NAME.PID.partial` behind. SIGPIPE is
/// ignored meanwhile: a closed pipe on stderr makes a write fail, not the export die half-way; so is SIGXFSZ: a write
/// past the file size limit (`ulimit -f`) fails with EFBIG ("File too large") like a full disk, not a signal death.
public enum Interruption {
    static let noted: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// The first of `noted` received in the current scope; 0 for none.
    static let received = Atomic<Int32>(0)
    private static let scope = Guarded<Scope>(Scope())

    private struct Scope {
        var depth = 0
        /// Dispositions to restore when the outermost scope ends (C function pointers as their bits).
        var previous: [(signal: Int32, handler: Int)] = []
    }

    /// Runs `body` with the signals noted. Scopes nest; the outermost one installs and restores the handlers. A
    /// signal that arrived but was not acted on (the write finished first) is raised again when the scope ends:
    /// it is never lost, only delayed until nothing is half-written.
    public static func during<T>(_ body: () throws -> T) throws -> T {
        enter()
        do {
            let result = try body()
            leave(raisePending: true)
            return result
        } catch let error as InterruptedError {
            leave(raisePending: false)
            throw error
        } catch {
            leave(raisePending: true)
            throw error
        }
    }

    /// Throws when one of the signals arrived in this scope: the writer of `target` is to stop and clean up.
    public static func check(writing target: String) throws {
        let signal = received.load(ordering: .relaxed)
        if signal != 0 { throw InterruptedError(signal: signal, path: target) }
    }

    /// Whether one of the signals arrived in the current scope (a blocked network read gives up on it).
    public static var isPending: Bool { received.load(ordering: .relaxed) != 0 }

    /// Signals received in the current scope.
    static let count = Atomic<Int>(0)

    private static let note: @convention(c) (Int32) -> Void = { signal in
        _ = Interruption.received.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
        // Two are common (a closed terminal sends SIGHUP, and the shell sends it again to its jobs); a third means
        // the user will not wait for the clean-up: end as the signal would (the next write sweeps the temporary).
        if Interruption.count.wrappingAdd(1, ordering: .relaxed).newValue >= 3 {
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
    }

    private static func enter() {
        scope.withLock { scope in
            scope.depth += 1
            guard scope.depth == 1 else { return }
            received.store(0, ordering: .relaxed)
            count.store(0, ordering: .relaxed)
            for number in noted {
                let old = signal(number, note)
                // What the parent set to be ignored (nohup's SIGHUP, a background job's SIGINT) stays ignored.
                if bits(old) == bits(SIG_IGN) { signal(number, SIG_IGN) }
                scope.previous.append((number, bits(old)))
            }
            scope.previous.append((SIGPIPE, bits(signal(SIGPIPE, SIG_IGN))))
            scope.previous.append((SIGXFSZ, bits(signal(SIGXFSZ, SIG_IGN))))
            // A parent may have started us with these blocked; they must still reach the writer.
            var set = sigset_t()
            sigemptyset(&set)
            for number in noted { sigaddset(&set, number) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    private static func leave(raisePending: Bool) {
        let pending: Int32 = scope.withLock { scope in
            scope.depth -= 1
            guard scope.depth == 0 else { return 0 }
            for (number, handler) in scope.previous { signal(number, unsafeBitCast(handler, to: __sighandler_t?.self)) }
            scope.previous = []
            return received.exchange(0, ordering: .relaxed)
        }
        if raisePending && pending != 0 { raise(pending) }
    }

    private static func bits(_ handler: __sighandler_t?) -> Int { unsafeBitCast(handler, to: Int.self) }
}

/// A write stopped by a signal; its temporary is removed and the target is as it was.
public struct InterruptedError: Error, CustomStringConvertible, Sendable {
    /// The signal that stopped the write (`SIGINT`, `SIGTERM`…).
    public let signal: Int32
    /// The file that was being written and was left as it was.
    public let path: String
    public var description: String { "interrupted by \(Self.name(signal)); '\(path)' was not written" }

    /// The signal's name as a shell says it (`SIGINT`, `SIGTERM`…).
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "signal \(signal)"
        }
    }
}
