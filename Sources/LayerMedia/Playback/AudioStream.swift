import CFFmpeg
import CShims
import Foundation

/// The sound of a file for playback: decoded and resampled (libswresample) to interleaved 32-bit float at
/// the output device's rate and channel count on a dedicated thread, into a bounded ring that an audio
/// device callback drains. Its samples carry playback timeline times, so the device's position is the
/// master clock (see `PlaybackRange` for the timeline).
///
/// Silence pads the sound to the end of the range when it is shorter than the video, so that the clock
/// runs to the end; with `loops` the sound continues from the range's start without a gap. An `AudioPlacement`
/// shifts the sound against the timeline (silence before its start) and wraps it at its own loop length.
public final class AudioStream: PlaybackSoundSource, @unchecked Sendable { // state guarded by `condition`
    /// The output device's samples a second, which the sound is resampled to.
    public let sampleRate: Int
    /// The output device's channel count, which the sound is mixed to.
    public let channels: Int
    /// The part of the medium played, and whether it loops.
    public let range: PlaybackRange
    /// How the sound's media time follows the timeline (identity: the same time).
    public let placement: AudioPlacement

    private let decoding: AudioDecoding
    /// Which audio stream of the file plays (0 = the first, as `--audio-stream`), and how many it has.
    public var track: (number: Int, count: Int) { decoding.track }
    private let condition = NSCondition()
    private var ring: [Float]
    private var ringHead = 0      // index (in frames) of the first queued frame
    private var ringCount = 0     // queued frames
    /// Timeline time of the first queued frame; advances as frames are read.
    private var readTime: Double
    /// Timeline time just after the last queued frame.
    private var writeTime: Double
    private var seekRequest: Double?
    private var finished = false
    private var stopped = false
    /// Counts seeks, so that frames decoded for an old position are never queued.
    private var serial = 0

    /// - Parameters: the output format of the device; `bufferSeconds` bounds the queue (latency after a
    ///   seek is not affected: a seek empties it).
    ///   `range` is on the timeline; `placement` maps the timeline onto the sound.
    ///   `keepsGaps`: a gap in the sound's timestamps (a live input's reconnect, `LiveReconnect`) is played as
    ///   silence as long as the gap, so that the sound after it plays at its own time, with its picture; off, the
    ///   samples follow one another whatever their timestamps say (a file's sound is continuous).
    public init(path: String, sampleRate: Int, channels: Int, range: PlaybackRange, placement: AudioPlacement = AudioPlacement(offset: 0),
                bufferSeconds: Double = 0.5, keepsGaps: Bool = false) throws {
        self.sampleRate = sampleRate
        self.channels = channels
        self.range = range
        self.placement = placement
        decoding = try AudioDecoding(path: path, sampleRate: sampleRate, channels: channels, keepsGaps: keepsGaps)
        ring = [Float](repeating: 0, count: max(4096, Int(bufferSeconds * Double(sampleRate))) * channels)
        readTime = range.start
        writeTime = range.start
        seekRequest = range.start
        let thread = Thread { [self] in run() }
        thread.name = "layerplay.audio-decode"
        thread.start()
    }

    deinit { stop() }

    /// Ends the decode thread.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Empties the queue and continues from timeline time `t`.
    public func seek(to t: Double) {
        condition.lock()
        serial += 1
        seekRequest = t
        ringCount = 0
        readTime = t
        writeTime = t
        finished = false
        condition.broadcast()
        condition.unlock()
    }

    /// Frames a `read` can take now without running short: those queued, or any number once the range has ended
    /// (silence then). A mix of several streams (`PlaylistAudioMix`) reads none of them until all have enough, so
    /// that no stream loses its place against the others.
    public var queuedFrames: Int {
        condition.lock()
        defer { condition.unlock() }
        return finished ? Int.max : ringCount
    }

    /// Whether the sound ended (the range's end, or a live input's stream stopped) and its last sample was read.
    public var hasPlayedOut: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished && ringCount == 0 && seekRequest == nil
    }

    /// Fills `frames` frames of `out` (interleaved) and says at which timeline time the first one plays.
    /// While the decoder is behind (just after a seek) it gives silence and `starved`: the time does not move.
    public func read(into out: UnsafeMutablePointer<Float>, frames: Int) -> (time: Double, starved: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let time = readTime
        let available = min(frames, ringCount)
        let capacity = ring.count / channels
        ring.withUnsafeBufferPointer { r in
            var copied = 0
            while copied < available {
                let start = (ringHead + copied) % capacity
                let run = min(available - copied, capacity - start)
                (out + copied * channels).update(from: r.baseAddress! + start * channels, count: run * channels)
                copied += run
            }
        }
        ringHead = (ringHead + available) % capacity
        ringCount -= available
        if available < frames { (out + available * channels).update(repeating: 0, count: (frames - available) * channels) }
        if available > 0 || finished {
            // After the end, silence keeps the clock running (the video may still be showing its last frame).
            readTime += Double(finished ? frames : available) / Double(sampleRate)
        }
        condition.broadcast()
        return (time, available < frames && !finished)
    }

    /// Lets go of the queued samples before timeline time `t` without playing them (a device that starts late
    /// catches up with a picture already moving). Returns whether the next sample read plays at `t` (or the sound has
    /// ended); false: the queue ran out first (the decoder is behind), so call it again with the next buffer.
    public func skip(to t: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let wanted = Int(((t - readTime) * Double(sampleRate)).rounded())
        guard wanted > 0 else { return true }
        let n = min(wanted, ringCount)
        let capacity = ring.count / channels
        ringHead = (ringHead + n) % capacity
        ringCount -= n
        readTime += Double(n) / Double(sampleRate)
        // After the end there is only silence, which plays at any time: the next read is at `t`.
        if finished && ringCount == 0 { readTime = max(readTime, t) }
        condition.broadcast()
        return n == wanted || finished
    }

    // MARK: Decode thread

    private func run() {
        condition.lock()
        defer { condition.unlock() }
        let capacity = ring.count / channels
        let rate = Double(sampleRate)
        let loopFrames = placement.loopLength.map { max(1, Int(($0 * rate).rounded())) }
        var position = range.start // timeline time of the next sample the thread queues
        // Decode-thread state (used with the lock released): silence still due before the sound starts, and
        // frames left until the sound wraps (its loop length, counted in samples so it never drifts).
        var lead = 0
        var cycleLeft: Int?
        func begin(at t: Double) {
            lead = Int((placement.silence(from: t) * rate).rounded())
            let from = lead > 0 ? 0 : placement.mediaTime(t) ?? 0
            cycleLeft = loopFrames.map { l in lead > 0 ? l : min(l, max(0, Int(((placement.untilWrap(from: t) ?? 0) * rate).rounded()))) }
            decoding.seek(to: from)
        }
        while !stopped {
            if let target = seekRequest {
                seekRequest = nil
                let mySerial = serial
                position = range.mediaTime(target)
                condition.unlock()
                begin(at: position)
                condition.lock()
                if mySerial != serial { continue }
            }
            // Room for a decoded frame (they hold at most a few thousand samples).
            if finished || capacity - ringCount < 8192 { condition.wait(); continue }
            let mySerial = serial
            let untilEnd = range.end.isFinite ? Int(((range.end - position) * rate).rounded()) : Int.max
            condition.unlock()
            var chunk: [Float] = []
            if untilEnd > 0 && lead > 0 {
                // A sound placed late (a negative offset): silence until it starts.
                let n = min(lead, untilEnd, 4096)
                chunk = [Float](repeating: 0, count: n * channels)
                lead -= n
            } else if untilEnd > 0 {
                if cycleLeft == 0, let l = loopFrames {
                    decoding.seek(to: 0) // the sound's own loop: gapless, in step with its picture
                    cycleLeft = l
                }
                let most = min(untilEnd, cycleLeft ?? Int.max, 8192)
                // Samples of the source, or silence past its end up to the range's end (or its loop's).
                chunk = decoding.next(maxFrames: most)
                if chunk.isEmpty && decoding.isAtEnd && (untilEnd != Int.max || cycleLeft != nil) {
                    chunk = [Float](repeating: 0, count: min(most, 4096) * channels)
                }
                if let c = cycleLeft { cycleLeft = c - chunk.count / channels }
            }
            let rangeDone = chunk.isEmpty && (untilEnd <= 0 || decoding.isAtEnd)
            let wraps = rangeDone && range.loops && range.length > 0 && range.end.isFinite
            if wraps { begin(at: range.start) } // gapless: the next samples follow at once
            condition.lock()
            if mySerial != serial { continue }
            if !chunk.isEmpty {
                append(chunk)
                position += Double(chunk.count / channels) / rate
            } else if rangeDone {
                if wraps { position = range.start } else { finished = true }
            }
        }
    }

    private func append(_ chunk: [Float]) {
        let capacity = ring.count / channels
        let frames = chunk.count / channels
        chunk.withUnsafeBufferPointer { c in
            ring.withUnsafeMutableBufferPointer { r in
                var written = 0
                while written < frames {
                    let start = (ringHead + ringCount + written) % capacity
                    let run = min(frames - written, capacity - start)
                    (r.baseAddress! + start * channels).update(from: c.baseAddress! + written * channels, count: run * channels)
                    written += run
                }
            }
        }
        ringCount += frames
        writeTime += Double(frames) / Double(sampleRate)
    }
}

/// The decoder side of an `AudioStream` (used by its thread only): packets → frames → interleaved floats at
/// the output format, trimmed to start exactly at a sought time.
final class AudioDecoding {
    private let source: DecodedStream
    private var swr: OpaquePointer?
    private let sampleRate: Int, channels: Int
    /// Output samples to drop before the sought time (the decoder restarts at the keyframe before it).
    private var skipUntil: Double?
    private(set) var isAtEnd = false
    /// Resampled samples not yet handed out.
    private var pending: [Float] = []
    /// Whether a gap in the timestamps becomes silence (`AudioStream`'s `keepsGaps`).
    private let keepsGaps: Bool
    /// Frames of silence to hand out before `pending`: the gap before its first sample. Counted, not stored, since
    /// a gap may last as long as a reconnect takes.
    private var silenceDue = 0
    /// The media time just after the last sample converted (nil after a seek, until a frame sets it).
    private var convertedUntil: Double?
    /// A gap shorter than this is jitter of the timestamps, not a gap (an AAC frame lasts 21 ms).
    static let shortestGap = 0.1

    /// The audio stream decoded, by its number among the file's audio streams, and how many there are.
    let track: (number: Int, count: Int)

    init(path: String, sampleRate: Int, channels: Int, keepsGaps: Bool = false) throws {
        source = try DecodedStream(path: path, type: AVMEDIA_TYPE_AUDIO, missing: "audio")
        self.sampleRate = sampleRate
        self.channels = channels
        self.keepsGaps = keepsGaps
        let audio = StreamChoice.indices(of: AVMEDIA_TYPE_AUDIO, in: source.format)
        track = (audio.firstIndex(of: source.index) ?? 0, audio.count)
    }

    deinit { swr_free(&swr) }

    func seek(to mediaTime: Double) {
        source.seek(to: mediaTime)
        swr_free(&swr) // its delay line holds samples of the old position
        pending.removeAll()
        silenceDue = 0
        convertedUntil = nil
        skipUntil = mediaTime
        isAtEnd = false
    }

    /// Up to `maxFrames` frames (interleaved floats); empty at the end or when a frame cannot be decoded.
    func next(maxFrames: Int) -> [Float] {
        while pending.isEmpty && silenceDue == 0 && !isAtEnd {
            guard let frame = try? source.nextFrame() else { isAtEnd = true; break }
            convert(frame)
        }
        if silenceDue > 0 {
            let n = min(maxFrames, silenceDue)
            silenceDue -= n
            return [Float](repeating: 0, count: n * channels)
        }
        let take = min(maxFrames, pending.count / channels) * channels
        let chunk = Array(pending.prefix(take))
        pending.removeFirst(take)
        return chunk
    }

    private func convert(_ input: UnsafeMutablePointer<AVFrame>) {
        var inputPointer: UnsafeMutablePointer<AVFrame>? = input
        defer { av_frame_free(&inputPointer) }
        guard let output = av_frame_alloc() else { return }
        var outputPointer: UnsafeMutablePointer<AVFrame>? = output
        defer { av_frame_free(&outputPointer) }
        av_channel_layout_default(&output.pointee.ch_layout, Int32(channels))
        output.pointee.sample_rate = Int32(sampleRate)
        output.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        // A plain WAV says how many channels but not which (no channel mask): libswresample refuses such a layout,
        // and nothing was heard. The default layout of that count is what every player assumes.
        if input.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            let count = input.pointee.ch_layout.nb_channels
            av_channel_layout_uninit(&input.pointee.ch_layout)
            av_channel_layout_default(&input.pointee.ch_layout, count)
        }
        // swr_convert_frame configures itself from the frames on first use (and after a seek freed it).
        if swr == nil {
            swr = swr_alloc()
            if input.pointee.ch_layout.nb_channels == 1 {
                // Mono is the same signal on every speaker at its own level, as ffplay plays it (SDL copies a mono
                // channel to each side); libswresample's own upmix puts it at -3 dB on each (a fixed 1/sqrt(2)).
                swr_config_frame(swr, output, input)
                let gains = [Double](repeating: 1, count: channels)
                _ = gains.withUnsafeBufferPointer { swr_set_matrix(swr, $0.baseAddress, 1) }
                if swr_init(swr) < 0 { swr_free(&swr); return }
            }
        }
        guard swr_convert_frame(swr, output, input) >= 0, let data = output.pointee.extended_data?.pointee else {
            swr_free(&swr) // a change of input format mid-stream: reconfigure on the next frame
            return
        }
        let count = Int(output.pointee.nb_samples) * channels
        var samples = UnsafeRawPointer(data).withMemoryRebound(to: Float.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
        let frameTime = source.seconds(of: input)
        if keepsGaps, skipUntil == nil, let until = convertedUntil, frameTime - until >= Self.shortestGap {
            // The stream went quiet and came back later on its clock (`convert` runs only once `pending` is empty).
            silenceDue = Int(((frameTime - until) * Double(sampleRate)).rounded())
        }
        if frameTime.isFinite { convertedUntil = frameTime + Double(output.pointee.nb_samples) / Double(sampleRate) }
        if let target = skipUntil {
            let time = frameTime
            let drop = max(0, Int(((target - time) * Double(sampleRate)).rounded()))
            if drop * channels >= samples.count { return }
            samples.removeFirst(drop * channels)
            // Sound that starts later than the sought time (later than the picture): silence until it does.
            let gap = max(0, Int(((time - target) * Double(sampleRate)).rounded()))
            if gap > 0 { pending += [Float](repeating: 0, count: gap * channels) }
            skipUntil = nil
        }
        pending += samples
    }
}
