import CCairo
import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// SEMANTICS-LAYERS.md §3, "Test by", one test each, plus each property's rules. The gradient is dithered before it
// is rounded to 8 bits (GradientKernel.swift): every channel is within ±1 of the exact value, which is the tolerance
// used here wherever the exact value is compared.

@Suite("GradientLayer: §3's checks")
struct GradientLayerTests {
    let redBlue: [Color] = [.red, .blue]

    @Test func theDefaultAxialGradientRunsDownWithEveryRowConstant() {
        let (root, _) = gradientScene(64, 64) { $0.colors = redBlue }
        let s = render(root)
        let worst = worstDifference(s) { _, y in expectedColor(redBlue, [0, 1], t: (Double(y) + 0.5) / 64) }
        #expect(worst.difference <= 1, "row y is the colour at t = (y + 0.5)/H; worst at \(worst)")
        for y in [0, 20, 63] {
            let row = (0..<64).map { s.pixel(x: $0, y: y) }
            #expect(row.allSatisfy { channelDifference($0, row[0]) <= 1 }, "row \(y) is constant (up to the dither)")
        }
        expectPixel(s, 10, 0, expectedColor(redBlue, [0, 1], t: 0.5 / 64), tolerance: 1, "the first row is nearly red")
        expectPixel(s, 10, 63, expectedColor(redBlue, [0, 1], t: 63.5 / 64), tolerance: 1, "the last row is nearly blue")
    }

    @Test func aDiagonalGradientOnASquareIsSymmetricAboutTheDiagonal() {
        let (root, _) = gradientScene(64, 64) {
            $0.colors = [.red, Color(red: 0.2, green: 0.9, blue: 0.3), .blue]
            $0.startPoint = Point(x: 0, y: 0)
            $0.endPoint = Point(x: 1, y: 1)
        }
        let s = render(root)
        var asymmetric = 0
        for y in 0..<64 { for x in 0..<y where s.pixel(x: x, y: y) != s.pixel(x: y, y: x) { asymmetric += 1 } }
        #expect(asymmetric == 0, "pixel (x, y) = pixel (y, x) exactly (the dither is mirrored too)")
        let worst = worstDifference(s) { x, y in
            expectedColor([.red, Color(red: 0.2, green: 0.9, blue: 0.3), .blue], [0, 0.5, 1], t: (Double(x) + Double(y) + 1) / 128)
        }
        #expect(worst.difference <= 1, "t = ((p − s)·d)/(d·d); worst at \(worst)")
    }

    @Test func opaqueStopsMatchCairosLinearPatternWithinOne() throws {
        let w = 96, h = 64
        let colors = [Color(red: 0.9, green: 0.2, blue: 0.1), Color(red: 0.1, green: 0.8, blue: 0.3), Color(red: 0.2, green: 0.1, blue: 0.7)]
        let locations = [0.1, 0.45, 0.9]
        let start = Point(x: 0.15, y: 0.2), end = Point(x: 0.8, y: 0.9)
        let (root, _) = gradientScene(w, h) {
            $0.colors = colors
            $0.locations = locations
            $0.startPoint = start
            $0.endPoint = end
        }
        let ours = render(root)
        // cairo's linear pattern through the same points in pixels, padded beyond its ends.
        let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)))
        defer { cairo_surface_destroy(surface) }
        let cr = try #require(cairo_create(surface))
        defer { cairo_destroy(cr) }
        let pattern = try #require(cairo_pattern_create_linear(start.x * Double(w), start.y * Double(h), end.x * Double(w), end.y * Double(h)))
        defer { cairo_pattern_destroy(pattern) }
        for (c, l) in zip(colors, locations) { cairo_pattern_add_color_stop_rgba(pattern, l, c.red, c.green, c.blue, c.alpha) }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_surface_flush(surface)
        let data = try #require(cairo_image_surface_get_data(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let worst = worstDifference(ours) { x, y in
            let word = data.withMemoryRebound(to: UInt32.self, capacity: stride / 4 * h) { $0[y * stride / 4 + x] }
            return PremultipliedColor(bgra: word)
        }
        #expect(worst.difference <= 1, "worst at \(worst)")
    }

    @Test func aRadialCircleIsSymmetricInEightDirections() {
        let colors = [Color.white, Color(red: 0.9, green: 0.4, blue: 0.1), Color(red: 0.1, green: 0.1, blue: 0.5)]
        let (root, _) = gradientScene(64, 64) {
            $0.type = .radial
            $0.colors = colors
            $0.startPoint = Point(x: 0.5, y: 0.5)
            $0.endPoint = Point(x: 1, y: 1)
        }
        let s = render(root)
        var worst = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let p = s.pixel(x: x, y: y)
                for (mx, my) in [(63 - x, y), (x, 63 - y), (63 - x, 63 - y), (y, x), (63 - y, x), (y, 63 - x), (63 - y, 63 - x)] {
                    worst = max(worst, channelDifference(p, s.pixel(x: mx, y: my)))
                }
            }
        }
        #expect(worst <= 1, "mirrored and turned pixels agree up to the dither")
        let exact = worstDifference(s) { x, y in
            let dx = (Double(x) + 0.5 - 32) / 32, dy = (Double(y) + 0.5 - 32) / 32
            return expectedColor(colors, [0, 0.5, 1], t: (dx * dx + dy * dy).squareRoot())
        }
        #expect(exact.difference <= 1, "t = √((Δx/rx)² + (Δy/ry)²); worst at \(exact)")
    }

    @Test func aConicGradientHasAQuarterTurnStraightBelowItsCentre() {
        let colors: [Color] = [.red, .green, .blue, .red]
        let (root, _) = gradientScene(64, 64) {
            $0.type = .conic
            $0.colors = colors
            $0.startPoint = Point(x: 0.5, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        let s = render(root)
        // The pixel straight below the centre (x = 31.5 is off the axis by half a pixel: take a far row, where the
        // angle differs from a quarter turn by atan(0.5/28)).
        let below = (atan2(28.0, -0.5)) / (2 * Double.pi)
        expectPixel(s, 31, 60, expectedColor(colors, [0, 1.0 / 3, 2.0 / 3, 1], t: below), tolerance: 1, "t ≈ 0.25 below")
        let worst = worstDifference(s, where: { x, y in abs(Double(x) - 31.5) > 1 || abs(Double(y) - 31.5) > 1 }) { x, y in
            let a = atan2(Double(y) + 0.5 - 32, Double(x) + 0.5 - 32) / (2 * Double.pi)
            return expectedColor(colors, [0, 1.0 / 3, 2.0 / 3, 1], t: a - a.rounded(.down))
        }
        #expect(worst.difference <= 1, "clockwise on screen from the direction of the end point; worst at \(worst)")
        expectPixel(s, 60, 32, PremultipliedColor(r: 255, g: 0, b: 0, a: 255), tolerance: 8, "just past θ = 0: nearly red")
        expectPixel(s, 3, 32, PremultipliedColor(r: 0, g: 128, b: 128, a: 255), tolerance: 3, "half a turn on: green and blue mixed")
    }

    @Test func mismatchedCountsShowOnlyTheBackground() {
        let (root, _) = gradientScene(32, 32, background: Palette.canvas) { _ in }
        let gradient = GradientLayer()
        gradient.frame = Rect(x: 0, y: 0, width: 32, height: 32)
        gradient.backgroundColor = Palette.teal
        gradient.colors = [.red, .blue]
        gradient.locations = [0, 0.5, 1]
        root.addSublayer(gradient)
        let s = render(root)
        let worst = worstDifference(s) { _, _ in Palette.teal.premultiplied }
        #expect(worst.difference == 0, "a locations count other than the colours' draws no gradient [book]")
    }

    @Test func whiteToClearPassesThroughTranslucentGrey() {
        // 65 wide: pixel 32's centre is the middle, t = ½.
        let (root, _) = gradientScene(65, 64) {
            $0.colors = [.white, .clear]
            $0.startPoint = Point(x: 0, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        let s = render(root)
        for y in [0, 17, 40] {
            expectPixel(s, 32, y, PremultipliedColor(r: 64, g: 64, b: 64, a: 128), tolerance: 1, "straight mix, then premultiplied")
        }
    }
}
