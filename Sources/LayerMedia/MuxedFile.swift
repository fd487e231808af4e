import CFFmpeg
import Foundation

/// A container written to one local file by packets that are already encoded: the segment join and the sound track
/// file of a segmented export. The container is the one the target's name asks for (`name`, what errors say); the
/// bytes go to `path` (the temporary beside it, published by the caller). Closed and freed when it goes away, so an
/// error thrown half way leaves no open file behind.
///
/// `MovieWriter` keeps its own setup: it encodes, takes muxer and protocol options and writes to network targets.
final class MuxedFile {
    let context: UnsafeMutablePointer<AVFormatContext>
    let name: String
    private let path: String

    /// Sets up the container for `name` without touching the disk.
    /// - Throws: `MediaError` when no container takes that name or libavformat cannot set it up.
    init(name: String, writingTo path: String) throws {
        guard let format = av_guess_format(nil, name, nil) else { throw MediaError("cannot write '\(name)': no container for that file name") }
        var allocated: UnsafeMutablePointer<AVFormatContext>? = nil
        guard avformat_alloc_output_context2(&allocated, format, nil, path) >= 0, let allocated else {
            throw MediaError("cannot write '\(name)': the container cannot be set up")
        }
        context = allocated
        self.name = name
        self.path = path
    }

    deinit {
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// What the container can hold (decided by its muxer before anything is written).
    var container: OutputContainer { OutputContainer(context.pointee.oformat) }

    /// Opens the file and writes the header, once every stream is added.
    func writeHeader() throws {
        if context.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let status = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
            guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
        }
        let header = FFmpegLogging.reason { avformat_write_header(context, nil) }
        guard header.status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", header) }
    }

    /// Writes one packet, interleaved by time with the other streams'.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        let status = av_interleaved_write_frame(context, packet)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot write '\(name)'", status) }
    }

    /// Writes the trailer: the file is complete (the caller publishes it).
    func finish() throws {
        let status = av_write_trailer(context)
        guard status >= 0 else { throw MediaError.ffmpeg("cannot finish '\(name)'", status) }
    }
}
