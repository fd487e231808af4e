import LayerCompositor
import LayerGraphics
import LayerKit
import Testing

// A compositor keeps blurred shadows across frames (ShadowCache): a frame must come out as a fresh compositor
// draws it, whether its shadow was cached, and after the shape changed.

private func shadowScene(cornerRadius: Double) -> Layer {
    let root = canvas(120, 90)
    let layer = makeLayer(Rect(x: 25, y: 20, width: 60, height: 40), background: .red)
    layer.cornerRadius = cornerRadius
    layer.shadowOpacity = 0.7
    layer.shadowRadius = 6
    layer.shadowOffset = Size(width: 6, height: 8)
    root.addSublayer(layer)
    return root
}

private func samePixels(_ a: Surface, _ b: Surface) -> Bool {
    for y in 0..<a.height { for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false } }
    return true
}

@Test func cachedShadowsMatchFreshOnes() {
    let reused = Compositor()
    for radius in [0.0, 0.0, 12.0, 12.0, 0.0] {
        let scene = shadowScene(cornerRadius: radius)
        let cached = render(scene, compositor: reused)
        let fresh = render(scene, compositor: Compositor())
        #expect(samePixels(cached, fresh), "corner radius \(radius)")
    }
}
