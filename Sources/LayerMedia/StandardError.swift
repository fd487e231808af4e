import Foundation

/// Lines for the user on stderr. Foundation's `FileHandle.write(_:)` traps when the write fails (stderr on a full
/// disk, `2>/dev/full`, a closed pipe): a message must never be what crashes the process, so a failed write is
/// dropped.
public enum StandardError {
    /// Writes `text` as it is (add the newline yourself; a progress bar redraws a line without one).
    public static func write(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Writes `line` and a newline.
    public static func writeLine(_ line: String) { write(line + "\n") }
}
