import Foundation

/// The file each input is written to: in RAM (/dev/shm when it exists), one per process so that libFuzzer's
/// -jobs/-workers do not share it, removed at exit.
public enum FuzzInput {
    public static let path: String = {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let p = "\(dir)/layerplay-fuzz-\(getpid()).bin"
        atexit { unlink(FuzzInput.path) }
        return p
    }()

    /// Writes the input; nil when the file cannot be written (then the input is skipped).
    public static func write(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var done = 0
        while done < size {
            guard let data else { break }
            let n = Foundation.write(fd, data + done, size - done)
            guard n > 0 else { return nil }
            done += n
        }
        return path
    }
}
