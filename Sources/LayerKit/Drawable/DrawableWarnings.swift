import Foundation
import Synchronization

/// One warning line on stderr per kind of trouble per layer: a callback that fails every frame must not flood the log.
enum DrawableWarnings {
    private static let said = Mutex<Set<String>>([])
    /// Every line written, for tests.
    private static let lines = Mutex<[String]>([])

    /// Writes `message` unless the same `key` was warned about before.
    static func once(_ message: String, key: String? = nil) {
        let isNew = said.withLock { $0.insert(key ?? message).inserted }
        guard isNew else { return }
        lines.withLock { $0.append(message) }
        // FileHandle.write(_:) traps when stderr is closed; a warning must never be what crashes.
        try? FileHandle.standardError.write(contentsOf: Data("warning: \(message)\n".utf8))
    }

    static var written: [String] { lines.withLock { $0 } }
}
