import CKernels
import Synchronization

/// State that threads share, behind a `Mutex`: the same `withLock` as `Mutex`, and the lock is also announced to
/// ThreadSanitizer. TSan cannot see `Mutex` itself (it locks with atomics and futex calls inside the Swift
/// runtime, which is not built with TSan), so without the announcement every access under a `Mutex` reads as a
/// data race in `make sanitize-thread`, and real races drown among them. Outside a TSan build the announcement
/// is an empty C call. Use it for every lock the project takes.
public final class Guarded<Value: ~Copyable>: Sendable {
    @usableFromInline let mutex: Mutex<Value>

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value, holding the lock (as `Mutex.withLock`).
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let token = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            lp_tsan_acquire(token)
            defer { lp_tsan_release(token) }
            return try body(&value)
        }
    }
}
