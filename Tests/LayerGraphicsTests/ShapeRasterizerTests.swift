import Foundation
@testable import LayerGraphics
import Testing

// What a shape layer strokes and how cairo draws it (SEMANTICS-LAYERS.md §1, "Stroke trimming", "Dashes", "Raster"):
// trimmed parts, dashes measured along the whole path, the dash rules, extents, and the raster itself.

private func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
    var p = Path()
    p.move(to: Point(x: x0, y: y0)); p.addLine(to: Point(x: x1, y: y1))
    return p
}

/// The x ranges of a horizontal path's pieces (each a move and one line).
private func pieces(_ p: Path) -> [ClosedRange<Double>] {
    var out: [ClosedRange<Double>] = []
    var start: Double?
    for e in p.elements {
        switch e {
        case .move(let q): start = q.x
        case .line(let q): if let s = start { out.append(min(s, q.x)...max(s, q.x)); start = q.x }
        default: break
        }
    }
    return out
}

private func near(_ a: [ClosedRange<Double>], _ b: [ClosedRange<Double>]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0.lowerBound - $1.lowerBound) < 1e-9 && abs($0.upperBound - $1.upperBound) < 1e-9 }
}

@Suite("Shape stroking and rasterising")
struct ShapeRasterizerTests {
    @Test func dashesAreMeasuredAlongTheWholePathSoTrimmingOnlyHides() {
        let p = line(0, 0, 100, 0)
        #expect(near(pieces(p.strokedPart(from: 0, to: 1, dashes: [10, 10], phase: 0)), [0...10, 20...30, 40...50, 60...70, 80...90]))
        // Trimmed to 0.25…0.65: the same dashes, cut at 25 and 65.
        #expect(near(pieces(p.strokedPart(from: 0.25, to: 0.65, dashes: [10, 10], phase: 0)), [25...30, 40...50, 60...65]))
        // A phase of 5 shifts the pattern back by 5.
        #expect(near(pieces(p.strokedPart(from: 0, to: 1, dashes: [10, 10], phase: 5)), [0...5, 15...25, 35...45, 55...65, 75...85, 95...100]))
        // A negative phase forwards.
        #expect(near(pieces(p.strokedPart(from: 0, to: 0.3, dashes: [10, 10], phase: -5)), [5...15, 25...30]))
    }

    @Test func dashesRunOnAcrossSubpathsAndCornersWithoutRestarting() {
        // Two subpaths of 15: a 10-on 10-off pattern is on for 0…10 and 20…30, i.e. 5…15 of the second subpath.
        var p = line(0, 0, 15, 0)
        p.addPath(line(100, 0, 115, 0))
        #expect(near(pieces(p.strokedPart(from: 0, to: 1, dashes: [10, 10], phase: 0)), [0...10, 105...115]))
        // A dash across a corner stays one piece (joined there).
        var corner = Path()
        corner.move(to: .zero); corner.addLine(to: Point(x: 5, y: 0)); corner.addLine(to: Point(x: 5, y: 5))
        let part = corner.strokedPart(from: 0, to: 1, dashes: [8, 20], phase: 0)
        #expect(part.elements == [.move(.zero), .line(Point(x: 5, y: 0)), .line(Point(x: 5, y: 3))])
    }

    @Test func aWholeClosedSubpathStaysClosedAndACutOneIsOpen() {
        var p = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
        p.addPath(line(0, 20, 40, 20))
        // Λ = 40 + 40: 0…0.75 covers the square whole (closed: a join, no caps) and 20 of the line.
        let part = p.strokedPart(from: 0, to: 0.75, dashes: nil, phase: 0)
        #expect(Array(part.elements.prefix(5)) == Path(rect: Rect(x: 0, y: 0, width: 10, height: 10)).elements)
        #expect(Array(part.elements.suffix(2)) == [.move(Point(x: 0, y: 20)), .line(Point(x: 20, y: 20))])
        let cut = p.strokedPart(from: 0.1, to: 0.75, dashes: nil, phase: 0)
        #expect(!cut.elements.contains(.close))
        #expect(cut.elements.first == .move(Point(x: 8, y: 0)))
        #expect(p.strokedPart(from: 0.5, to: 0.5, dashes: nil, phase: 0).isEmpty, "start ≥ end strokes nothing")
        #expect(p.strokedPart(from: 0, to: 1, dashes: nil, phase: 0) == p, "untrimmed and solid: the path itself")
    }

    @Test func theDashRules() {
        var s = ShapeStyle()
        s.lineDashPattern = [5]
        #expect(s.effectiveDashes == [5, 5], "odd: used twice over")
        s.lineDashPattern = [5, -1]
        #expect(s.effectiveDashes == nil, "a negative entry: solid")
        s.lineDashPattern = [0, 0]
        #expect(s.effectiveDashes == nil, "a zero sum: solid")
        s.lineDashPattern = [.nan, 3]
        #expect(s.sanitized.effectiveDashes == nil)
        s.lineDashPattern = []
        #expect(s.effectiveDashes == nil)
        s.strokeColor = .red
        s.lineWidth = 0
        #expect(!s.strokes, "a width of 0 strokes nothing")
        s.lineWidth = -.infinity
        #expect(!s.sanitized.strokes)
        s.lineWidth = 2; s.strokeStart = 0.6; s.strokeEnd = 0.4
        #expect(!s.strokes, "start ≥ end")
        // A pattern far finer than the path is drawn solid rather than cut into millions of pieces.
        let fine = line(0, 0, 1000, 0).strokedPart(from: 0, to: 1, dashes: [1e-6, 1e-6], phase: 0)
        #expect(fine == line(0, 0, 1000, 0))
    }

    @Test func extentsCoverFillAndStroke() throws {
        var style = ShapeStyle()
        let square = Path(rect: Rect(x: 10, y: 10, width: 20, height: 20))
        #expect(ShapeRasterizer.extent(of: square, style: style) == Rect(x: 10, y: 10, width: 20, height: 20))
        style.strokeColor = .red
        style.lineWidth = 4
        let e = try #require(ShapeRasterizer.extent(of: square, style: style))
        #expect(e.minX <= 8 && e.minY <= 8 && e.maxX >= 32 && e.maxY >= 32 && e.minX >= 7 && e.maxX <= 33)
        // Far from the origin (beyond cairo's fixed-point range), still measured exactly.
        style.strokeColor = nil
        let far = Path(rect: Rect(x: 3e7, y: -2e7, width: 20, height: 20))
        #expect(ShapeRasterizer.extent(of: far, style: style) == Rect(x: 3e7, y: -2e7, width: 20, height: 20))
        #expect(ShapeRasterizer.extent(of: Path(rect: Rect(x: 0, y: 0, width: 1e8, height: 1)), style: style) == nil, "too wide")
        style.fillColor = nil
        #expect(ShapeRasterizer.extent(of: square, style: style) == nil, "nothing drawn")
    }

    @Test func theRasterIsCairosFillThenStroke() {
        var style = ShapeStyle()
        style.fillColor = .red
        style.strokeColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        style.lineWidth = 4
        let image = ShapeRasterizer.rasterize(Path(rect: Rect(x: 10, y: 10, width: 20, height: 20)), style: style,
                                             origin: Point(x: 5, y: 5), scale: 2, width: 60, height: 60)
        // Layer point (20, 20) is pixel (30, 30): the red fill; (10, 10) is (10, 10): half blue over red.
        #expect(image.pixel(x: 30, y: 30) == PremultipliedColor(r: 255, g: 0, b: 0, a: 255))
        let edge = image.pixel(x: 10, y: 10)
        #expect(abs(Int(edge.b) - 128) <= 1 && abs(Int(edge.r) - 127) <= 1 && edge.a == 255)
        #expect(image.pixel(x: 2, y: 2).a == 0, "outside: transparent")
    }
}
