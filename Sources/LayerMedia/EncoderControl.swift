import CFFmpeg
import CShims
import Foundation

/// One of the encoder's own options (`--encoder-opt KEY=VALUE`): an AVOption of the encoder (x264's `x264-params`,
/// `preset`, `tune`; libvpx's `row-mt`) or of every encoder (`g`, `bf`, `threads`), as `ffmpeg -KEY VALUE` sets it.
public struct EncoderOption: Sendable, Equatable {
    /// The option's name, as the encoder's AVOption table spells it.
    public var key: String
    /// Its value, as text (FFmpeg parses it for the option's type).
    public var value: String
    /// The option `key` set to `value`.
    public init(key: String, value: String) { self.key = key; self.value = value }
}

/// What ffmpeg's encoder flags set beyond quality and preset (`EncoderSettings`): rate control, keyframe interval,
/// picture format, the encoder's own options, two-pass encoding, the audio encoder, and where metadata comes from.
/// Every field left nil keeps the default the export had before these flags existed.
public struct EncoderControl: Sendable {
    /// Average video bitrate, bits a second (`-b:v`): rate control by bitrate instead of CRF.
    public var bitrate: Int64?
    /// The highest bitrate the rate control lets through, bits a second (`-maxrate`); with CRF it caps it.
    public var maxrate: Int64?
    /// The rate control's buffer, bits (`-bufsize`).
    public var bufsize: Int64?
    /// The most frames between two keyframes (`-g`).
    public var gop: Int?
    /// The encoded pictures' format by FFmpeg's name (`yuv444p`, `yuva444p10le`), instead of the one we choose.
    public var pixelFormat: String?
    /// The encoder's own options, applied last (they override `crf` and `preset`); an option no one took is an error.
    public var options: [EncoderOption] = []
    /// Which pass of a two-pass encode this is (1: statistics are written; 2: they are read), or nil for one pass.
    public var pass: Int?
    /// Both passes in one export (`Exporter`): pass 1 into a scratch file, its statistics in a temporary folder.
    public var twoPass = false
    /// The prefix of the two-pass statistics file (`PREFIX-0.log`, as ffmpeg's `-passlogfile`).
    public var passLogFile = "layerplay2pass"
    /// The audio encoder's name (`aac`, `libopus`, `flac`, `pcm_s16le`), `copy` to copy the source's packets
    /// (failing where the container cannot take them), or nil for the default: copy when it can, else encode.
    public var audioCodec: String?
    /// The audio encoder's bitrate, bits a second (`-b:a`); implies re-encoding.
    public var audioBitrate: Int64?
    /// The canvas is transparent: the movie keeps its alpha where the encoder has a format with alpha
    /// (`AlphaOutput`), unless `pixelFormat` says otherwise; where it has none, one warning.
    public var transparentCanvas = false
    /// A media file whose global metadata (title, artist, …) and chapters the movie carries, for the exported range.
    public var metadataSource: String?

    /// No control beyond the encoder settings: the encoder's defaults, FFmpeg's best streams, nothing copied.
    public init() {}

    /// The statistics file of a two-pass encode, as ffmpeg names it (`PREFIX-0.log`, the output stream's index).
    public var passLogPath: String { "\(passLogFile)-0.log" }

    /// Parses a bitrate as ffmpeg writes it: bits a second, with an optional k, M or G suffix (decimal: `2.5M`).
    public static func parseBitrate(_ text: String) -> Int64? {
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale = 1.0
        switch number.last {
        case "k", "K": scale = 1e3; number = number.dropLast()
        case "m", "M": scale = 1e6; number = number.dropLast()
        case "g", "G": scale = 1e9; number = number.dropLast()
        default: break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale >= 1, value * scale <= 1e11 else { return nil }
        return Int64((value * scale).rounded())
    }

    /// Parses `KEY=VALUE`: a key of letters, digits, `-` and `_`; the value may hold `=` and `:` (`x264-params=a=1:b=2`).
    public static func parseOption(_ text: String) -> EncoderOption? {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else { return nil }
        let key = String(text[..<eq]), value = String(text[text.index(after: eq)...])
        guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" }) else { return nil }
        return EncoderOption(key: key, value: value)
    }
}

/// Applies an `EncoderControl` to a video encoder before and after it is opened (`MovieWriter`).
struct VideoEncoderSetup {
    let control: EncoderControl
    let codecName: String
    let path: String

    /// The picture format `--pix-fmt` asks for, refused in one line when FFmpeg or the encoder does not know it.
    func requestedPixelFormat(_ codec: UnsafePointer<AVCodec>) throws -> AVPixelFormat? {
        guard let name = control.pixelFormat else { return nil }
        let format = av_get_pix_fmt(name)
        guard format != AV_PIX_FMT_NONE else { throw MediaError("unknown --pix-fmt '\(name)' (ffmpeg -pix_fmts lists them)") }
        let supported = Self.pixelFormats(of: codec)
        guard supported.isEmpty || supported.contains(format) else {
            let names = supported.compactMap { av_get_pix_fmt_name($0).map { String(cString: $0) } }
            throw MediaError("\(codecName) cannot encode \(name) pictures; --pix-fmt can be \(names.joined(separator: ", "))")
        }
        return format
    }

    /// For a transparent canvas without `--pix-fmt`: the encoder's best format with alpha; where it has none, nil
    /// and one warning (the canvas is then written as over black, as before).
    func transparentFormat(_ codec: UnsafePointer<AVCodec>) -> AVPixelFormat? {
        guard control.transparentCanvas, control.pixelFormat == nil else { return nil }
        if let format = AlphaOutput.pixelFormat(for: codec) { return format }
        StandardError.writeLine("layerplay: warning: \(codecName) cannot keep the canvas's transparency; '\(path)' is written over black"
                                + " (alpha: --codec prores_ks, qtrle or png in .mov, ffv1 in .mkv, .webm, a .png or .webp sequence)")
        return nil
    }

    /// The formats the encoder lists (empty when it lists none).
    static func pixelFormats(of codec: UnsafePointer<AVCodec>) -> [AVPixelFormat] {
        guard var p = codec.pointee.pix_fmts else { return [] }
        var formats: [AVPixelFormat] = []
        while p.pointee != AV_PIX_FMT_NONE { formats.append(p.pointee); p += 1 }
        return formats
    }

    /// Rate control, keyframe interval and two-pass flags on the context; CRF only when no bitrate is asked for.
    /// Call before `avcodec_open2`; returns whether CRF applies.
    func configure(_ enc: UnsafeMutablePointer<AVCodecContext>) throws -> Bool {
        if let bitrate = control.bitrate { enc.pointee.bit_rate = bitrate }
        if let maxrate = control.maxrate { enc.pointee.rc_max_rate = maxrate }
        if let bufsize = control.bufsize { enc.pointee.rc_buffer_size = Int32(clamping: bufsize) }
        if control.maxrate != nil && control.bufsize == nil && ["libx264", "libx264rgb", "libx265"].contains(codecName) {
            // x264 ignores a maxrate without a buffer ("VBV maxrate specified, but no bufsize, ignored").
            throw MediaError("--maxrate needs --bufsize for \(codecName) (the rate is kept over that many bits)")
        }
        if let gop = control.gop {
            enc.pointee.gop_size = Int32(gop)
            // x264 would otherwise also start a GOP at every scene cut: keyframes are then at least this often, as `-g`.
        }
        if let pass = control.pass {
            guard ["libx264", "libx264rgb", "libvpx", "libvpx-vp9"].contains(codecName) else {
                throw MediaError("--pass works with libx264, libvpx and libvpx-vp9, not \(codecName)")
            }
            if codecName.hasPrefix("libx264") && control.bitrate == nil {
                throw MediaError("two-pass libx264 needs --bitrate (x264 cannot make two passes at a constant rate factor)")
            }
            enc.pointee.flags |= pass == 1 ? AV_CODEC_FLAG_PASS1 : AV_CODEC_FLAG_PASS2
            if codecName.hasPrefix("libx264") {
                // x264 reads and writes its statistics file itself (`stats`), as ffmpeg hands it the log name.
                if pass == 2 && !FileManager.default.fileExists(atPath: control.passLogPath) {
                    throw MediaError("--pass 2 needs the statistics of pass 1 in '\(control.passLogPath)' (run --pass 1 first)")
                }
                av_opt_set(enc.pointee.priv_data, "stats", control.passLogPath, 0)
            } else if pass == 2 {
                // libvpx takes pass 1's statistics through the context (`stats_in`), as ffmpeg reads the log for it.
                guard let data = FileManager.default.contents(atPath: control.passLogPath), !data.isEmpty else {
                    throw MediaError("--pass 2 needs the statistics of pass 1 in '\(control.passLogPath)' (run --pass 1 first)")
                }
                let buffer = av_malloc(data.count + 1).assumingMemoryBound(to: CChar.self)
                data.withUnsafeBytes { buffer.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: data.count) }
                buffer[data.count] = 0
                enc.pointee.stats_in = buffer  // freed by avcodec_free_context
            }
        }
        return control.bitrate == nil
    }

    /// The encoder's own options as a dictionary for `avcodec_open2`.
    func optionDictionary() throws -> OpaquePointer? {
        var dict: OpaquePointer? = nil
        // libvpx writes no first-pass statistics at the realtime deadline our one-pass exports use (an empty log,
        // measured with ffmpeg 5.1 too): two passes run at "good", unless the user says otherwise.
        if control.pass != nil && codecName.hasPrefix("libvpx") && !control.options.contains(where: { $0.key == "deadline" }) {
            av_dict_set(&dict, "deadline", "good", 0)
        }
        for option in control.options {
            if option.key == "preset" { try EncoderLimits.checkPreset(option.value, encoder: codecName) }
            av_dict_set(&dict, option.key, option.value, 0)
        }
        return dict
    }

    /// After `avcodec_open2`: what is left in the dictionary no one took; one error naming them all.
    func checkLeftovers(_ dict: OpaquePointer?) throws {
        var names: [String] = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
            names.append(String(cString: next.pointee.key))
            entry = next
        }
        guard names.isEmpty else {
            throw MediaError("\(codecName) has no option\(names.count == 1 ? "" : "s") \(names.map { "'\($0)'" }.joined(separator: ", "))"
                             + " (--encoder-opt takes the encoder's own options: ffmpeg -h encoder=\(codecName) lists them)")
        }
    }
}

/// Writes a pass-1 encoder's statistics to the pass log. libvpx puts all of them, base64, in `stats_out` when it is
/// flushed (each flushing call sets the whole text again), so the text is written once, after the flush; x264
/// writes its own file (`stats`) and leaves `stats_out` empty.
enum PassLog {
    static func write(_ enc: UnsafeMutablePointer<AVCodecContext>, control: EncoderControl, codecName: String) throws {
        guard control.pass == 1, !codecName.hasPrefix("libx264") else { return }
        let text = enc.pointee.stats_out.map { String(cString: $0) } ?? ""
        guard !text.isEmpty, FileManager.default.createFile(atPath: control.passLogPath, contents: Data(text.utf8)) else {
            throw MediaError("cannot write the statistics file '\(control.passLogPath)'")
        }
    }
}
