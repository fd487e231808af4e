@testable import LayerCompositor
import LayerGraphics
import LayerKit
import Foundation
import Testing

@Test func anOpaqueSublayerUnderARoundedClipHidesTheShadowBeneathAsDrawingOverItWould() {
    // A video inside a rounded, clipped card (the command line's tree): the sublayer's opaque area, narrowed to
    // the clip's deep interior, hides the container's shadow and the canvas. The same scene whose contents are
    // not known to be opaque (one invisible corner texel at alpha 254) hides nothing; both must draw the same.
    let occluded = render(clippedVideoScene(markedOpaque: true)), plain = render(clippedVideoScene(markedOpaque: false))
    let (worst, differing) = difference(occluded, plain)
    // The direct path (opaque contents) and the blending one may round a channel differently by 1, and the shadow's
    // segments start where the holes end, so its smooth mask is sampled up to 1/16 texel apart: 2 at most.
    #expect(worst <= 2, "max channel difference \(worst), \(differing) pixels differ")
    if let dir = ProcessInfo.processInfo.environment["OCCLUSION_PNG"] { try? occluded.writePNG(to: dir) }
    // And the shadow is there, below the card.
    #expect(occluded.pixel(x: 60, y: 86).r < 220)
}

/// A video in a rounded, clipped, bordered card whose container casts a shadow, turned in perspective: the command
/// line's tree. `markedOpaque: false` gives the contents one invisible corner texel at alpha 254.
func clippedVideoScene(markedOpaque: Bool, borderAlpha: Double = 1) -> Layer {
    let root = canvas(120, 100, background: .red)
    let container = makeLayer(Rect(x: 20, y: 20, width: 80, height: 60))
    container.shadowOpacity = 0.8
    container.shadowRadius = 6
    container.shadowOffset = Size(width: 4, height: 4)
    container.transform = Transform3D.makeRotation(25 * .pi / 180, 0, 1, 0).concatenating(.makePerspective(distance: 300))
    root.addSublayer(container)
    let card = makeLayer(Rect(x: 0, y: 0, width: 80, height: 60))
    card.cornerRadius = 16
    card.masksToBounds = true
    card.borderColor = Color(red: 1, green: 1, blue: 1, alpha: borderAlpha)
    card.borderWidth = 6
    container.addSublayer(card)
    let video = makeLayer(Rect(x: 0, y: 0, width: 80, height: 60))
    video.contents = .image(Image(width: 40, height: 30) { px in
        for i in px.indices { px[i] = 0xff00_0000 | UInt32(i % 40 * 6) << 16 | UInt32(i / 40 * 8) << 8 | 0x40 }
        if !markedOpaque { px[0] = 0xfe00_0000 | (px[0] & 0x00ff_ffff) }
    })
    card.addSublayer(video)
    return root
}

@Test func anOpaqueSublayerUnderARoundedClipOccludes() {
    // The sublayer's body carries the card's clip; it still hides what is beneath inside the clip's deep interior.
    let video = loweredBodies(clippedVideoScene(markedOpaque: true)).filter { $0.contents != nil }
    #expect(video.count == 1)
    guard let body = video.first else { return }
    #expect(!body.placement.clips.isEmpty)
    let middle = OpaqueRows(body).opaqueInterval(row: 50)
    #expect(middle != nil && middle!.1 - middle!.0 > 40, "opaque columns of the middle row: \(String(describing: middle))")
    let nearTop = OpaqueRows(body).opaqueInterval(row: 26)
    #expect(nearTop == nil || nearTop!.1 - nearTop!.0 < middle!.1 - middle!.0 - 4, "a row through the rounded corners is narrowed")
}

@Test func anOpaqueBorderDrawnLastHidesTheEdgesBeneathAsDrawingOverItWould() {
    // The card's border is drawn after its video (it has a sublayer): opaque, its band hides the video's clipped
    // edge and the shadow under it. At alpha 0.999 it hides nothing; the two differ by at most 1 and rounding.
    let occluded = render(clippedVideoScene(markedOpaque: true)), plain = render(clippedVideoScene(markedOpaque: true, borderAlpha: 0.999))
    let (worst, _) = difference(occluded, plain)
    #expect(worst <= 2, "max channel difference \(worst)")
    let borders = loweredBodies(clippedVideoScene(markedOpaque: true)).filter { $0.border != nil && $0.contents == nil }
    guard let border = borders.first else { Issue.record("no border-only body"); return }
    #expect(border.occludes)
    var middle: [(Int, Int)] = [], top: [(Int, Int)] = []
    OpaqueRows(border).append(row: 50, to: &middle)
    OpaqueRows(border).append(row: 22, to: &top)
    #expect(middle.count == 2 && middle.allSatisfy { $0.1 - $0.0 >= 2 && $0.1 - $0.0 <= 7 }, "left and right of the band: \(middle)")
    #expect(top.count == 1 && top[0].1 - top[0].0 > 30, "the top of the band, across: \(top)")
}

/// The body draws of a scene's draw list, as the compositor lowers it for a surface the root's size.
func loweredBodies(_ root: Layer) -> [BodyDraw] {
    let viewport = PixelRect(x0: 0, y0: 0, x1: Int(root.bounds.width), y1: Int(root.bounds.height))
    let snapshot = root.snapshot()
    let ops = Lowering(viewport: viewport, executor: Executor(threads: 1), shadowCache: ShadowCache())
        .lower(snapshot, world: snapshot.localTransform, planes: [], clips: [])
    return ops.compactMap { op in if case .body(let b) = op { return b } else { return nil } }
}

/// The largest channel difference between two surfaces of one size, and how many pixels differ at all.
func difference(_ a: Surface, _ b: Surface) -> (worst: Int, differing: Int) {
    var worst = 0, differing = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let d = channelDifference(a.pixel(x: x, y: y), b.pixel(x: x, y: y))
            worst = max(worst, d)
            if d > 0 { differing += 1 }
        }
    }
    return (worst, differing)
}

@Test func rowHolesComeSortedWhateverTheOrderOfTheDrawsAbove() {
    // Two opaque squares, the right one listed first: a row through both hides both, left to right, and the runs
    // left to draw are the gaps (the visible-run walk relies on the order).
    let root = canvas(100, 20, background: .red)
    let right = makeLayer(Rect(x: 60, y: 0, width: 20, height: 20)), left = makeLayer(Rect(x: 10, y: 0, width: 20, height: 20))
    for square in [right, left] { square.backgroundColor = .blue; root.addSublayer(square) }
    let squares = Array(loweredBodies(root).dropFirst())
    #expect(squares.count == 2 && squares.allSatisfy(\.occludes))
    var holes = RowHoles(occluders: squares.count)
    holes.collect(squares.map(OpaqueRows.init), row: 10)
    #expect(holes.intervals.map(\.0) == [10, 60] && holes.intervals.map(\.1) == [30, 80], "\(holes.intervals)")
    var runs: [Int] = []
    forEachVisibleRun(0, 100, excluding: holes.intervals) { a, b in runs += [a, b] }
    #expect(runs == [0, 10, 30, 60, 80, 100])
    holes.collect(squares.map(OpaqueRows.init), row: 25)
    #expect(holes.intervals.isEmpty, "below both squares")
}
