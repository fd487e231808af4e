import LayerGraphics
import Testing

// A drawing context is made from whatever numbers a layer holds (issue 15): never a trap, never a canvas beyond
// `maxPixelSide` pixels; one too large is drawn whole at a lower scale.

@Test(arguments: [Double.nan, .infinity, -.infinity, 0, -1e300])
func aNonsenseScaleIsOne(_ scale: Double) {
    let context = DrawingContext(size: Size(width: 5, height: 3), scale: scale)
    #expect(context.scale == 1 && context.pixelWidth == 5 && context.pixelHeight == 3)
}

@Test(arguments: [Double.nan, .infinity, -.infinity, -5])
func aNonsenseSideIsEmpty(_ side: Double) {
    let context = DrawingContext(size: Size(width: side, height: 3), scale: 2)
    #expect(context.pixelWidth == 1 && context.pixelHeight == 6)
    _ = context.makeImage()
}

@Test(arguments: [(40_000.0, 10.0, 1.0), (1e300, 4, 1.0), (3, 1e300, 1.0), (100, 1, 1e9), (200, 20_000, 1.0)])
func aHugeCanvasIsDrawnWholeAtTheScaleThatFits(_ width: Double, _ height: Double, _ scale: Double) {
    let context = DrawingContext(size: Size(width: width, height: height), scale: scale)
    #expect(context.pixelWidth <= DrawingContext.maxPixelSide && context.pixelHeight <= DrawingContext.maxPixelSide)
    #expect(context.scale <= scale && context.scale > 0)
    #expect(max(context.pixelWidth, context.pixelHeight) == DrawingContext.maxPixelSide)
    _ = context.makeImage()
}

@Test func aCanvasTooWideIsFilledToItsFarEdge() {
    // Drawn whole: a fill of the whole canvas in points reaches the last pixel.
    let context = DrawingContext(size: Size(width: 100_000, height: 12_500))
    context.setFillColor(.red)
    context.fill(Rect(x: 0, y: 0, width: 100_000, height: 12_500))
    let image = context.makeImage()
    #expect(image.width == DrawingContext.maxPixelSide && image.height == DrawingContext.maxPixelSide / 8)
    #expect(image.pixel(x: image.width - 1, y: image.height - 1).a == 255)
}
