import Foundation
@testable import LayerGraphics
@testable import LayerKit
import Testing

// TextLayer (SEMANTICS-LAYERS.md §2): its properties and defaults, the drawing kept while nothing changes, the
// backing store at contentsScale, animated size and colour, attributed strings and hostile values.

private func contentsImage(_ layer: Layer, at time: Double = 0) -> Image? {
    if case .image(let image)? = layer.snapshot(at: time).contents { return image }
    return nil
}

/// Columns and rows with ink (alpha > 0).
private func inkBox(_ image: Image) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
    var x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
    for y in 0..<image.height {
        for x in 0..<image.width where image.pixel(x: x, y: y).a > 0 {
            x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
        }
    }
    return x0 <= x1 ? (x0...x1, y0...y1) : nil
}

private func textLayer(_ string: String = "Hello", width: Double = 200, height: Double = 60) -> TextLayer {
    let layer = TextLayer()
    layer.bounds = Rect(x: 0, y: 0, width: width, height: height)
    layer.string = .plain(string)
    return layer
}

@Suite("TextLayer")
struct TextLayerTests {
    @Test func defaultsAreCoreAnimations() {
        let layer = TextLayer()
        #expect(layer.string == nil)
        #expect(layer.font == "Helvetica")
        #expect(layer.fontSize == 36)
        #expect(layer.foregroundColor == .white)
        #expect(!layer.isWrapped && !layer.allowsFontSubpixelQuantization)
        #expect(layer.truncationMode == .none && layer.alignmentMode == .natural)
        #expect(layer.value(forKey: "fontSize") == .number(36))
        #expect(layer.value(forKey: "foregroundColor") == .color(.white))
    }

    @Test func aPlainStringIsDrawnInTheForegroundColourAtTheTop() throws {
        let layer = textLayer()
        layer.foregroundColor = .red
        let image = try #require(contentsImage(layer))
        #expect(image.width == 200 && image.height == 60)
        let ink = try #require(inkBox(image))
        #expect(ink.columns.lowerBound < 6 && ink.rows.lowerBound < 12, "top-left, no vertical centring")
        #expect(ink.rows.upperBound < 45)
        let p = (ink.rows).lazy.flatMap { y in ink.columns.lazy.map { image.pixel(x: $0, y: y) } }.first { $0.a == 255 }
        #expect(p == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
    }

    @Test func noStringOrNoColourDrawsNothing() {
        let empty = TextLayer()
        empty.bounds = Rect(x: 0, y: 0, width: 50, height: 50)
        #expect(empty.snapshot().contents == nil)
        let colourless = textLayer()
        colourless.foregroundColor = nil
        #expect(contentsImage(colourless).flatMap(inkBox) == nil)
        let clear = textLayer()
        clear.foregroundColor = .clear
        #expect(contentsImage(clear).flatMap(inkBox) == nil)
    }

    @Test func anUnchangedTextIsLaidOutOnce() throws {
        let counter = LayoutCounter()
        try PangoTextLayout.$counter.withValue(counter) {
            let layer = textLayer()
            let first = try #require(contentsImage(layer))
            #expect(counter.count == 1)
            for t in [0.5, 1, 2] { #expect(contentsImage(layer, at: t) === first) }
            // The layer is hosted once it has been snapshotted: changes without actions, so they show at once.
            Transaction.withoutActions {
                layer.string = .plain("Hello")
                layer.position = Point(x: 40, y: 40)
            }
            #expect(contentsImage(layer) === first, "an equal string and a move keep the drawing")
            #expect(counter.count == 1)
            Transaction.withoutActions { layer.fontSize = 20 }
            #expect(contentsImage(layer) !== first)
            #expect(counter.count == 2)
            layer.string = .plain("Other")
            _ = contentsImage(layer)
            Transaction.withoutActions { layer.bounds.size.width = 300 }
            _ = contentsImage(layer)
            #expect(counter.count == 4)
        }
    }

    @Test func contentsScaleTwoDoublesTheBackingStore() throws {
        let layer = textLayer(width: 120, height: 40)
        let one = try #require(contentsImage(layer))
        layer.contentsScale = 2
        let two = try #require(contentsImage(layer))
        #expect(one.width == 120 && one.height == 40)
        #expect(two.width == 240 && two.height == 80)
        let a = try #require(inkBox(one)), b = try #require(inkBox(two))
        #expect(abs(b.columns.upperBound - 2 * a.columns.upperBound) <= 2, "the same text, twice the pixels")
    }

    @Test func alignmentWrappingAndTruncationApply() throws {
        let right = textLayer("Right", width: 200)
        right.alignmentMode = .right
        #expect(try #require(contentsImage(right).flatMap(inkBox)).columns.upperBound >= 197)
        let centre = textLayer("Centre", width: 200)
        centre.alignmentMode = .center
        let c = try #require(contentsImage(centre).flatMap(inkBox)).columns
        #expect(abs(c.lowerBound - (199 - c.upperBound)) <= 1)

        let long = "Lorem ipsum dolor sit amet, consectetur adipiscing elit"
        let unwrapped = textLayer(long, width: 150, height: 200)
        unwrapped.fontSize = 15
        let wrapped = textLayer(long, width: 150, height: 200)
        wrapped.fontSize = 15
        wrapped.isWrapped = true
        let u = try #require(contentsImage(unwrapped).flatMap(inkBox)), w = try #require(contentsImage(wrapped).flatMap(inkBox))
        #expect(u.columns.upperBound == 149, "cut by the backing store")
        #expect(w.rows.upperBound > 2 * u.rows.upperBound, "several lines")

        let truncated = textLayer(long, width: 150, height: 200)
        truncated.fontSize = 15
        truncated.truncationMode = .end
        let t = try #require(contentsImage(truncated).flatMap(inkBox))
        #expect(t.columns.upperBound < 149 && t.rows.upperBound < 30, "one line, ending before the edge")
    }

    @Test func fontSizeAndColourAnimate() throws {
        let layer = textLayer("H", width: 100, height: 100)
        let grow = BasicAnimation(keyPath: "fontSize")
        grow.fromValue = 20.0
        grow.toValue = 60.0
        grow.duration = 1
        layer.add(grow, forKey: "grow")
        let h = { (t: Double) throws -> Int in let r = try #require(contentsImage(layer, at: t).flatMap(inkBox)).rows; return r.count }
        let small = try h(0), middle = try h(0.5), large = try h(0.99)
        #expect(small < middle && middle < large)
        #expect(layer.fontSize == 36, "the model is untouched")

        let fade = BasicAnimation(keyPath: "foregroundColor")
        fade.fromValue = Color.red
        fade.toValue = Color.blue
        fade.duration = 1
        let tinted = textLayer("H", width: 100, height: 100)
        tinted.add(fade, forKey: "fade")
        let image = try #require(contentsImage(tinted, at: 0.5))
        let solid = (0..<100).lazy.flatMap { y in (0..<100).lazy.map { image.pixel(x: $0, y: y) } }.first { $0.a == 255 }
        let p = try #require(solid)
        #expect(abs(Int(p.r) - Int(p.b)) <= 2 && p.r > 100, "half way from red to blue")
    }

    @Test func preferredFrameSizeIsTheLaidOutText() {
        let layer = textLayer("Hello\nworld, again", width: 10, height: 10)
        layer.fontSize = 20
        let size = layer.preferredFrameSize()
        let measured = TextLayout("Hello\nworld, again", fontSize: 20).measured().logical
        #expect(size.width == measured.width.rounded(.up) && size.height == measured.height.rounded(.up))
        #expect(size.width > 100 && size.height >= 40, "two lines of 20 points")
        let wrapped = textLayer(String(repeating: "word ", count: 20), width: 120, height: 10)
        wrapped.fontSize = 15
        wrapped.isWrapped = true
        let w = wrapped.preferredFrameSize()
        #expect(w.width <= 120 && w.height > 60)
        #expect(TextLayer().preferredFrameSize() == .zero)
    }

    @Test func attributedRangesBecomeUTF8Offsets() throws {
        // "Lorém 👍🏽 ipsum": é is 2 bytes and 1 UTF-16 unit; 👍🏽 is 8 bytes and 4 units.
        var text = AttributedString("Lorém 👍🏽 ipsum dolor")
        let start = text.characters.index(text.startIndex, offsetBy: 8), end = text.characters.index(start, offsetBy: 5)
        text[start..<end].foregroundColor = .red
        text[start..<end].underlineStyle = .single
        let (string, runs) = TextLayer.runs(of: text)
        #expect(string == "Lorém 👍🏽 ipsum dolor")
        let run = try #require(runs.first)
        #expect(runs.count == 1)
        #expect(Array(string.utf8[string.utf8.index(string.startIndex, offsetBy: run.range.lowerBound)...].prefix(5)) == Array("ipsum".utf8))
        #expect(run.range.count == 5)
        #expect(run.attributes == TextAttributes(color: .red, underline: .single))
    }

    @Test func attributedRunsDefaultToBlackHelvetica12() throws {
        var text = AttributedString("Hello ")
        var big = AttributedString("World")
        big.fontSize = 30
        big.font = "Helvetica-Bold"
        big.kern = 1
        big.strikethroughStyle = true
        text.append(big)
        let layer = TextLayer()
        layer.bounds = Rect(x: 0, y: 0, width: 200, height: 50)
        layer.foregroundColor = .red
        layer.fontSize = 80
        layer.string = .attributed(text)
        let image = try #require(contentsImage(layer))
        let ink = try #require(inkBox(image))
        #expect(ink.rows.upperBound < 40, "the layer's 80 pt is not used")
        let solid = (0..<50).lazy.flatMap { y in (0..<200).lazy.map { image.pixel(x: $0, y: y) } }.first { $0.a == 255 }
        #expect(solid == PremultipliedColor(r: 0, g: 0, b: 0, a: 255), "black, not the layer's red")
    }

    @Test func hostileValuesDoNotCrash() {
        for size in [Double.nan, -1, 0, .infinity, 1e12] {
            let layer = textLayer()
            layer.fontSize = size
            _ = layer.snapshot()
            _ = layer.preferredFrameSize()
        }
        let huge = textLayer("Huge", width: 1e9, height: 1e9)
        #expect(huge.snapshot().contents == nil, "no backing store beyond the limit")
        let nan = textLayer("NaN", width: .nan, height: .nan)
        _ = nan.snapshot()
        _ = nan.preferredFrameSize()
        let long = textLayer(String(repeating: "🙂 long\n", count: 20_000), width: 100, height: 100)
        long.isWrapped = true
        long.truncationMode = .middle
        #expect(contentsImage(long) != nil)
        let empty = textLayer("", width: 10, height: 10)
        #expect(contentsImage(empty).flatMap(inkBox) == nil)
        #expect(empty.preferredFrameSize().width == 0)
    }
}
