import LayerGraphics
import LayerKit

/// Figure 3.7: the clock of listings 3.1 and 3.2, its hands turning about an anchor point near their ends.
/// The book's four pictures (figure 3.4) are drawn by `ClockArt`; the time is fixed at 10:09:30.
let clockFigure = Figure(name: "3.7-clock", title: "Listings 3.1–3.2: a clock whose hands turn about anchorPoint (0.5, 0.9), at 10:09:30",
                         width: 240, height: 240) { _ in
    ClockView(hour: 10, minute: 9, second: 30).layer
}

/// The clock view of listing 3.1: a face and three hands, each an image layer centred on the face.
struct ClockView {
    static let side = 240.0
    let layer = Layer()
    let hourHand = Layer(), minuteHand = Layer(), secondHand = Layer()

    init(hour: Int, minute: Int, second: Int) {
        let face = Layer()
        face.frame = Rect(x: 0, y: 0, width: Self.side, height: Self.side)
        face.contents = .image(ClockArt.face(side: Self.side))
        layer.addSublayer(face)
        // The image views of figure 3.5, laid out centred on the face (Interface Builder's job in the book).
        for (hand, width, height, color) in [(hourHand, 12.0, 72.0, Art.ink), (minuteHand, 8.0, 100.0, Art.ink), (secondHand, 4.0, 108.0, Color.red)] {
            hand.bounds = Rect(x: 0, y: 0, width: width, height: height)
            hand.position = Point(x: Self.side / 2, y: Self.side / 2)
            hand.contents = .image(ClockArt.hand(width: width, height: height, color: color))
            layer.addSublayer(hand)
        }
        // listing 3.2: adjust anchor points
        secondHand.anchorPoint = Point(x: 0.5, y: 0.9)
        minuteHand.anchorPoint = Point(x: 0.5, y: 0.9)
        hourHand.anchorPoint = Point(x: 0.5, y: 0.9)
        tick(hour: hour, minute: minute, second: second)
    }

    /// Listing 3.1's `tick`: each hand turned by its fraction of a full turn (the hour hand by the hour alone, as in the book).
    func tick(hour: Int, minute: Int, second: Int) {
        // calculate hour hand angle
        let hoursAngle = (Double(hour % 12) / 12.0) * .pi * 2.0
        // calculate minute hand angle
        let minsAngle = (Double(minute) / 60.0) * .pi * 2.0
        // calculate second hand angle
        let secsAngle = (Double(second) / 60.0) * .pi * 2.0
        // rotate hands
        hourHand.setAffineTransform(AffineTransform2D(rotationAngle: hoursAngle))
        minuteHand.setAffineTransform(AffineTransform2D(rotationAngle: minsAngle))
        secondHand.setAffineTransform(AffineTransform2D(rotationAngle: secsAngle))
    }
}

/// The four pictures of figure 3.4: a face with hour marks and three tapered hands whose pivot is 90% down.
enum ClockArt {
    static func face(side: Double) -> Image {
        Art.image(side, side) { c in
            let b = Rect(x: 0, y: 0, width: side, height: side).insetBy(dx: 4, dy: 4)
            c.setFillColor(.white)
            c.fillEllipse(in: b)
            c.setStrokeColor(Color(white: 0.2))
            c.setLineWidth(5)
            c.strokeEllipse(in: b)
            c.setFillColor(Color(white: 0.2))
            for tick in 0..<12 { // hour marks, longer at 12, 3, 6 and 9
                c.saveGState()
                c.translateBy(x: side / 2, y: side / 2)
                c.rotate(by: Double(tick) * .pi / 6)
                c.fill(Rect(x: -2.5, y: -side / 2 + 12, width: 5, height: tick % 3 == 0 ? 18 : 10))
                c.restoreGState()
            }
        }
    }

    static func hand(width: Double, height: Double, color: Color) -> Image {
        Art.image(width, height) { c in
            var p = Path()
            p.move(to: Point(x: width / 2, y: 0))
            p.addLine(to: Point(x: width, y: height * 0.9))
            p.addLine(to: Point(x: width / 2, y: height))
            p.addLine(to: Point(x: 0, y: height * 0.9))
            p.closeSubpath()
            c.setFillColor(color)
            c.addPath(p)
            c.fillPath()
        }
    }
}
