import LayerGraphics
import Testing

// DrawingContext: fills, strokes, clips, state, transforms, images and text, checked pixel by pixel on tiny canvases.

private let red = PremultipliedColor(r: 255, g: 0, b: 0, a: 255)
private let blue = PremultipliedColor(r: 0, g: 0, b: 255, a: 255)

@Test func aNewContextIsTransparentAndSizedInPixels() {
    let context = DrawingContext(size: Size(width: 5, height: 3), scale: 2)
    #expect(context.pixelWidth == 10 && context.pixelHeight == 6)
    let image = context.makeImage()
    #expect(image.width == 10 && image.height == 6)
    #expect(image.pixel(x: 9, y: 5) == .clear)
}

@Test func fractionalSizesRoundUp() {
    let context = DrawingContext(size: Size(width: 10, height: 2.2), scale: 3)
    #expect(context.pixelWidth == 30 && context.pixelHeight == 7)
}

@Test func fillingARectCoversItsPixelsExactly() {
    let context = DrawingContext(size: Size(width: 6, height: 6))
    context.setFillColor(.red)
    context.fill(Rect(x: 1, y: 2, width: 3, height: 2))
    let image = context.makeImage()
    #expect(image.pixel(x: 1, y: 2) == red)
    #expect(image.pixel(x: 3, y: 3) == red)
    #expect(image.pixel(x: 0, y: 2) == .clear)
    #expect(image.pixel(x: 4, y: 3) == .clear)
    #expect(image.pixel(x: 1, y: 4) == .clear)
}

@Test func translucentFillsArePremultiplied() {
    let context = DrawingContext(size: Size(width: 2, height: 2))
    context.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    context.fill(Rect(x: 0, y: 0, width: 2, height: 2))
    let p = context.makeImage().pixel(x: 0, y: 0)
    #expect(abs(Int(p.a) - 128) <= 1 && p.r == p.a && p.g == 0 && p.b == 0)
}

@Test func theScaleMakesPointsOfSeveralPixels() {
    let context = DrawingContext(size: Size(width: 4, height: 4), scale: 2)
    context.setFillColor(.red)
    context.fill(Rect(x: 1, y: 1, width: 1, height: 1))
    let image = context.makeImage()
    #expect(image.pixel(x: 2, y: 2) == red && image.pixel(x: 3, y: 3) == red)
    #expect(image.pixel(x: 1, y: 1) == .clear && image.pixel(x: 4, y: 4) == .clear)
}

@Test func strokesAreCentredOnThePath() {
    let context = DrawingContext(size: Size(width: 10, height: 10))
    context.setStrokeColor(.blue)
    context.setLineWidth(2)
    context.stroke(Rect(x: 2, y: 2, width: 6, height: 6))
    let image = context.makeImage()
    #expect(image.pixel(x: 1, y: 5) == blue)
    #expect(image.pixel(x: 2, y: 5) == blue)
    #expect(image.pixel(x: 3, y: 5) == .clear)
    #expect(image.pixel(x: 0, y: 5) == .clear)
}

@Test func pathsFillByTheirRule() {
    var rings = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    for element in Path(rect: Rect(x: 3, y: 3, width: 4, height: 4)).elements {
        switch element {
        case .move(let p): rings.move(to: p)
        case .line(let p): rings.addLine(to: p)
        case .curve(let a, let b, let c): rings.addCurve(to: c, control1: a, control2: b)
        case .close: rings.closeSubpath()
        }
    }
    let nonZero = DrawingContext(size: Size(width: 10, height: 10)), evenOdd = DrawingContext(size: Size(width: 10, height: 10))
    for (context, rule) in [(nonZero, FillRule.nonZero), (evenOdd, .evenOdd)] {
        context.setFillColor(.red)
        context.addPath(rings)
        context.fillPath(using: rule)
    }
    #expect(nonZero.makeImage().pixel(x: 5, y: 5) == red, "both squares wind the same way")
    #expect(evenOdd.makeImage().pixel(x: 5, y: 5) == .clear)
    #expect(evenOdd.makeImage().pixel(x: 1, y: 1) == red)
}

@Test func anEllipseFillsItsMiddleNotItsCorners() {
    let context = DrawingContext(size: Size(width: 10, height: 10))
    context.setFillColor(.red)
    context.fillEllipse(in: Rect(x: 0, y: 0, width: 10, height: 10))
    let image = context.makeImage()
    #expect(image.pixel(x: 5, y: 5) == red)
    #expect(image.pixel(x: 0, y: 0) == .clear)
}

@Test func clippingLimitsDrawingUntilTheStateIsRestored() {
    let context = DrawingContext(size: Size(width: 10, height: 10))
    context.setFillColor(.red)
    context.saveGState()
    context.clip(to: Rect(x: 0, y: 0, width: 5, height: 10))
    context.setFillColor(.blue)
    context.fill(Rect(x: 0, y: 0, width: 10, height: 5))
    context.restoreGState()
    context.fill(Rect(x: 0, y: 5, width: 10, height: 5))
    let image = context.makeImage()
    #expect(image.pixel(x: 2, y: 2) == blue)
    #expect(image.pixel(x: 7, y: 2) == .clear, "clipped away")
    #expect(image.pixel(x: 7, y: 7) == red, "restoring brought back the fill colour and the full clip")
}

@Test func transformsApplyBeforeTheCurrentOne() {
    let context = DrawingContext(size: Size(width: 10, height: 10), scale: 1)
    context.translateBy(x: 5, y: 5)
    context.scaleBy(x: 2, y: 2)
    #expect(context.currentTransform == AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 5))
    context.setFillColor(.red)
    context.fill(Rect(x: 0, y: 0, width: 1, height: 1))
    let image = context.makeImage()
    #expect(image.pixel(x: 5, y: 5) == red && image.pixel(x: 6, y: 6) == red)
    #expect(image.pixel(x: 7, y: 7) == .clear && image.pixel(x: 4, y: 4) == .clear)
}

@Test func rotatingAQuarterTurnsClockwise() {
    let context = DrawingContext(size: Size(width: 10, height: 10))
    context.translateBy(x: 5, y: 5)
    context.rotate(by: .pi / 2)
    context.setFillColor(.red)
    context.fill(Rect(x: 0, y: 0, width: 4, height: 1)) // pointing right, turned to point down
    let image = context.makeImage()
    #expect(image.pixel(x: 4, y: 7) == red)
    #expect(image.pixel(x: 7, y: 4) == .clear)
}

@Test func concatenateMatchesTheNamedTransforms() {
    let context = DrawingContext(size: Size(width: 4, height: 4), scale: 3)
    context.concatenate(AffineTransform2D(translationX: 1, y: 2))
    #expect(context.currentTransform == AffineTransform2D(a: 3, b: 0, c: 0, d: 3, tx: 3, ty: 6))
}

@Test func clearMakesARectTransparent() {
    let context = DrawingContext(size: Size(width: 4, height: 4))
    context.setFillColor(.red)
    context.fill(Rect(x: 0, y: 0, width: 4, height: 4))
    context.clear(Rect(x: 0, y: 0, width: 2, height: 4))
    let image = context.makeImage()
    #expect(image.pixel(x: 1, y: 1) == .clear && image.pixel(x: 2, y: 1) == red)
}

@Test func imagesDrawTopRowFirstStretchedOverTheRect() {
    let picture = Image(width: 1, height: 2) { px in
        px[0] = PremultipliedColor(r: 255, g: 0, b: 0, a: 255).bgra // top
        px[1] = PremultipliedColor(r: 0, g: 0, b: 255, a: 255).bgra // bottom
    }
    let context = DrawingContext(size: Size(width: 8, height: 8))
    context.draw(picture, in: Rect(x: 2, y: 0, width: 4, height: 8))
    let image = context.makeImage()
    #expect(image.pixel(x: 3, y: 0) == red)
    #expect(image.pixel(x: 3, y: 7) == blue)
    #expect(image.pixel(x: 0, y: 4) == .clear && image.pixel(x: 7, y: 4) == .clear)
}

@Test func textHasASizeAndLeavesInk() {
    let context = DrawingContext(size: Size(width: 60, height: 30))
    let size = context.sizeOfText("Hello", font: "Sans 12")
    #expect(size.width > 20 && size.width < 60)
    #expect(size.height > 10 && size.height < 25, "a 12-point font at 72 dpi: about 14 points of line")
    context.drawText("Hello", at: Point(x: 0, y: 0), font: "Sans 12", color: .black)
    let image = context.makeImage()
    var inked = 0
    for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y).a > 0 { inked += 1 } }
    #expect(inked > 30)
    // Nothing below the line box.
    for y in Int(size.height.rounded(.up)) + 1..<image.height {
        for x in 0..<image.width { #expect(image.pixel(x: x, y: y).a == 0) }
    }
}
