import Foundation
import LayerGraphics

// Trilinear filtering (`minificationFilter = .trilinear`): a mipmap chain of the image, the level chosen per pixel
// from its footprint in texels, two levels blended. Samplers without mipmaps ignore the level of detail.

extension ContentSampler {
    /// Whether the sampler needs a level of detail: the kernels compute one only for those that do.
    static var usesLevelOfDetail: Bool { false }
    @inline(__always)
    func sample(_ x: Float, _ y: Float, lod: Float) -> SIMD4<Float> { sample(x, y) }
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double, lod: Float) {
        fillRun(dst, count: count, x: x, y: y, dx: dx, dy: dy)
    }
}

/// log2 of the larger of a pixel's two footprint edges, measured in texels (as OpenGL's λ): 0 at one texel per
/// pixel, 3 when minifying 8×, negative when magnifying. `scaleX`, `scaleY` turn local units into texels.
@inline(__always)
func footprintLevel(dudx: Float, dudy: Float, dvdx: Float, dvdy: Float, scaleX: Float, scaleY: Float) -> Float {
    let ax = dudx * scaleX, bx = dvdx * scaleY      // texels per pixel step along x
    let ay = dudy * scaleX, by = dvdy * scaleY      // … along y
    let rho2 = max(ax * ax + bx * bx, ay * ay + by * by)
    return rho2 > 0 ? 0.5 * log2f(rho2) : -.infinity
}

/// An `Image` and its mipmaps, bilinear within a level, linear between two levels.
///
/// Where the footprint is at most one texel (λ ≤ 0) the magnification filter applies to the image itself
/// (nearest or linear); beyond, `minificationFilterBias` shifts the level (λ + bias, clamped to the chain).
/// The min/mag decision uses the unbiased λ, so a bias never turns magnification into minification.
struct TrilinearSampler: ContentSampler {
    /// Level 0 (the image) first, bilinear.
    let levels: [BGRASampler]
    /// Level k's texel coordinates are level 0's times `scales[k]`.
    let scales: [SIMD2<Float>]
    /// The image with nearest sampling, for magnification when `magnificationFilter` is nearest.
    let magnifyNearest: BGRASampler?
    let bias: Float

    static var usesLevelOfDetail: Bool { true }

    /// The sampler for `image`, whose mipmaps are built now if they were not yet (once per image).
    init(image: Image, bias: Double, magnifyNearest: Bool) {
        func sampler(_ i: Image, nearest: Bool) -> BGRASampler {
            i.withUnsafePixels { BGRASampler(base: $0.baseAddress!, pixelsPerRow: i.width, width: i.width, height: i.height, nearest: nearest) }
        }
        let chain = [image] + image.mipmaps
        levels = chain.map { sampler($0, nearest: false) }
        scales = chain.map { SIMD2(Float($0.width) / Float(image.width), Float($0.height) / Float(image.height)) }
        self.magnifyNearest = magnifyNearest ? sampler(image, nearest: true) : nil
        self.bias = Float(bias)
    }

    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> SIMD4<Float> { sample(x, y, lod: 0) }

    @inline(__always)
    func sample(_ x: Float, _ y: Float, lod: Float) -> SIMD4<Float> {
        guard lod > 0 else { return (magnifyNearest ?? levels[0]).sample(x, y) }
        let top = levels.count - 1
        let level = min(max(lod + bias, 0), Float(top))
        let i = Int(level), f = level - Float(i)
        let a = levels[i].sample(x * scales[i].x, y * scales[i].y)
        if f <= 0 || i >= top { return a }
        let b = levels[i + 1].sample(x * scales[i + 1].x, y * scales[i + 1].y)
        return a + (b - a) * f
    }

    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double, lod: Float) {
        for i in 0..<count { dst[i] = pack(sample(Float(x + Double(i) * dx), Float(y + Double(i) * dy), lod: lod)) }
    }

    /// Without a footprint across rows, the step along the run stands for it.
    @inline(__always)
    func fillRun(_ dst: UnsafeMutablePointer<UInt32>, count: Int, x: Double, y: Double, dx: Double, dy: Double) {
        let rho2 = Float(dx * dx + dy * dy)
        fillRun(dst, count: count, x: x, y: y, dx: dx, dy: dy, lod: rho2 > 0 ? 0.5 * log2f(rho2) : -.infinity)
    }
}
