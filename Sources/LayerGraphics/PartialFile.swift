import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The temporary a file is written to before it appears at its target: `.NAME.PID.partial` beside the target (a
/// file, or a folder for an image sequence), so that the target is never half-written. The PID in the name tells a
/// leftover of a process that is gone (kill -9, a crash, a power cut) from the temporary of a write still under way.
public enum PartialFile {
    /// This process's temporary for `target`. A `%` (an image-sequence pattern) becomes `_`, so that the name is
    /// never a pattern itself.
    public static func path(for target: String) -> String {
        let (directory, prefix) = parts(of: target)
        return (directory as NSString).appendingPathComponent("\(prefix)\(getpid())\(suffix)")
    }

    /// Removes the temporaries of `target` left by processes that no longer run (`kill(pid, 0)` fails with ESRCH).
    /// Only names of exactly our form are touched, and never a running process's temporary: it may be another write
    /// to the same target under way (or a process that took a dead one's number; its leftover waits for later).
    public static func sweep(beside target: String) {
        let (directory, prefix) = parts(of: target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.utf8.count > prefix.utf8.count + suffix.utf8.count {
            let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
            // The form we write: a positive decimal PID, without sign or leading zero.
            guard let text = String(digits), let pid = pid_t(text), pid > 0, String(pid) == text else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// Puts the finished temporary at `target`. Replacing: `rename`, atomic (the target is the old file or the new
    /// one, never a mix). Not replacing: a hard link, which fails when the target exists, even when it appeared a
    /// moment ago (another export to the same path that finished first); then the temporary's own name is removed.
    /// - Throws: `FileExistsError` when the target exists and may not be replaced; `GraphicsError` otherwise.
    public static func publish(_ temporary: String, at target: String, replacing: Bool) throws {
        if replacing {
            guard rename(temporary, target) == 0 else { throw GraphicsError("cannot write '\(target)': \(describe(errno))") }
            return
        }
        if link(temporary, target) == 0 {
            unlink(temporary)
            return
        }
        let error = errno
        if error == EEXIST { throw FileExistsError(path: target) }
        // A filesystem without hard links (FAT, some network and FUSE ones): look, then rename; the best it allows.
        guard [EPERM, EOPNOTSUPP, ENOTSUP, ENOSYS].contains(error) else { throw GraphicsError("cannot write '\(target)': \(describe(error))") }
        var status = stat()
        if lstat(target, &status) == 0 { throw FileExistsError(path: target) }
        guard rename(temporary, target) == 0 else { throw GraphicsError("cannot write '\(target)': \(describe(errno))") }
    }

    private static let suffix = ".partial"

    /// The target's directory and the start of its temporaries' names, `.NAME.`.
    private static func parts(of target: String) -> (directory: String, prefix: String) {
        let url = URL(fileURLWithPath: target)
        return (url.deletingLastPathComponent().path, ".\(url.lastPathComponent.replacingOccurrences(of: "%", with: "_")).")
    }

    static func describe(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// A target that exists and may not be replaced (it appeared after the writer checked).
public struct FileExistsError: Error, CustomStringConvertible, Sendable {
    /// The file that exists.
    public let path: String
    /// The error for the existing file at `path`.
    public init(path: String) { self.path = path }
    public var description: String { "'\(path)' already exists" }
}
