import Dispatch
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Synchronization

/// What the compositing and encoding threads share: the first failure and the order of filled surfaces.
/// One output frame on its way to the encoder: a composited surface of the pool, or a decoded picture that is
/// the whole frame as it is (a plain transcode: `Compositor.directVideo`), which skips compositing.
enum ExportFrame: @unchecked Sendable {
    case surface(slot: Int, backdrop: Backdrop?)
    case picture(PixelBuffer)
    /// A decoded picture with a composited rectangle of a surface above it.
    case overVideo(slot: Int, video: OverlaidVideo)
    /// Only videos over a colour, drawn straight into the encoder's planes.
    case mosaic(VideoMosaic)
}

final class PipelineState: Sendable {
    let failure = Guarded<(any Error)?>(nil)
    /// Frames to encode in order, with their output frame number; nil tells the encoder thread that no more will come.
    let queue = Guarded<[(Int, ExportFrame)?]>([])
}

/// Drives a layer tree over a time range at a frame rate and writes the frames (and the source's audio) to a
/// file: frame-exact times (output frame i is at i·den/num seconds, never wall clock), compositing and encoding
/// overlapped on two threads. Atomic: it writes beside the target (`PartialFile`) and puts the file in place only
/// when complete; a failure or a signal (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT: `Interruption`) leaves neither a partial
/// file nor a temporary behind. The exceptions, a stream or a segmented `target`, are written in place
/// (`exportInPlace`).
public final class Exporter {
    /// How far an export is: frames written of the total, and the rate so far (frames a second of wall time).
    public struct Progress: Sendable {
        /// Frames written so far.
        public var frame: Int
        /// Frames the export writes in all.
        public var total: Int
        /// Frames written a second of wall time, so far.
        public var framesPerSecond: Double
        /// Bytes of output so far (`MovieWriter.bytesWritten`), and wall seconds since the export began.
        public var bytesWritten: Int64 = 0, elapsed: Double = 0
        /// With two passes (`EncoderControl.twoPass`): 1 while the first pass runs, 2 during the second; 0 for one pass.
        public var pass = 0
    }
    /// What an export did: frames, wall seconds, each frame's compositing time, and how many frames skipped compositing.
    public struct Statistics: Sendable {
        /// Frames written.
        public var frames: Int
        /// Wall-clock seconds the export took.
        public var seconds: Double
        /// Each frame's compositing time, in milliseconds, in frame order.
        public var renderMilliseconds: [Double]
        /// Frames that were a decoded picture as it is, encoded without compositing.
        public var directFrames = 0
        /// Frames that were a decoded picture with only a rectangle above it composited (`Compositor.renderFrame`).
        public var overVideoFrames = 0
        /// Frames that were only videos over a colour, resampled into the encoder's planes (`VideoMosaic`).
        public var mosaicFrames = 0
        /// Bytes of the finished output.
        public var bytesWritten: Int64 = 0
        /// With `realtime`: frames handed to the encoder more than one frame's time after they were due (a live
        /// viewer would have seen them dropped or stalled); 0 when the export held real time.
        public var lateFrames = 0
    }

    /// The tree rendered into every frame.
    public let root: Layer
    /// The movie's size in pixels.
    public let width: Int, height: Int
    /// The encoder's codec, quality, preset and frame rate.
    public let settings: EncoderSettings
    /// Where on the timeline the export starts, in seconds: the tree is rendered at `start`, `start + 1/fps`, …
    /// (its host's clock starts at `start`, as a window's does, SEMANTICS-ANIMATION.md §1), so output frame `i`
    /// shows what a window shows at that time, video and animations alike; `audioSource` is read from there too.
    public let start: Double
    /// How many frames the movie has.
    public let frameCount: Int
    /// A media file whose audio the movie carries from `start`; nil for a silent movie.
    public let audioSource: String?
    /// Seconds of `audioSource` before timeline time 0 (a scene input's `start`): the sound of timeline time `t`
    /// is the source's `t + audioOffset`, as its picture's is. Not finite: 0; negative: the movie is silent
    /// until the source's start.
    public var audioOffset = 0.0
    /// The source's sound wraps at this media time (a looping scene input: its duration, where its picture
    /// wraps), so the movie's sound repeats to its length; nil: it plays once.
    public var audioLoopLength: Double?
    /// A media file whose subtitle streams the movie carries (for the exported range), when the container can
    /// hold them; nil for none (subtitles burnt in by a `SubtitleLayer` are pictures of the tree, not streams).
    public var subtitleSource: String?
    /// For a segment of a segmented export (`--frames A:B`): its frames and how they are encoded. Output frame `i`
    /// is then the timeline's frame `A + i`, at `start + (A + i)/fps` on the one clock; nil for a whole export.
    public var segment: SegmentEncoding?
    /// Asked before each frame after the first, with its timeline time: true ends the movie before that frame (a
    /// live input that ended; `frameCount` is then only the most it may have). nil: exactly `frameCount` frames.
    public var inputEnded: ((Double) -> Bool)?
    /// Timeline seconds per output second (`--speed` on an export): frames are the timeline's at `start + t × speed`
    /// and the sound is time-stretched to match, its pitch kept (`AudioSpan.tempo`). `frameCount` counts output frames.
    public var speed = 1.0
    /// A stream or segmented output (`OutputTarget`), written in place instead of beside the target and renamed;
    /// nil: the path given to `export` is one file (or a picture pattern).
    public var target: OutputTarget?
    /// Hands frame `i` over no earlier than `i / fps` seconds after the first (as `ffmpeg -re`): a server sees a
    /// live stream, not a burst.
    public var realtime = false
    /// Called with each frame's timeline time just before the tree is snapshotted for it, on the exporting thread: a
    /// host that changes the tree along the timeline does it here, frame-exact, as its window does (a playlist's
    /// `PlaylistTree.pose(at:)`, a scene's replayed controls).
    public var willSnapshot: ((Double) -> Void)?

    /// An export of `frameCount` frames of `root` from `start`; nothing is written until `export(to:replacing:progress:)`.
    public init(root: Layer, width: Int, height: Int, settings: EncoderSettings, start: Double, frameCount: Int,
                audioSource: String?) {
        self.root = root; self.width = width; self.height = height; self.settings = settings
        self.start = start; self.frameCount = frameCount; self.audioSource = audioSource
    }

    /// The longest output one export may produce, in seconds (a day), and its highest frame rate: a range or rate
    /// from a damaged file or a typo must end in an error, not in an export that runs until the disk is full.
    public static let maximumSeconds = 86_400.0
    /// The highest frame rate an export may have, frames a second.
    public static let maximumFrameRate = 1000.0

    /// Refuses a frame count or rate beyond the limits, before anything is written.
    func checkLimits() throws {
        let (num, den) = settings.frameRate
        let rate = Double(num) / Double(den)
        guard num > 0, den > 0, rate <= Self.maximumFrameRate else {
            throw MediaError("cannot export at \(num)/\(den) frames/s: the rate must be above 0 and at most \(Int(Self.maximumFrameRate))")
        }
        guard frameCount >= 1, Double(frameCount) / rate <= Self.maximumSeconds else {
            throw MediaError("cannot export \(frameCount) frames at \(rate) frames/s: one export is at least 1 frame and at most \(Int(Self.maximumSeconds / 3600)) hours")
        }
    }

    /// Writes the movie to `path` (or, for a pattern such as `f_%04d.png`, the numbered pictures).
    /// - Parameters:
    ///   - path: the movie's file (its extension chooses the container), or a numbered pattern for pictures.
    ///   - replacing: whether existing files are replaced. When not, a file that appeared at the target
    ///     while the export ran (another export to the same path) makes it fail with `FileExistsError` at the end,
    ///     atomically, instead of being replaced.
    ///   - progress: called as frames are written, with how far the export is.
    /// - Returns: what the export did.
    public func export(to path: String, replacing: Bool = true, progress: ((Progress) -> Void)? = nil) throws -> Statistics {
        try checkLimits()
        if let target, !target.isAtomic { return try exportInPlace(target, progress: progress) }
        return try Interruption.during {
            let sequence = MovieWriter.isImageSequence(path)
            PartialFile.sweep(beside: path)
            let scratch = PartialFile.path(for: path)
            // A temporary with our own PID in its name is the leftover of an earlier process that had our number.
            try? FileManager.default.removeItem(atPath: scratch)
            // A sequence is written into a scratch folder and its files moved into place at the end.
            let temporary = sequence ? (scratch as NSString).appendingPathComponent((path as NSString).lastPathComponent) : scratch
            do {
                if sequence { try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false) }
                InputFailures.reset()
                let stats = try runPasses(temporary: temporary, finalPath: path, progress: progress)
                try Interruption.check(writing: path)
                // A network input cut mid-way is a failure, not a shorter movie.
                if let broken = InputFailures.first { throw MediaError(broken) }
                if sequence {
                    try publishSequence(from: scratch, pattern: path, replacing: replacing)
                    try? FileManager.default.removeItem(atPath: scratch)
                } else {
                    try PartialFile.publish(temporary, at: path, replacing: replacing)
                }
                return stats
            } catch {
                try? FileManager.default.removeItem(atPath: scratch)
                // A signal is the reason whatever failed first (a read it abandoned): say so, and let the scope
                // know it was acted on (any other error makes it raise the signal again, killing us without a word).
                try Interruption.check(writing: path)
                throw error
            }
        }
    }

    /// Moves the numbered pictures from the scratch folder into place. Without replacing, a picture that is there
    /// already stops it, and the pictures this export put in place are taken back: none of them replaced anything,
    /// so the folder is left as it was.
    private func publishSequence(from scratch: String, pattern path: String, replacing: Bool) throws {
        let directory = (path as NSString).deletingLastPathComponent, pattern = (path as NSString).lastPathComponent
        var published: [String] = []
        do {
            for number in 1...max(1, frameCount) {
                guard let name = MovieWriter.sequenceFileName(pattern, number: number) else { break }
                let from = (scratch as NSString).appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: from) else { continue }
                let to = (directory as NSString).appendingPathComponent(name)
                try PartialFile.publish(from, at: to, replacing: replacing)
                published.append(to)
            }
        } catch {
            if !replacing { for file in published { unlink(file) } }
            throw error
        }
    }

    /// The export's sound on the source's time: from `start` shifted by `audioOffset` (before 0: silence first),
    /// `duration` long, wrapping with `audioLoopLength`.
    func audioSpan(_ duration: Double) -> AudioSpan {
        let placement = AudioPlacement(offset: audioOffset, loopLength: audioLoopLength)
        return AudioSpan(from: start + placement.offset, duration: duration, loopLength: placement.loopLength, tempo: speed)
    }

    /// The picture fills the output exactly, pixel for pixel.
    private func coversFrame(_ d: DirectVideo) -> Bool {
        abs(d.rect.minX) < 1e-6 && abs(d.rect.minY) < 1e-6 && abs(d.rect.width - Double(width)) < 1e-6
            && abs(d.rect.height - Double(height)) < 1e-6 && d.buffer.width == width && d.buffer.height == height
    }

    /// One encode of every frame with `settings` (one pass of a two-pass encode: `runPasses`).
    func run(settings: EncoderSettings, temporary: String, finalPath: String, progress: ((Progress) -> Void)?) throws -> Statistics {
        let only = ExportOutput(path: finalPath, settings: settings, target: target)
        return try run([(only, temporary)], progress: progress)
    }

    /// One render of every frame, encoded by one writer for each output (at `settings`' frame rate), each fed the
    /// frames it takes: a still only its one frame. Written to each output's `writePath` (a temporary, or a stream's URL).
    func run(_ outputs: [(output: ExportOutput, writePath: String)], progress: ((Progress) -> Void)?) throws -> Statistics {
        let rate = Double(settings.frameRate.num) / Double(settings.frameRate.den)
        let duration = Double(frameCount) / rate
        let finalPath = outputs[0].output.path
        var opened: [OutputSink] = []
        for (output, writePath) in outputs {
            var own = output.settings
            own.frameRate = settings.frameRate  // one render: one rate
            let writer = try MovieWriter(finalPath: output.path, temporaryPath: writePath, width: width, height: height, settings: own,
                                         audioFrom: output.carriesAudio ? audioSource : nil, audioSpan: audioSpan(duration),
                                         subtitlesFrom: output.carriesSubtitles ? subtitleSource : nil, segment: segment, target: output.target,
                                         outputSize: output.size)
            opened.append(OutputSink(writer: writer, output: output))
        }
        let sinks = opened
        // An output whose pictures are made as an earlier one's copies that one's planes (one conversion a frame).
        let leaders: [Int?] = sinks.indices.map { i in
            sinks[i].output.stillFrame != nil ? nil
                : sinks[..<i].firstIndex { $0.output.stillFrame == nil && sinks[i].writer.convertsLike($0.writer) }
        }
        let writer = sinks[0].writer  // the first output's size is the run's (as ffmpeg's -progress reports its first output)
        let compositor = Compositor()
        // Two surfaces in flight: one being encoded while the next is composited.
        let pool = [Surface(width: width, height: height), Surface(width: width, height: height)]
        // What each surface shows, so that a frame over an unchanged canvas redraws only what moved.
        var shows: [Backdrop?] = [nil, nil]
        let free = DispatchSemaphore(value: pool.count), ready = DispatchSemaphore(value: 0)
        let shared = PipelineState()
        let encoderDone = DispatchSemaphore(value: 0)
        let encoderThread = Thread {
            defer { encoderDone.signal() }
            while true {
                ready.wait()
                guard let next = shared.queue.withLock({ $0.removeFirst() }) else { break }
                let (index, item) = next
                // Each output in turn, from the one rendered frame (the first that fails stops them all).
                for (n, sink) in sinks.enumerated() where sink.takes(index) && shared.failure.withLock({ $0 == nil }) {
                    do {
                        if let leader = leaders[n] { try sink.writer.appendCopy(of: sinks[leader].writer); continue }
                        switch item {
                        case .surface(let slot, let backdrop): try sink.writer.append(pool[slot], backdrop: backdrop)
                        case .picture(let buffer): try sink.writer.append(buffer)
                        case .overVideo(let slot, let video): try sink.writer.append(video, surface: pool[slot])
                        case .mosaic(let mosaic): try sink.writer.append(mosaic)
                        }
                    } catch { shared.failure.withLock { $0 = error } }
                }
                free.signal()
            }
        }
        encoderThread.start()
        let began = DispatchTime.now().uptimeNanoseconds
        var renderTimes: [Double] = []
        var directFrames = 0, overVideoFrames = 0, mosaicFrames = 0
        let first = segment?.frames.lowerBound ?? 0 // the timeline's frame number of output frame 0
        var written = 0, lateFrames = 0
        for i in 0..<frameCount {
            do { try Interruption.check(writing: finalPath) } catch let stop { shared.failure.withLock { $0 = $0 ?? stop } }
            if shared.failure.withLock({ $0 != nil }) { break }
            // Frame-exact time: i · den / num, as a rational turned into seconds once.
            let outputTime = MediaTime(frame: Int64(first + i), rateNumerator: settings.frameRate.num, rateDenominator: settings.frameRate.den).seconds
            // At --speed X the output's second t shows the timeline's `start + t·X` (video, animations: one clock).
            let timelineTime = start + outputTime * speed
            if i > 0, let inputEnded, inputEnded(timelineTime) { break }
            written = i + 1
            if realtime {
                let due = began + UInt64(Double(i) / rate * 1e9)
                if DispatchTime.now().uptimeNanoseconds > due + UInt64(1e9 / rate) { lateFrames += 1 }
                Self.wait(until: due)
            }
            for sink in sinks { sink.output.target?.watchdog.arm() }  // a receiver that blocks the frame before this one for too long fails it
            if let failed = sinks.lazy.compactMap({ $0.output.target?.writeFailure }).first { shared.failure.withLock { $0 = $0 ?? MediaError(failed) }; break }
            free.wait()
            let slot = i % pool.count
            let t0 = DispatchTime.now().uptimeNanoseconds
            willSnapshot?(timelineTime)
            let snapshot = root.snapshot(at: timelineTime, frameIndex: first + i) // the timeline's time: one clock with the window
            let item: ExportFrame
            // A picture goes to the encoders as it is only when every output taking this frame can take it so.
            let takers = sinks.filter { $0.takes(i) }
            let acceptsPicture = { (b: PixelBuffer) in takers.allSatisfy { $0.writer.canAppendDirectly(b) } }
            let acceptsMosaicPicture = { (b: PixelBuffer) in takers.allSatisfy { $0.writer.canDrawIntoPlanes(b) } }
            if let direct = compositor.directVideo(snapshot, width: width, height: height), coversFrame(direct),
               acceptsPicture(direct.buffer) {
                item = .picture(direct.buffer)
                directFrames += 1
            } else {
                switch compositor.renderFrame(snapshot, into: pool[slot], over: shows[slot], acceptsPicture: acceptsPicture,
                                              acceptsMosaicPicture: acceptsMosaicPicture) {
                case .surface(let backdrop):
                    shows[slot] = backdrop
                    item = .surface(slot: slot, backdrop: backdrop)
                case .overVideo(let video):
                    shows[slot] = nil  // only the rectangle was drawn
                    item = .overVideo(slot: slot, video: video)
                    overVideoFrames += 1
                case .mosaic(let mosaic):
                    shows[slot] = nil  // nothing was drawn on the surface
                    item = .mosaic(mosaic)
                    mosaicFrames += 1
                }
            }
            renderTimes.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            shared.queue.withLock { $0.append((i, item)) }
            ready.signal()
            if let progress {
                let elapsed = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
                progress(Progress(frame: i + 1, total: frameCount, framesPerSecond: Double(i + 1) / max(elapsed, 1e-9),
                                  bytesWritten: writer.bytesWritten, elapsed: elapsed))
            }
        }
        // Let the encoder thread finish the frames it was given, then stop it.
        shared.queue.withLock { $0.append(nil) }
        ready.signal()
        encoderDone.wait()
        if let error = shared.failure.withLock({ $0 }) { throw error }
        for sink in sinks {
            try sink.checkFed(framesRendered: written)
            sink.output.target?.watchdog.arm()
            defer { sink.output.target?.watchdog.disarm() }
            try sink.writer.finish()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        return Statistics(frames: written, seconds: seconds, renderMilliseconds: renderTimes, directFrames: directFrames,
                          overVideoFrames: overVideoFrames, mosaicFrames: mosaicFrames, bytesWritten: writer.bytesWritten,
                          lateFrames: lateFrames)
    }
}
