import LayerGraphics

/// Bitmaps standing in for the book's image files (Snowman.png, Sprites.png, Button.png, the clock's four
/// pictures, the cube's numbered faces), drawn procedurally so the gallery needs no assets.
enum Art {
    /// A bitmap of `width × height` pixels drawn by `body` (y down, origin top-left).
    static func image(_ width: Double, _ height: Double, _ body: (DrawingContext) -> Void) -> Image {
        let context = DrawingContext(size: Size(width: width, height: height))
        body(context)
        return context.makeImage()
    }

    static let ink = Color(white: 0.15)

    /// The snowman picture of chapter 5's layer views: a snowman on a pale blue card. Not symmetric (the
    /// nose points right, the arm is raised on the left) so that a turn or a mirror shows.
    static let snowman = image(120, 120) { c in
        c.setFillColor(Color(red: 0.72, green: 0.86, blue: 0.97))
        c.fill(Rect(x: 0, y: 0, width: 120, height: 120))
        c.setFillColor(.white)
        c.fill(Rect(x: 0, y: 100, width: 120, height: 20)) // snow on the ground
        c.setStrokeColor(ink)
        c.setLineWidth(2)
        for body in [Rect(x: 36, y: 58, width: 48, height: 48), Rect(x: 44, y: 24, width: 32, height: 32)] {
            c.setFillColor(.white)
            c.fillEllipse(in: body)
            c.strokeEllipse(in: body)
        }
        c.setFillColor(ink)
        c.fillEllipse(in: Rect(x: 52, y: 34, width: 5, height: 5))
        c.fillEllipse(in: Rect(x: 64, y: 34, width: 5, height: 5))
        var nose = Path()
        nose.move(to: Point(x: 60, y: 42)); nose.addLine(to: Point(x: 78, y: 46)); nose.addLine(to: Point(x: 60, y: 48))
        nose.closeSubpath()
        c.setFillColor(Color(red: 0.95, green: 0.5, blue: 0.1))
        c.addPath(nose); c.fillPath()
        var arm = Path()
        arm.move(to: Point(x: 40, y: 74)); arm.addLine(to: Point(x: 14, y: 50))
        c.setStrokeColor(Color(red: 0.45, green: 0.3, blue: 0.15))
        c.setLineWidth(3)
        c.addPath(arm); c.strokePath()
        c.setFillColor(Color(red: 0.85, green: 0.1, blue: 0.1))
        c.fill(Rect(x: 0, y: 0, width: 120, height: 8)) // a red band: which edge is the top
    }

    /// A 2×2 sprite sheet as figure 2.7's: igloo (top left), cone (top right), anchor (bottom left),
    /// spaceship (bottom right), each on its own tinted cell.
    static let sprites = image(128, 128) { c in
        let cells: [(Double, Double, Color)] = [(0, 0, Color(red: 0.85, green: 0.93, blue: 1)), (64, 0, Color(red: 1, green: 0.92, blue: 0.8)),
                                                (0, 64, Color(red: 0.85, green: 0.95, blue: 0.85)), (64, 64, Color(red: 0.92, green: 0.88, blue: 1))]
        for (x, y, tint) in cells { c.setFillColor(tint); c.fill(Rect(x: x, y: y, width: 64, height: 64)) }
        c.setStrokeColor(ink)
        c.setLineWidth(2)
        // igloo: a white dome with blocks
        c.saveGState()
        c.clip(to: Rect(x: 0, y: 0, width: 64, height: 53)) // the upper half of a circle
        c.setFillColor(.white); c.fillEllipse(in: Rect(x: 8, y: 28, width: 48, height: 48)); c.strokeEllipse(in: Rect(x: 8, y: 28, width: 48, height: 48))
        c.restoreGState()
        c.setFillColor(ink); c.fill(Rect(x: 6, y: 51, width: 52, height: 2))
        c.setFillColor(ink); c.fill(Rect(x: 26, y: 40, width: 12, height: 12)) // the door
        // cone: an orange traffic cone with a white stripe
        var cone = Path()
        cone.move(to: Point(x: 96, y: 8)); cone.addLine(to: Point(x: 114, y: 54)); cone.addLine(to: Point(x: 78, y: 54)); cone.closeSubpath()
        c.setFillColor(Color(red: 0.98, green: 0.45, blue: 0.05)); c.addPath(cone); c.fillPath()
        c.setFillColor(.white); c.fill(Rect(x: 87, y: 30, width: 18, height: 6))
        c.setFillColor(ink); c.fill(Rect(x: 74, y: 54, width: 44, height: 4))
        // anchor: a dark blue shank, stock and arms
        c.setStrokeColor(Color(red: 0.1, green: 0.2, blue: 0.5)); c.setLineWidth(5)
        var anchor = Path()
        anchor.move(to: Point(x: 32, y: 74)); anchor.addLine(to: Point(x: 32, y: 120))
        anchor.move(to: Point(x: 20, y: 82)); anchor.addLine(to: Point(x: 44, y: 82))
        anchor.move(to: Point(x: 12, y: 104)); anchor.addLine(to: Point(x: 32, y: 120)); anchor.addLine(to: Point(x: 52, y: 104))
        c.addPath(anchor); c.strokePath()
        // spaceship: a grey dart with a red flame
        var ship = Path()
        ship.move(to: Point(x: 96, y: 70)); ship.addLine(to: Point(x: 116, y: 112)); ship.addLine(to: Point(x: 96, y: 102))
        ship.addLine(to: Point(x: 76, y: 112)); ship.closeSubpath()
        c.setFillColor(Color(white: 0.55)); c.addPath(ship); c.fillPath()
        c.setFillColor(Color(red: 0.9, green: 0.1, blue: 0.1)); c.fill(Rect(x: 92, y: 106, width: 8, height: 14))
    }

    /// A 48×48 rounded button as Button.png: a 3-point dark rim, a blue body, a light top half. Its corners
    /// lie inside the outer quarter, so contentsCenter (0.25, 0.25, 0.5, 0.5) keeps them unstretched.
    static let button = image(48, 48) { c in
        c.setFillColor(Color(red: 0.1, green: 0.2, blue: 0.45))
        c.addPath(Path(roundedRect: Rect(x: 0, y: 0, width: 48, height: 48), cornerRadius: 10)); c.fillPath()
        c.setFillColor(Color(red: 0.25, green: 0.5, blue: 0.9))
        c.addPath(Path(roundedRect: Rect(x: 3, y: 3, width: 42, height: 42), cornerRadius: 7)); c.fillPath()
        c.setFillColor(Color(red: 0.55, green: 0.75, blue: 1))
        c.addPath(Path(roundedRect: Rect(x: 3, y: 3, width: 42, height: 20), cornerRadius: 7)); c.fillPath()
    }

    /// Cube face `number` (1–6) as the book's: a white square with a border and its number in the middle.
    static func face(_ number: Int, side: Double) -> Image {
        image(side, side) { c in
            c.setFillColor(.white); c.fill(Rect(x: 0, y: 0, width: side, height: side))
            c.setStrokeColor(Color(white: 0.6)); c.setLineWidth(4)
            c.stroke(Rect(x: 2, y: 2, width: side - 4, height: side - 4))
            let font = "Sans Bold \(Int(side * 0.5))"
            let text = "\(number)"
            let t = c.sizeOfText(text, font: font)
            c.drawText(text, at: Point(x: (side - t.width) / 2, y: (side - t.height) / 2), font: font, color: Color(red: 0.1, green: 0.3, blue: 0.8))
        }
    }
}
