import Foundation
@testable import LayerGallery
import LayerGraphics
import LayerKit
import Testing

// What each figure must show, checked on its pixels independently of the references: the property the book's
// figure is there to demonstrate (the golden alone would accept a wrong picture recorded once).

private let background = PremultipliedColor(r: 217, g: 217, b: 217, a: 255) // Color(white: 0.85), every figure's backdrop

private func near(_ p: PremultipliedColor, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 10) -> Bool {
    abs(Int(p.r) - r) <= tolerance && abs(Int(p.g) - g) <= tolerance && abs(Int(p.b) - b) <= tolerance
}
private func isBackground(_ p: PremultipliedColor) -> Bool { near(p, 217, 217, 217, tolerance: 6) }

/// Rows of column `x` (within `xs`'s figure) that are not backdrop.
private func coveredHeight(_ s: Surface, x: Int) -> Int {
    (0..<s.height).filter { !isBackground(s.pixel(x: x, y: $0)) }.count
}

/// The first and last columns in `range` holding anything but backdrop.
private func coveredColumns(_ s: Surface, in range: Range<Int>) -> (first: Int, last: Int)? {
    let columns = range.filter { coveredHeight(s, x: $0) > 0 }
    guard let first = columns.first, let last = columns.last else { return nil }
    return (first, last)
}

/// The bounding box of pixels near (r, g, b), and how many there are.
private func extent(_ s: Surface, _ r: Int, _ g: Int, _ b: Int) -> (minX: Int, maxX: Int, minY: Int, maxY: Int, count: Int) {
    var box = (minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min, count: 0)
    for y in 0..<s.height {
        for x in 0..<s.width where near(s.pixel(x: x, y: y), r, g, b) {
            box = (min(box.minX, x), max(box.maxX, x), min(box.minY, y), max(box.maxY, y), box.count + 1)
        }
    }
    return box
}

@Suite("gallery: what each figure shows")
struct FigureChecks {
    @Test func theBlueLayerSitsInTheMiddleOfTheWhiteView() throws {
        let s = try #require(renderFigure("1.5-blue-layer"))
        let blue = extent(s, 0, 0, 255)
        // The white view spans 20…220; the blue layer's frame (50, 50, 100, 100) is in the view's space: 70…170.
        #expect(blue.minX == 70 && blue.maxX == 169 && blue.minY == 70 && blue.maxY == 169 && blue.count == 10_000, "\(blue)")
        #expect(near(s.pixel(x: 25, y: 25), 255, 255, 255, tolerance: 0) && near(s.pixel(x: 10, y: 10), 217, 217, 217, tolerance: 0))
    }

    @Test func clockHandsPointWhereTheTimeSays() throws {
        let s = try #require(renderFigure("3.7-clock"))
        // 10:09:30 with the book's formula: hour hand at 10/12 of a turn, minute at 9/60, second at 30/60.
        func sample(degrees: Double, radius: Double) -> PremultipliedColor {
            let a = degrees * .pi / 180 // clockwise from 12, y down
            return s.pixel(x: Int((120 + radius * sin(a)).rounded()), y: Int((120 - radius * cos(a)).rounded()))
        }
        let hour = sample(degrees: 300, radius: 35), minute = sample(degrees: 54, radius: 50)
        #expect(hour.r < 80 && hour.g < 80, "hour hand at 10 o'clock: \(hour)")
        #expect(minute.r < 80 && minute.g < 80, "minute hand at 9 minutes: \(minute)")
        let second = (117...123).map { s.pixel(x: $0, y: 180) }.max { $0.r - min($0.r, $0.g) < $1.r - min($1.r, $1.g) }!
        #expect(Int(second.r) - Int(second.g) > 100, "second hand straight down at 30 s: \(second)")
        // Nothing at 4 o'clock, and no hand turned about its centre (the tail past the pivot is short).
        #expect(near(sample(degrees: 120, radius: 35), 255, 255, 255), "the face is white at 4 o'clock")
        #expect(near(sample(degrees: 120, radius: 20), 255, 255, 255), "no hour hand tail: the pivot is 90% down the hand")
    }

    @Test func eachSpriteViewShowsItsOwnQuarterOfTheSheet() throws {
        let s = try #require(renderFigure("2.8-sprites"))
        // igloo cell tint, cone orange, anchor blue, ship flame: one colour that only its quarter of the sheet has
        let marks = [(217, 237, 255), (250, 115, 13), (26, 51, 128), (230, 26, 26)]
        for view in 0..<4 {
            let frame = (x: 8 + view * 62, y: 18)
            for (i, mark) in marks.enumerated() {
                var count = 0
                for y in frame.y..<(frame.y + 60) {
                    for x in frame.x..<(frame.x + 54) where near(s.pixel(x: x, y: y), mark.0, mark.1, mark.2) { count += 1 }
                }
                if i == view { #expect(count > 20, "view \(view) shows its sprite (\(count) pixels of \(mark))") }
                else { #expect(count == 0, "view \(view) shows none of sprite \(i) (\(count) pixels)") }
            }
        }
    }

    @Test func nineSliceKeepsTheRimThinWhileTheMiddleStretches() throws {
        let s = try #require(renderFigure("2.10-nine-slice"))
        let rim = (26, 51, 115), body = (64, 128, 230), top = (140, 191, 255)
        // The wide button (16, 52, 150 × 56): the 3-pixel rim stays 3 pixels; stretched whole it would be 9.
        #expect(near(s.pixel(x: 17, y: 95), rim.0, rim.1, rim.2), "left rim \(s.pixel(x: 17, y: 95))")
        #expect(near(s.pixel(x: 21, y: 95), body.0, body.1, body.2), "body just inside the left rim \(s.pixel(x: 21, y: 95))")
        #expect(near(s.pixel(x: 164, y: 95), rim.0, rim.1, rim.2), "right rim \(s.pixel(x: 164, y: 95))")
        #expect(near(s.pixel(x: 160, y: 95), body.0, body.1, body.2), "body just inside the right rim \(s.pixel(x: 160, y: 95))")
        // The tall button (186, 16, 54 × 128): the top rim stays thin, the light half starts right below it.
        #expect(near(s.pixel(x: 213, y: 17), rim.0, rim.1, rim.2), "top rim \(s.pixel(x: 213, y: 17))")
        #expect(near(s.pixel(x: 213, y: 21), top.0, top.1, top.2), "light top just below the rim \(s.pixel(x: 213, y: 21))")
        #expect(near(s.pixel(x: 213, y: 130), body.0, body.1, body.2), "the body stretched down \(s.pixel(x: 213, y: 130))")
    }

    @Test func withoutPerspectiveTheTurnedCardOnlyLooksNarrower() throws {
        let s = try #require(renderFigure("5.8-rotate-y"))
        let columns = try #require(coveredColumns(s, in: 0..<s.width))
        #expect(abs(columns.last - columns.first + 1 - 85) <= 2, "120 × cos 45° wide: \(columns)")
        let left = coveredHeight(s, x: columns.first + 2), right = coveredHeight(s, x: columns.last - 2)
        #expect(abs(left - right) <= 1 && abs(left - 120) <= 1, "both edges 120 tall: \(left), \(right)")
    }

    @Test func withPerspectiveTheNearEdgeIsTallerThanTheFarEdge() throws {
        let s = try #require(renderFigure("5.10-perspective"))
        let columns = try #require(coveredColumns(s, in: 0..<s.width))
        let left = coveredHeight(s, x: columns.first + 1), right = coveredHeight(s, x: columns.last - 1)
        // +45° about y sends the right edge away: 120 / (1 ∓ 42.4/500) ≈ 131 near, 111 far.
        #expect(left - right > 14, "near (left) edge \(left), far (right) edge \(right)")
        #expect(abs(left - 131) <= 3 && abs(right - 111) <= 3, "\(left), \(right)")
    }

    @Test func twoCardsRecedeTowardsOneVanishingPoint() throws {
        let s = try #require(renderFigure("5.13-vanishing-point"))
        let a = try #require(coveredColumns(s, in: 0..<128)), b = try #require(coveredColumns(s, in: 128..<256))
        let aOuter = coveredHeight(s, x: a.first + 1), aInner = coveredHeight(s, x: a.last - 1)
        let bInner = coveredHeight(s, x: b.first + 1), bOuter = coveredHeight(s, x: b.last - 1)
        #expect(aOuter - aInner > 8 && bOuter - bInner > 8, "inner edges are the far ones: \(aOuter) \(aInner) | \(bInner) \(bOuter)")
        // One vanishing point in the middle: the picture is symmetric about it.
        #expect(abs(aOuter - bOuter) <= 1 && abs(aInner - bInner) <= 1)
        #expect(abs((a.first + b.last) - 255) <= 2, "outer edges mirror about x = 128: \(a.first), \(b.last)")
    }

    @Test func oppositeTurnsAboutZCancel() throws {
        let s = try #require(renderFigure("5.16-opposite-z"))
        let blue = extent(s, 51, 115, 230)
        #expect(blue.maxX - blue.minX + 1 == 60 && blue.maxY - blue.minY + 1 == 60, "an upright 60-point square: \(blue)")
        #expect(blue.count >= 3500, "filled, not a diamond: \(blue.count)")
    }

    @Test func oppositeTurnsAboutYDoNotCancelBecauseOfFlattening() throws {
        let s = try #require(renderFigure("5.18-opposite-y"))
        let blue = extent(s, 51, 115, 230)
        let width = blue.maxX - blue.minX + 1, height = blue.maxY - blue.minY + 1
        // Upright again would be about 60 × 60 facing us; flattened, it is squeezed by both turns (≈ 60 cos² 45°).
        #expect(width < 40 && width > 20, "inner square squeezed: \(width) wide")
        #expect(height > 50, "\(height) tall")
        // And the outer square is turned: its far (right) edge is the shorter.
        let columns = try #require(coveredColumns(s, in: 0..<s.width))
        #expect(coveredHeight(s, x: columns.first + 1) > coveredHeight(s, x: columns.last - 1) + 8)
    }

    @Test func lightingAlphasFollowTheBooksFormula() {
        let cube = CubeView(canvas: 256, lit: true)
        let alphas = cube.faces.map { face in face.sublayers?.first { $0.name == "lighting" }?.backgroundColor?.alpha ?? -1 }
        // light (0, 1, −0.5)/|…|; normals front +z, right +x, top −y, bottom +y, left −x, back −z; alpha 1 + n·l − 0.5 in 0…1
        let expected = [0.5 - 0.4472, 0.5, 0, 1, 0.5, 0.5 + 0.4472]
        for (a, e) in zip(alphas, expected) { #expect(abs(a - e) < 1e-3, "\(alphas)") }
        #expect(alphas.count == 6)
    }

    /// The canvas point of cube point `p` (cube space, centre at 0): through the container's sublayerTransform
    /// (perspective 500, −45° about x, −45° about y) and its 0.64 scale about the canvas centre.
    private func canvasPoint(_ x: Double, _ y: Double, _ z: Double) -> (Int, Int) {
        var t = Transform3D.identity
        t.m34 = -1.0 / 500
        t = t.rotated(by: -.pi / 4, x: 1, y: 0, z: 0).rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
        let h = t.apply(x: x, y: y, z: z)
        return (Int((128 + 0.64 * h.x / h.w).rounded()), Int((128 + 0.64 * h.y / h.w).rounded()))
    }

    /// Brightness of faces 1 (front), 2 (right), 3 (top) at points off their numbers.
    private func visibleFaces(_ s: Surface) -> [Int] {
        [canvasPoint(-75, 75, 100), canvasPoint(100, 75, 75), canvasPoint(75, -100, 75)].map { Int(s.pixel(x: $0.0, y: $0.1).g) }
    }

    @Test func theCubeShowsFacesOneTwoAndThreeUnlit() throws {
        let s = try #require(renderFigure("5.21-cube"))
        for g in visibleFaces(s) { #expect(g >= 250, "white faces: \(visibleFaces(s))") }
    }

    @Test func theLitCubesFacesAreShadedByTheirAngleToTheLight() throws {
        let s = try #require(renderFigure("5.22-lit-cube"))
        let (front, right, top) = { (v: [Int]) in (v[0], v[1], v[2]) }(visibleFaces(s))
        #expect(top > front && front > right, "top \(top) > front \(front) > right \(right)")
        #expect(abs(top - 255) <= 3 && abs(front - 241) <= 3 && abs(right - 128) <= 3, "\(top) \(front) \(right)")
    }

    @Test func theVideoFaceShowsTheClipsFrame() throws {
        let s = try #require(renderFigure("video-cube"))
        // testsrc2's colour bars across face 1: many saturated samples, of several hues.
        var hues = Set<Int>(), saturated = 0
        for fx in stride(from: -80.0, through: 80, by: 20) {
            for fy in stride(from: -80.0, through: 80, by: 20) {
                let (x, y) = canvasPoint(fx, fy, 100)
                let p = s.pixel(x: x, y: y)
                let channels = [Int(p.r), Int(p.g), Int(p.b)]
                guard channels.max()! - channels.min()! > 100 else { continue }
                saturated += 1
                hues.insert(channels.enumerated().reduce(0) { $0 | ($1.element > 128 ? 1 << $1.offset : 0) })
            }
        }
        #expect(saturated >= 30 && hues.count >= 4, "\(saturated) saturated samples, \(hues.count) hues")
        // The other faces stay as in the lit cube.
        let lit = try #require(renderFigure("5.22-lit-cube"))
        #expect(Array(visibleFaces(s).dropFirst()) == Array(visibleFaces(lit).dropFirst()))
    }

    /// Listing 5.9/5.10 verbatim (faces as plain sublayers of the container) draw the cube the transform layer
    /// draws: siblings are sorted by depth as planes, so faces 4–6, added later, stay behind 1–3.
    @Test(arguments: [("5.9-cube-literal", "5.21-cube"), ("5.10-lit-cube-literal", "5.22-lit-cube")])
    func theLiteralCubeIsDrawnBackToFront(_ literal: String, _ sorted: String) throws {
        let s = try #require(renderFigure(literal)), t = try #require(renderFigure(sorted))
        #expect(zip(visibleFaces(s), visibleFaces(t)).allSatisfy { abs($0 - $1) <= 2 }, "\(visibleFaces(s)) vs \(visibleFaces(t))")
        // Not just at three points: hardly a pixel differs from the transform layer's picture (seams may by a little).
        var differing = 0
        for y in 0..<s.height {
            for x in 0..<s.width {
                let a = s.pixel(x: x, y: y), b = t.pixel(x: x, y: y)
                if max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 8 { differing += 1 }
            }
        }
        #expect(differing < 40, "\(differing) pixels differ from \(sorted)")
    }
}
