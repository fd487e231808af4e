import CFFmpeg
import Foundation
@testable import LayerMedia
import Testing

/// Every video frame of `path`, decoded in order: how many, and the last one's time in seconds.
private func decodedVideoFrames(_ path: String) throws -> (count: Int, last: Double) {
    let source = try VideoFrameSource(path: path)
    var count = 0, last = -1.0
    while let frame = try source.decodeNext() { count += 1; last = frame.time.seconds }
    return (count, last)
}

/// Seconds of audio in `path`, decoded to the end.
private func decodedAudioSeconds(_ path: String) throws -> Double {
    let stream = try DecodedStream(path: path, type: AVMEDIA_TYPE_AUDIO, missing: "audio")
    var samples = 0, rate = 0
    while let frame = try stream.nextFrame() {
        samples += Int(frame.pointee.nb_samples)
        rate = Int(frame.pointee.sample_rate)
        var owned: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&owned)
    }
    return rate > 0 ? Double(samples) / Double(rate) : 0
}

/// `frames` frames of `input` at 25 fps, its audio with them, into `path` with the container's default codecs.
private func export(_ input: String, frames: Int, to path: String) throws {
    let player = try Player(path: input)
    _ = try Exporter(root: plainScene(player), width: 320, height: 180, settings: EncoderSettings(frameRate: (25, 1)), start: 0,
                     frameCount: frames, audioSource: input).export(to: path)
}

@Suite("Containers")
struct ContainerTests {
    /// MPEG-TS lists no codecs (FFmpeg answers "unknown" for AAC and H.264): the AAC was refused ("takes neither
    /// the source's codec nor AAC"). It takes both: H.264 video, the AAC copied.
    @Test func aTransportStreamGetsH264AndTheAACAsItIs() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.ts").path
            try export(sample("clip.mp4"), frames: 25, to: out)
            let asset = try MediaAsset(path: out)
            #expect(asset.video?.codec == "h264" && asset.audio?.codec == "aac")
            let video = try decodedVideoFrames(out)
            #expect(video.count == 25 && abs(video.last - 24.0 / 25) < 1e-3, "\(video)")
            #expect(abs(try decodedAudioSeconds(out) - 1) < 0.05)
        }
    }

    /// The mov muxer lists Opus but refuses it ("opus only supported in MP4"): Opus from a WebM is re-encoded as AAC.
    @Test func opusIntoAMovIsReencodedAsAAC() throws {
        try withTemporaryDirectory { dir in
            let webm = dir.appendingPathComponent("opus.webm").path, mov = dir.appendingPathComponent("out.mov").path
            try export(sample("clip.mp4"), frames: 25, to: webm)
            #expect(try MediaAsset(path: webm).audio?.codec == "opus")
            try export(webm, frames: 20, to: mov)
            let asset = try MediaAsset(path: mov)
            #expect(asset.video?.codec == "h264" && asset.audio?.codec == "aac")
            let video = try decodedVideoFrames(mov)
            #expect(video.count == 20 && abs(video.last - 19.0 / 25) < 1e-3, "\(video)")
            #expect(abs(try decodedAudioSeconds(mov) - 0.8) < 0.05)
        }
    }

    /// GIF takes only GIF pictures and no sound: the default was libx264, and the audio was refused.
    @Test func aGIFGetsTheGIFEncoderAndNoAudio() throws {
        try withTemporaryDirectory { dir in
            let out = dir.appendingPathComponent("out.gif").path
            try export(sample("clip.mp4"), frames: 25, to: out)
            let asset = try MediaAsset(path: out)
            #expect(asset.video?.codec == "gif" && asset.video?.width == 320 && asset.video?.height == 180)
            #expect(asset.audio == nil)
            let video = try decodedVideoFrames(out)
            #expect(video.count == 25 && abs(video.last - 24.0 / 25) < 1e-3, "\(video)")
        }
    }

    @Test func defaultEncodersAreOnesTheContainerTakes() throws {
        for (name, encoder) in [("x.mp4", "libx264"), ("x.mov", "libx264"), ("x.mkv", "libx264"), ("x.ts", "libx264"),
                                ("x.webm", "libvpx-vp9"), ("x.gif", "gif")] {
            let format = try #require(av_guess_format(nil, name, nil))
            #expect(OutputContainer(format).defaultVideoEncoder() == encoder, "\(name)")
        }
    }

    /// MPEG-TS and GIF answer "unknown" (a trial settles it); Matroska's "yes" to H.264 and HEVC stands, though a
    /// trial without the encoder's headers fails there.
    @Test func whatAContainerMayTakeBeforeTheEncoderOpens() throws {
        let ts = OutputContainer(try #require(av_guess_format(nil, "x.ts", nil)))
        let mkv = OutputContainer(try #require(av_guess_format(nil, "x.mkv", nil)))
        let gif = OutputContainer(try #require(av_guess_format(nil, "x.gif", nil)))
        let webm = OutputContainer(try #require(av_guess_format(nil, "x.webm", nil)))
        #expect(ts.mayTakeVideo(AV_CODEC_ID_H264) && gif.mayTakeVideo(AV_CODEC_ID_GIF))
        #expect(mkv.mayTakeVideo(AV_CODEC_ID_H264) && mkv.mayTakeVideo(AV_CODEC_ID_HEVC))
        #expect(!gif.mayTakeVideo(AV_CODEC_ID_H264) && !webm.mayTakeVideo(AV_CODEC_ID_H264))
        #expect(webm.videoEncoderNames(preferred: "libvpx-vp9").first == "libvpx-vp9")
        #expect(!webm.videoEncoderNames(preferred: nil).contains("libx264"))
        #expect(mkv.videoEncoderNames(preferred: nil).contains("libx264") && mkv.videoEncoderNames(preferred: nil).contains("libx265"))
        #expect(!gif.takesAudio && mkv.takesAudio)
    }
}
