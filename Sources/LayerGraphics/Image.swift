/// An immutable bitmap of premultiplied 8-bit pixels, stored B, G, R, A in memory (cairo's ARGB32, FFmpeg's BGRA).
///
/// Safe to share between threads: the pixels never change after creation.
public final class Image: @unchecked Sendable, CustomStringConvertible {
    /// The width in pixels (at least 1).
    public let width: Int
    /// The height in pixels (at least 1).
    public let height: Int
    /// Bytes between the starts of two rows (always `width * 4`).
    public let bytesPerRow: Int
    /// True when every pixel has alpha 255; lets the compositor skip blending work.
    public let isOpaque: Bool
    let storage: UnsafeMutablePointer<UInt32>
    /// The mipmap levels, built on first use (Image+Mipmaps.swift).
    let mipmapCache = MipmapCache()

    /// Creates an image by letting `fill` write every pixel once, as little-endian BGRA words, row by row.
    public init(width: Int, height: Int, fill: (UnsafeMutableBufferPointer<UInt32>) throws -> Void) rethrows {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        storage = .allocate(capacity: width * height)
        storage.initialize(repeating: 0, count: width * height)
        try fill(UnsafeMutableBufferPointer(start: storage, count: width * height))
        var opaque = true
        for i in 0..<(width * height) where storage[i] >> 24 != 0xff { opaque = false; break }
        isOpaque = opaque
    }

    /// An image filled with one colour.
    public convenience init(width: Int, height: Int, color: Color) {
        let word = color.premultiplied.bgra
        self.init(width: width, height: height) { $0.update(repeating: word) }
    }

    deinit { storage.deallocate() }

    /// The pixel at column `x`, row `y`.
    public func pixel(x: Int, y: Int) -> PremultipliedColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return PremultipliedColor(bgra: storage[y * width + x])
    }

    /// Read access to all pixels, row-major, one BGRA word each.
    public func withUnsafePixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage, count: width * height))
    }

    /// The size in pixels, as a `Size` (an image has no scale of its own; a layer's `contentsScale` gives it one).
    public var size: Size { Size(width: Double(width), height: Double(height)) }
    public var description: String { "Image(\(width)x\(height)\(isOpaque ? ", opaque" : ""))" }
}
