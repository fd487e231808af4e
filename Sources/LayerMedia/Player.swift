import Foundation
import LayerGraphics

/// Holds a media asset, a current time and a rate, and gives the picture for any time (AVPlayer's role).
///
/// Frames are decoded on a dedicated thread, in order, with frame-accurate seeks, one frame ahead of the
/// times asked for. A window's clock and an audio sink drive `currentTime`; an export asks `frame(at:)` for
/// each output time.
public final class Player: @unchecked Sendable {
    /// The opened file's description: its streams, sizes and duration.
    public let asset: MediaAsset
    private let decoder: DecodeAhead
    private let state = Guarded<(time: Double, rate: Double, lastFrame: VideoFrame?, range: PlaybackRange?, offset: Double)>((0, 0, nil, nil, 0))

    /// Opens `path`. - Throws: `MediaError` when it cannot be opened or has no video.
    public init(path: String) throws {
        let s = try VideoFrameSource(path: path)
        asset = s.asset
        decoder = DecodeAhead(source: s)
    }

    /// Opens the file at `url` (AVPlayer's `init(url:)`); only file URLs. - Throws: `MediaError` as `init(path:)`.
    public convenience init(url: URL) throws {
        guard url.isFileURL else { throw MediaError("cannot open '\(url.absoluteString)': only file URLs are played") }
        try self.init(path: url.path)
    }

    deinit { decoder.stop() }

    /// The media time shown now, in seconds.
    public var currentTime: Double { state.withLock { $0.time } }
    /// Playback speed: 0 paused, 1 normal.
    public var rate: Double {
        get { state.withLock { $0.rate } }
        set { state.withLock { $0.rate = newValue } }
    }

    /// `rate = 1` (AVPlayer's `play()`).
    public func play() { rate = 1 }
    /// `rate = 0` (AVPlayer's `pause()`).
    public func pause() { rate = 0 }

    /// Moves the current time (the next frame asked for is decoded from the keyframe before it).
    public func seek(to seconds: Double) { state.withLock { $0.time = max(0, seconds) } }

    /// How the times asked for map to media times: a range of the medium, possibly looping (a window's
    /// timeline keeps running through loops). nil: times are media times.
    public var range: PlaybackRange? {
        get { state.withLock { $0.range } }
        set { state.withLock { $0.range = newValue } }
    }

    /// Seconds added to every time asked for before `range` maps it: the media time shown at time 0 (a scene
    /// input's `start`, SCENES.md §6). Before the medium's start the first frame shows. Not finite: 0.
    public var timeOffset: Double {
        get { state.withLock { $0.offset } }
        set { state.withLock { $0.offset = newValue.isFinite ? newValue : 0 } }
    }

    /// The media time shown at `seconds`: shifted by `timeOffset`, then mapped by `range`.
    private func mediaTime(_ seconds: Double) -> Double {
        let (range, offset) = state.withLock { ($0.range, $0.offset) }
        let t = seconds + offset
        return range?.mediaTime(t) ?? t
    }

    /// The frame shown at `seconds`; nil when none can be decoded. Errors after the first frame keep the last good one.
    public func frame(at seconds: Double) -> VideoFrame? {
        let media = mediaTime(seconds)
        let frame = decoder.frame(at: media)
        return state.withLock { s in
            if let frame { s.lastFrame = frame }
            return frame ?? s.lastFrame
        }
    }

    /// Whether asking for the frame at `seconds` now would wait for the decoder (it is still decoding towards it).
    public func wouldWait(forFrameAt seconds: Double) -> Bool {
        decoder.wouldWait(forFrameAt: mediaTime(seconds))
    }

    /// mpv's `--framedrop=decoder`, for a window (off by default, and for exports, which need every frame): while
    /// `wouldWait(forFrameAt:)` is asked for times more than two frames past the newest decoded frame, the decoder
    /// skips non-reference frames until it is within a frame of them again.
    public var dropsLateFrames: Bool {
        get { decoder.dropsLateFrames }
        set { decoder.dropsLateFrames = newValue }
    }

    /// Frames the decoder skipped to catch up (`dropsLateFrames`).
    public var framesSkippedByDecoder: Int { decoder.skippedCount }

    /// The time (as asked for, like `seconds`) of the newest frame decoded so far, when it lies at or before
    /// `seconds` within the same pass of the range: a window whose decoder is slower than its clock (`--speed 4` of
    /// a 1080p60 file) shows that frame now instead of waiting for the decoder to reach a clock that keeps running
    /// away from it (it never would). nil: nothing decoded, a seek pending, or the frame lies ahead of `seconds`.
    public func newestDecodedTime(atOrBefore seconds: Double) -> Double? {
        guard let newest = decoder.newestTime else { return nil }
        let media = mediaTime(seconds)
        guard newest <= media else { return nil }
        // The range maps the time asked for to media time by a shift within one pass (a loop wraps between
        // passes), so the newest frame's time is the same shift back from `seconds`.
        return seconds - (media - newest)
    }

    /// Whether the decoder holds `count` frames after the one shown at `seconds` (or all the stream has left, or as
    /// many as it queues): a window shows the first frame of a position once it does (mpv waits for its queue likewise).
    public func holdsFrames(after seconds: Double, count: Int) -> Bool {
        decoder.holdsFrames(after: mediaTime(seconds), count: count)
    }

    /// Whether the medium ended before `seconds` (its last frame is shown from an earlier time, and no other follows):
    /// an export of a live input stops there. Waits for the decoder to know.
    public func hasEnded(at seconds: Double) -> Bool {
        decoder.hasEnded(at: mediaTime(seconds))
    }

    /// `hasEnded(at:)` without waiting: true only once the decoder has reached the end (the demuxer said EOF or the
    /// stream broke, and every frame before it is decoded) and its last frame is the one shown at `seconds`. A window
    /// playing a live input asks it each turn to end when the stream does.
    public func hasEndedNow(at seconds: Double) -> Bool {
        decoder.hasEndedNow(at: mediaTime(seconds))
    }

    /// The frame at `currentTime`.
    public var currentFrame: VideoFrame? { frame(at: currentTime) }

    /// Whether a frame has been decoded (AVPlayerLayer's `isReadyForDisplay`).
    public var hasFrame: Bool { state.withLock { $0.lastFrame != nil } }

    /// Tells the decoder that a layer of `width` × `height` points will show the video upright at scale 1 (what a
    /// `PlayerLayer` knows from its bounds): HDR frames decoded before the first draw are then converted at the size
    /// such a draw takes (`PictureLevels.Stream.anticipate`). A hint for speed only; what is drawn never depends on it.
    public func anticipateDrawnSize(width: Double, height: Double) {
        guard let video = asset.video else { return }
        decoder.levelStream.anticipate(frameWidth: video.width, frameHeight: video.height, drawnWidth: width, drawnHeight: height)
    }
}
