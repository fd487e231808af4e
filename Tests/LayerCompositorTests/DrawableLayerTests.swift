import LayerCompositor
import LayerGraphics
@testable import LayerKit
import Synchronization
import Testing

// SEMANTICS-LAYERS.md §8: DrawableLayer's pull callback, push buffers, every property, and what bad callbacks do.

/// Counts calls from a `@Sendable` callback and remembers the frames it was given.
private final class CallLog: Sendable {
    private let frames = Mutex<[DrawableFrame]>([])
    func record(_ f: DrawableFrame) { frames.withLock { $0.append(f) } }
    var all: [DrawableFrame] { frames.withLock { $0 } }
    var count: Int { all.count }
}

private struct Broken: Error {}

/// A root of `w`×`h` holding a drawable at its origin with the same size.
private func drawableScene(_ w: Double = 8, _ h: Double = 6, name: String = "drawable") -> (root: Layer, layer: DrawableLayer) {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: w, height: h)
    root.position = Point(x: w / 2, y: h / 2)
    let layer = DrawableLayer()
    layer.name = name
    layer.bounds = root.bounds
    layer.position = root.position
    root.addSublayer(layer)
    return (root, layer)
}

/// The drawable's image in a snapshot of `root`.
private func image(_ snapshot: LayerSnapshot) -> Image? {
    guard case .image(let image)? = snapshot.sublayers.first?.contents else { return nil }
    return image
}

/// A callback that fills the buffer with `color` and logs the frame.
private func filling(_ color: Color, log: CallLog) -> @Sendable (inout DrawableTarget, DrawableFrame) throws -> Bool {
    { target, frame in
        log.record(frame)
        target.fill(color)
        return true
    }
}

@Suite struct DrawableLayerTests {
    @Test func defaultsMatchTheTable() {
        let layer = DrawableLayer()
        #expect(layer.isOpaque)
        #expect(!layer.isAsynchronous)
        #expect(!layer.presentsWithTransaction)
        #expect(layer.maximumDrawableCount == 3)
        #expect(layer.render == nil)
        #expect(layer.drawableSize == Size(width: 0, height: 0))
    }

    @Test func drawableSizeFollowsBoundsTimesScaleRoundedUpUntilSet() {
        let layer = DrawableLayer()
        layer.bounds = Rect(x: 0, y: 0, width: 10.2, height: 5)
        layer.contentsScale = 2
        #expect(layer.drawableSize == Size(width: 21, height: 10))
        layer.drawableSize = Size(width: 4, height: 3)
        layer.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(layer.drawableSize == Size(width: 4, height: 3))
    }

    @Test func pullRendersAtTheDrawableSizeAndShowsTheBuffer() throws {
        let (root, layer) = drawableScene(8, 6)
        layer.contentsScale = 2
        let log = CallLog()
        layer.render = filling(.red, log: log)
        let img = try #require(image(root.snapshot(at: 0)))
        #expect(img.width == 16 && img.height == 12)
        #expect(img.pixel(x: 3, y: 3) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        #expect(log.all.first?.width == 16 && log.all.first?.height == 12)
        // Composited: the 16×12 buffer fills the 8×6 bounds.
        let surface = Compositor().render(root.snapshot(at: 0), width: 8, height: 6)
        #expect(surface.pixel(x: 4, y: 3) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func synchronousRendersOnceUntilSetNeedsDisplay() {
        let (root, layer) = drawableScene()
        let log = CallLog()
        layer.render = filling(.blue, log: log)
        for i in 0..<4 { _ = root.snapshot(at: Double(i) / 30) }
        #expect(log.count == 1)
        layer.setNeedsDisplay()
        let s = root.snapshot(at: 1)
        #expect(log.count == 2)
        #expect(image(s) != nil)
        _ = root.snapshot(at: 2)
        #expect(log.count == 2)
    }

    @Test func asynchronousRendersEverySnapshotWithTheLayersTime() {
        let (root, layer) = drawableScene()
        layer.isAsynchronous = true
        layer.beginTime = 1
        layer.speed = 2
        let log = CallLog()
        layer.render = filling(.green, log: log)
        for i in 0..<5 { _ = root.snapshot(at: 1 + Double(i) / 10, frameIndex: i) }
        let frames = log.all
        #expect(frames.count == 5)
        for (i, f) in frames.enumerated() {
            #expect(abs(f.layerTime - Double(i) / 5) < 1e-9) // (t − beginTime) · speed
            #expect(abs(f.outputTime - (1 + Double(i) / 10)) < 1e-9)
            #expect(f.frameIndex == i)
        }
        _ = root.snapshot(at: 3)
        #expect(log.all.last?.frameIndex == nil)
    }

    @Test func aLayerTimePatternMatchesAtEachFrame() throws {
        // The pattern's grey level is the frame's layer time × 100: each snapshot shows its own time, deterministically.
        let (root, layer) = drawableScene()
        layer.isAsynchronous = true
        layer.render = { target, frame in
            let v = UInt8(min(max(frame.layerTime * 100, 0), 255))
            target.withUnsafeMutablePixels { $0.update(repeating: PremultipliedColor(r: v, g: v, b: v, a: 255).bgra) }
            return true
        }
        for i in [0, 7, 2, 9] {
            let img = try #require(image(root.snapshot(at: Double(i) / 10)))
            #expect(img.pixel(x: 1, y: 1).r == UInt8(i * 10))
        }
    }

    @Test func returningFalseKeepsThePreviousPixels() throws {
        let (root, layer) = drawableScene()
        layer.isAsynchronous = true
        let first = Mutex(true)
        layer.render = { target, _ in
            guard first.withLock({ let f = $0; $0 = false; return f }) else { return false }
            target.fill(.red)
            return true
        }
        let a = try #require(image(root.snapshot(at: 0)))
        let b = try #require(image(root.snapshot(at: 1)))
        #expect(a === b)
    }

    @Test func theBufferStartsWithThePreviousFrame() throws {
        let (root, layer) = drawableScene(4, 4)
        layer.isAsynchronous = true
        layer.isOpaque = false
        // Each frame adds one more pixel: only possible when the buffer keeps the last frame's pixels.
        layer.render = { target, frame in
            let i = Int(frame.layerTime)
            target[i, 0] = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)
            return true
        }
        for t in 0..<3 { _ = root.snapshot(at: Double(t)) }
        let img = try #require(image(root.snapshot(at: 3)))
        for x in 0..<4 { #expect(img.pixel(x: x, y: 0).a == 255) }
        #expect(img.pixel(x: 0, y: 1).a == 0)
    }

    @Test func aThrowingCallbackDrawsNothingAndWarnsOnce() throws {
        let (root, layer) = drawableScene(name: "thrower")
        layer.isAsynchronous = true
        let fail = Mutex(false)
        layer.render = { target, _ in
            if fail.withLock({ $0 }) { throw Broken() }
            target.fill(.red)
            return true
        }
        #expect(image(root.snapshot(at: 0)) != nil)
        fail.withLock { $0 = true }
        #expect(image(root.snapshot(at: 1)) == nil)
        #expect(image(root.snapshot(at: 2)) == nil)
        #expect(DrawableWarnings.written.filter { $0.contains("'thrower'") }.count == 1)
        fail.withLock { $0 = false }
        #expect(image(root.snapshot(at: 3)) != nil)
    }

    @Test func aBufferOfTheWrongSizeDrawsNothingAndWarnsOnce() {
        let (root, layer) = drawableScene(name: "resizer")
        layer.isAsynchronous = true
        layer.render = { target, _ in
            target = DrawableTarget(width: 3, height: 3)
            return true
        }
        #expect(image(root.snapshot(at: 0)) == nil)
        layer.render = { target, _ in
            target.pixels.append(0)
            return true
        }
        #expect(image(root.snapshot(at: 1)) == nil)
        #expect(DrawableWarnings.written.filter { $0.contains("'resizer'") }.count == 1)
    }

    @Test(arguments: [Size(width: .nan, height: 4), Size(width: -3, height: 4), Size(width: 1e12, height: 2), Size(width: 0, height: 0)])
    func anUndrawableSizeRendersNothing(size: Size) {
        let (root, layer) = drawableScene(name: "bad size")
        let log = CallLog()
        layer.render = filling(.red, log: log)
        layer.drawableSize = size
        #expect(image(root.snapshot(at: 0)) == nil)
        #expect(log.count == 0)
        #expect(layer.nextDrawable() == nil)
    }

    @Test func isOpaqueIgnoresAlpha() throws {
        let (root, layer) = drawableScene()
        layer.isAsynchronous = true
        layer.render = { target, _ in
            target.fill(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
            return true
        }
        let opaque = try #require(image(root.snapshot(at: 0)))
        #expect(opaque.isOpaque)
        #expect(opaque.pixel(x: 0, y: 0).a == 255)
        layer.isAsynchronous = false
        layer.isOpaque = false // renders again: the kept image had its alpha dropped
        let translucent = try #require(image(root.snapshot(at: 1)))
        #expect(!translucent.isOpaque)
        #expect(translucent.pixel(x: 0, y: 0).a == 128)
        #expect(translucent.pixel(x: 0, y: 0).r == 128) // premultiplied
    }

    @Test func pushShowsThePresentedBufferFromTheNextSnapshot() throws {
        let (root, layer) = drawableScene()
        #expect(image(root.snapshot(at: 0)) == nil)
        let buffer = try #require(layer.nextDrawable())
        #expect(buffer.target.width == 8 && buffer.target.height == 6)
        buffer.target.fill(.green)
        #expect(buffer.present())
        #expect(!buffer.present()) // once only
        let img = try #require(image(root.snapshot(at: 1)))
        #expect(img.pixel(x: 2, y: 2) == PremultipliedColor(r: 0, g: 255, b: 0, a: 255))
        // Nothing new presented: the same image stays.
        #expect(image(root.snapshot(at: 2)) === img)
    }

    @Test func theBufferPoolHoldsMaximumDrawableCount() {
        let (_, layer) = drawableScene()
        layer.maximumDrawableCount = 2
        var held = [layer.nextDrawable(), layer.nextDrawable()]
        #expect(held.allSatisfy { $0 != nil })
        #expect(layer.nextDrawable() == nil)
        #expect(layer.drawablesInFlight == 2)
        held[0]?.present()
        #expect(layer.drawablesInFlight == 1)
        #expect(layer.nextDrawable() != nil) // a slot is free again (and this buffer is dropped at once)
        held.removeAll() // dropping unpresented buffers frees their slots
        #expect(layer.drawablesInFlight == 0)
    }

    @Test func aPresentedBufferOfTheWrongSizeIsRefused() {
        let (root, layer) = drawableScene(name: "push resizer")
        guard let buffer = layer.nextDrawable() else { Issue.record("no buffer"); return }
        buffer.target = DrawableTarget(width: 2, height: 2)
        #expect(!buffer.present())
        #expect(image(root.snapshot(at: 0)) == nil)
        #expect(layer.drawablesInFlight == 0)
    }

    @Test func presentsWithTransactionLandsWithTheBoundsChange() throws {
        let (root, layer) = drawableScene(8, 6)
        layer.presentsWithTransaction = true
        _ = root.snapshot(at: 0)
        Transaction.withoutActions { layer.bounds = Rect(x: 0, y: 0, width: 4, height: 4) }
        let buffer = try #require(layer.nextDrawable())
        #expect(buffer.target.width == 4 && buffer.target.height == 4)
        buffer.target.fill(.blue)
        buffer.present()
        let s = root.snapshot(at: 1)
        let node = try #require(s.sublayers.first)
        let img = try #require(image(s))
        #expect(node.bounds.size == Size(width: 4, height: 4))
        #expect(img.width == 4 && img.height == 4)
    }

    @Test func pushFromAnotherThreadShowsAtTheNextSnapshot() async throws {
        let (root, layer) = drawableScene()
        let buffer = try #require(layer.nextDrawable())
        await Task.detached {
            buffer.target.fill(.red)
            buffer.present()
        }.value
        let img = try #require(image(root.snapshot(at: 0)))
        #expect(img.pixel(x: 0, y: 0).r == 255)
    }

    @Test func replicatedInstancesRenderAtTheirDelayedTimes() throws {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 40, height: 10)
        let replicator = ReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = 3
        replicator.instanceDelay = 0.5
        replicator.instanceTransform = Transform3D.makeTranslation(10, 0, 0)
        root.addSublayer(replicator)
        let layer = DrawableLayer()
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        layer.isAsynchronous = true
        let log = CallLog()
        layer.render = { target, frame in
            log.record(frame)
            let v = UInt8(min(max(frame.layerTime * 50, 0), 255))
            target.fill(Color(red: Double(v) / 255, green: 0, blue: 0))
            return true
        }
        replicator.addSublayer(layer)
        let surface = Compositor().render(root.snapshot(at: 2), width: 40, height: 10)
        #expect(Set(log.all.map(\.layerTime)) == [2, 1.5, 1])
        // Instance k shows the layer's time 2 − k·0.5: red 100, 75, 50.
        for (k, red) in [(0, 100), (1, 75), (2, 50)] {
            #expect(abs(Int(surface.pixel(x: 10 * k + 5, y: 5).r) - red) <= 1, "instance \(k)")
        }
    }

    @Test(arguments: [true, false]) func theShadowIsTheWholeRectWhenOpaqueElseTheAlpha(opaque: Bool) {
        let root = Layer()
        root.frame = Rect(x: 0, y: 0, width: 60, height: 60)
        let layer = DrawableLayer()
        layer.frame = Rect(x: 20, y: 20, width: 20, height: 20)
        layer.isOpaque = opaque
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = Size(width: 0, height: 10)
        layer.shadowColor = .red
        layer.render = { _, _ in true } // leaves the buffer transparent
        root.addSublayer(layer)
        let surface = Compositor().render(root.snapshot(at: 0), width: 60, height: 60)
        let below = surface.pixel(x: 30, y: 45) // under the layer's offset shadow, outside the layer
        #expect(below == (opaque ? PremultipliedColor(r: 255, g: 0, b: 0, a: 255) : .clear), "\(below)")
        // Opaque: the ignored alpha makes the transparent buffer black.
        #expect(surface.pixel(x: 30, y: 30) == (opaque ? PremultipliedColor(r: 0, g: 0, b: 0, a: 255) : .clear))
    }

    @Test func placedLikeContentsWithCornersAndBorder() {
        let (root, layer) = drawableScene(40, 40)
        layer.cornerRadius = 10
        layer.masksToBounds = true
        layer.borderWidth = 2
        layer.borderColor = .white
        let log = CallLog()
        layer.render = filling(.red, log: log)
        let surface = Compositor().render(root.snapshot(at: 0), width: 40, height: 40)
        #expect(surface.pixel(x: 0, y: 0).a == 0) // rounded away
        #expect(surface.pixel(x: 20, y: 0) == PremultipliedColor(r: 255, g: 255, b: 255, a: 255)) // border
        #expect(surface.pixel(x: 20, y: 20) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    }
}
