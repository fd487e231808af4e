import LayerGraphics
import LayerKit

/// Figure 2.10: listing 2.4's two views of different shapes showing one button image with contentsCenter
/// (0.25, 0.25, 0.5, 0.5): the corners keep their size, only the middle stretches (nine-slice).
let stretchableButtonsFigure = Figure(name: "2.10-nine-slice", title: "Listing 2.4: one button image stretched with contentsCenter (0.25, 0.25, 0.5, 0.5) to a wide and a tall button",
                                      width: 256, height: 160) { _ in
    StretchableButtonsView().layer
}

/// The view controller of listing 2.4: a wide button and a tall one.
struct StretchableButtonsView {
    let layer = Layer()
    let button1 = Layer(), button2 = Layer()

    init() {
        layer.backgroundColor = Color(white: 0.85)
        button1.frame = Rect(x: 16, y: 52, width: 150, height: 56)
        button2.frame = Rect(x: 186, y: 16, width: 54, height: 128)
        layer.addSublayer(button1)
        layer.addSublayer(button2)
        // load button image
        let image = Art.button
        // set button 1
        addStretchableImage(image, withContentCenter: Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5), to: button1)
        // set button 2
        addStretchableImage(image, withContentCenter: Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5), to: button2)
    }

    func addStretchableImage(_ image: Image, withContentCenter rect: Rect, to layer: Layer) {
        // set image
        layer.contents = .image(image)
        // set contentsCenter
        layer.contentsCenter = rect
    }
}
