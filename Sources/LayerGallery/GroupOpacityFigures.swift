import LayerGraphics
import LayerKit

/// Listing 4.9's custom button: a white 150×50 view with rounded corners holding a white "Hello World" label
/// (20, 10, 110, 30), its text centred (UILabel's 17-point system font: Helvetica here).
private func customButton(center: Point) -> Layer {
    // create button
    let button = Layer()
    button.frame = Rect(x: 0, y: 0, width: 150, height: 50)
    button.backgroundColor = .white
    button.cornerRadius = 10
    // add label
    let label = TextLayer()
    label.frame = Rect(x: 20, y: 10, width: 110, height: 30)
    label.backgroundColor = .white
    label.foregroundColor = .black
    label.font = "Helvetica"
    label.fontSize = 17
    label.alignmentMode = .center
    label.contentsScale = 1
    label.string = .plain("Hello World")
    button.addSublayer(label)
    button.position = center
    return button
}

/// The two buttons of listings 4.9 and 4.10 on a grey screen, the second at alpha 0.5. The book places them side by
/// side at x 50 and 250 (300 points apart); here one is above the other to fit the gallery's 256-point canvas.
private func buttonsScreen(rasterizeSecond: Bool) -> Layer {
    let screen = Layer()
    // Darker than the other figures' 0.85 grey: white at half opacity over it shows the label's box plainly.
    screen.backgroundColor = Color(white: 0.55)
    // create opaque button
    let button1 = customButton(center: Point(x: 128, y: 44))
    screen.addSublayer(button1)
    // create translucent button
    let button2 = customButton(center: Point(x: 128, y: 116))
    screen.addSublayer(button2)
    button2.opacity = 0.5
    // the book's device draws without group opacity (UIViewGroupOpacity NO, as before iOS 7)
    button2.allowsGroupOpacity = false
    if rasterizeSecond {
        // enable rasterization for the translucent button (listing 4.10), at the 1× screen's scale
        button2.shouldRasterize = true
        button2.rasterizationScale = 1
    }
    return screen
}

/// Figure 4.20: listing 4.9 without group opacity: the translucent button's label blends on its own, so its white
/// box shows lighter over the half-transparent button.
let groupOpacityFigure = Figure(name: "4.20-group-opacity", title: "Listing 4.9: a button at alpha 0.5 without group opacity: its label's box shows through",
                                width: 256, height: 160) { _ in
    buttonsScreen(rasterizeSecond: false)
}

/// Figure 4.21: listing 4.10: `shouldRasterize` flattens the button and its label into one image before the alpha
/// applies, so the translucent button looks like the opaque one, faded evenly.
let rasterizeFigure = Figure(name: "4.21-rasterize", title: "Listing 4.10: shouldRasterize fixes the translucent button: it fades as one image",
                             width: 256, height: 160) { _ in
    buttonsScreen(rasterizeSecond: true)
}
