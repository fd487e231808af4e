// Listings 6.2–6.4 of "iOS Core Animation: Advanced Techniques" in LayerKit: a text layer as a label (6.2), the same
// text as an attributed string with "ipsum" red and underlined (6.3), and LayerLabel, a label whose own layer is
// the text layer (6.4). Rendered as on a 2× screen: 6.2 keeps contentsScale 1 and looks soft, as the book shows;
// 6.3 sets contentsScale to the screen's scale; LayerLabel does it in its setup, as UIKit does for a view's layer.
//
//   swift run TextLayer [OUT.png]      (default: out/text-layer.png)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

let loremIpsum = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel varius in, "
    + "facilisis pulvinar leo. Nunc quis nunc at mauris pharetra condimentum ut ac neque. Nunc elementum, libero ut "
    + "porttitor dictum, diam odio congue lacus, vel fringilla sapien diam at purus. Etiam suscipit pretium nunc sit "
    + "amet lobortis"
/// UIScreen.main.scale of the screen we render for.
let screenScale = 2.0
/// `UIFont.systemFont(ofSize: 15)`: Helvetica here.
let systemFont = (name: "Helvetica", pointSize: 15.0)

/// A white 200×220 "label view" at `x`, as the book's storyboard has.
func labelView(x: Double) -> Layer {
    let view = Layer()
    view.frame = Rect(x: x, y: 20, width: 200, height: 220)
    view.backgroundColor = .white
    return view
}

/// Listing 6.2: a plain string in a text layer.
func listing62(in labelView: Layer) {
    // create a text layer
    let textLayer = TextLayer()
    textLayer.frame = labelView.bounds
    labelView.addSublayer(textLayer)
    // set text attributes
    textLayer.foregroundColor = .black
    textLayer.alignmentMode = .justified
    textLayer.isWrapped = true
    // choose a font
    textLayer.font = systemFont.name
    textLayer.fontSize = systemFont.pointSize
    // set layer text
    textLayer.string = .plain(loremIpsum)
}

/// Listing 6.3: the same text as an attributed string, black, with characters 6–10 ("ipsum") red and underlined.
func listing63(in labelView: Layer) {
    let textLayer = TextLayer()
    textLayer.frame = labelView.bounds
    textLayer.contentsScale = screenScale
    labelView.addSublayer(textLayer)
    textLayer.alignmentMode = .justified
    textLayer.isWrapped = true
    // create attributed string, black in the system font
    var string = AttributedString(loremIpsum)
    string.foregroundColor = .black
    string.font = systemFont.name
    string.fontSize = systemFont.pointSize
    // NSMakeRange(6, 5), counted in characters (the attributed string turns them into pango's byte offsets)
    let start = string.characters.index(string.startIndex, offsetBy: 6)
    let range = start..<string.characters.index(start, offsetBy: 5)
    string[range].foregroundColor = .red
    string[range].underlineStyle = .single
    textLayer.string = .attributed(string)
}

/// Listing 6.4: a label whose backing layer is the text layer (`+layerClass` returns CATextLayer).
final class LayerLabel: TextLayer {
    var text: String? { didSet { string = text.map { .plain($0) } } }
    var textColor: Color = .black { didSet { foregroundColor = textColor } }
    var textFont = systemFont { didSet { font = textFont.name; fontSize = textFont.pointSize } }

    init(frame: Rect) {
        super.init()
        self.frame = frame
        setUp()
    }

    func setUp() {
        // set defaults from UILabel settings
        foregroundColor = textColor
        font = textFont.name
        fontSize = textFont.pointSize
        // as UIKit sets a view's layer to the screen's scale
        contentsScale = screenScale
        alignmentMode = .justified
        isWrapped = true
    }
}

let output = CommandLine.arguments.dropFirst().first ?? "out/text-layer.png"
do {
    let root = Layer()
    root.bounds = Rect(x: 0, y: 0, width: 680, height: 260)
    root.backgroundColor = Color(white: 0.85)
    let views = [labelView(x: 20), labelView(x: 240), labelView(x: 460)]
    views.forEach(root.addSublayer)
    listing62(in: views[0])
    listing63(in: views[1])
    let label = LayerLabel(frame: views[2].bounds)
    label.text = loremIpsum
    views[2].addSublayer(label)
    // The 2× screen: everything drawn at twice its size.
    let screen = Layer()
    screen.frame = Rect(x: 0, y: 0, width: 680 * screenScale, height: 260 * screenScale)
    screen.sublayerTransform = .makeScale(screenScale, screenScale, 1)
    root.position = Point(x: 340 * screenScale, y: 130 * screenScale)
    screen.addSublayer(root)
    let directory = (output as NSString).deletingLastPathComponent
    if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    try Compositor().render(screen.snapshot(), width: Int(680 * screenScale), height: Int(260 * screenScale)).writePNG(to: output)
    print("wrote \(output)")
} catch {
    FileHandle.standardError.write(Data("TextLayer: error: \(error)\n".utf8))
    exit(1)
}
