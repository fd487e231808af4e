/// A single-channel 8-bit coverage buffer (cairo's A8): shadow shapes, masks and paths rasterised for the compositor.
public final class AlphaMask: @unchecked Sendable {
    /// The mask's width in pixels (at least 1).
    public let width: Int
    /// The mask's height in pixels (at least 1).
    public let height: Int
    /// Bytes between the starts of two rows (cairo requires a multiple of 4).
    public let bytesPerRow: Int
    /// The coverage values, one byte per pixel (0 uncovered … 255 covered), rows `bytesPerRow` apart; owned by the mask
    /// and freed with it.
    public let bytes: UnsafeMutablePointer<UInt8>

    /// An empty (all 0) mask of `width` × `height` pixels; both must be at least 1.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a mask has at least one pixel")
        self.width = width
        self.height = height
        bytesPerRow = (width + 3) & ~3
        bytes = .allocate(capacity: bytesPerRow * height)
        bytes.initialize(repeating: 0, count: bytesPerRow * height)
    }

    deinit { bytes.deallocate() }

    /// The coverage (0…255) of the pixel at column `x`, row `y`, which must be inside the mask.
    public func value(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return bytes[y * bytesPerRow + x]
    }
}
