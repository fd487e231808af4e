/// The layout of a `PixelBuffer`'s planes.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Planar Y, U, V; chroma halved both ways (4:2:0), halved horizontally (4:2:2) or full (4:4:4); 8 bits.
    case yuv420p, yuv422p, yuv444p
    /// The same at 10 bits, one little-endian 16-bit word per sample.
    case yuv420p10, yuv422p10, yuv444p10
    /// 4:2:0 with an alpha plane (straight alpha, full range), 8 bits.
    case yuva420p
    /// Y plane then one interleaved U,V plane, 4:2:0, 8 bits.
    case nv12
    /// One plane of premultiplied B, G, R, A bytes.
    case bgra

    /// Whether the format holds Y, U and V planes (every format but `bgra`).
    public var isYUV: Bool { self != .bgra }
    /// Bits per sample: 10 for the `…10` formats, 8 for the others.
    public var bitDepth: Int {
        switch self {
        case .yuv420p10, .yuv422p10, .yuv444p10: return 10
        default: return 8
        }
    }
    /// log2 of the horizontal and vertical chroma subsampling.
    public var chromaShift: (x: Int, y: Int) {
        switch self {
        case .yuv420p, .yuv420p10, .yuva420p, .nv12: return (1, 1)
        case .yuv422p, .yuv422p10: return (1, 0)
        case .yuv444p, .yuv444p10, .bgra: return (0, 0)
        }
    }
    /// How many planes a buffer of this format has: 1 (BGRA), 2 (NV12), 3 (planar YUV) or 4 (YUV with alpha).
    public var planeCount: Int {
        switch self {
        case .bgra: return 1
        case .nv12: return 2
        case .yuva420p: return 4
        default: return 3
        }
    }
    /// Bytes per sample in the plane (for NV12's chroma plane: per U,V pair).
    func bytesPerSample(plane: Int) -> Int {
        switch self {
        case .bgra: return 4
        case .nv12: return plane == 0 ? 1 : 2
        default: return bitDepth > 8 ? 2 : 1
        }
    }
}

/// The YUV → RGB matrix a stream was encoded with.
public enum ColorMatrix: String, Sendable, CaseIterable {
    /// SD video (ITU-R BT.601): Kr 0.299, Kb 0.114.
    case bt601
    /// HD video (ITU-R BT.709): Kr 0.2126, Kb 0.0722; what an unmarked HD stream is taken to be.
    case bt709
    /// UHD and HDR video (ITU-R BT.2020, non-constant luminance): Kr 0.2627, Kb 0.0593.
    case bt2020
    /// The luma weight of red (Kr in `Y = Kr·R + Kg·G + Kb·B`).
    public var kr: Double { switch self { case .bt601: 0.299; case .bt709: 0.2126; case .bt2020: 0.2627 } }
    /// The luma weight of blue (Kb).
    public var kb: Double { switch self { case .bt601: 0.114; case .bt709: 0.0722; case .bt2020: 0.0593 } }
}

/// Limited ("TV", 16–235) or full ("PC", 0–255) range of the YUV codes.
public enum ColorRange: String, Sendable, CaseIterable {
    /// Codes 16–235 for luma and 16–240 for chroma at 8 bits (scaled up at 10): broadcast video's usual range.
    case limited
    /// Codes 0–255 (0–1023 at 10 bits): JPEG and most screen captures.
    case full
}

/// Where a chroma sample sits relative to the luma samples it covers.
public enum ChromaLocation: String, Sendable, CaseIterable {
    /// MPEG-2, H.264, HEVC default: horizontally on the left luma column, vertically between rows.
    case left
    /// JPEG, MPEG-1: in the middle of the luma samples it covers.
    case center
    /// Co-sited with the top-left luma sample (some 4:2:0 HDR content).
    case topLeft
}

/// One plane of a `PixelBuffer`.
public struct PixelPlane: @unchecked Sendable {
    /// The plane's first byte, owned by its `PixelBuffer` (or the buffer's owner) and valid while the buffer lives.
    public let base: UnsafeRawPointer
    /// Bytes between the starts of two rows (at least a row's samples; often padded for alignment).
    public let bytesPerRow: Int
    /// Samples per row and rows (for NV12's chroma plane: U,V pairs per row).
    public let width: Int
    /// The plane's rows.
    public let height: Int
    /// A plane of `height` rows of `width` samples starting at `base`, rows `bytesPerRow` apart.
    public init(base: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int) {
        self.base = base; self.bytesPerRow = bytesPerRow; self.width = width; self.height = height
    }
}

/// A decoded picture in its own format (planar YUV or BGRA), with the colour description needed to show it.
///
/// A buffer either owns its planes or borrows them from an `owner` (a decoded FFmpeg frame, say),
/// which it keeps alive until the buffer itself is released. Immutable and shareable between threads.
public final class PixelBuffer: @unchecked Sendable, CustomStringConvertible {
    /// How the planes are laid out.
    public let format: PixelFormat
    /// The picture's width in pixels (the luma plane's).
    public let width: Int
    /// The picture's height in pixels (the luma plane's).
    public let height: Int
    /// The planes, `format.planeCount` of them, in the format's order (Y, U, V[, A]; Y, UV; or BGRA).
    public let planes: [PixelPlane]
    /// The YUV → RGB matrix the picture was encoded with (ignored for BGRA).
    public let matrix: ColorMatrix
    /// Whether the YUV codes use the limited or the full range (ignored for BGRA).
    public let range: ColorRange
    /// Where the chroma samples sit relative to luma (4:2:0 and 4:2:2 only).
    public let chromaLocation: ChromaLocation
    /// For a converted HDR or wide-gamut frame, the frame at every size it may be drawn at: this buffer is one of
    /// them standing for the whole frame, and the compositor draws the level the draw needs (`PictureLevels`).
    public let levels: PictureLevels?
    /// Keeps borrowed planes alive (the release handle); nil when the buffer owns its memory.
    private let owner: AnyObject?
    private let ownedMemory: UnsafeMutableRawPointer?

    /// Wraps planes that `owner` keeps alive.
    public init(format: PixelFormat, width: Int, height: Int, planes: [PixelPlane],
                matrix: ColorMatrix, range: ColorRange, chromaLocation: ChromaLocation = .left, owner: AnyObject?) {
        precondition(planes.count == format.planeCount, "\(format) has \(format.planeCount) planes")
        self.format = format; self.width = width; self.height = height; self.planes = planes
        self.matrix = matrix; self.range = range; self.chromaLocation = chromaLocation
        self.owner = owner; self.ownedMemory = nil; self.levels = nil
    }

    /// `shown` (one of `levels`' pictures, kept alive by this buffer) standing for the frame `levels` holds.
    init(standingFor levels: PictureLevels, shown: PixelBuffer) {
        format = shown.format; width = shown.width; height = shown.height; planes = shown.planes
        matrix = shown.matrix; range = shown.range; chromaLocation = shown.chromaLocation
        owner = shown; ownedMemory = nil; self.levels = levels
    }

    /// Allocates planes of the given format and lets `fill` write them once (plane index, base, bytes per row).
    public convenience init(format: PixelFormat, width: Int, height: Int, matrix: ColorMatrix = .bt709,
                            range: ColorRange = .limited, chromaLocation: ChromaLocation = .left,
                            fill: (_ plane: Int, _ base: UnsafeMutableRawPointer, _ bytesPerRow: Int) -> Void) {
        self.init(format: format, width: width, height: height, matrix: matrix, range: range,
                  chromaLocation: chromaLocation, pool: nil, fill: fill)
    }

    /// As `init(format:width:height:…fill:)`, with the memory from `pool` (when given), which takes it back when the
    /// buffer is released.
    init(format: PixelFormat, width: Int, height: Int, matrix: ColorMatrix, range: ColorRange,
         chromaLocation: ChromaLocation, pool: PictureMemoryPool?,
         fill: (_ plane: Int, _ base: UnsafeMutableRawPointer, _ bytesPerRow: Int) -> Void) {
        precondition(width > 0 && height > 0, "a pixel buffer has at least one pixel")
        let shift = format.chromaShift
        var layout: [(offset: Int, bytesPerRow: Int, width: Int, height: Int)] = []
        var total = 0
        for p in 0..<format.planeCount {
            let chroma = format.isYUV && (p == 1 || p == 2)
            let w = chroma ? (width + (1 << shift.x) - 1) >> shift.x : width
            let h = chroma ? (height + (1 << shift.y) - 1) >> shift.y : height
            let bpr = (w * format.bytesPerSample(plane: p) + 63) & ~63
            layout.append((total, bpr, w, h))
            total += bpr * h
        }
        let memory: UnsafeMutableRawPointer
        if let pool {
            let block = pool.block(byteCount: max(total, 1))
            memory = block.base
            self.owner = block; self.ownedMemory = nil
        } else {
            memory = UnsafeMutableRawPointer.allocate(byteCount: max(total, 1), alignment: 64)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: max(total, 1))
            self.owner = nil; self.ownedMemory = memory
        }
        for (p, l) in layout.enumerated() { fill(p, memory + l.offset, l.bytesPerRow) }
        self.format = format; self.width = width; self.height = height
        self.planes = layout.map { PixelPlane(base: UnsafeRawPointer(memory + $0.offset), bytesPerRow: $0.bytesPerRow, width: $0.width, height: $0.height) }
        self.matrix = matrix; self.range = range; self.chromaLocation = chromaLocation
        self.levels = nil
    }

    /// Planes being written, handed over together (`init(…fillingPlanes:)`): their bases and bytes per row, shareable
    /// with the bands of a concurrent loop, each of which writes its own rows.
    struct WritablePlanes: @unchecked Sendable { let planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)] }

    /// As the pooled `init(…fill:)`, with every plane handed to `fill` at once: for conversions that write the planes
    /// together (a chroma row and the luma rows it covers).
    convenience init(format: PixelFormat, width: Int, height: Int, matrix: ColorMatrix, range: ColorRange,
                     chromaLocation: ChromaLocation, pool: PictureMemoryPool?, fillingPlanes fill: (WritablePlanes) -> Void) {
        var planes: [(base: UnsafeMutableRawPointer, bytesPerRow: Int)] = []
        self.init(format: format, width: width, height: height, matrix: matrix, range: range, chromaLocation: chromaLocation,
                  pool: pool) { _, base, bytesPerRow in planes.append((base, bytesPerRow)) }
        fill(WritablePlanes(planes: planes))
    }

    deinit { ownedMemory?.deallocate() }

    /// The picture's size in pixels, as a `Size`.
    public var size: Size { Size(width: Double(width), height: Double(height)) }
    /// The size of the frame the buffer stands for: `size`, or level 0's size when it is a reduced level of a frame
    /// (`levels`). Contents are placed by it.
    public var frameSize: Size { levels.map { Size(width: Double($0.width), height: Double($0.height)) } ?? size }
    /// Whether every pixel is opaque (no alpha plane or channel).
    public var isOpaque: Bool { format != .yuva420p && format != .bgra }
    public var description: String { "PixelBuffer(\(format) \(width)x\(height) \(matrix) \(range))" }

    /// The coefficients that turn this buffer's codes into 8-bit-scaled RGB.
    public var yuvToRGB: YUVToRGB { YUVToRGB(matrix: matrix, range: range, bitDepth: format.bitDepth) }
}

/// YUV codes → RGB in 0…255, for one matrix, range and bit depth:
/// `R = yScale·(Y − yOffset) + crToR·(Cr − cOffset)`, and likewise for G and B.
public struct YUVToRGB: Sendable, Equatable {
    /// The luma code of black (16 × 2^(depth − 8) in the limited range, 0 in the full).
    public let yOffset: Float
    /// The chroma code of no colour (128 × 2^(depth − 8)).
    public let cOffset: Float
    /// What one luma step is worth in 0…255 RGB.
    public let yScale: Float
    /// How much a chroma-red step adds to red.
    public let crToR: Float
    /// How much a chroma-blue step adds to green (negative).
    public let cbToG: Float
    /// How much a chroma-red step adds to green (negative).
    public let crToG: Float
    /// How much a chroma-blue step adds to blue.
    public let cbToB: Float

    /// The coefficients for codes of `bitDepth` bits (8 or 10) in `range`, encoded with `matrix`.
    public init(matrix: ColorMatrix, range: ColorRange, bitDepth: Int) {
        let maxCode = Double((1 << bitDepth) - 1)
        let step = Double(1 << (bitDepth - 8))
        let ySpan, cSpan, yOff: Double
        switch range {
        case .limited: yOff = 16 * step; ySpan = 219 * step; cSpan = 224 * step
        case .full: yOff = 0; ySpan = maxCode; cSpan = maxCode
        }
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        yOffset = Float(yOff)
        cOffset = Float(128 * step)
        yScale = Float(255 / ySpan)
        let c = 255 / cSpan
        crToR = Float(2 * (1 - kr) * c)
        cbToB = Float(2 * (1 - kb) * c)
        cbToG = Float(-2 * kb * (1 - kb) / kg * c)
        crToG = Float(-2 * kr * (1 - kr) / kg * c)
    }
}

extension PixelBuffer {
    /// Converts an opaque-or-not `Image` into a YUV buffer (box-filtered chroma), for tests, benchmarks and
    /// stills shown through the YUV path. Alpha is dropped unless the format has an alpha plane.
    public convenience init(converting image: Image, to format: PixelFormat, matrix: ColorMatrix, range: ColorRange) {
        precondition(format != .bgra && format != .nv12, "convert to a planar YUV format")
        let kr = matrix.kr, kb = matrix.kb, kg = 1 - kr - kb
        let step = Double(1 << (format.bitDepth - 8))
        let maxCode = Double((1 << format.bitDepth) - 1)
        let (yOff, ySpan, cSpan): (Double, Double, Double) =
            range == .limited ? (16 * step, 219 * step, 224 * step) : (0, maxCode, maxCode)
        let w = image.width, h = image.height
        // Straight RGB in 0…1 and alpha per pixel.
        var rgb = [SIMD4<Double>](repeating: .zero, count: w * h)
        image.withUnsafePixels { px in
            for i in 0..<(w * h) {
                let c = PremultipliedColor(bgra: px[i])
                let a = Double(c.a) / 255
                let un = a > 0 ? 1 / (a * 255) : 0
                rgb[i] = SIMD4(Double(c.r) * un, Double(c.g) * un, Double(c.b) * un, a)
            }
        }
        let shift = format.chromaShift
        func store(_ base: UnsafeMutableRawPointer, _ bpr: Int, _ x: Int, _ y: Int, _ v: Double) {
            let code = min(max(v.rounded(), 0), maxCode)
            if format.bitDepth > 8 {
                base.storeBytes(of: UInt16(code).littleEndian, toByteOffset: y * bpr + x * 2, as: UInt16.self)
            } else {
                base.storeBytes(of: UInt8(code), toByteOffset: y * bpr + x, as: UInt8.self)
            }
        }
        self.init(format: format, width: w, height: h, matrix: matrix, range: range, chromaLocation: .center) { plane, base, bpr in
            switch plane {
            case 0:
                for y in 0..<h { for x in 0..<w {
                    let p = rgb[y * w + x]
                    store(base, bpr, x, y, yOff + ySpan * (kr * p.x + kg * p.y + kb * p.z))
                } }
            case 1, 2:
                let cw = (w + (1 << shift.x) - 1) >> shift.x, ch = (h + (1 << shift.y) - 1) >> shift.y
                for cy in 0..<ch { for cx in 0..<cw {
                    var sum = SIMD4<Double>.zero, n = 0.0
                    for y in (cy << shift.y)..<min(h, (cy + 1) << shift.y) {
                        for x in (cx << shift.x)..<min(w, (cx + 1) << shift.x) { sum += rgb[y * w + x]; n += 1 }
                    }
                    let p = sum / n
                    let luma = kr * p.x + kg * p.y + kb * p.z
                    let c = plane == 1 ? (p.z - luma) / (2 * (1 - kb)) : (p.x - luma) / (2 * (1 - kr))
                    store(base, bpr, cx, cy, 128 * step + cSpan * c)
                } }
            default:
                for y in 0..<h { for x in 0..<w { store(base, bpr, x, y, rgb[y * w + x].w * 255) } }
            }
        }
    }
}
