import LayerGraphics
import LayerKit

/// Figure 2.8: listing 2.3's four views, each showing one sprite of one sheet (figure 2.7) through `contentsRect`.
let spriteSheetFigure = Figure(name: "2.8-sprites", title: "Listing 2.3: four layers share one 2×2 sprite sheet, each shows its quarter through contentsRect",
                               width: 256, height: 96) { _ in
    SpriteSheetView().layer
}

/// The view controller of listing 2.3; its four views stand in a row (laid out in Interface Builder in the book).
struct SpriteSheetView {
    let layer = Layer()
    let iglooView = Layer(), coneView = Layer(), anchorView = Layer(), shipView = Layer()

    init() {
        layer.backgroundColor = Color(white: 0.85)
        for (i, view) in [iglooView, coneView, anchorView, shipView].enumerated() {
            view.frame = Rect(x: 8 + Double(i) * 62, y: 18, width: 54, height: 60)
            view.backgroundColor = .white
            layer.addSublayer(view)
        }
        // load sprite sheet
        let image = Art.sprites
        // set igloo sprite
        addSpriteImage(image, withContentRect: Rect(x: 0, y: 0, width: 0.5, height: 0.5), to: iglooView)
        // set cone sprite
        addSpriteImage(image, withContentRect: Rect(x: 0.5, y: 0, width: 0.5, height: 0.5), to: coneView)
        // set anchor sprite
        addSpriteImage(image, withContentRect: Rect(x: 0, y: 0.5, width: 0.5, height: 0.5), to: anchorView)
        // set spaceship sprite
        addSpriteImage(image, withContentRect: Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5), to: shipView)
    }

    func addSpriteImage(_ image: Image, withContentRect rect: Rect, to layer: Layer) {
        // set image
        layer.contents = .image(image)
        // scale contents to fit
        layer.contentsGravity = .resizeAspect
        // set contentsRect
        layer.contentsRect = rect
    }
}
