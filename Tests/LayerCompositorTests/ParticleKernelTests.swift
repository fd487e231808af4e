import CKernels
@testable import LayerCompositor
import LayerGraphics
import TestSupport
import Testing

// The particle row's AVX2 kernel against its Swift twin (`QuadRows.row`), bit for bit, on random rows: taps at and
// beyond the part's edges, turned and mirrored walks, every tint, both blends.

@Test(.enabled(if: avx2KernelsEnabled, "AVX2 is off (no AVX2, or LAYERPLAY_SIMD=baseline)"))
func particleRowAVX2MatchesTheSwiftKernel() {
    var random = SplitMix(state: 0x5eed_18)
    func premultiplied() -> UInt32 {
        let a = UInt32.random(in: 0...255, using: &random)
        if UInt32.random(in: 0...3, using: &random) == 0 { return 0 }
        let c = { UInt32.random(in: 0...a, using: &random) }
        return c() | c() << 8 | c() << 16 | a << 24
    }
    var mismatches = 0
    for trial in 0..<3000 {
        let width = Int.random(in: 1...20, using: &random), height = Int.random(in: 1...20, using: &random)
        let pixels = (0..<(width * height)).map { _ in premultiplied() }
        let ix0 = Int32.random(in: 0...Int32(width - 1), using: &random), iy0 = Int32.random(in: 0...Int32(height - 1), using: &random)
        let ix1 = Int32.random(in: (ix0 + 1)...Int32(width), using: &random), iy1 = Int32.random(in: (iy0 + 1)...Int32(height), using: &random)
        let u = Float.random(in: -4...Float(width + 4), using: &random), v = Float.random(in: -4...Float(height + 4), using: &random)
        // Some walks step by whole and half texels, so that floors land on ties.
        let du = trial % 5 == 0 ? Float(Int.random(in: -2...2, using: &random)) / 2 : Float.random(in: -1.5...1.5, using: &random)
        let dv = trial % 7 == 0 ? 0 : Float.random(in: -1.5...1.5, using: &random)
        let count = Int.random(in: 0...40, using: &random)
        let tint = FixedTint(SIMD4<Float>((0..<4).map { _ in Float.random(in: -0.1...1.1, using: &random) }))
        let additive = Bool.random(using: &random)
        let start = (0..<count).map { _ in premultiplied() }
        var swift = start, vector = start
        pixels.withUnsafeBufferPointer { texels in
            let texture = ParticleTexture(base: texels.baseAddress!, width: width, height: height)
            let quad = ParticleQuad(x0: 0, y0: 0, x1: 1, y1: 1, cx: 0, cy: 0, tx: 0, ty: 0, m00: du, m01: 0, m10: dv, m11: 0,
                                    ix0: ix0, iy0: iy0, ix1: ix1, iy1: iy1, tint: .zero, texture: 0, nearest: false)
            let rows = QuadRows(quad, texture, 0, 1, 0, 1)
            swift.withUnsafeMutableBufferPointer { out in
                guard let p = out.baseAddress else { return }
                if additive { rows.row(p, from: 0, to: count, u, v, tint, AddParticle.self) }
                else { rows.row(p, from: 0, to: count, u, v, tint, PaintParticle.self) }
            }
            vector.withUnsafeMutableBufferPointer { out in
                guard let p = out.baseAddress else { return }
                let done = lp_particle_row_avx2(p, count, texels.baseAddress!, width, ix0, iy0, ix1, iy1, u, v, du, dv,
                                                tint.packed, additive ? 1 : 0)
                #expect(done == count / 8 * 8)
                if additive { rows.row(p, from: done, to: count, u, v, tint, AddParticle.self) }
                else { rows.row(p, from: done, to: count, u, v, tint, PaintParticle.self) }
            }
        }
        if swift != vector {
            mismatches += 1
            if mismatches <= 3 {
                let i = swift.indices.first { swift[$0] != vector[$0] }!
                Issue.record("trial \(trial): pixel \(i): Swift \(String(swift[i], radix: 16)), AVX2 \(String(vector[i], radix: 16))")
            }
        }
    }
    #expect(mismatches == 0)
}
