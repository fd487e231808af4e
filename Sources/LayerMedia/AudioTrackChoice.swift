import CFFmpeg

/// Which writer carries a source's sound into a movie, by `--audio-codec` and `--audio-bitrate` (`EncoderControl`):
/// by default the packets are copied when the container takes the source's codec and the span is plain, else
/// re-encoded with the container's choice; `copy` insists on copying (one error where it cannot); a named encoder
/// or a bitrate always re-encodes (as ffmpeg's `-c:a NAME` and `-b:a`).
enum AudioTrackChoice {
    static func writer(source: String, span: AudioSpan, into output: UnsafeMutablePointer<AVFormatContext>, name: String,
                       control: EncoderControl) throws -> any AudioTrackWriter {
        if control.audioCodec == "copy" {
            guard control.audioBitrate == nil else {
                throw MediaError("--audio-bitrate needs an audio encoder; --audio-codec copy copies the packets as they are")
            }
            guard span.isPlain else {
                throw MediaError("cannot copy the audio into '\(name)': a sound that starts with silence, loops or plays at another --speed must be encoded (--audio-codec aac)")
            }
            return try AudioCopier(source: source, range: span.sourceRange, into: output, name: name)
        }
        if control.audioCodec == nil && control.audioBitrate == nil {
            if span.isPlain, let copier = try? AudioCopier(source: source, range: span.sourceRange, into: output, name: name) {
                return copier
            }
        }
        return try AudioTranscoder(source: source, span: span, into: output, name: name,
                                   codecName: control.audioCodec, bitRate: control.audioBitrate)
    }
}
