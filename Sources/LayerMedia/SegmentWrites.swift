import CFFmpeg
import Foundation
import LayerGraphics
#if canImport(Glibc)
import Glibc
#endif

/// Watches every file an HLS or DASH muxer writes (its segments and its playlist, opened through the container's
/// `io_open`), because the muxers do not: FFmpeg 5.1's hls muxer ignores a failed write (a full disk), goes on, and
/// renames the empty temporary playlist over the good one (`ffmpeg -f hls` exits 0 with an empty playlist).
///
/// The first failed write is kept as the export's error; from then on every temporary file (`….tmp`, FFmpeg's
/// `temp_file`) is removed when closed, so its rename into place fails and the folder keeps what it had: the whole
/// segments and the last playlist, which lists exactly those.
final class SegmentWrites: @unchecked Sendable { // `names` is touched by the muxing thread only; `failure` is guarded
    private let failure = Guarded<String?>(nil)
    /// What each open file is called (the close callback gets only its I/O context).
    private var names: [UnsafeMutableRawPointer: String] = [:]
    private var defaultOpen: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                              UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32)?
    private var defaultClose: (@convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32)?

    /// The first write that failed, as the error line says it.
    var firstFailure: String? { failure.withLock { $0 } }

    /// Puts itself between the container and its files (the container's `opaque` points to it, unretained: the
    /// owner of the container keeps this alive as long as the container).
    func watch(_ oc: UnsafeMutablePointer<AVFormatContext>) {
        defaultOpen = oc.pointee.io_open
        defaultClose = oc.pointee.io_close2
        oc.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        oc.pointee.io_open = { s, pb, url, flags, options in
            guard let s, let me = s.pointee.opaque.map({ Unmanaged<SegmentWrites>.fromOpaque($0).takeUnretainedValue() }),
                  let open = me.defaultOpen else { return -1 }
            let status = open(s, pb, url, flags, options)
            if status >= 0, let opened = pb?.pointee, let url { me.names[UnsafeMutableRawPointer(opened)] = String(cString: url) }
            return status
        }
        oc.pointee.io_close2 = { s, pb in
            guard let s, let pb, let me = s.pointee.opaque.map({ Unmanaged<SegmentWrites>.fromOpaque($0).takeUnretainedValue() }),
                  let close = me.defaultClose else { return -1 }
            avio_flush(pb)
            let writeError = pb.pointee.error
            let name = me.names.removeValue(forKey: UnsafeMutableRawPointer(pb)) ?? "?"
            let status = close(s, pb)
            let problem = writeError < 0 ? writeError : status
            if problem < 0 {
                me.failure.withLock { $0 = $0 ?? "cannot write '\(name.hasSuffix(".tmp") ? String(name.dropLast(4)) : name)': \(FFmpegLibraries.errorText(problem))" }
            }
            if me.firstFailure != nil && name.hasSuffix(".tmp") { unlink(name) }
            return status
        }
    }
}
