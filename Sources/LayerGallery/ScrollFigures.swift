import LayerGraphics
import LayerKit

/// A 400×400 picture for the scroll view: tinted tiles, each with a dot and a ring, so where it has scrolled shows.
private let scrollContent = Art.image(400, 400) { c in
    for row in 0..<8 {
        for column in 0..<8 {
            let x = Double(column) * 50, y = Double(row) * 50
            c.setFillColor(Color(red: 0.2 + 0.1 * Double(column), green: 0.3 + 0.08 * Double(row), blue: 0.9 - 0.1 * Double(column)))
            c.fill(Rect(x: x, y: y, width: 50, height: 50))
            c.setFillColor(.white)
            c.fillEllipse(in: Rect(x: x + 20, y: y + 20, width: 10, height: 10))
            c.setStrokeColor(Art.ink)
            c.setLineWidth(2)
            c.strokeEllipse(in: Rect(x: x + 8, y: y + 8, width: 34, height: 34))
        }
    }
    c.setFillColor(Color(red: 0.9, green: 0.1, blue: 0.1))
    c.fill(Rect(x: 0, y: 0, width: 400, height: 6)) // the top edge
}

/// Listing 6.10's `ScrollView`: a 200-point view backed by a ScrollLayer (clipping on) holding an image view larger
/// than it; the pan gesture's `scroll(to:)` is replaced by a fixed offset.
private func scrollViewFigure(name: String, title: String, offset: Point) -> Figure {
    Figure(name: name, title: title, width: 240, height: 240) { _ in
        let screen = Layer()
        screen.backgroundColor = Color(white: 0.85)
        let scrollView = ScrollLayer()
        scrollView.frame = Rect(x: 20, y: 20, width: 200, height: 200)
        // enable clipping
        scrollView.masksToBounds = true
        let imageView = Layer()
        imageView.frame = Rect(x: 0, y: 0, width: 400, height: 400)
        imageView.contents = .image(scrollContent)
        scrollView.addSublayer(imageView)
        screen.addSublayer(scrollView)
        // the pan gesture: offset = bounds.origin − translation, then scroll there
        scrollView.scroll(to: offset)
        return screen
    }
}

/// Figure 6.10 at rest: the picture's top-left corner in the scroll view.
let scrollViewFigureAtOrigin = scrollViewFigure(name: "6.10-scroll-view", title: "Listing 6.10: a ScrollLayer over a larger image, at (0, 0)",
                                                offset: .zero)
/// Figure 6.10 after a drag: scrolled to (150, 100).
let scrollViewFigureScrolled = scrollViewFigure(name: "6.10-scroll-view-scrolled",
                                                title: "Listing 6.10: the same ScrollLayer scrolled to (150, 100)",
                                                offset: Point(x: 150, y: 100))
