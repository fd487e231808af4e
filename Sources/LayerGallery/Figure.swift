import LayerCompositor
import LayerGraphics
import LayerKit

/// One figure of the book rebuilt with LayerKit: a layer tree made the way the book's listing makes it,
/// and the picture the compositor draws of it.
public struct Figure: Sendable {
    /// The file stem, the book's figure number first: "3.7-clock".
    public let name: String
    /// What the book's figure shows.
    public let title: String
    /// The canvas in points (= pixels: the gallery renders at 1×); at most 256×256 so the goldens stay quick.
    public let size: Size
    /// The time the tree is drawn at (it picks the frame of a video face).
    public let time: Double
    /// Builds the tree; `mediaDirectory` holds the sample media (`clip.mp4`) for the figures that play video.
    let build: @Sendable (_ mediaDirectory: String) throws -> Layer

    init(name: String, title: String, width: Double, height: Double, time: Double = 0,
         build: @escaping @Sendable (_ mediaDirectory: String) throws -> Layer) {
        self.name = name
        self.title = title
        self.size = Size(width: width, height: height)
        self.time = time
        self.build = build
    }

    /// The root layer of the figure, the size of the canvas and placed on it.
    /// - Throws: `MediaError` when a figure's video cannot be opened.
    public func makeLayer(mediaDirectory: String) throws -> Layer {
        let root = try build(mediaDirectory)
        // Placing the canvas is the host's own layout: it never animates, even on a tree the figure already showed.
        Transaction.withoutActions {
            root.bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
            root.position = Point(x: size.width / 2, y: size.height / 2)
        }
        return root
    }

    /// Draws the figure. Costs one layer tree (and, for a video face, opening and decoding the clip).
    public func render(mediaDirectory: String, compositor: Compositor = Gallery.compositor) throws -> Surface {
        let root = try makeLayer(mediaDirectory: mediaDirectory)
        return compositor.render(root.snapshot(at: time), width: Int(size.width), height: Int(size.height))
    }
}
