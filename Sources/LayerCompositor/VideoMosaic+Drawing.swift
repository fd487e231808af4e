import LayerGraphics

/// Three writable 8-bit planes of a 4:2:0 picture (an encoder's frame).
public struct WritablePlanes420 {
    /// The luma plane's first byte.
    public let y: UnsafeMutablePointer<UInt8>
    /// Bytes from one luma row to the next.
    public let yStride: Int
    /// The Cb plane's first byte (half the width and height).
    public let u: UnsafeMutablePointer<UInt8>
    /// Bytes from one Cb row to the next.
    public let uStride: Int
    /// The Cr plane's first byte (half the width and height).
    public let v: UnsafeMutablePointer<UInt8>
    /// Bytes from one Cr row to the next.
    public let vStride: Int

    /// The planes at these addresses, with these strides (an encoder's frame's `data` and `linesize`).
    public init(y: UnsafeMutablePointer<UInt8>, yStride: Int, u: UnsafeMutablePointer<UInt8>, uStride: Int,
                v: UnsafeMutablePointer<UInt8>, vStride: Int) {
        self.y = y; self.yStride = yStride; self.u = u; self.uStride = uStride; self.v = v; self.vStride = vStride
    }
}

extension VideoMosaic {
    /// Draws the frame into `planes` (the target's size, 4:2:0 sited left, chroma between each pair of rows):
    /// the background's codes everywhere, then each video resampled into every plane, blended with what is beneath
    /// by its coverage where its edge crosses a pixel. `background` is `backgroundWord` in the planes' codes (the
    /// encoder's matrix and range, as its conversion of a surface of that colour gives them). A video of another
    /// matrix than `matrix` changes matrix on the way (`MatrixChange`); its range must be the planes' own.
    /// `scratch` keeps the memory of converted chroma from frame to frame (one per encoder).
    public func draw(into planes: WritablePlanes420, background: (y: UInt8, cb: UInt8, cr: UInt8), matrix: ColorMatrix,
                     scratch: MosaicScratch) {
        for row in 0..<height { (planes.y + row * planes.yStride).update(repeating: background.y, count: width) }
        for row in 0..<height / 2 {
            (planes.u + row * planes.uStride).update(repeating: background.cb, count: width / 2)
            (planes.v + row * planes.vStride).update(repeating: background.cr, count: width / 2)
        }
        for tile in tiles {
            withExtendedLifetime(tile.picture) {
                if let change = MatrixChange(from: tile.picture.matrix, to: matrix, range: tile.picture.range) {
                    let converted = ConvertedChroma(tile.sampler, change, scratch: scratch)
                    drawLuma(tile, planes, change: converted)
                    drawChroma(tile, planes, u: converted.cb, v: converted.cr)
                } else {
                    drawLuma(tile, planes, change: nil)
                    drawChroma(tile, planes, u: tile.sampler.u, v: tile.sampler.v)
                }
            }
        }
    }

    /// The background's codes as an encoder's conversion of a surface of that colour gives them (`YUV420Conversion`).
    public func backgroundCodes(matrix: ColorMatrix, range: ColorRange) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let surface = Surface(width: 2, height: 2)
        surface.pixels.update(repeating: backgroundWord, count: surface.pixelsPerRow * 2)
        var y = [UInt8](repeating: 0, count: 4), u: UInt8 = 0, v: UInt8 = 0
        y.withUnsafeMutableBufferPointer { y in
            YUV420Conversion.convert(surface, matrix: matrix, range: range, y: y.baseAddress!, yStride: 2,
                                     u: &u, uStride: 1, v: &v, vStride: 1)
        }
        return (y[0], u, v)
    }

    private func drawLuma(_ tile: MosaicTile, _ planes: WritablePlanes420, change: ConvertedChroma?) {
        let b = tile.bounds
        var sampler = PlaneResampler(plane: tile.sampler.y, a: tile.ax, c: tile.cx, b: tile.ay, d: tile.cy, columns: b.x0, b.x1)
        // The luma's change, at the chroma's size, resampled at each luma pixel's place on the chroma grid.
        let g = tile.sampler.grid
        var delta = change.map {
            PlaneResampler(plane: $0.dy, a: tile.ax * Double(g.scaleX), c: tile.cx * Double(g.scaleX) - Double(g.offsetX),
                           b: tile.ay * Double(g.scaleY), d: tile.cy * Double(g.scaleY) - Double(g.offsetY), columns: b.x0, b.x1)
        }
        var line = [UInt8](repeating: 0, count: 2 * b.width)
        line.withUnsafeMutableBufferPointer { line in
            let out = line.baseAddress!, dy = out + b.width
            for y in b.y0..<b.y1 {
                guard let (r, d) = tile.edges.columns(row: y) else { continue }
                sampler.resampleRow(y, columns: r.0, r.1, into: out)
                if delta != nil {
                    delta!.resampleRow(y, columns: r.0, r.1, into: dy)
                    MatrixChange.addHalfChange(out, dy, count: r.1 - r.0)
                }
                let dst = planes.y + y * planes.yStride
                (dst + d.0).update(from: out + (d.0 - r.0), count: d.1 - d.0)
                for x in r.0..<d.0 { Self.blend(&dst[x], out[x - r.0], tile.edges.coverage(x: x, y: y)) }
                for x in d.1..<r.1 { Self.blend(&dst[x], out[x - r.0], tile.edges.coverage(x: x, y: y)) }
            }
        }
    }

    /// Chroma sample (i, j) sits at luma column 2i and between rows 2j and 2j + 1. Its coverage is what the
    /// encoder's conversion of a composited surface gives it: ¼, ½, ¼ of the columns 2i − 1, 2i, 2i + 1, averaged
    /// over the two rows.
    private func drawChroma(_ tile: MosaicTile, _ planes: WritablePlanes420, u: ScalarPlane, v: ScalarPlane) {
        let b = tile.bounds, cw = width / 2
        let g = tile.sampler.grid
        // Site (i + ½, j + ½) in chroma pixels is luma position (2i + ½, 2j + 1); its luma texel, then the picture's
        // chroma grid, are affine in it.
        let a = 2 * tile.ax * Double(g.scaleX), c = tile.cx * Double(g.scaleX) - Double(g.offsetX) - 0.5 * tile.ax * Double(g.scaleX)
        let bb = 2 * tile.ay * Double(g.scaleY), d = tile.cy * Double(g.scaleY) - Double(g.offsetY)
        let i0 = b.x0 / 2, i1 = min((b.x1 + 2) / 2, cw)
        guard i0 < i1 else { return }
        // One set of taps for both planes (they have one size and one grid).
        var chroma = PlaneResampler(plane: u, a: a, c: c, b: bb, d: d, columns: i0, i1)
        var lines = [UInt8](repeating: 0, count: 2 * (i1 - i0))
        lines.withUnsafeMutableBufferPointer { lines in
            let outB = lines.baseAddress!, outR = outB + (i1 - i0)
            for j in (b.y0 / 2)..<((b.y1 + 1) / 2) {
                let top = tile.edges.columns(row: 2 * j), bottom = tile.edges.columns(row: 2 * j + 1)
                guard top != nil || bottom != nil else { continue }
                let lo = min(top?.reach.0 ?? .max, bottom?.reach.0 ?? .max), hi = max(top?.reach.1 ?? .min, bottom?.reach.1 ?? .min)
                let s0 = max(i0, lo / 2), s1 = min(i1, (hi + 2) / 2)
                guard s0 < s1 else { continue }
                chroma.resampleRow(j, columns: s0, s1, into: outB)
                chroma.resampleRow(j, columns: s0, s1, into: outR, of: v)
                // Fully covered where both rows' deep columns hold all three taps.
                var f0 = s0, f1 = s0
                if let top, let bottom {
                    let d0 = max(top.deep.0, bottom.deep.0), d1 = min(top.deep.1, bottom.deep.1)
                    let a0 = max(s0, (d0 + 2) / 2), a1 = min(s1, d1 / 2)
                    if d0 < d1, a0 < a1 { f0 = a0; f1 = a1 }
                }
                let dstB = planes.u + j * planes.uStride, dstR = planes.v + j * planes.vStride
                (dstB + f0).update(from: outB + (f0 - s0), count: f1 - f0)
                (dstR + f0).update(from: outR + (f0 - s0), count: f1 - f0)
                func edge(_ i: Int) {
                    @inline(__always) func row(_ y: Int) -> Float {
                        0.25 * tile.edges.coverage(x: 2 * i - 1, y: y) + 0.5 * tile.edges.coverage(x: 2 * i, y: y)
                            + 0.25 * tile.edges.coverage(x: 2 * i + 1, y: y)
                    }
                    let k = row(2 * j) + row(2 * j + 1)
                    Self.blend(&dstB[i], outB[i - s0], k * 0.5)
                    Self.blend(&dstR[i], outR[i - s0], k * 0.5)
                }
                for i in s0..<f0 { edge(i) }
                for i in f1..<s1 { edge(i) }
            }
        }
    }

    /// `dst` moved toward `src` by `coverage` (the premultiplied "over" of an opaque source, in code space).
    @inline(__always)
    private static func blend(_ dst: inout UInt8, _ src: UInt8, _ coverage: Float) {
        guard coverage > 0 else { return }
        if coverage >= 1 { dst = src; return }
        let d = Float(dst)
        dst = UInt8(min(max(d + (Float(src) - d) * coverage + 0.5, 0), 255))
    }
}

/// Memory that mosaic drawing reuses from frame to frame (a fresh buffer a frame costs its page faults each time).
public final class MosaicScratch: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<UInt8>?
    private var capacity = 0

    /// An empty scratch: it grows to the largest picture converted.
    public init() {}
    deinit { storage?.deallocate() }

    /// At least `count` bytes, valid until the next call.
    func bytes(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if let storage, capacity >= count { return storage }
        storage?.deallocate()
        capacity = max(count, capacity * 2)
        storage = .allocate(capacity: capacity)
        return storage!
    }
}

/// A picture's chroma in another matrix (`MatrixChange`): the luma's change and the new chroma, at the chroma's size,
/// in a scratch buffer.
private struct ConvertedChroma {
    let dy: ScalarPlane, cb: ScalarPlane, cr: ScalarPlane

    init(_ s: PlanarYUVSampler, _ change: MatrixChange, scratch: MosaicScratch) {
        let w = s.u.width, h = s.u.height
        let storage = scratch.bytes(3 * w * h)
        dy = ScalarPlane(base: storage, bytesPerRow: w, width: w, height: h)
        cb = ScalarPlane(base: storage + w * h, bytesPerRow: w, width: w, height: h)
        cr = ScalarPlane(base: storage + 2 * w * h, bytesPerRow: w, width: w, height: h)
        let u = s.u.base.assumingMemoryBound(to: UInt8.self), v = s.v.base.assumingMemoryBound(to: UInt8.self)
        for row in 0..<h {
            change.convert(dy: storage + row * w, cb2: storage + w * h + row * w, cr2: storage + 2 * w * h + row * w,
                           cb: u + row * s.u.bytesPerRow, cr: v + row * s.v.bytesPerRow, count: w)
        }
    }
}
