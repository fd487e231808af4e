import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells whether any of a few files changed since it was last asked (SCENES.md §8): inotify on the files' folders
/// where available (editors often save by writing a new file and renaming it over the old, which a watch on the file
/// itself would miss), else each file's size and modification time compared, at most every 250 ms. Never blocks.
public final class FileWatcher {
    /// The watched files, as absolute standardised paths.
    public let paths: [String]
    #if canImport(Glibc)
    private var fd: Int32 = -1
    /// Watch descriptor → the names watched in that folder.
    private var watched: [Int32: Set<String>] = [:]
    #endif
    /// The polling fallback: each file's last seen size and modification time.
    private var stamps: [String: String] = [:]
    private var lastPoll = -Double.infinity
    /// Whether inotify is in use (else polling).
    public private(set) var usesInotify = false

    /// Watches `paths` (relative ones against the working directory).
    /// - Parameters:
    ///   - paths: the files to watch (an editor that saves by renaming a new file over the old is seen too).
    ///   - inotify: false polls even where inotify works (for tests of the fallback).
    public init(paths: [String], inotify: Bool = true) {
        self.paths = paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        #if canImport(Glibc)
        fd = inotify ? inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) : -1
        if fd >= 0 {
            var ok = true
            let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)
            for (folder, files) in Dictionary(grouping: self.paths, by: { ($0 as NSString).deletingLastPathComponent }) {
                let wd = inotify_add_watch(fd, folder.isEmpty ? "." : folder, mask)
                if wd < 0 { ok = false; break }
                watched[wd, default: []].formUnion(files.map { ($0 as NSString).lastPathComponent })
            }
            if ok { usesInotify = true } else { close(fd); fd = -1; watched = [:] }
        }
        #endif
        if !usesInotify { for p in self.paths { stamps[p] = Self.stamp(p) } }
    }

    deinit {
        #if canImport(Glibc)
        if fd >= 0 { close(fd) }
        #endif
    }

    /// Whether a watched file changed since the last call; `now` (seconds on any steady clock) paces the polling.
    public func changed(now: Double) -> Bool {
        #if canImport(Glibc)
        if usesInotify { return drainEvents() }
        #endif
        guard now - lastPoll >= 0.25 else { return false }
        lastPoll = now
        var any = false
        for p in paths {
            let s = Self.stamp(p)
            if stamps[p] != s { stamps[p] = s; any = true }
        }
        return any
    }

    #if canImport(Glibc)
    /// Reads every pending event; true when one names a watched file.
    private func drainEvents() -> Bool {
        var any = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let (wd, length) = buffer.withUnsafeBytes { raw -> (Int32, Int) in
                    let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (e.wd, Int(e.len))
                }
                let nameBytes = buffer[(offset + header)..<min(n, offset + header + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                if watched[wd]?.contains(name) == true { any = true }
                offset += header + length
            }
        }
        return any
    }
    #endif

    /// Size and modification time, or "missing".
    private static func stamp(_ path: String) -> String {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let size = (a[.size] as? NSNumber)?.int64Value ?? -1
        let time = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(size) \(time)"
    }
}
