import CFFmpeg
import CShims

/// One stream of a container opened for decoding, with what every reader of it needs: the stream, its
/// decoder, and its first timestamp (media times are measured from it).
final class DecodedStream {
    let format: FFmpegFormat
    let index: Int
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: FFmpegDecoder
    let startPTS: Int64

    /// Opens `path` and the best stream of `type`. - Throws: `MediaError` when there is none.
    init(path: String, type: AVMediaType, missing: String) throws {
        format = try FFmpegFormat(path: path)
        guard let i = format.bestStream(type) else { throw MediaError("'\(path)' has no \(missing)") }
        index = i
        format.reads(only: i)
        stream = format.streams[i]
        decoder = try FFmpegDecoder(format: format, stream: i)
        startPTS = format.startPTS(ofStream: i)
    }

    /// Goes back to the keyframe at or before `seconds` (to the start by bytes when the container cannot seek
    /// by time) and forgets what the decoder holds.
    func seek(to seconds: Double) {
        if !format.seek(stream: index, to: seconds) {
            avformat_seek_file(format.context, -1, Int64.min, 0, 0, AVSEEK_FLAG_BYTE)
        }
        decoder.flush()
    }

    /// The next decoded frame (owned by the caller), or nil at the end.
    func nextFrame() throws -> UnsafeMutablePointer<AVFrame>? { try decoder.nextFrame(from: format) }

    /// Seconds from the stream's start at which `frame` is shown (its best-effort timestamp).
    func seconds(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
        let pts = frame.pointee.best_effort_timestamp == lp_av_nopts_value() ? startPTS : frame.pointee.best_effort_timestamp
        return Double(pts - startPTS) * av_q2d(stream.pointee.time_base)
    }
}
