import Foundation

/// Groups changes to layers (CATransaction): how long the animations they start last, with which timing
/// function, whether changes animate at all, and what runs when every animation they started has finished.
///
/// Transactions are per thread, a stack of scopes (SEMANTICS-ANIMATION.md §4). `begin()`/`commit()` nest; reading a
/// setting searches from the innermost scope out, setting one writes the innermost scope. The first change to a
/// hosted layer on a thread with no open scope opens the *implicit* transaction, which the host commits before its
/// next snapshot. Nothing here reads a clock: everything a transaction starts begins at its host's "now", the
/// tree media time of the frame last built in an export (a window's playback clock in a window), so an export is
/// the same on every run.
public enum Transaction {
    /// Opens a scope.
    public static func begin() { TransactionStack.current.begin(implicit: false) }

    /// Closes the innermost scope. Its animations join the enclosing scope (whose completion also waits for them);
    /// its completion block is registered to run when they have all finished.
    public static func commit() { TransactionStack.current.commit() }

    /// Commits the implicit transaction now, and with it nothing that an explicit scope still holds open.
    public static func flush() { TransactionStack.current.commitImplicit() }

    /// Seconds that animations added in this scope last when their own `duration` is 0 (0.25 by default).
    public static var animationDuration: Double {
        get { (value(forKey: Key.duration) as? Double) ?? 0.25 }
        set { setValue(newValue, forKey: Key.duration) }
    }

    /// The timing function of animations added in this scope that have none, and of implicit animations.
    public static var animationTimingFunction: TimingFunction? {
        get { value(forKey: Key.timingFunction) as? TimingFunction }
        set { setValue(newValue, forKey: Key.timingFunction) }
    }

    /// When true, changes in this scope run no actions: they show at once, without an implicit animation.
    public static var disableActions: Bool {
        get { (value(forKey: Key.disableActions) as? Bool) ?? false }
        set { setValue(newValue, forKey: Key.disableActions) }
    }

    /// Runs on the host's thread once every animation added while this scope was open has finished or been
    /// removed; at the commit when none was added. Animations that never end never complete.
    public static var completionBlock: (() -> Void)? {
        get { value(forKey: Key.completion) as? () -> Void }
        set { setValue(newValue, forKey: Key.completion) }
    }

    // Core Animation's spellings.
    /// Sets `animationDuration` (CATransaction.setAnimationDuration).
    public static func setAnimationDuration(_ seconds: Double) { animationDuration = seconds }
    /// Sets `animationTimingFunction`.
    public static func setAnimationTimingFunction(_ function: TimingFunction?) { animationTimingFunction = function }
    /// Sets `disableActions`.
    public static func setDisableActions(_ flag: Bool) { disableActions = flag }
    /// Sets `completionBlock`.
    public static func setCompletionBlock(_ block: (() -> Void)?) { completionBlock = block }

    /// A setting by key, searched from the innermost scope that set it outwards.
    public static func value(forKey key: String) -> Any? { TransactionStack.current.value(forKey: key) }

    /// Sets a setting in the innermost scope (opening the implicit transaction when none is open).
    public static func setValue(_ value: Any?, forKey key: String) { TransactionStack.current.setValue(value, forKey: key) }

    /// Runs `body` with actions disabled, in a scope of its own: what hosts and the library itself change
    /// (window layout, a player's own video layer) shows at once.
    public static func withoutActions<R>(_ body: () throws -> R) rethrows -> R {
        begin()
        disableActions = true
        defer { commit() }
        return try body()
    }

    enum Key {
        static let duration = "animationDuration"
        static let timingFunction = "animationTimingFunction"
        static let disableActions = "disableActions"
        static let completion = "completionBlock"
    }
}

/// An animation a transaction started, remembered so that its completion block can tell when it is over.
struct StartedAnimation {
    weak var layer: Layer?
    let animation: Animation
}

/// A completion block waiting for its transaction's animations.
final class PendingCompletion {
    let block: () -> Void
    var animations: [StartedAnimation]
    init(block: @escaping () -> Void, animations: [StartedAnimation]) { self.block = block; self.animations = animations }
}

/// One thread's open transaction scopes.
final class TransactionStack {
    final class Scope {
        let isImplicit: Bool
        var values: [String: Any] = [:]
        var started: [StartedAnimation] = []
        init(implicit: Bool) { isImplicit = implicit }
    }

    private(set) var scopes: [Scope] = []

    /// This thread's stack (layers belong to one thread; so do their transactions).
    static var current: TransactionStack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[key] as? TransactionStack { return stack }
        let stack = TransactionStack()
        dictionary[key] = stack
        return stack
    }
    private static let key = "LayerKit.TransactionStack"

    func begin(implicit: Bool) {
        if implicit { scopes.insert(Scope(implicit: true), at: 0) } else { scopes.append(Scope(implicit: false)) }
    }

    /// Opens the implicit transaction when no scope is open (a change to a hosted layer).
    func openImplicitIfNeeded() {
        if scopes.isEmpty { begin(implicit: true) }
    }

    var hasImplicit: Bool { scopes.first?.isImplicit ?? false }

    func commit() {
        // An unbalanced commit (more commits than begins) does nothing, as Core Animation logs and goes on.
        guard let index = scopes.lastIndex(where: { !$0.isImplicit }) else { return }
        close(scopes.remove(at: index), into: index > 0 ? scopes[index - 1] : nil)
    }

    /// Commits the implicit transaction, once no explicit scope is open above it.
    func commitImplicit() {
        guard scopes.count == 1, let scope = scopes.first, scope.isImplicit else { return }
        scopes.removeAll()
        close(scope, into: nil)
    }

    private func close(_ scope: Scope, into parent: Scope?) {
        parent?.started += scope.started
        guard let block = scope.values[Transaction.Key.completion] as? () -> Void else { return }
        let hosted = scope.started.compactMap { s in s.layer?.hostRecord() }
        if scope.started.isEmpty {
            block()
        } else if let host = hosted.first {
            host.completions.append(PendingCompletion(block: block, animations: scope.started))
        }
        // A transaction whose animations are on no hosted tree never completes (§4).
    }

    func value(forKey key: String) -> Any? {
        for scope in scopes.reversed() { if let v = scope.values[key] { return v } }
        return nil
    }

    func setValue(_ value: Any?, forKey key: String) {
        openImplicitIfNeeded()
        scopes[scopes.count - 1].values[key] = value
    }

    /// Remembers an animation added while a scope is open (for completion blocks).
    func noteStarted(_ animation: Animation, on layer: Layer) {
        guard let scope = scopes.last else { return }
        scope.started.append(StartedAnimation(layer: layer, animation: animation))
    }
}
