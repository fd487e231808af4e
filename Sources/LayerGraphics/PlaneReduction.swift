import Foundation

/// Halves planar Y′CbCr pictures by a 2×2 box, in their own encoding: the reduced pictures an HDR or wide-gamut
/// frame is converted at when it is drawn at half its size or less (`PictureLevels`).
///
/// Each output sample is the rounded mean of the 2×2 input samples it covers; an odd last column or row is paired
/// with itself. Every plane is halved alike, so a 4:2:0 picture stays 4:2:0 and its planes keep matching sizes
/// (⌈⌈w/2⌉/2⌉ = ⌈⌈w/2⌉/2⌉ either way round).
enum PlaneReduction {
    /// The formats `halved` takes: planar Y′CbCr without alpha, 8 or 10 bits (those `VideoColorConverter` converts).
    static func canHalve(_ format: PixelFormat) -> Bool { VideoColorConverter.canConvert(format) }

    /// `buffer` at half its width and height (rounded up), same format and tags, its memory from `pool`.
    static func halved(_ buffer: PixelBuffer, pool: PictureMemoryPool? = nil) -> PixelBuffer {
        precondition(canHalve(buffer.format), "\(buffer.format) is not planar Y′CbCr")
        let wide = buffer.format.bitDepth > 8
        return PixelBuffer(format: buffer.format, width: (buffer.width + 1) / 2, height: (buffer.height + 1) / 2,
                           matrix: buffer.matrix, range: buffer.range, chromaLocation: buffer.chromaLocation,
                           pool: pool) { (out: PixelBuffer.WritablePlanes) in
            // All three planes in one concurrent pass: bands of output rows of each plane (a luma band has four times
            // the samples of a chroma band's).
            let lumaRows = (buffer.planes[0].height + 1) / 2
            let bands = min(lumaRows, 8 * max(1, ProcessInfo.processInfo.activeProcessorCount))
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for p in 0..<3 {
                    let rows = (buffer.planes[p].height + 1) / 2
                    let range = (rows * band / bands)..<(rows * (band + 1) / bands)
                    for y in range {
                        halveRow(y, of: buffer.planes[p], into: out.planes[p].base + y * out.planes[p].bytesPerRow, wide: wide)
                    }
                }
            }
        }
    }

    /// Output row `y` of the halved `source` plane, written at `out`.
    @inline(__always)
    static func halveRow(_ y: Int, of source: PixelPlane, into out: UnsafeMutableRawPointer, wide: Bool) {
        let top = source.base + 2 * y * source.bytesPerRow
        let bottom = source.base + min(2 * y + 1, source.height - 1) * source.bytesPerRow
        if wide {
            halveRow(top.assumingMemoryBound(to: UInt16.self), bottom.assumingMemoryBound(to: UInt16.self),
                     out.assumingMemoryBound(to: UInt16.self), width: source.width)
        } else {
            halveRow(top.assumingMemoryBound(to: UInt8.self), bottom.assumingMemoryBound(to: UInt8.self),
                     out.assumingMemoryBound(to: UInt8.self), width: source.width)
        }
    }

    /// 10-bit samples, sixteen in and eight out at a time: four samples sum to at most 4092, so 16-bit lanes hold
    /// the sums exactly.
    @inline(__always)
    static func halveRow(_ top: UnsafePointer<UInt16>, _ bottom: UnsafePointer<UInt16>, _ out: UnsafeMutablePointer<UInt16>, width: Int) {
        let pairs = width / 2
        var x = 0
        while x + 8 <= pairs {
            let v = UnsafeRawPointer(top + 2 * x).loadUnaligned(as: SIMD16<UInt16>.self)
                &+ UnsafeRawPointer(bottom + 2 * x).loadUnaligned(as: SIMD16<UInt16>.self)
            UnsafeMutableRawPointer(out + x).storeBytes(of: (v.evenHalf &+ v.oddHalf &+ 2) &>> 2, as: SIMD8<UInt16>.self)
            x += 8
        }
        halveTail(top, bottom, out, from: x, width: width)
    }

    /// 8-bit samples, widened to 16-bit lanes for the sums.
    @inline(__always)
    static func halveRow(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, width: Int) {
        let pairs = width / 2
        var x = 0
        while x + 8 <= pairs {
            let v = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(top + 2 * x).loadUnaligned(as: SIMD16<UInt8>.self))
                &+ SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(bottom + 2 * x).loadUnaligned(as: SIMD16<UInt8>.self))
            let mean = (v.evenHalf &+ v.oddHalf &+ 2) &>> 2
            UnsafeMutableRawPointer(out + x).storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: mean), as: SIMD8<UInt8>.self)
            x += 8
        }
        halveTail(top, bottom, out, from: x, width: width)
    }

    /// The output samples from `from` on, one at a time (the odd last column pairs with itself).
    @inline(__always)
    static func halveTail<Sample: FixedWidthInteger & UnsignedInteger>(_ top: UnsafePointer<Sample>, _ bottom: UnsafePointer<Sample>,
                                                                       _ out: UnsafeMutablePointer<Sample>, from: Int, width: Int) {
        for x in from..<(width + 1) / 2 {
            let right = min(2 * x + 1, width - 1)
            let sum = UInt32(top[2 * x]) &+ UInt32(top[right]) &+ UInt32(bottom[2 * x]) &+ UInt32(bottom[right])
            out[x] = Sample(truncatingIfNeeded: (sum &+ 2) &>> 2)
        }
    }
}
