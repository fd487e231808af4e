/// A single-channel 8-bit coverage buffer (cairo's A8): shadow shapes, masks and paths rasterised for the compositor.
public final class AlphaMask: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Bytes between the starts of two rows (cairo requires a multiple of 4).
    public let bytesPerRow: Int
    public let bytes: UnsafeMutablePointer<UInt8>

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a mask has at least one pixel")
        self.width = width
        self.height = height
        bytesPerRow = (width + 3) & ~3
        bytes = .allocate(capacity: bytesPerRow * height)
        bytes.initialize(repeating: 0, count: bytesPerRow * height)
    }

    deinit { bytes.deallocate() }

    public func value(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height)
        return bytes[y * bytesPerRow + x]
    }
}
