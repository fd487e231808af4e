@testable import LayerGraphics
import Testing

/// An HDR frame converted at the size it is drawn (SEMANTICS.md § Colour, "Converted at the size drawn"): the 2×2 box
/// that halves its Y′CbCr, and the levels that convert each halving once.
@Suite("Picture levels")
struct PictureLevelsTests {
    /// A planar picture whose sample at (x, y) of plane p is `value(p, x, y)`.
    private func picture(_ format: PixelFormat, width: Int, height: Int, matrix: ColorMatrix = .bt2020,
                         value: @escaping (Int, Int, Int) -> Int) -> PixelBuffer {
        let wide = format.bitDepth > 8
        return PixelBuffer(format: format, width: width, height: height, matrix: matrix, range: .limited) { p, base, bytesPerRow in
            let shift = p == 0 ? (x: 0, y: 0) : format.chromaShift
            let w = (width + (1 << shift.x) - 1) >> shift.x, h = (height + (1 << shift.y) - 1) >> shift.y
            for y in 0..<h {
                for x in 0..<w {
                    if wide { (base + y * bytesPerRow).assumingMemoryBound(to: UInt16.self)[x] = UInt16(value(p, x, y)) }
                    else { (base + y * bytesPerRow).assumingMemoryBound(to: UInt8.self)[x] = UInt8(value(p, x, y)) }
                }
            }
        }
    }

    private func sample(_ buffer: PixelBuffer, _ p: Int, _ x: Int, _ y: Int) -> Int {
        let plane = buffer.planes[p]
        return buffer.format.bitDepth > 8
            ? Int((plane.base + y * plane.bytesPerRow).assumingMemoryBound(to: UInt16.self)[x])
            : Int((plane.base + y * plane.bytesPerRow).assumingMemoryBound(to: UInt8.self)[x])
    }

    private func samplesEqual(_ a: PixelBuffer, _ b: PixelBuffer) -> Bool {
        guard a.format == b.format, a.width == b.width, a.height == b.height else { return false }
        for p in 0..<a.planes.count {
            for y in 0..<a.planes[p].height {
                for x in 0..<a.planes[p].width where sample(a, p, x, y) != sample(b, p, x, y) { return false }
            }
        }
        return true
    }

    private func noise(_ p: Int, _ x: Int, _ y: Int) -> Int {
        var h = UInt64(p * 7919 + x * 104_729 + y * 1_299_709) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        return p == 0 ? 64 + Int(h % 877) : 64 + Int(h % 897)
    }

    @Test(arguments: [PixelFormat.yuv420p10, .yuv420p, .yuv422p10, .yuv444p10])
    func halvingIsTheRoundedMeanOfEachTwoByTwo(_ format: PixelFormat) {
        // Odd sizes: the last column and row pair with themselves.
        let source = picture(format, width: 37, height: 23) { p, x, y in format.bitDepth > 8 ? noise(p, x, y) : noise(p, x, y) % 256 }
        let half = PlaneReduction.halved(source)
        #expect(half.width == 19 && half.height == 12 && half.format == format && half.matrix == source.matrix)
        for p in 0..<3 {
            let from = source.planes[p], to = half.planes[p]
            #expect(to.width == (from.width + 1) / 2 && to.height == (from.height + 1) / 2)
            for y in 0..<to.height {
                for x in 0..<to.width {
                    let x1 = min(2 * x + 1, from.width - 1), y1 = min(2 * y + 1, from.height - 1)
                    let sum = sample(source, p, 2 * x, 2 * y) + sample(source, p, x1, 2 * y) + sample(source, p, 2 * x, y1) + sample(source, p, x1, y1)
                    if sample(half, p, x, y) != (sum + 2) >> 2 {
                        Issue.record("plane \(p) (\(x), \(y)): \(sample(half, p, x, y)), the mean is \((sum + 2) >> 2)")
                        return
                    }
                }
            }
        }
    }

    @Test func eachLevelIsTheHalvedFrameConvertedOnce() {
        let converter = VideoColorConverter(source: ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq))
        let source = picture(.yuv420p10, width: 160, height: 96, value: noise)
        let levels = PictureLevels(source: source, converter: converter, stream: PictureLevels.Stream())
        // Halving stops before a side falls under 16 pixels: 96 → 48 → 24 (→ 12 is too small).
        #expect(levels.deepestLevel == 2)
        #expect(samplesEqual(levels.picture(level: 0), converter.convert(source)))
        #expect(samplesEqual(levels.picture(level: 1), converter.convert(PlaneReduction.halved(source))))
        let quarter = levels.picture(level: 2)
        #expect(quarter.width == 40 && quarter.height == 24)
        #expect(samplesEqual(quarter, converter.convert(PlaneReduction.halved(PlaneReduction.halved(source)))))
        // Converted once and kept; levels past the deepest are the deepest.
        #expect(levels.picture(level: 1) === levels.picture(level: 1))
        #expect(levels.picture(level: 9) === quarter)
        #expect(levels.picture(level: -1) === levels.picture(level: 0))
    }

    @Test func aFrameStandsForItsFullSizeAtTheLevelItsStreamWasLastDrawnAt() {
        let converter = VideoColorConverter(source: ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .hlg))
        let stream = PictureLevels.Stream()
        let source = picture(.yuv420p10, width: 128, height: 64, value: noise)
        let first = PictureLevels(source: source, converter: converter, stream: stream)
        let shown = first.contentsPicture()
        #expect(shown.levels === first && shown.width == 128 && shown.frameSize == Size(width: 128, height: 64))
        #expect(samplesEqual(shown, first.picture(level: 0)))
        // A draw at level 1: the stream remembers, the next frame comes at half size but still stands for 128×64.
        _ = first.pictureForDraw(level: 1)
        #expect(stream.level == 1)
        let next = PictureLevels(source: source, converter: converter, stream: stream)
        #expect(next.hasDrawnLevels == false)
        let nextShown = next.contentsPicture()
        #expect(nextShown.width == 64 && nextShown.frameSize == Size(width: 128, height: 64))
        #expect(next.hasDrawnLevels)
        // A frame decoded before the change is brought to the drawn level by `prepareDrawnLevels`.
        let earlier = PictureLevels(source: source, converter: converter, stream: PictureLevels.Stream())
        _ = earlier.contentsPicture()
        let moved = PictureLevels(source: source, converter: converter, stream: stream)
        #expect(moved.hasDrawnLevels == false)
        moved.prepareDrawnLevels()
        #expect(moved.hasDrawnLevels)
        #expect(samplesEqual(moved.picture(level: 1), nextShown))
        // Before any draw, a player layer's size gives the level such a draw takes (the fewer texels of the two
        // axes); an empty size says nothing.
        let anticipated = PictureLevels.Stream()
        for (width, height, level) in [(32.0, 16.0, 2), (0, 0, 2), (50, 10, 1), (100, 10, 0), (200, 100, 0)] {
            anticipated.anticipate(frameWidth: 128, frameHeight: 64, drawnWidth: width, drawnHeight: height)
            #expect(anticipated.level == level, "128×64 in \(width)×\(height)")
        }
        // A buffer that is not a level of a frame is its own size.
        #expect(source.levels == nil && source.frameSize == source.size)
    }
}
