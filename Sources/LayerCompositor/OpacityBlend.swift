import CKernels
import LayerGraphics

/// A row of premultiplied pixels at an opacity over another: the last step of a group (its intermediate buffer at the
/// group's opacity, SEMANTICS.md's group opacity) and of a faded picture's body. A playlist's `fade` at 1080p60 does
/// it for every pixel of every frame (issue 30), where the per-pixel `blend(unpack(word) * k, over:)` cost more than
/// converting both pictures from YUV.
///
/// Per channel, with s = src·opacity: dst = s + dst·(1 − s.a / 255), in floats, rounded as `pack` rounds. Against
/// `blend(_:over:)` that differs only where it takes a shortcut (a source of alpha ≥ 254.5 stored as it is, a
/// source of almost nothing skipped), by at most 1 in a channel.
enum OpacityBlend {
    /// Blends `count` pixels of `src` at `opacity` over `dst`: eight at a time with AVX2 when it runs, the rest (or
    /// all, without it) by the Swift twin.
    @inline(__always)
    static func blendRow(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, count: Int, opacity: Float,
                         avx2: Bool = avx2KernelsEnabled) {
        let done = avx2 ? lp_blend_over_opacity_avx2(dst, src, count, opacity) : 0
        if done < count { blendRowSwift(dst + done, src + done, count: count - done, opacity: opacity) }
    }

    /// The Swift twin of `lp_blend_over_opacity_avx2`, bit for bit (the same float operations in the same order).
    @inline(__always)
    static func blendRowSwift(_ dst: UnsafeMutablePointer<UInt32>, _ src: UnsafePointer<UInt32>, count: Int, opacity: Float) {
        for i in 0..<count {
            let s = unpack(src[i]) * opacity
            dst[i] = pack(s + unpack(dst[i]) * (1 - s.w * (1 / 255)))
        }
    }
}
