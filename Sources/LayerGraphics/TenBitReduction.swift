import CKernels
import Dispatch
import Foundation

/// 10-bit planar Y′CbCr → 8-bit, with a 2×2 ordered dither: the step that lets 10-bit video (HEVC Main10, AV1,
/// ProRes; HDR and wide gamut need none, `VideoColorConverter` writing 8 bits itself) take the 8-bit paths — the samplers' AVX2 gathers, the
/// window's YUV texture — instead of the wide samplers, which cost several times as much a pixel (a 4K30 10-bit
/// clip played at 5 frames a second). The compositor's surfaces are 8-bit, so the picture loses nothing it would
/// have shown; the dither keeps a smooth 10-bit gradient's average (each 2×2 block's mean is the 10-bit value ÷ 4,
/// exactly) instead of banding it.
///
/// A code is (v + d) >> 2 with d the dither (0, 2 / 3, 1): limited range maps 10-bit codes onto 8-bit ones as the
/// standards do (64…940 → 16…235; chroma 512 → 128); full range 0…1023 lands on 0…255 with its top 0.3 % short of
/// an exact ×255/1023 (under one code).
public enum TenBitReduction {
    /// The 8-bit format of a 10-bit one; nil for the others.
    public static func eightBitFormat(of format: PixelFormat) -> PixelFormat? {
        switch format {
        case .yuv420p10: .yuv420p
        case .yuv422p10: .yuv422p
        case .yuv444p10: .yuv444p
        case .yuv420p, .yuv422p, .yuv444p, .yuva420p, .nv12, .bgra: nil
        }
    }

    /// `buffer` in 8 bits (same size, subsampling, matrix, range and chroma location); a buffer that is not 10-bit
    /// planar Y′CbCr comes back as it is. Rows are split across the cores.
    public static func reduce(_ buffer: PixelBuffer, avx2: Bool = avx2KernelsEnabled) -> PixelBuffer {
        guard let format = eightBitFormat(of: buffer.format) else { return buffer }
        return PixelBuffer(format: format, width: buffer.width, height: buffer.height, matrix: buffer.matrix, range: buffer.range,
                           chromaLocation: buffer.chromaLocation) { plane, base, bytesPerRow in
            let source = buffer.planes[plane]
            let out = Target(base: base)
            let bands = min(source.height, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for row in (source.height * band / bands)..<(source.height * (band + 1) / bands) {
                    reduceRow((out.base + row * bytesPerRow).assumingMemoryBound(to: UInt8.self),
                              (source.base + row * source.bytesPerRow).assumingMemoryBound(to: UInt16.self),
                              count: source.width, row: row, avx2: avx2)
                }
            }
        }
    }

    /// An output plane's base, shared by the bands (each writes its own rows).
    private struct Target: @unchecked Sendable { let base: UnsafeMutableRawPointer }

    /// One row: 16 samples at a time with AVX2 when `avx2`, the rest (or all) by the Swift twin.
    static func reduceRow(_ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt16>, count: Int, row: Int, avx2: Bool) {
        let done = avx2 ? lp_reduce10_row_avx2(dst, src, count, row) : 0
        reduceRowSwift(dst, src, from: done, count: count, row: row)
    }

    /// The Swift twin of `lp_reduce10_row_avx2`, samples `start..<count`.
    static func reduceRowSwift(_ dst: UnsafeMutablePointer<UInt8>, _ src: UnsafePointer<UInt16>, from start: Int, count: Int, row: Int) {
        for x in start..<count {
            let (sum, overflow) = src[x].addingReportingOverflow(dither(x, row))
            dst[x] = UInt8(min((overflow ? UInt16.max : sum) >> 2, 255))
        }
    }

    /// The 2×2 ordered dither, in 10-bit codes: 0, 2 on even rows, 3, 1 on odd ones (its four values once each in
    /// every 2×2 block, so a block's mean is exact).
    @inline(__always) static func dither(_ x: Int, _ y: Int) -> UInt16 {
        y & 1 == 0 ? (x & 1 == 0 ? 0 : 2) : (x & 1 == 0 ? 3 : 1)
    }
}
