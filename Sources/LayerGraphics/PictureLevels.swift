import Synchronization

/// One decoded HDR or wide-gamut frame at the sizes it is drawn at. Level k is the frame's Y′CbCr halved k times by a
/// 2×2 box (`PlaneReduction`), then converted to SDR BT.709 (`VideoColorConverter`); level 0 is the whole frame
/// converted. The compositor draws the deepest level the draw does not magnify (SEMANTICS.md § Colour, "Converted
/// at the size drawn"): a 4K phone video in a 1280×720 layer is tone-mapped at 1920×1080, a quarter of the work, as
/// mpv scales before it tone-maps. The pixels depend on the frame and the draw only, never on which levels were
/// converted before, so a window, a still and an export agree.
///
/// A level is converted once, when first asked for, and kept while the frame lives. The decoder converts each new
/// frame at the levels the draws of its stream's latest drawn frame asked for (`Stream.levels`: one per size the
/// frame is shown at, a picture-in-picture of one input has two), so in steady playback the draws find their levels
/// ready and convert nothing.
public final class PictureLevels: Sendable {
    /// What the frames of one stream share: the levels its latest drawn frame was drawn at, the frames' order, and the
    /// memory of halved pictures.
    public final class Stream: Sendable {
        /// The latest frame drawn (by `sequence`) and the levels its draws asked for.
        private let drawn = Guarded<(sequence: Int, levels: Set<Int>)>((-1, [0]))
        private let frames = Atomic<Int>(0)
        let reductionMemory = PictureMemoryPool(kept: 2)
        /// A stream not drawn yet (level 0).
        public init() {}
        /// The finest level the stream's latest drawn frame was drawn at (0 until one is drawn): the level a frame
        /// is handed over at.
        public var level: Int { drawn.withLock { $0.levels.min() ?? 0 } }
        /// Every level the latest drawn frame was drawn at: the decoder converts the next frames at each.
        public var levels: Set<Int> { drawn.withLock { $0.levels } }
        func nextSequence() -> Int { frames.add(1, ordering: .relaxed).oldValue }
        /// A draw of frame `sequence` took `level`: a later frame's draws start the set anew, an earlier frame's
        /// (a draw running behind) change nothing.
        func drawAsked(_ level: Int, sequence: Int) {
            drawn.withLock { state in
                if sequence > state.sequence { state = (sequence, [level]) } else if sequence == state.sequence { state.levels.insert(level) }
            }
        }

        /// Before the first draw: a layer of `drawnWidth` × `drawnHeight` points will show the stream's
        /// `frameWidth` × `frameHeight` frames, upright at scale 1 (a player layer knows as much from its bounds), so
        /// the first frames are converted at the level such a draw takes rather than at full size and again. A hint
        /// only: the draws themselves decide the pixels, and the next draw replaces it.
        public func anticipate(frameWidth: Int, frameHeight: Int, drawnWidth: Double, drawnHeight: Double) {
            guard drawnWidth > 0, drawnHeight > 0 else { return }
            let level = PictureLevels.level(texelsPerPixel: min(Double(frameWidth) / drawnWidth, Double(frameHeight) / drawnHeight))
            drawn.withLock { $0.levels = [level] }
        }
    }

    /// The level a draw takes where a pixel step covers `texels` texels of level 0 at the fewest: ⌊log₂ texels⌋, 0
    /// below 2 (so the level's texels are never larger than a pixel); `picture(level:)` clamps it to the deepest.
    public static func level(texelsPerPixel texels: Double) -> Int {
        var level = 0
        // (A hair of slack: an exact halving computed in floats must not fall a level short.)
        while level < 30 && texels * (1 + 1e-9) >= Double(2 << level) { level += 1 }
        return level
    }

    /// Level 0's size: the frame's own.
    public let width: Int, height: Int
    /// The deepest level: halving stops before a side would fall under 16 pixels.
    public let deepestLevel: Int
    private let source: PixelBuffer
    private let converter: VideoColorConverter
    private let stream: Stream
    /// The frame's place in its stream's order (`Stream.drawAsked`).
    private let sequence: Int
    private let converted = Guarded<[Int: PixelBuffer]>([:])

    /// The levels of `source` (planar Y′CbCr, 8 or 10 bits: `VideoColorConverter.canConvert`), converted by
    /// `converter`. Keeps `source` alive while the levels live.
    public init(source: PixelBuffer, converter: VideoColorConverter, stream: Stream) {
        precondition(PlaneReduction.canHalve(source.format), "\(source.format) cannot be converted by level")
        self.source = source
        self.converter = converter
        self.stream = stream
        sequence = stream.nextSequence()
        width = source.width
        height = source.height
        var deepest = 0
        while min(width, height) >> (deepest + 1) >= 16 { deepest += 1 }
        deepestLevel = deepest
    }

    /// The frame at `level` (clamped to 0…`deepestLevel`), converted now unless it already was.
    public func picture(level: Int) -> PixelBuffer {
        let level = max(0, min(level, deepestLevel))
        return converted.withLock { pictures in
            if let picture = pictures[level] { return picture }
            var reduced = source
            for _ in 0..<level { reduced = PlaneReduction.halved(reduced, pool: stream.reductionMemory) }
            let picture = converter.convert(reduced)
            pictures[level] = picture
            return picture
        }
    }

    /// `picture(level:)` for a draw: also tells the stream, so the decoder converts its next frames at this level.
    public func pictureForDraw(level: Int) -> PixelBuffer {
        let level = max(0, min(level, deepestLevel))
        stream.drawAsked(level, sequence: sequence)
        return picture(level: level)
    }

    /// The levels converted so far.
    public var convertedLevels: Set<Int> { converted.withLock { Set($0.keys) } }

    /// Whether the levels the stream's latest drawn frame was drawn at are all converted (`prepareDrawnLevels`).
    public var hasDrawnLevels: Bool {
        let wanted = Set(stream.levels.map { max(0, min($0, deepestLevel)) })
        return converted.withLock { wanted.isSubset(of: $0.keys) }
    }

    /// Converts the levels the stream's latest drawn frame was drawn at, so that draws of this frame find them ready:
    /// the decoder does this for the frames it holds.
    public func prepareDrawnLevels() { for level in stream.levels.sorted() { _ = picture(level: level) } }

    /// The frame as a layer's contents: the picture at the stream's last drawn level, standing for the whole frame
    /// (its `levels` are these, so a draw can pick another level, and contents are placed by the frame's own size).
    public func contentsPicture() -> PixelBuffer {
        PixelBuffer(standingFor: self, shown: picture(level: stream.level))
    }
}
