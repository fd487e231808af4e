import CFFmpeg
import CShims

/// The FFmpeg libraries this process runs with (what `layerplay --version` reports).
public enum FFmpegLibraries {
    /// "avformat 59.27.100, avcodec 59.37.100, …" from the libraries' own version calls.
    public static var versions: String {
        func text(_ name: String, _ v: UInt32) -> String { "\(name) \(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)" }
        return [text("avformat", avformat_version()), text("avcodec", avcodec_version()), text("avutil", avutil_version()),
                text("swscale", swscale_version()), text("swresample", swresample_version())].joined(separator: ", ")
    }

    /// The message FFmpeg gives for an error code (`Invalid data found when processing input`).
    public static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        lp_av_error_string(code, &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
