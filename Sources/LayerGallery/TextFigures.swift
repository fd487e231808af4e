import Foundation
import LayerGraphics
import LayerKit

/// Listing 6.2's text: the book's Lorem ipsum paragraph.
let loremIpsum = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius in, "
    + "facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque. Nunc elementum, libero ut "
    + "porttitor dictum, diam odio congue lacus, vel fringilla sapien diam at purus. Etiam suscipit pretium nunc sit "
    + "amet lobortis"

/// Figure 6.2 and the book's lesson after it: listing 6.2 (a justified, wrapped, black 15-point text layer) in a white
/// label view magnified 2×, as on a Retina screen: at `contentsScale` 1 (top) the glyphs are stretched and soft, at
/// `contentsScale` 2 (bottom) they are sharp.
let textScaleFigure = Figure(name: "6.2-text-layer-scale", title: "Listing 6.2: a CATextLayer label magnified 2×, contentsScale 1 (top) and 2 (bottom)",
                             width: 232, height: 256) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.85)
    for (index, scale) in [1.0, 2.0].enumerated() {
        let labelView = Layer()
        labelView.bounds = Rect(x: 0, y: 0, width: 112, height: 56)
        labelView.position = Point(x: 116, y: 68 + 124 * Double(index))
        labelView.transform = .makeScale(2, 2, 1) // the 2× screen
        labelView.backgroundColor = .white
        screen.addSublayer(labelView)
        // create a text layer
        let textLayer = TextLayer()
        textLayer.frame = labelView.bounds
        textLayer.contentsScale = scale
        labelView.addSublayer(textLayer)
        // set text attributes
        textLayer.foregroundColor = .black
        textLayer.alignmentMode = .justified
        textLayer.isWrapped = true
        // choose a font (the system font: Helvetica here)
        textLayer.font = "Helvetica"
        textLayer.fontSize = 15
        textLayer.string = .plain(loremIpsum)
    }
    return screen
}

/// Figure 6.3: listing 6.3, the same paragraph as an attributed string, black 15 point, with characters 6–10
/// ("ipsum") red and singly underlined.
let attributedTextFigure = Figure(name: "6.3-attributed-text", title: "Listing 6.3: an attributed string, \"ipsum\" red and underlined",
                                  width: 240, height: 200) { _ in
    let screen = Layer()
    screen.backgroundColor = Color(white: 0.85)
    let labelView = Layer()
    labelView.frame = Rect(x: 10, y: 10, width: 220, height: 180)
    labelView.backgroundColor = .white
    screen.addSublayer(labelView)
    // create a text layer
    let textLayer = TextLayer()
    textLayer.frame = labelView.bounds
    labelView.addSublayer(textLayer)
    // set text attributes
    textLayer.alignmentMode = .justified
    textLayer.isWrapped = true
    // create attributed string: black in the 15-point system font
    var string = AttributedString(loremIpsum)
    string.foregroundColor = .black
    string.font = "Helvetica"
    string.fontSize = 15
    // NSMakeRange(6, 5): "ipsum"
    let start = string.characters.index(string.startIndex, offsetBy: 6)
    let ipsum = start..<string.characters.index(start, offsetBy: 5)
    string[ipsum].foregroundColor = .red
    string[ipsum].underlineStyle = .single
    textLayer.string = .attributed(string)
    return screen
}
