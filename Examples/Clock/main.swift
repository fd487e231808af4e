// Listings 3.1 and 3.2 of "iOS Core Animation: Advanced Techniques" in LayerKit: a clock whose hands turn
// about an anchor point near their ends. The book loads four images; we draw them with a delegate, then
// the code is the book's: hands rotated by the time, anchorPoint (0.5, 0.9).
//
//   swift run Clock [OUT.png] [HH:MM:SS]     (default: out/clock.png at 10:09:30)
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit

/// Draws the face and the hands (the book's four images).
final class ClockArt: LayerDelegate {
    func draw(_ layer: Layer, in ctx: DrawingContext) {
        let b = layer.bounds
        switch layer.name {
        case "face":
            ctx.setFillColor(.white)
            ctx.fillEllipse(in: b.insetBy(dx: 4, dy: 4))
            ctx.setStrokeColor(Color(white: 0.2))
            ctx.setLineWidth(6)
            ctx.strokeEllipse(in: b.insetBy(dx: 4, dy: 4))
            ctx.setFillColor(Color(white: 0.2))
            for tick in 0..<12 { // hour marks
                ctx.saveGState()
                ctx.translateBy(x: b.midX, y: b.midY)
                ctx.rotate(by: Double(tick) * .pi / 6)
                ctx.fill(Rect(x: -3, y: -b.height / 2 + 14, width: 6, height: tick % 3 == 0 ? 22 : 12))
                ctx.restoreGState()
            }
        default: // a hand: a tapered bar, its pivot 90% down
            ctx.setFillColor(layer.name == "second" ? .red : Color(white: 0.15))
            var p = Path()
            p.move(to: Point(x: b.midX, y: 0))
            p.addLine(to: Point(x: b.maxX, y: b.height * 0.9))
            p.addLine(to: Point(x: b.midX, y: b.maxY))
            p.addLine(to: Point(x: b.minX, y: b.height * 0.9))
            p.closeSubpath()
            ctx.addPath(p)
            ctx.fillPath()
        }
    }
}

final class ViewController {
    let art = ClockArt()
    let clockView = Layer()
    let hourHand = Layer(), minuteHand = Layer(), secondHand = Layer()

    func viewDidLoad() {
        clockView.frame = Rect(x: 0, y: 0, width: 300, height: 300)
        let face = Layer()
        face.name = "face"
        face.frame = clockView.bounds
        clockView.addSublayer(face)
        for (hand, name, width, height) in [(hourHand, "hour", 14.0, 90.0), (minuteHand, "minute", 10.0, 125.0), (secondHand, "second", 4.0, 135.0)] {
            hand.name = name
            hand.bounds = Rect(x: 0, y: 0, width: width, height: height)
            hand.position = Point(x: 150, y: 150) // the centre of the face
            clockView.addSublayer(hand)
        }
        for layer in clockView.sublayers ?? [] {
            layer.delegate = art
            layer.contentsScale = 2
            layer.setNeedsDisplay()
        }
        // adjust anchor points (listing 3.2)
        secondHand.anchorPoint = Point(x: 0.5, y: 0.9)
        minuteHand.anchorPoint = Point(x: 0.5, y: 0.9)
        hourHand.anchorPoint = Point(x: 0.5, y: 0.9)
    }

    func tick(hour: Int, minute: Int, second: Int) {
        // convert time to hours, minutes and seconds
        let hoursAngle = (Double(hour % 12) / 12.0) * .pi * 2.0 // calculate hour hand angle
        let minsAngle = (Double(minute) / 60.0) * .pi * 2.0     // calculate minute hand angle
        let secsAngle = (Double(second) / 60.0) * .pi * 2.0     // calculate second hand angle
        // rotate hands
        hourHand.setAffineTransform(AffineTransform2D(rotationAngle: hoursAngle))
        minuteHand.setAffineTransform(AffineTransform2D(rotationAngle: minsAngle))
        secondHand.setAffineTransform(AffineTransform2D(rotationAngle: secsAngle))
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let output = arguments.first ?? "out/clock.png"
let time = (arguments.count > 1 ? arguments[1] : "10:09:30").split(separator: ":").compactMap { Int($0) }
do {
    guard time.count == 3 else { throw GraphicsError("the time must be HH:MM:SS") }
    let controller = ViewController()
    controller.viewDidLoad()
    controller.tick(hour: time[0], minute: time[1], second: time[2])
    controller.clockView.position = Point(x: 150, y: 150)
    try FileManager.default.createDirectory(atPath: (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Compositor().render(controller.clockView.snapshot(), width: 300, height: 300).writePNG(to: output)
    print("wrote \(output)")
} catch {
    FileHandle.standardError.write(Data("Clock: error: \(error)\n".utf8))
    exit(1)
}
