import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

/// Drawing an HDR frame at the size it is drawn (SEMANTICS.md § Colour, "Converted at the size drawn"): the level a
/// draw picks, and pixels that depend on the draw only, never on the level the frame was decoded at.
@Suite("Picture levels drawn")
struct PictureLevelsDrawTests {
    let converter = VideoColorConverter(source: ColorDescription(matrix: .bt2020, primaries: .bt2020, transfer: .pq))

    /// A 10-bit PQ frame with detail at every scale: a ramp, a chroma sweep and a one-pixel checker in one corner.
    func frame(width: Int = 256, height: Int = 128, stream: PictureLevels.Stream = PictureLevels.Stream()) -> PictureLevels {
        let source = PixelBuffer(format: .yuv420p10, width: width, height: height, matrix: .bt2020, range: .limited) { p, base, bytesPerRow in
            let w = p == 0 ? width : (width + 1) / 2, h = p == 0 ? height : (height + 1) / 2
            for y in 0..<h {
                let row = (base + y * bytesPerRow).assumingMemoryBound(to: UInt16.self)
                for x in 0..<w {
                    let checker = x < w / 4 && y < h / 4 && (x + y) % 2 == 0 ? 200 : 0
                    row[x] = UInt16(p == 0 ? 64 + (x * 700) / w + checker : 512 + (p == 1 ? x - w / 2 : y - h / 2) * 300 / w)
                }
            }
        }
        return PictureLevels(source: source, converter: converter, stream: stream)
    }

    /// A 200×100 root holding one layer of `size` at (8, 8) showing `contents`.
    func scene(_ contents: LayerContents, size: Size, _ configure: (Layer) -> Void = { _ in }) -> (root: Layer, video: Layer) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        root.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.1)
        let video = Layer()
        video.frame = Rect(x: 8, y: 8, width: size.width, height: size.height)
        video.contents = contents
        configure(video)
        root.addSublayer(video)
        return (root, video)
    }

    func pixels(_ surface: Surface) -> [UInt32] { Array(UnsafeBufferPointer(start: surface.pixels, count: surface.width * surface.height)) }

    @Test(arguments: [(64.0, 32.0, 2), (128, 64, 1), (96, 48, 1), (256, 128, 0), (512, 256, 0), (40, 20, 2)])
    func theLevelIsTheDeepestWhoseTexelsStayWithinAPixel(_ width: Double, _ height: Double, _ level: Int) {
        let stream = PictureLevels.Stream()
        let levels = frame(stream: stream)
        _ = Compositor().render(scene(.pixelBuffer(levels.contentsPicture()), size: Size(width: width, height: height)).root.snapshot(),
                                width: 200, height: 100)
        #expect(stream.level == level, "a 256×128 frame in \(width)×\(height)")
    }

    @Test func perspectiveThatMagnifiesAnEdgeTakesAShallowerLevel() {
        // 512×256 in 128×64 is 4 texels a pixel (level 2) flat; turned 60° under perspective its near edge is larger.
        for (turned, level) in [(false, 2), (true, 1)] {
            let stream = PictureLevels.Stream()
            let levels = frame(width: 512, height: 256, stream: stream)
            let (root, _) = scene(.pixelBuffer(levels.contentsPicture()), size: Size(width: 128, height: 64)) { layer in
                if turned { layer.transform = Transform3D.makeRotation(.pi / 3, 0, 1, 0).concatenating(.makePerspective(distance: 200)) }
            }
            _ = Compositor().render(root.snapshot(), width: 200, height: 100)
            #expect(stream.level == level, "turned: \(turned)")
        }
    }

    @Test func theDrawIsTheLevelsPictureWhateverLevelTheFrameCameAt() {
        let size = Size(width: 64, height: 32)
        // The frame as the decoder hands it before any draw (level 0), and after draws at level 2 (half of half).
        let fresh = frame()
        let drawnBefore = PictureLevels.Stream()
        _ = frame(stream: drawnBefore).pictureForDraw(level: 2)
        let later = frame(stream: drawnBefore)
        #expect(fresh.contentsPicture().width == 256 && later.contentsPicture().width == 64)
        let a = Compositor().render(scene(.pixelBuffer(fresh.contentsPicture()), size: size).root.snapshot(), width: 200, height: 100)
        let b = Compositor().render(scene(.pixelBuffer(later.contentsPicture()), size: size).root.snapshot(), width: 200, height: 100)
        // … and the same as the level's picture shown as a plain buffer.
        let c = Compositor().render(scene(.pixelBuffer(fresh.picture(level: 2)), size: size).root.snapshot(), width: 200, height: 100)
        #expect(pixels(a) == pixels(b))
        #expect(pixels(a) == pixels(c))
        // Not trivially: the full-size picture drawn there differs (it aliases the checker).
        let full = Compositor().render(scene(.pixelBuffer(fresh.picture(level: 0)), size: size).root.snapshot(), width: 200, height: 100)
        #expect(pixels(a) != pixels(full))
    }

    @Test func aReducedFrameIsPlacedByItsFullSize() {
        // Not stretched: `center` places contents by their size, which is the frame's even when it came reduced.
        let stream = PictureLevels.Stream()
        _ = frame(width: 128, height: 64, stream: stream).pictureForDraw(level: 1)
        let reduced = frame(width: 128, height: 64, stream: stream).contentsPicture()
        #expect(reduced.width == 64 && reduced.frameSize == Size(width: 128, height: 64))
        let plain = frame(width: 128, height: 64).picture(level: 0)
        let center: (Layer) -> Void = { $0.contentsGravity = .center }
        let a = Compositor().render(scene(.pixelBuffer(reduced), size: Size(width: 180, height: 80), center).root.snapshot(), width: 200, height: 100)
        let b = Compositor().render(scene(.pixelBuffer(plain), size: Size(width: 180, height: 80), center).root.snapshot(), width: 200, height: 100)
        #expect(pixels(a) == pixels(b))
        #expect(stream.level == 0)
    }

    @Test func aFrameShownAtTwoSizesHasBothLevelsReadyInTheNextFrames() {
        // One input in two layers (a picture in picture): the decoder prepares both sizes, not the last draw's alone.
        let stream = PictureLevels.Stream()
        let levels = frame(stream: stream)
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        for (x, width) in [(0.0, 128.0), (140, 32)] {
            let layer = Layer()
            layer.frame = Rect(x: x, y: 0, width: width, height: width / 2)
            layer.contents = .pixelBuffer(levels.contentsPicture())
            root.addSublayer(layer)
        }
        _ = Compositor().render(root.snapshot(), width: 200, height: 100)
        #expect(stream.levels == [1, 3] && stream.level == 1)
        let next = frame(stream: stream)
        #expect(!next.hasDrawnLevels)
        next.prepareDrawnLevels()
        #expect(next.hasDrawnLevels && next.convertedLevels == [1, 3])
        // The frame comes at the finer of the two.
        #expect(next.contentsPicture().width == 128)
        // A later frame's draw starts the set anew.
        _ = next.pictureForDraw(level: 2)
        #expect(stream.levels == [2])
        // A draw of an earlier frame, running behind, changes nothing.
        _ = levels.pictureForDraw(level: 0)
        #expect(stream.levels == [2])
    }

    @Test func aShadowDoesNotMoveTheLevel() {
        let stream = PictureLevels.Stream()
        let levels = frame(stream: stream)
        let (root, _) = scene(.pixelBuffer(levels.contentsPicture()), size: Size(width: 128, height: 64)) { layer in
            layer.shadowOpacity = 0.5
            layer.shadowRadius = 12
        }
        _ = Compositor().render(root.snapshot(), width: 200, height: 100)
        #expect(stream.level == 1)
        // Level 0 when the decoder handed it over, level 1 for the draw; the shadow's shape (drawn at a quarter size,
        // whose level would be 3) converted nothing.
        #expect(levels.convertedLevels == [0, 1])
    }
}
