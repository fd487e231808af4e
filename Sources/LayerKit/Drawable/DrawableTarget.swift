import LayerGraphics

/// The pixel buffer a `DrawableLayer`'s app code renders into: `width × height` premultiplied BGRA words, row by
/// row from the top (the `Image` layout, so the words go to the compositor without conversion).
public struct DrawableTarget: Sendable {
    /// The buffer's width in pixels.
    public let width: Int
    /// The buffer's height in pixels.
    public let height: Int
    /// One little-endian BGRA word per pixel, premultiplied, row-major, top row first. A buffer whose count is not
    /// `width × height` when the callback returns is refused (the frame draws nothing).
    public var pixels: [UInt32]

    /// A transparent buffer; negative sizes are 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let (count, overflow) = self.width.multipliedReportingOverflow(by: self.height)
        pixels = [UInt32](repeating: 0, count: overflow ? 0 : count)
    }

    /// The pixel at column `x`, row `y` (row 0 at the top). Reading outside gives clear; writing outside is ignored.
    public subscript(x: Int, y: Int) -> PremultipliedColor {
        get {
            guard x >= 0, x < width, y >= 0, y < height, y * width + x < pixels.count else { return .clear }
            return PremultipliedColor(bgra: pixels[y * width + x])
        }
        set {
            guard x >= 0, x < width, y >= 0, y < height, y * width + x < pixels.count else { return }
            pixels[y * width + x] = newValue.bgra
        }
    }

    /// Sets every pixel to `color` (straight, premultiplied here).
    public mutating func fill(_ color: Color) {
        let word = color.premultiplied.bgra
        for i in pixels.indices { pixels[i] = word }
    }

    /// Write access to all pixels for a fast loop.
    public mutating func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        try pixels.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Whether the buffer still has the size that was asked for.
    func matches(width w: Int, height h: Int) -> Bool { width == w && height == h && pixels.count == w * h }

    /// The pixels as an `Image`; with `opaque`, alpha is ignored (set to 1), as a layer whose `isOpaque` is true shows it.
    func makeImage(opaque: Bool) -> Image? {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        return pixels.withUnsafeBufferPointer { source in
            Image(width: width, height: height) { out in
                if opaque {
                    for i in 0..<out.count { out[i] = source[i] | 0xff00_0000 }
                } else {
                    // A word whose colour exceeds its alpha is not premultiplied; clamp it so blending never overflows.
                    for i in 0..<out.count {
                        let w = source[i], a = w >> 24
                        let r = min((w >> 16) & 0xff, a), g = min((w >> 8) & 0xff, a), b = min(w & 0xff, a)
                        out[i] = a << 24 | r << 16 | g << 8 | b
                    }
                }
            }
        }
    }
}

/// What a `DrawableLayer`'s `render` callback is told about the frame it draws.
public struct DrawableFrame: Sendable, Equatable {
    /// The layer's local time (its `beginTime`, `speed` and `timeOffset` applied): what an animation should follow.
    public let layerTime: Double
    /// The time of the snapshot on the root's clock (the output time of a window or an export).
    public let outputTime: Double
    /// The frame's index in an export (`snapshot(at:frameIndex:)`), nil elsewhere.
    public let frameIndex: Int?
    /// The buffer's size in pixels (`drawableSize`).
    public let width: Int
    /// The buffer's height in pixels.
    public let height: Int

    /// The frame at these times and size.
    public init(layerTime: Double, outputTime: Double, frameIndex: Int?, width: Int, height: Int) {
        self.layerTime = layerTime
        self.outputTime = outputTime
        self.frameIndex = frameIndex
        self.width = width
        self.height = height
    }
}
