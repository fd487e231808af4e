import ArgumentParser
import LayerMedia

/// A bitrate as ffmpeg writes it: bits a second with an optional k, M or G (`2500k`, `2.5M`).
struct BitRate: ExpressibleByArgument {
    var bitsPerSecond: Int64
    init?(argument: String) {
        guard let value = EncoderControl.parseBitrate(argument) else { return nil }
        bitsPerSecond = value
    }
}

/// `KEY=VALUE` for `--encoder-opt`.
struct EncoderOptionArgument: ExpressibleByArgument {
    var option: EncoderOption
    init?(argument: String) {
        guard let option = EncoderControl.parseOption(argument) else { return nil }
        self.option = option
    }
}

/// The encoder flags ffmpeg users know (CLI.md "Encoder control"), shared by media and scene exports.
struct EncoderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Average video bitrate (ffmpeg's -b:v), e.g. 2500k or 4M: rate control by bitrate instead of --crf.", valueName: "RATE"))
    var bitrate: BitRate?
    @Option(help: ArgumentHelp("Highest video bitrate (-maxrate); with --crf it caps it. Needs --bufsize for x264.", valueName: "RATE"))
    var maxrate: BitRate?
    @Option(help: ArgumentHelp("Rate-control buffer in bits (-bufsize), e.g. 8M.", valueName: "SIZE"))
    var bufsize: BitRate?
    @Option(help: ArgumentHelp("At most N frames between keyframes (-g).", valueName: "N"))
    var gop: Int?
    @Option(name: .customLong("pix-fmt"), help: ArgumentHelp("The encoded pictures' format by FFmpeg's name (yuv444p, yuva444p10le…).", valueName: "NAME"))
    var pixFmt: String?
    @Option(name: .customLong("encoder-opt"), help: ArgumentHelp("An option of the encoder itself, repeatable (x264-params=…, tune=film, row-mt=1).", valueName: "KEY=VALUE"))
    var encoderOpts: [EncoderOptionArgument] = []
    @Option(help: ArgumentHelp("Pass 1 or 2 of a two-pass encode (libx264, libvpx, libvpx-vp9), as ffmpeg's -pass.", valueName: "1|2"))
    var pass: Int?
    @Option(help: ArgumentHelp("Prefix of the two-pass statistics file, PREFIX-0.log (default layerplay2pass).", valueName: "PREFIX"))
    var passlogfile: String?
    @Flag(name: .customLong("two-pass"), help: "Both passes in one run (the statistics in a temporary folder).")
    var twoPass = false
    @Option(name: .customLong("audio-codec"), help: ArgumentHelp("Audio encoder (aac, libopus, flac, pcm_s16le, pcm_s24le…) or copy.", valueName: "NAME"))
    var audioCodec: String?
    @Option(name: .customLong("audio-bitrate"), help: ArgumentHelp("Audio bitrate (-b:a), e.g. 192k.", valueName: "RATE"))
    var audioBitrate: BitRate?

    /// Every long option of the group, for commands that pass unknown ones on elsewhere (scene runs).
    static let optionNames: Set<String> = ["--bitrate", "--maxrate", "--bufsize", "--gop", "--pix-fmt", "--encoder-opt", "--pass",
                                           "--passlogfile", "--two-pass", "--audio-codec", "--audio-bitrate"]
    static let flagNames: Set<String> = ["--two-pass"]

    func validate() throws {
        if let gop, gop < 1 || gop > 100_000 { throw ValidationError("--gop must be between 1 and 100000") }
        if let pass, pass != 1 && pass != 2 { throw ValidationError("--pass must be 1 or 2") }
        if twoPass && pass != nil { throw ValidationError("--two-pass runs both passes; leave out --pass") }
        if passlogfile != nil && pass == nil { throw ValidationError("--passlogfile needs --pass 1 or --pass 2") }
        if let passlogfile, passlogfile.isEmpty { throw ValidationError("--passlogfile must not be empty") }
        if let audioCodec, audioCodec.isEmpty { throw ValidationError("--audio-codec must name an encoder or copy") }
        if let pixFmt, pixFmt.isEmpty { throw ValidationError("--pix-fmt must name a pixel format") }
    }

    /// The flags as the library's `EncoderControl`; `metadataSource` is the file whose metadata and chapters are
    /// copied; a `transparentCanvas` keeps its alpha where the encoder can (CLI.md "Alpha").
    func control(metadataSource: String?, transparentCanvas: Bool) -> EncoderControl {
        var control = EncoderControl()
        control.transparentCanvas = transparentCanvas
        control.bitrate = bitrate?.bitsPerSecond
        control.maxrate = maxrate?.bitsPerSecond
        control.bufsize = bufsize?.bitsPerSecond
        control.gop = gop
        control.pixelFormat = pixFmt
        control.options = encoderOpts.map(\.option)
        control.pass = pass
        if let passlogfile { control.passLogFile = passlogfile }
        control.twoPass = twoPass
        control.audioCodec = audioCodec
        control.audioBitrate = audioBitrate?.bitsPerSecond
        control.metadataSource = metadataSource
        return control
    }
}
