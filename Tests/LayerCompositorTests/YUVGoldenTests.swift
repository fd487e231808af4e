import Foundation
import LayerCompositor
import LayerGraphics
import LayerKit
import Testing
import TestSupport

// YUV 4:2:0 contents (References/yuv): the same picture through BT.601 and BT.709 must render the same,
// and as the original RGB.

/// The 64×48 colour blocks as yuv420p (limited range) with `matrix`, shown 2× in a 128×96 layer at (16,12).
private func yuvScene(_ matrix: ColorMatrix) -> Layer {
    let root = canvas(160, 120)
    let layer = makeLayer(Rect(x: 16, y: 12, width: 128, height: 96), name: "yuv \(matrix)")
    layer.contents = .pixelBuffer(PixelBuffer(converting: blocksImage(), to: .yuv420p, matrix: matrix, range: .limited))
    root.addSublayer(layer)
    return root
}

/// The canvas pixels strictly inside block (bx, by), `inset` pixels away from its edges (bilinear luma and
/// chroma blend across block edges over about 2 source pixels = 4 rendered pixels).
private func blockInterior(_ bx: Int, _ by: Int, inset: Int = 6) -> [(x: Int, y: Int)] {
    let x0 = 16 + 32 * bx, y0 = 12 + 32 * by
    var out: [(Int, Int)] = []
    for y in (y0 + inset)..<(y0 + 32 - inset) { for x in (x0 + inset)..<(x0 + 32 - inset) { out.append((x, y)) } }
    return out
}

@Test func yuv420BT601AndBT709RenderTheSame() {
    let bt601 = render(yuvScene(.bt601)), bt709 = render(yuvScene(.bt709))
    // Golden of the BT.709 render; strict: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0).
    expectGolden(bt709, area: "yuv", name: "yuv420p-blocks-bt709", tolerance: GoldenTolerance(maxChannelDifference: 2, maxDifferingPixels: 0))
    for by in 0..<3 {
        for bx in 0..<4 {
            let expected = blockColors[by * 4 + bx].premultiplied
            var worstBetween = 0, worst601 = 0, worst709 = 0
            for (x, y) in blockInterior(bx, by) {
                let a = bt601.pixel(x: x, y: y), b = bt709.pixel(x: x, y: y)
                worstBetween = max(worstBetween, channelDifference(a, b))
                worst601 = max(worst601, channelDifference(a, expected))
                worst709 = max(worst709, channelDifference(b, expected))
            }
            // Between the two matrices: ≤ 3 per channel in each block's interior.
            #expect(worstBetween <= 3, "block (\(bx), \(by)): BT.601 and BT.709 renders differ by \(worstBetween)")
            // Against the original RGB: ± 3 (8-bit YUV quantisation).
            #expect(worst601 <= 3, "block (\(bx), \(by)) BT.601: off the original \(expected) by \(worst601)")
            #expect(worst709 <= 3, "block (\(bx), \(by)) BT.709: off the original \(expected) by \(worst709)")
        }
    }
}
