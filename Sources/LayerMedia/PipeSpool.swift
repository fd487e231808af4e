import CFFmpeg
import CShims
import Foundation
import LayerGraphics
#if canImport(Glibc)
import Glibc
#endif

/// A pipe (`-`, `pipe:N`) read once, on its own thread, into an unlinked temporary file, so that every opener of
/// the input (the probe, the picture's decoder, the sound, the subtitles) reads it from the start as a file, and
/// can seek in it: an MP4 whose index comes last plays from a pipe, which ffmpeg's `pipe:` cannot do.
///
/// Readers wait for bytes not yet arrived; the pipe's end is their end. Costs the pipe's size on the temporary
/// disk (`TMPDIR`) for as long as the run lasts; nothing is left behind (the file has no name once opened).
final class PipeSpool: @unchecked Sendable { // state guarded by `condition`
    private static let spools = Guarded<[Int32: PipeSpool]>([:])

    /// The spool of file descriptor `fd`, started on first use.
    static func spool(_ fd: Int32) throws -> PipeSpool {
        try spools.withLock { (spools: inout [Int32: PipeSpool]) throws(MediaError) -> PipeSpool in
            if let s = spools[fd] { return s }
            let s = try PipeSpool(fd: fd)
            spools[fd] = s
            return s
        }
    }

    private let file: Int32
    private let condition = NSCondition()
    private var written: Int64 = 0
    private var finished = false
    /// Why the copy stopped early (the pipe failed, or the temporary disk is full).
    private var failure: String?

    private init(fd: Int32) throws(MediaError) {
        var stat = stat()
        guard fstat(fd, &stat) == 0 else {
            throw MediaError("cannot open '\(fd == 0 ? "-" : "pipe:\(fd)")': file descriptor \(fd) is not open")
        }
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("layerplay-pipe-XXXXXX").utf8CString)
        let file = mkstemp(&template)
        guard file >= 0 else { throw MediaError("cannot open '\(fd == 0 ? "-" : "pipe:\(fd)")': no temporary file: \(String(cString: strerror(errno)))") }
        unlink(template)
        self.file = file
        let thread = Thread { [self] in copy(from: fd) }
        thread.name = "layerplay.pipe"
        thread.start()
    }

    private func copy(from fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var problem: String?
        copying: while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                problem = "reading the pipe failed: \(String(cString: strerror(errno)))"
                break
            }
            if n == 0 { break }
            var done = 0
            while done < n {
                let w = buffer.withUnsafeBytes { pwrite(file, $0.baseAddress! + done, n - done, off_t(written) + off_t(done)) }
                if w < 0 {
                    if errno == EINTR { continue }
                    problem = "cannot keep the pipe's data in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))"
                    break copying
                }
                done += w
            }
            condition.lock()
            written += Int64(n)
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        finished = true
        failure = problem
        condition.broadcast()
        condition.unlock()
    }

    /// Reads up to `count` bytes at `offset`, waiting until they arrive: the bytes read, 0 at the pipe's end, or
    /// nil when `cancelled` turned true while waiting (checked every 100 ms).
    func read(at offset: Int64, into buffer: UnsafeMutableRawPointer, count: Int, cancelled: () -> Bool) -> Int? {
        condition.lock()
        while written <= offset && !finished {
            if cancelled() { condition.unlock(); return nil }
            _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        let available = written - offset
        condition.unlock()
        guard available > 0 else { return 0 }
        let n = pread(file, buffer, min(count, Int(available)), off_t(offset))
        return max(0, n)
    }

    /// The pipe's whole length once it ended; nil while it is still open.
    var length: Int64? {
        condition.lock()
        defer { condition.unlock() }
        return finished ? written : nil
    }

    /// Why the pipe's data ended early, if it did.
    var problem: String? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }
}

/// One opener's view of a `PipeSpool`: an AVIOContext with its own position, given to `avformat_open_input`.
final class PipeReader {
    let spool: PipeSpool
    private let watchdog: IOWatchdog
    private var position: Int64 = 0
    /// The I/O context; the container does not free it (custom I/O), `deinit` does.
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    init(spool: PipeSpool, watchdog: IOWatchdog) throws {
        self.spool = spool
        self.watchdog = watchdog
        let size: Int32 = 1 << 16
        guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self),
              let ctx = avio_alloc_context(buffer, size, 0, nil, { opaque, buf, size in
                  guard let opaque, let buf else { return lp_averror_eof() }
                  return Unmanaged<PipeReader>.fromOpaque(opaque).takeUnretainedValue().read(buf, Int(size))
              }, nil, { opaque, offset, whence in
                  guard let opaque else { return -1 }
                  return Unmanaged<PipeReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
              }) else { throw MediaError("cannot open the pipe: out of memory") }
        ctx.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context = ctx
    }

    deinit {
        if let ctx = context {
            av_freep(&ctx.pointee.buffer)
            avio_context_free(&context)
        }
    }

    private func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        // A pipe that sends nothing for --timeout fails as a silent server does (FFmpeg checks the interrupt only
        // between our reads: the wait itself must look at the clock).
        guard let n = spool.read(at: position, into: buffer, count: size, cancelled: { watchdog.shouldInterrupt }) else {
            return lp_averror_exit()
        }
        if n == 0 { return lp_averror_eof() }
        position += Int64(n)
        return Int32(n)
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        // The size only once the pipe ended: a live pipe has none, and asking must not wait for its end.
        if whence & AVSEEK_SIZE != 0 { return spool.length ?? -1 }
        switch whence & ~AVSEEK_FORCE {
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END:
            guard let length = spool.length else { return -1 }
            position = length + offset
        default: return -1
        }
        position = max(0, position)
        return position
    }
}
