import LayerGraphics
import LayerKit
import Testing

// A drawn layer (a delegate's `draw(in:)`) gets a backing store of bounds × contentsScale pixels: bounds or a scale
// of 1e300 or infinity trapped in `Int(_:)`, and a store beyond 32767 pixels was a cairo error (issue 15).

private final class FillingDelegate: LayerDelegate {
    func draw(_ layer: Layer, in context: DrawingContext) {
        context.setFillColor(.red)
        context.fill(layer.bounds)
    }
}

private let hostile: [Double] = [.nan, .infinity, -.infinity, 1e300, -1e300, 1e155, 1e-300, 3e9, 40_000, 0, -1]

@Test(arguments: ["bounds.width", "bounds.height", "bounds.x", "contentsScale"])
func aDrawnLayerWithHostileNumbersDisplaysWithoutTrapping(_ property: String) {
    let delegate = FillingDelegate()
    for value in hostile {
        let layer = Layer()
        layer.bounds = Rect(x: 0, y: 0, width: 20, height: 2)
        layer.delegate = delegate
        switch property {
        case "bounds.width": layer.bounds.size.width = value
        case "bounds.height": layer.bounds.size.height = value
        case "bounds.x": layer.bounds.origin.x = value
        default: layer.contentsScale = value
        }
        layer.setNeedsDisplay()
        _ = layer.snapshot()
        if case .image(let image)? = layer.contents {
            #expect(image.width <= DrawingContext.maxPixelSide && image.height <= DrawingContext.maxPixelSide,
                    "\(property) = \(value): \(image.width)x\(image.height)")
        }
    }
}
