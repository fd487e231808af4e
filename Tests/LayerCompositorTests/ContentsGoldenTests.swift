import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// Contents placement (References/contents): every contentsGravity, contentsRect (sprite frames, extended edges),
// contentsCenter (nine-slice), and the filters when minifying 8×. All strict: (2, 0).

private let strict = GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0)
private let area = "contents"
/// The bounds colour of the layers that show contents.
private let well = Color(white: 0.75)

// MARK: - Gravity

/// Where each gravity sits in the grid: the 3×3 block reads like the gravities (top-left … bottom-right),
/// the fourth column holds the resizing ones.
private let gravityGrid: [(ContentsGravity, column: Int, row: Int)] = [
    (.topLeft, 0, 0), (.top, 1, 0), (.topRight, 2, 0),
    (.left, 0, 1), (.center, 1, 1), (.right, 2, 1),
    (.bottomLeft, 0, 2), (.bottom, 1, 2), (.bottomRight, 2, 2),
    (.resize, 3, 0), (.resizeAspect, 3, 1), (.resizeAspectFill, 3, 2),
]

/// The box of a cell's pixels that differ from the well colour, relative to the cell.
private func contentsBox(_ s: Surface, _ cell: Rect) -> (x: Int, y: Int, width: Int, height: Int)? {
    var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
    for y in Int(cell.minY)..<Int(cell.maxY) {
        for x in Int(cell.minX)..<Int(cell.maxX) where channelDifference(s.pixel(x: x, y: y), well.premultiplied) > 4 {
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        }
    }
    guard x0 <= x1 else { return nil }
    return (x0 - Int(cell.minX), y0 - Int(cell.minY), x1 - x0 + 1, y1 - y0 + 1)
}

@Test func contentsEveryGravity() {
    // strict: (2, 0). A 40×48-pixel picture at contentsScale 2 (natural size 20×24 points) in 44×36 layers that
    // clip to their bounds. Non-resizing gravities show it at natural size, `top` visually on top (y down);
    // resizeAspect fits it (30×36), resizeAspectFill fills (44×52.8, cropped), resize stretches it.
    let root = canvas(200, 160)
    var cells: [ContentsGravity: Rect] = [:]
    for (gravity, column, row) in gravityGrid {
        let cell = Rect(x: Double(3 + 50 * column), y: Double(8 + 52 * row), width: 44, height: 36)
        let layer = makeLayer(cell, background: well, name: gravity.rawValue)
        layer.contents = .image(testImage(width: 40, height: 48))
        layer.contentsScale = 2
        layer.contentsGravity = gravity
        layer.masksToBounds = true
        root.addSublayer(layer)
        cells[gravity] = cell
    }
    let s = render(root)
    expectGolden(s, area: area, name: "gravity-all", tolerance: strict)

    func expectBox(_ g: ContentsGravity, _ x: Int, _ y: Int, _ w: Int, _ h: Int) {
        let box = contentsBox(s, cells[g]!)
        #expect(box?.x == x && box?.y == y && box?.width == w && box?.height == h, "\(g): \(String(describing: box))")
    }
    expectBox(.topLeft, 0, 0, 20, 24); expectBox(.top, 12, 0, 20, 24); expectBox(.topRight, 24, 0, 20, 24)
    expectBox(.left, 0, 6, 20, 24); expectBox(.center, 12, 6, 20, 24); expectBox(.right, 24, 6, 20, 24)
    expectBox(.bottomLeft, 0, 12, 20, 24); expectBox(.bottom, 12, 12, 20, 24); expectBox(.bottomRight, 24, 12, 20, 24)
    expectBox(.resize, 0, 0, 44, 36); expectBox(.resizeAspect, 7, 0, 30, 36); expectBox(.resizeAspectFill, 0, 0, 44, 36)
    // Upright, not mirrored: the red quadrant is at the top-left of the contents.
    let tl = cells[.topLeft]!
    expectPixel(s, Int(tl.minX) + 2, Int(tl.minY) + 2, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "topLeft's red quadrant")
    let fill = cells[.resizeAspectFill]!
    // Fill scales by 2.2: the red quadrant reaches 22 points right and 26.4 down from −8.4, so row 2 is red at x 19.
    expectPixel(s, Int(fill.minX) + 19, Int(fill.minY) + 2, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "fill's red quadrant")
}

// MARK: - contentsRect

/// 64×32: a sprite sheet of 4×2 frames of 16×16, frame k in `blockColors[k]` with a dark one-pixel outline and a
/// white 4×4 mark near its top-left corner (so a flipped or shifted frame shows).
func spriteSheet() -> Image {
    Image(width: 64, height: 32) { px in
        for y in 0..<32 {
            for x in 0..<64 {
                let k = (y / 16) * 4 + x / 16, fx = x % 16, fy = y % 16
                var c = blockColors[k]
                if fx == 0 || fy == 0 || fx == 15 || fy == 15 { c = Color(white: 0.1) }
                else if (3..<7).contains(fx) && (3..<7).contains(fy) { c = .white }
                px[y * 64 + x] = c.premultiplied.bgra
            }
        }
    }
}

@Test func contentsRectSpriteFramesAndExtendedEdges() {
    // strict: (2, 0). Top-left: the whole sheet, 1:1. Below: frame 5 (contentsRect (0.25, 0.5, 0.25, 0.5)) centred
    // at its natural 16×16 in a 40×40 well; frame 1 stretched 4× with nearest magnification. Right: a contentsRect
    // of (−0.5, −0.5, 2, 2) on the 32×24 test picture, 1:1, so the picture sits in the middle and its edge pixels
    // extend to the layer's edges; below it (0.25, 0.25, 1, 1): only the right and bottom edges extend.
    let root = canvas(200, 136)
    let sheet = makeLayer(Rect(x: 8, y: 8, width: 64, height: 32))
    sheet.contents = .image(spriteSheet())
    root.addSublayer(sheet)

    let frame = makeLayer(Rect(x: 8, y: 56, width: 40, height: 40), background: well)
    frame.contents = .image(spriteSheet())
    frame.contentsRect = Rect(x: 0.25, y: 0.5, width: 0.25, height: 0.5)
    frame.contentsGravity = .center
    root.addSublayer(frame)

    let big = makeLayer(Rect(x: 56, y: 56, width: 64, height: 64))
    big.contents = .image(spriteSheet())
    big.contentsRect = Rect(x: 0.25, y: 0, width: 0.25, height: 0.5)
    big.magnificationFilter = .nearest
    root.addSublayer(big)

    let extended = makeLayer(Rect(x: 128, y: 8, width: 64, height: 48))
    extended.contents = .image(testImage(width: 32, height: 24))
    extended.contentsRect = Rect(x: -0.5, y: -0.5, width: 2, height: 2)
    root.addSublayer(extended)

    let shifted = makeLayer(Rect(x: 144, y: 72, width: 32, height: 24))
    shifted.contents = .image(testImage(width: 32, height: 24))
    shifted.contentsRect = Rect(x: 0.25, y: 0.25, width: 1, height: 1)
    root.addSublayer(shifted)

    let s = render(root)
    expectGolden(s, area: area, name: "contents-rect", tolerance: strict)
    // Frame 5 at natural size (the contentsRect part, 16×16) in the middle of its well: (20, 20) ± 8.
    expectPixel(s, 8 + 12 + 4, 56 + 12 + 4, Color.white.premultiplied, "frame 5's mark")
    expectPixel(s, 8 + 20, 56 + 26, blockColors[5].premultiplied, tolerance: 1, "frame 5's colour")
    expectPixel(s, 8 + 11, 56 + 20, well.premultiplied, "the well beside frame 5")
    // Frame 1 at 4×: its colour and its mark (texels 3…6 → points 12…28).
    expectPixel(s, 56 + 40, 56 + 40, blockColors[1].premultiplied, tolerance: 1, "frame 1's colour")
    expectPixel(s, 56 + 14, 56 + 26, Color.white.premultiplied, "frame 1's mark")
    // The extended corners take the corner pixels; the extended top edge takes the top row.
    expectPixel(s, 128, 8, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "extended top-left corner")
    expectPixel(s, 191, 8, Palette.quadrantTopRight.premultiplied, tolerance: 1, "extended top-right corner")
    expectPixel(s, 128, 55, Palette.quadrantBottomLeft.premultiplied, tolerance: 1, "extended bottom-left corner")
    expectPixel(s, 150, 9, Palette.quadrantTopLeft.premultiplied, tolerance: 1, "extended top edge, left half")
    expectPixel(s, 170, 9, Palette.quadrantTopRight.premultiplied, tolerance: 1, "extended top edge, right half")
}

// MARK: - contentsCenter

/// A 24s×24s button at `s` pixels per point: a teal rounded rect (radius 8 points) with a navy rim 1.5 points wide,
/// a yellow middle (the stretchable third) and a dot in each corner (red, green, blue, orange), transparent outside.
func buttonImage(scale s: Int = 1) -> Image {
    let size = 24 * s
    return Image(width: size, height: size) { px in
        for y in 0..<size {
            for x in 0..<size {
                let u = (Double(x) + 0.5) / Double(s), v = (Double(y) + 0.5) / Double(s)
                // Distance to the rounded rect (0…24, radius 8): negative inside.
                let qx = max(abs(u - 12) - 4, 0), qy = max(abs(v - 12) - 4, 0)
                let d = (qx * qx + qy * qy).squareRoot() - 8
                let alpha = min(max(0.5 - d * Double(s), 0), 1)
                var c = Palette.teal
                if d > -1.5 { c = Palette.navy }
                else if (8..<16).contains(u) && (8..<16).contains(v) { c = Palette.yellow }
                let dots: [(Double, Double, Color)] = [(5, 5, .red), (19, 5, Palette.quadrantTopRight), (5, 19, Palette.quadrantBottomLeft),
                                                       (19, 19, Palette.orange)]
                for (cx, cy, dc) in dots where (u - cx) * (u - cx) + (v - cy) * (v - cy) < 4 { c = dc }
                px[y * size + x] = c.withAlpha(alpha).premultiplied.bgra
            }
        }
    }
}

/// `top` (premultiplied) over the opaque canvas.
private func overCanvas(_ top: PremultipliedColor) -> PremultipliedColor {
    let k = 1 - Double(top.a) / 255, bg = Palette.canvas.premultiplied
    func c(_ t: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(t) + Double(b) * k).rounded()) }
    return PremultipliedColor(r: c(top.r, bg.r), g: c(top.g, bg.g), b: c(top.b, bg.b), a: 255)
}

@Test func contentsCenterNineSlice() {
    // strict: (2, 0). The 24×24 button with contentsCenter = the middle third: wide (184×40), tall (40×96), at
    // contentsScale 2 (48×48 pixels, same 8-point corners, sharper), squeezed below its corners (12×12 and 30×12:
    // the corners shrink in proportion on the short axis only), and, for contrast, plainly resized (corners smeared).
    let root = canvas(200, 160)
    let middle = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    func button(_ frame: Rect, scale: Int = 1, center: Rect? = middle) {
        let layer = makeLayer(frame)
        layer.contents = .image(buttonImage(scale: scale))
        layer.contentsScale = Double(scale)
        if let center { layer.contentsCenter = center }
        root.addSublayer(layer)
    }
    button(Rect(x: 8, y: 8, width: 184, height: 40))
    button(Rect(x: 8, y: 56, width: 40, height: 96))
    button(Rect(x: 56, y: 56, width: 96, height: 48), scale: 2)
    button(Rect(x: 160, y: 56, width: 12, height: 12))
    button(Rect(x: 160, y: 80, width: 30, height: 12))
    button(Rect(x: 56, y: 112, width: 96, height: 40), center: nil)
    let s = render(root)
    expectGolden(s, area: area, name: "contents-center", tolerance: strict)

    // The corners of the wide and the tall button are the image's corners, pixel for pixel.
    let image = buttonImage()
    for (x0, y0, w, h) in [(8, 8, 184, 40), (8, 56, 40, 96)] {
        for j in 0..<8 {
            for i in 0..<8 {
                expectPixel(s, x0 + i, y0 + j, overCanvas(image.pixel(x: i, y: j)), tolerance: 1, "top-left corner")
                expectPixel(s, x0 + w - 8 + i, y0 + h - 8 + j, overCanvas(image.pixel(x: 16 + i, y: 16 + j)), tolerance: 1,
                            "bottom-right corner")
            }
        }
    }
    // Edges stretch one way only: the wide button's top rim is navy all along, its middle row yellow.
    expectPixel(s, 100, 8, overCanvas(image.pixel(x: 12, y: 0)), tolerance: 1, "top edge stretched along x")
    expectPixel(s, 100, 28, Palette.yellow.premultiplied, tolerance: 1, "middle stretched")
}

// MARK: - Filters

/// 384×384 black and white checkerboard of 3-pixel squares: at 8× minification its period (6 texels) beats
/// with the 8-texel pixel spacing, which point and bilinear sampling turn into a coarse false pattern.
func fineChecker() -> Image {
    Image(width: 384, height: 384) { px in
        for y in 0..<384 {
            for x in 0..<384 { px[y * 384 + x] = ((x / 3 + y / 3) % 2 == 0) ? 0xffff_ffff : 0xff00_0000 }
        }
    }
}

/// The checkerboard minified 8× (384 pixels into a 48×48 layer) on a 64×64 canvas, with `filter`.
private func minified(_ filter: ContentsFilter, bias: Double = 0) -> Surface {
    let root = canvas(64, 64)
    let layer = makeLayer(Rect(x: 8, y: 8, width: 48, height: 48))
    layer.contents = .image(fineChecker())
    layer.minificationFilter = filter
    layer.minificationFilterBias = bias
    root.addSublayer(layer)
    return render(root)
}

/// Mean and standard deviation of the green channel over the layer (8…56 both ways).
private func greyStatistics(_ s: Surface) -> (mean: Double, deviation: Double) {
    var sum = 0.0, squares = 0.0
    for y in 8..<56 { for x in 8..<56 { let g = Double(s.pixel(x: x, y: y).g); sum += g; squares += g * g } }
    let n = 48.0 * 48.0, mean = sum / n
    return (mean, (squares / n - mean * mean).squareRoot())
}

@Test func minifyEightTimesNearest() {
    // strict: (2, 0). Point sampling: a false pattern of bands.
    let s = minified(.nearest)
    expectGolden(s, area: area, name: "minify-8x-nearest", tolerance: strict)
    #expect(greyStatistics(s).deviation > 60)
}

@Test func minifyEightTimesLinear() {
    // strict: (2, 0). Bilinear without mipmaps reads 2×2 of the 64 texels a pixel covers: still aliased.
    let s = minified(.linear)
    expectGolden(s, area: area, name: "minify-8x-linear", tolerance: strict)
    #expect(greyStatistics(s).deviation > 40)
}

@Test func minifyEightTimesTrilinear() {
    // strict: (2, 0). Mipmaps: level 3 averages each pixel's 8×8 texels, so the result is smooth mid grey
    // (the box filter leaves a faint ±4% ripple where 8 texels hold 5 of one colour and 3 of the other).
    let s = minified(.trilinear)
    expectGolden(s, area: area, name: "minify-8x-trilinear", tolerance: strict)
    let t = greyStatistics(s), linear = greyStatistics(minified(.linear)), nearest = greyStatistics(minified(.nearest))
    #expect(abs(t.mean - 127.5) < 3, "mean \(t.mean)")
    #expect(t.deviation < 8, "deviation \(t.deviation)")
    #expect(t.deviation * 8 < linear.deviation && t.deviation * 8 < nearest.deviation,
            "trilinear \(t.deviation), linear \(linear.deviation), nearest \(nearest.deviation)")
}

@Test func minificationFilterBiasShiftsTheLevel() {
    // A bias of −3 brings the level back to the image itself: the bilinear picture (float vs fixed-point taps: ±1);
    // +1 reads a level further down: even smoother.
    let sharp = minified(.trilinear, bias: -3), linear = minified(.linear)
    var worst = 0
    for y in 0..<64 { for x in 0..<64 { worst = max(worst, channelDifference(sharp.pixel(x: x, y: y), linear.pixel(x: x, y: y))) } }
    #expect(worst <= 1)
    #expect(greyStatistics(minified(.trilinear, bias: 1)).deviation < greyStatistics(minified(.trilinear)).deviation)
}

// MARK: - Under perspective

@Test func contentsCenterUnderPerspective() {
    // strict: (2, 0). The nine-slice button turned 0.6 rad about y with perspective: the deep interior walks it in
    // segments that are split at the slices' breaks, so the slices meet without a seam and the corners stay round.
    let root = canvas(200, 100)
    let layer = makeLayer(Rect(x: 20, y: 26, width: 160, height: 48))
    layer.contents = .image(buttonImage(scale: 2))
    layer.contentsScale = 2
    layer.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    layer.transform = Transform3D.makeRotation(0.6, 0, 1, 0).concatenating(.makePerspective(distance: 300))
    root.addSublayer(layer)
    let s = render(root)
    expectGolden(s, area: area, name: "contents-center-perspective", tolerance: strict)
    // Along the middle row, from the first to the last teal pixel (inside the rims), every pixel is teal, yellow or a
    // blend of the two (each channel between theirs): a seam would let the canvas through or darken a blend.
    let yellow = Palette.yellow.premultiplied, teal = Palette.teal.premultiplied
    let row = (0..<200).map { s.pixel(x: $0, y: 50) }
    let tealColumns = row.indices.filter { channelDifference(row[$0], teal) <= 2 }
    #expect(tealColumns.count > 8)
    if let first = tealColumns.first, let last = tealColumns.last {
        func between(_ v: UInt8, _ a: UInt8, _ b: UInt8) -> Bool { Int(v) >= Int(min(a, b)) - 2 && Int(v) <= Int(max(a, b)) + 2 }
        let seams = (first...last).filter { x in
            let p = row[x]
            return !(between(p.r, teal.r, yellow.r) && between(p.g, teal.g, yellow.g) && between(p.b, teal.b, yellow.b))
        }
        #expect(seams.isEmpty, "columns \(seams)")
    }
}

/// A 160×160 floor of 6-pixel squares (240×240 pixels) tilted away under perspective on a 160×100 canvas.
private func floorScene(_ filter: ContentsFilter) -> Surface {
    let root = canvas(160, 100)
    let floor = makeLayer(Rect(x: 0, y: -20, width: 160, height: 160))
    floor.contents = .image(Image(width: 240, height: 240) { px in
        for y in 0..<240 { for x in 0..<240 { px[y * 240 + x] = ((x / 6 + y / 6) % 2 == 0) ? 0xffff_ffff : 0xff20_2020 } }
    })
    floor.minificationFilter = filter
    floor.transform = Transform3D.makeRotation(1.15, 1, 0, 0).concatenating(.makePerspective(distance: 200))
    root.addSublayer(floor)
    return render(root)
}

@Test func minifyUnderPerspectiveLinearAndTrilinear() {
    // strict: (2, 0). Towards the horizon one pixel spans more and more texels: bilinear breaks into moiré there,
    // trilinear fades smoothly to the mean grey, level by level, while the near rows keep their squares (a little
    // softer: the level follows the longer side of a pixel's footprint, here the foreshortened one).
    let linear = floorScene(.linear), trilinear = floorScene(.trilinear)
    expectGolden(linear, area: area, name: "floor-perspective-linear", tolerance: strict)
    expectGolden(trilinear, area: area, name: "floor-perspective-trilinear", tolerance: strict)
    // The far rows (the floor's top starts near row 37): trilinear is close to flat grey, bilinear is not.
    func deviation(_ s: Surface) -> Double {
        var sum = 0.0, squares = 0.0, n = 0.0
        for y in 38..<46 { for x in 30..<130 { let g = Double(s.pixel(x: x, y: y).g); sum += g; squares += g * g; n += 1 } }
        return (squares / n - (sum / n) * (sum / n)).squareRoot()
    }
    #expect(deviation(trilinear) * 3 < deviation(linear), "trilinear \(deviation(trilinear)), linear \(deviation(linear))")
}
