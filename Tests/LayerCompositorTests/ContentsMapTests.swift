@testable import LayerCompositor
import LayerGraphics
import Testing

// The nine-slice map (contentsCenter), its splitting of deep-interior runs, and the trilinear level of detail.

/// The texel that local coordinate `u` maps to, in Double (to compare with the expected pieces).
private func at(_ m: AxisMap, _ u: Double) -> Double { Double(m(Float(u))) }

@Test func nineSliceAxisKeepsCornersAtNaturalSize() {
    // 24 source pixels, middle third stretchable, shown over 100 points: corners 8 points each at scale 1.
    let m = AxisMap(local: 0, length: 100, source: 0, length: 24, center: 1.0 / 3, 2.0 / 3, contentsScale: 1)
    #expect(abs(m.break0 - 8) < 1e-5 && abs(m.break1 - 92) < 1e-5)
    #expect(abs(m.start.scale - 1) < 1e-6 && abs(m.start.offset) < 1e-5)
    #expect(abs(at(m, 50) - 12) < 1e-5)                 // the middle of the middle
    #expect(abs(m.middle.scale - 8.0 / 84) < 1e-6)
    #expect(abs(at(m, 95) - 19) < 1e-5 && abs(m.end.scale - 1) < 1e-6)
    // Continuous at the breaks: no seam.
    #expect(abs(Double(m.start.scale) * 8 + Double(m.start.offset) - (Double(m.middle.scale) * 8 + Double(m.middle.offset))) < 1e-5)
}

@Test func nineSliceCornersFollowContentsScale() {
    // 48 pixels at contentsScale 2: the 16-pixel corners are 8 points, each point two texels.
    let m = AxisMap(local: 10, length: 60, source: 0, length: 48, center: 1.0 / 3, 2.0 / 3, contentsScale: 2)
    #expect(abs(m.break0 - 18) < 1e-5 && abs(m.break1 - 62) < 1e-5)
    #expect(abs(m.start.scale - 2) < 1e-6 && abs(m.end.scale - 2) < 1e-6)
    #expect(abs(at(m, 10) - 0) < 1e-5 && abs(at(m, 70) - 48) < 1e-4)
}

@Test func nineSliceCornersShrinkTogetherWhenTheyDoNotFit() {
    // Corners of 8 + 4 points in 6 points: both scaled by 6/12, the middle vanishes.
    let m = AxisMap(local: 0, length: 6, source: 0, length: 20, center: 0.4, 0.8, contentsScale: 1)
    #expect(m.break0 == 4 && m.break1 == 4)
    #expect(m.start.scale == 2 && m.end.scale == 2)
    #expect(abs(at(m, 3.99) - 7.98) < 1e-4 && abs(at(m, 4.01) - 16.02) < 1e-4)
}

@Test func defaultContentsCenterIsThePlainAffineMap() {
    let m = AxisMap(local: 30, length: 100, source: 16, length: 32, center: 0, 1, contentsScale: 1)
    #expect(m.isAffine)
    #expect(m.start == AxisPiece(scale: 0.32, offset: Float(16 - 30 * 0.32)))
    // A zero-width middle (a one-line stretch) maps the whole middle to the break texel.
    let line = AxisMap(local: 0, length: 40, source: 0, length: 20, center: 0.5, 0.5, contentsScale: 1)
    #expect(line.break0 == 10 && line.break1 == 30 && line.middle.scale == 0 && abs(at(line, 20) - 10) < 1e-6)
}

@Test func contentsMapUsesTheContentsRectPartOfTheImage() {
    // contentsRect's source (pixels 32…48 of a sprite sheet) with the middle half stretchable, shown over 64 points.
    let map = ContentsMap(rect: Rect(x: 0, y: 0, width: 64, height: 16), source: Rect(x: 32, y: 0, width: 16, height: 16),
                          center: Rect(x: 0.25, y: 0, width: 0.5, height: 1), contentsScale: 1)
    #expect(abs(map.x.break0 - 4) < 1e-5 && abs(map.x.break1 - 60) < 1e-5 && map.y.isAffine)
    #expect(abs(at(map.x, 2) - 34) < 1e-5 && abs(at(map.x, 62) - 46) < 1e-5)
}

@Test func deepRunsSplitExactlyAtTheBreaks() {
    let map = ContentsMap(rect: Rect(x: 0, y: 0, width: 100, height: 100), source: Rect(x: 0, y: 0, width: 24, height: 24),
                          center: Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3), contentsScale: 1)
    let rx = map.x.reference, ry = map.y.reference
    // A run of 16 pixels along a diagonal, u from 0.5 to 15.5 and v from 90.5 down to 83, given in reference texels.
    let u0 = 0.5, du = 1.0, v0 = 90.5, dv = -0.5
    let start = (u0 * Double(rx.scale) + Double(rx.offset), v0 * Double(ry.scale) + Double(ry.offset))
    let step = (du * Double(rx.scale), dv * Double(ry.scale))
    var covered = 0
    var runs: [(Int, Int)] = []
    map.forEachPiece(16, start, step) { i, n, s, d, _, _ in
        runs.append((i, n))
        #expect(i == covered)
        covered += n
        for k in 0..<n {
            let u = u0 + Double(i + k) * du, v = v0 + Double(i + k) * dv
            #expect(abs(s.0 + Double(k) * d.0 - at(map.x, u)) < 1e-4, "u = \(u)")
            #expect(abs(s.1 + Double(k) * d.1 - at(map.y, v)) < 1e-4, "v = \(v)")
        }
    }
    #expect(covered == 16)
    // u crosses 8 after pixel 7; v crosses 92 never (it starts below) but stays in the middle piece.
    #expect(runs.map(\.0) == [0, 8])
}

@Test func levelOfDetailFollowsTheFootprint() {
    // 8 texels per pixel both ways: level 3; 1: level 0; magnified 2×: −1; anisotropic: the longer side decides.
    #expect(abs(footprintLevel(dudx: 8, dudy: 0, dvdx: 0, dvdy: 8, scaleX: 1, scaleY: 1) - 3) < 1e-5)
    #expect(abs(footprintLevel(dudx: 1, dudy: 0, dvdx: 0, dvdy: 1, scaleX: 1, scaleY: 1)) < 1e-6)
    #expect(abs(footprintLevel(dudx: 0.5, dudy: 0, dvdx: 0, dvdy: 0.5, scaleX: 1, scaleY: 1) + 1) < 1e-5)
    #expect(abs(footprintLevel(dudx: 1, dudy: 0, dvdx: 0, dvdy: 1, scaleX: 2, scaleY: 16) - 4) < 1e-5)
    // A turn does not change the footprint's length: 4 texels along a 45° diagonal.
    let c = Float(4 / 2.0.squareRoot())
    #expect(abs(footprintLevel(dudx: c, dudy: -c, dvdx: c, dvdy: c, scaleX: 1, scaleY: 1) - 2) < 1e-5)
}

@Test func trilinearSamplerPicksAndBlendsLevels() {
    // 16×16: a black/white 1-px checker in the top-left 8×8 quadrant, grey 40 elsewhere.
    let image = Image(width: 16, height: 16) { px in
        for y in 0..<16 {
            for x in 0..<16 {
                let v: UInt32 = (x < 8 && y < 8) ? ((x + y) % 2 == 0 ? 255 : 0) : 40
                px[y * 16 + x] = 0xff00_0000 | v << 16 | v << 8 | v
            }
        }
    }
    let sampler = TrilinearSampler(image: image, bias: 0, magnifyNearest: false)
    #expect(sampler.levels.count == 5 && sampler.scales[1] == SIMD2(0.5, 0.5))
    // At a texel centre of the checker: level 0 gives the texel itself, level 1 the 2×2 mean (127.5, stored as 128).
    #expect(sampler.sample(2.5, 2.5, lod: -1).x == 255)
    #expect(sampler.sample(3, 3, lod: 1).x == 128)
    // Half-way between levels 0 and 1 at a white texel centre: (255 + 128) / 2.
    #expect(abs(sampler.sample(2.5, 2.5, lod: 0.5).x - 191.5) < 0.01)
    // Level 4 is the 1×1 mean of everything: (64·127.5 + 192·40) / 256 = 61.875; lods beyond clamp to it.
    #expect(abs(sampler.sample(8, 8, lod: 9).x - 62) < 1)
    // The bias shifts the level: lod 1 with bias +1 reads level 2 (4×4: the checker quadrant is 2×2 of 127.5).
    let biased = TrilinearSampler(image: image, bias: 1, magnifyNearest: false)
    #expect(abs(biased.sample(2, 2, lod: 1).x - sampler.sample(2, 2, lod: 2).x) < 0.01)
    // Magnification with a nearest magnification filter keeps the texel.
    let nearest = TrilinearSampler(image: image, bias: 0, magnifyNearest: true)
    #expect(nearest.sample(2.9, 2.2, lod: -2).x == 255)
    #expect(sampler.sample(2.9, 2.2, lod: -2).x < 250)
}
