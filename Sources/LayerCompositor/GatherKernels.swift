import CKernels
import Foundation

/// Whether the AVX2 kernels of CKernels run: the CPU has AVX2, and `LAYERPLAY_SIMD=baseline` does not ask for
/// the plain Swift kernels (to compare, or to rule the C kernels out when something looks wrong).
let avx2KernelsEnabled: Bool = lp_cpu_has_avx2() != 0 && ProcessInfo.processInfo.environment["LAYERPLAY_SIMD"] != "baseline"

// The Swift side of the AVX2 kernels (CKernels): when they may run, and the calls.

extension ScalarPlane {
    /// Planes up to this size keep every walk position, and eight steps of it, in 32-bit lanes.
    static let largestGatherPlane = 16_384

    /// Whether an AVX2 kernel may walk this plane along `wx`, `wy` (both inside it) for `count` pixels: the plane is
    /// small enough for 32-bit lanes, and each gather's four bytes (two past the right tap) stay inside the plane's
    /// memory. Only a walk over the last row whose right tap is within two bytes of the row's end fails that
    /// (FFmpeg pads rows, our own planes may not).
    @inline(__always)
    func gatherStaysInside(count: Int, _ wx: FixedWalk, _ wy: FixedWalk) -> Bool {
        if width >= Self.largestGatherPlane || height >= Self.largestGatherPlane { return false }
        let column = max(wx.t, wx.t &+ wx.step &* (count &- 1)) &>> 16   // the rightmost left tap
        let row = max(wy.t, wy.t &+ wy.step &* (count &- 1)) &>> 16      // the lowest top tap
        return row &+ 2 < height || column &+ 4 <= bytesPerRow
    }
}

/// The deep interior's 4:2:0 walk with AVX2 gathers (CKernels/yuv420_bilinear_avx2.c): about 1.7 times the speed
/// of `fillInsideVector` (benchmark scene), whose taps must be assembled a byte pair at a time without gathers.
extension PlanarYUVSampler {
    /// Whether `fillInsideGather` may run this walk (`ScalarPlane.gatherStaysInside` for the three planes).
    @inline(__always)
    func gatherStaysInside(count: Int, lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) -> Bool {
        y.gatherStaysInside(count: count, lx, ly) && u.gatherStaysInside(count: count, cx, cy) && v.gatherStaysInside(count: count, cx, cy)
    }

    /// `fillInsideScalar` through the AVX2 kernel, eight pixels at a time, with the scalar walk for the rest.
    /// Same preconditions, plus `gatherStaysInside`. A channel differs from the scalar walk by at most 1.
    @inline(__always)
    func fillInsideGather(_ dst: UnsafeMutablePointer<UInt32>, count: Int, matrix: lp_yuv_matrix,
                          lx: FixedWalk, ly: FixedWalk, cx: FixedWalk, cy: FixedWalk) {
        var planes = lp_yuv420_planes(y: y.base.assumingMemoryBound(to: UInt8.self), u: u.base.assumingMemoryBound(to: UInt8.self),
                                      v: v.base.assumingMemoryBound(to: UInt8.self), yStride: y.bytesPerRow, cStride: u.bytesPerRow)
        var walks = lp_yuv420_walks(lx: Int32(truncatingIfNeeded: lx.t), lsx: Int32(truncatingIfNeeded: lx.step),
                                    ly: Int32(truncatingIfNeeded: ly.t), lsy: Int32(truncatingIfNeeded: ly.step),
                                    cx: Int32(truncatingIfNeeded: cx.t), csx: Int32(truncatingIfNeeded: cx.step),
                                    cy: Int32(truncatingIfNeeded: cy.t), csy: Int32(truncatingIfNeeded: cy.step))
        var matrix = matrix
        let done = lp_yuv420_bilinear_avx2(dst, count, &planes, &walks, &matrix)
        if done < count {
            fillInsideScalar(dst + done, count: count - done, lx: lx.advanced(by: done), ly: ly.advanced(by: done),
                             cx: cx.advanced(by: done), cy: cy.advanced(by: done))
        }
    }
}

extension lp_yuv_matrix {
    /// `YUVFixed`'s quantised coefficients for 8.8 inputs, as floats: the same colours as the scalar walk.
    /// `shortfall` (in 1/256) is added to both offsets' inputs, for a lerp that comes out low on average.
    init(_ q: YUVFixed, shortfall: Float = 0) {
        let s: Float = 1.0 / 4_194_304  // 2^-22: coefficients are 2^14 × 8.8 inputs
        let ys = Float(q.yScale) * s, cb = Float(q.cbToB) * s, cbg = Float(q.cbToG) * s, crg = Float(q.crToG) * s, cr = Float(q.crToR) * s
        let yo = Float(q.yOffset) - shortfall, co = Float(q.cOffset) - shortfall
        self.init(yScale: ys, cbToB: cb, cbToG: cbg, crToG: crg, crToR: cr,
                  b0: -yo * ys - co * cb, g0: -yo * ys - co * (cbg + crg), r0: -yo * ys - co * cr)
    }
}
