import LayerGraphics

/// What a layer shows as its contents: a bitmap or a decoded video frame. Equal when they are the same object.
public enum LayerContents: Sendable, Hashable {
    /// A bitmap.
    case image(Image)
    /// A decoded video frame.
    case pixelBuffer(PixelBuffer)

    public static func == (a: LayerContents, b: LayerContents) -> Bool {
        switch (a, b) {
        case let (.image(x), .image(y)): return x === y
        case let (.pixelBuffer(x), .pixelBuffer(y)): return x === y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .image(let i): hasher.combine(ObjectIdentifier(i))
        case .pixelBuffer(let p): hasher.combine(ObjectIdentifier(p))
        }
    }

    /// Size in pixels (a frame's own size when the buffer is a reduced level of it, `PixelBuffer.frameSize`).
    public var pixelSize: Size {
        switch self {
        case .image(let i): return i.size
        case .pixelBuffer(let p): return p.frameSize
        }
    }
    /// Whether the contents cover every pixel (no alpha), so what is below need not be drawn.
    public var isOpaque: Bool {
        switch self {
        case .image(let i): return i.isOpaque
        case .pixelBuffer(let p): return p.isOpaque
        }
    }
}

/// How contents are placed in the bounds (CALayerContentsGravity). `top` is visually on top (y down).
public enum ContentsGravity: String, Sendable, CaseIterable {
    /// Not scaled: placed at the centre, an edge or a corner of the bounds.
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    /// Scaled to the bounds: stretched, fitted inside keeping the aspect ratio, or filling them keeping it (cropped).
    case resize, resizeAspect, resizeAspectFill
}

/// Sampling filter for contents (CALayerContentsFilter).
public enum ContentsFilter: String, Sendable, CaseIterable {
    /// Nearest pixel, bilinear, or bilinear between mipmap levels (trilinear; minification only).
    case nearest, linear, trilinear
}

/// The corners `cornerRadius` rounds (CACornerMask). With y down, `minXMinY` is the top-left corner.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The top-left corner.
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
    /// The top-right corner.
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
    /// The bottom-left corner.
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
    /// The bottom-right corner.
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
    /// All four corners.
    public static let all: CornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}

/// How a layer follows a change of its superlayer's size (CAAutoresizingMask). Each bit makes one part of an
/// axis flexible: a margin between the layer's frame and the superlayer's bounds, or the layer's size. A change
/// is shared evenly among the flexible parts of its axis; with none flexible, the layer stays as it is.
/// With y down, `layerMinYMargin` is the top margin and `layerMaxYMargin` the bottom one.
/// Members carry Core Animation's names (`.layerWidthSizable`), like CornerMask's `.layerMinXMinYCorner`.
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Nothing flexible: the layer keeps its frame.
    public static let layerNotSizable: AutoresizingMask = []
    /// The left margin is flexible.
    public static let layerMinXMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The width is flexible.
    public static let layerWidthSizable = AutoresizingMask(rawValue: 1 << 1)
    /// The right margin is flexible.
    public static let layerMaxXMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The top margin is flexible.
    public static let layerMinYMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The height is flexible.
    public static let layerHeightSizable = AutoresizingMask(rawValue: 1 << 4)
    /// The bottom margin is flexible.
    public static let layerMaxYMargin = AutoresizingMask(rawValue: 1 << 5)
}
