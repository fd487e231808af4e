import LayerGraphics

/// What a layer shows as its contents: a bitmap or a decoded video frame. Equal when they are the same object.
public enum LayerContents: Sendable, Hashable {
    case image(Image)
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

    /// Size in pixels.
    public var pixelSize: Size {
        switch self {
        case .image(let i): return i.size
        case .pixelBuffer(let p): return p.size
        }
    }
    public var isOpaque: Bool {
        switch self {
        case .image(let i): return i.isOpaque
        case .pixelBuffer(let p): return p.isOpaque
        }
    }
}

/// How contents are placed in the bounds (CALayerContentsGravity). `top` is visually on top (y down).
public enum ContentsGravity: String, Sendable, CaseIterable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill
}

/// Sampling filter for contents (CALayerContentsFilter).
public enum ContentsFilter: String, Sendable, CaseIterable {
    case nearest, linear, trilinear
}

/// The corners `cornerRadius` rounds (CACornerMask). With y down, `minXMinY` is the top-left corner.
public struct CornerMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
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
    public static let layerNotSizable: AutoresizingMask = []
    public static let layerMinXMargin = AutoresizingMask(rawValue: 1 << 0)
    public static let layerWidthSizable = AutoresizingMask(rawValue: 1 << 1)
    public static let layerMaxXMargin = AutoresizingMask(rawValue: 1 << 2)
    public static let layerMinYMargin = AutoresizingMask(rawValue: 1 << 3)
    public static let layerHeightSizable = AutoresizingMask(rawValue: 1 << 4)
    public static let layerMaxYMargin = AutoresizingMask(rawValue: 1 << 5)
}
