/// A mutable canvas of premultiplied BGRA8 pixels: what the compositor renders into.
///
/// Rows are written from several threads at once by the compositor (each thread owns a band of rows);
/// callers must not read a surface while a render into it is running.
public final class Surface: @unchecked Sendable {
    /// The width in pixels (0 for an empty surface).
    public let width: Int
    /// The height in pixels (0 for an empty surface).
    public let height: Int
    /// Pixels between the starts of two rows.
    public let pixelsPerRow: Int
    /// The pixels, premultiplied BGRA words row by row, rows `pixelsPerRow` apart; valid while the surface lives.
    public let pixels: UnsafeMutablePointer<UInt32>

    /// A transparent surface; a zero or negative side makes an empty one (no pixels), never a trap.
    public init(width: Int, height: Int) {
        let width = max(0, width), height = max(0, height)
        self.width = width
        self.height = height
        pixelsPerRow = width
        pixels = .allocate(capacity: width * height)
        pixels.initialize(repeating: 0, count: width * height)
        ownsPixels = true
    }

    /// Whether `pixels` was allocated here (else it belongs to whoever lent it).
    private let ownsPixels: Bool

    /// A surface over memory owned elsewhere (a window's locked texture), which must hold `height` rows of
    /// `pixelsPerRow` pixels and outlive the surface; its pixels are left as they are.
    public init(wrapping pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, pixelsPerRow: Int) {
        precondition(width >= 0 && height >= 0 && pixelsPerRow >= width, "a surface's rows are at least its width")
        self.width = width
        self.height = height
        self.pixelsPerRow = pixelsPerRow
        self.pixels = pixels
        ownsPixels = false
    }

    deinit { if ownsPixels { pixels.deallocate() } }

    /// The size in pixels, as a `Size`.
    public var size: Size { Size(width: Double(width), height: Double(height)) }

    /// Fills every pixel with `color`.
    public func clear(to color: Color = .clear) {
        pixels.update(repeating: color.premultiplied.bgra, count: pixelsPerRow * height)
    }

    /// The pixel at column `x`, row `y`, which must be inside the surface.
    public func pixel(x: Int, y: Int) -> PremultipliedColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return PremultipliedColor(bgra: pixels[y * pixelsPerRow + x])
    }

    /// Writes `color` to the pixel at column `x`, row `y`, which must be inside the surface.
    public func setPixel(x: Int, y: Int, _ color: PremultipliedColor) {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        pixels[y * pixelsPerRow + x] = color.bgra
    }

    /// An immutable copy of the current pixels.
    public func makeImage() -> Image {
        Image(width: width, height: height) { out in
            for y in 0..<height {
                let row = pixels + y * pixelsPerRow
                for x in 0..<width { out[y * width + x] = row[x] }
            }
        }
    }

    /// A surface holding a copy of `image`.
    public convenience init(image: Image) {
        self.init(width: image.width, height: image.height)
        image.withUnsafePixels { src in pixels.update(from: src.baseAddress!, count: width * height) }
    }
}
