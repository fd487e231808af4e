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
                           matrix: buffer.matrix, range: buffer.range, chromaLocation: buffer.chromaLocation, pool: pool) { plane, base, bytesPerRow in
            let source = buffer.planes[plane]
            let rows = (source.height + 1) / 2
            let bands = min(rows, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
            let out = UnsafeSendableAddress(base)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                let range = (rows * band / bands)..<(rows * (band + 1) / bands)
                if wide {
                    halveRows(range, of: source, into: out.base, bytesPerRow: bytesPerRow, as: UInt16.self)
                } else {
                    halveRows(range, of: source, into: out.base, bytesPerRow: bytesPerRow, as: UInt8.self)
                }
            }
        }
    }

    /// Writes output rows `rows` of the halved `source` plane.
    @inline(__always)
    static func halveRows<Sample: FixedWidthInteger & UnsignedInteger>(_ rows: Range<Int>, of source: PixelPlane,
                                                                       into out: UnsafeMutableRawPointer, bytesPerRow: Int,
                                                                       as: Sample.Type) {
        let width = source.width, pairs = width / 2, outWidth = (width + 1) / 2
        for y in rows {
            let top = (source.base + 2 * y * source.bytesPerRow).assumingMemoryBound(to: Sample.self)
            let below = min(2 * y + 1, source.height - 1)
            let bottom = (source.base + below * source.bytesPerRow).assumingMemoryBound(to: Sample.self)
            let row = (out + y * bytesPerRow).assumingMemoryBound(to: Sample.self)
            for x in 0..<pairs {
                let sum = UInt32(top[2 * x]) &+ UInt32(top[2 * x + 1]) &+ UInt32(bottom[2 * x]) &+ UInt32(bottom[2 * x + 1])
                row[x] = Sample(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
            if outWidth > pairs {
                let sum = 2 &* (UInt32(top[width - 1]) &+ UInt32(bottom[width - 1]))
                row[pairs] = Sample(truncatingIfNeeded: (sum &+ 2) &>> 2)
            }
        }
    }
}

/// A plane's base address handed to the bands of a concurrent loop, each of which writes its own rows.
struct UnsafeSendableAddress: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    init(_ base: UnsafeMutableRawPointer) { self.base = base }
}
