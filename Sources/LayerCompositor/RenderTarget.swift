/// Pixels being drawn into: a surface, a band of one, or an intermediate buffer of a group.
/// Addressed in target coordinates: `base` holds the pixel at (originX, originY).
struct RenderTarget: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt32>
    let pixelsPerRow: Int
    let originX: Int, originY: Int

    /// A pointer that, indexed by an absolute x, reads row y.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { base + ((y - originY) * pixelsPerRow - originX) }
}

/// dst = src + dst · (1 − src.a): premultiplied source-over.
@inline(__always)
func blend(_ src: SIMD4<Float>, over dst: inout UInt32) {
    if src.w >= 254.5 { dst = pack(src); return }
    if src.w <= 0.002 && src.x <= 0.002 && src.y <= 0.002 && src.z <= 0.002 { return }
    dst = pack(src + unpack(dst) * (1 - src.w * (1 / 255)))
}
