import CKernels
@testable import LayerCompositor
import LayerGraphics
import LayerKit
import TestSupport
import Testing

// A picture at an opacity over another (OpacityBlend.swift): the AVX2 row kernel against its Swift twin, the twin
// against the per-pixel blend it replaces, and the lowering that fades a group's opaque top draw instead of the group
// (Lowering+OpaqueTop.swift), against the group.

/// A random premultiplied pixel: no channel above its alpha; a few fully transparent, a few opaque.
private func premultiplied(using rng: inout SplitMix) -> UInt32 {
    let kind = Int.random(in: 0..<8, using: &rng)
    if kind == 0 { return 0 }
    let a = kind == 1 ? 255 : UInt32.random(in: 0...255, using: &rng)
    return UInt32.random(in: 0...a, using: &rng) | UInt32.random(in: 0...a, using: &rng) << 8
        | UInt32.random(in: 0...a, using: &rng) << 16 | a << 24
}

private let opacities: [Float] = [0, 1e-6, 0.003, 0.25, 0.5, 0.5019608, 0.73, 0.999, 1]

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func opacityBlendKernelMatchesItsSwiftTwin() {
    // Bit for bit over random rows of random lengths (the tail beyond the last eight is the twin's either way).
    var rng = SplitMix(state: 30)
    var compared = 0
    for opacity in opacities {
        for _ in 0..<60 {
            let count = Int.random(in: 1...70, using: &rng)
            let src = (0..<count).map { _ in premultiplied(using: &rng) }
            let dst = (0..<count).map { _ in premultiplied(using: &rng) }
            var expected = dst, actual = dst
            src.withUnsafeBufferPointer { s in
                expected.withUnsafeMutableBufferPointer { OpacityBlend.blendRowSwift($0.baseAddress!, s.baseAddress!, count: count, opacity: opacity) }
                let done = actual.withUnsafeMutableBufferPointer { lp_blend_over_opacity_avx2($0.baseAddress!, s.baseAddress!, count, opacity) }
                #expect(done == count / 8 * 8)
                actual.withUnsafeMutableBufferPointer {
                    OpacityBlend.blendRowSwift($0.baseAddress! + done, s.baseAddress! + done, count: count - done, opacity: opacity)
                }
            }
            #expect(actual == expected, "opacity \(opacity), \(count) pixels")
            compared += count
        }
    }
    #expect(compared > 10_000)
}

@Test(.enabled(if: avx2KernelsEnabled, "the AVX2 kernels are off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func opacityBlendKernelTouchesNothingPastTheRow() {
    // Rows that end just before a page that may not be touched: reading or writing one pixel past `count` faults.
    var rng = SplitMix(state: 31)
    for count in [8, 15, 16, 17, 64, 71] {
        let src = GuardedMemory(count: 4 * count) { _ in UInt8.random(in: 0...255, using: &rng) }
        let dst = GuardedMemory(count: 4 * count) { _ in UInt8.random(in: 0...255, using: &rng) }
        src.bytes.withMemoryRebound(to: UInt32.self, capacity: count) { s in
            dst.bytes.withMemoryRebound(to: UInt32.self, capacity: count) { d in
                OpacityBlend.blendRow(d, s, count: count, opacity: 0.6, avx2: true)
            }
        }
    }
}

@Test func opacityBlendTwinIsThePerPixelBlendWithinOne() {
    // The per-pixel path it replaces (`blend(unpack(word) * k, over:)`) takes two shortcuts the row does not; at
    // opacity 1 the two are the same, bit for bit.
    var rng = SplitMix(state: 32)
    for opacity in opacities {
        let count = 2000
        let src = (0..<count).map { _ in premultiplied(using: &rng) }
        var row = (0..<count).map { _ in premultiplied(using: &rng) }
        var perPixel = row
        for i in 0..<count { blend(unpack(src[i]) * opacity, over: &perPixel[i]) }
        src.withUnsafeBufferPointer { s in
            row.withUnsafeMutableBufferPointer { OpacityBlend.blendRowSwift($0.baseAddress!, s.baseAddress!, count: count, opacity: opacity) }
        }
        var worst = 0
        for i in 0..<count {
            for shift in stride(from: 0, to: 32, by: 8) {
                worst = max(worst, abs(Int((row[i] >> UInt32(shift)) & 0xff) - Int((perPixel[i] >> UInt32(shift)) & 0xff)))
            }
        }
        #expect(worst <= (opacity == 1 ? 0 : 1), "opacity \(opacity): max channel difference \(worst)")
    }
}

/// A canvas with a faded item over another, as a playlist's `fade` builds it: a slot with an opaque background that
/// clips a picture filling it, at `opacity`, over a picture. `markedOpaque: false` gives the faded picture one
/// corner texel at alpha 254, so that nothing is known to hide its slot's background (the group is composited).
private func fadeScene(opacity: Double, markedOpaque: Bool, frame: Rect = Rect(x: 10, y: 6, width: 80, height: 60),
                       turned: Bool = false) -> Layer {
    let root = canvas(100, 72, background: .black)
    let old = makeLayer(frame)
    old.contents = .image(testImage(width: 40, height: 30))
    root.addSublayer(old)
    let slot = makeLayer(frame, background: .black)
    slot.masksToBounds = true
    slot.opacity = opacity
    if turned { slot.transform = Transform3D.makeRotation(20 * .pi / 180, 0, 1, 0).concatenating(.makePerspective(distance: 300)) }
    root.addSublayer(slot)
    let picture = makeLayer(Rect(x: 0, y: 0, width: frame.width, height: frame.height))
    picture.contents = .image(Image(width: 30, height: 20) { px in
        for i in px.indices { px[i] = 0xff00_0000 | UInt32(i % 30 * 8) << 16 | UInt32(i / 30 * 12) << 8 | 0x90 }
        if !markedOpaque { px[0] = 0xfe00_0000 | (px[0] & 0x00ff_ffff) }
    })
    slot.addSublayer(picture)
    return root
}

/// The draw list of a scene, as the compositor lowers it for a surface the root's size.
private func lowered(_ root: Layer) -> [DrawOp] {
    let viewport = PixelRect(x0: 0, y0: 0, x1: Int(root.bounds.width), y1: Int(root.bounds.height))
    let snapshot = root.snapshot()
    return Lowering(viewport: viewport, executor: Executor(threads: 1), shadowCache: ShadowCache())
        .lower(snapshot, world: snapshot.localTransform, planes: [], clips: [])
}

private func groups(_ ops: [DrawOp]) -> Int { ops.filter { if case .group = $0 { return true } else { return false } }.count }

@Test func aFadedSlotWhosePictureHidesItsBackgroundIsFadedWithoutAGroup() {
    // The slot's background lies under its opaque picture, so the group's picture is the picture alone: it is drawn
    // at the slot's opacity straight onto the canvas. The same scene with a picture not known to be opaque goes
    // through the group; the two draw the same within 1 (the shared corner texel at 254 is within it too).
    for opacity in [0.25, 0.5, 0.8] {
        let fast = fadeScene(opacity: opacity, markedOpaque: true), grouped = fadeScene(opacity: opacity, markedOpaque: false)
        let ops = lowered(fast)
        #expect(groups(ops) == 0 && groups(lowered(grouped)) == 1, "\(ops.count) draws")
        guard case .body(let faded)? = ops.last else { Issue.record("no body on top"); continue }
        #expect(abs(faded.opacity - Float(opacity)) < 1e-6 && faded.contents != nil)
        let (worst, differing) = difference(render(fast), render(grouped))
        #expect(worst <= 1, "opacity \(opacity): max channel difference \(worst), \(differing) pixels differ")
    }
}

@Test func aGroupWhoseBackgroundShowsAtAnEdgeIsKept() {
    // Off the pixel grid, or turned, the background shows through the picture's antialiased edge: the group stays.
    for scene in [fadeScene(opacity: 0.5, markedOpaque: true, frame: Rect(x: 10.5, y: 6, width: 80, height: 60)),
                  fadeScene(opacity: 0.5, markedOpaque: true, turned: true)] {
        let ops = lowered(scene)
        guard case .group(let g)? = ops.last else { Issue.record("the slot is not a group: \(ops.count) draws"); continue }
        #expect(g.opacity == 0.5)
    }
}
