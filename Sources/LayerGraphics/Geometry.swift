/// A point in a 2D coordinate space (origin top-left, y down).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate, in points (right is positive).
    public var x: Double
    /// The vertical coordinate, in points (down is positive).
    public var y: Double
    /// The point at `x`, `y` (`CGPoint(x:y:)`).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The point at `x`, `y`, unlabelled for brevity in listings of many points.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
    /// The origin, (0, 0) (`CGPoint.zero`).
    public static let zero = Point(x: 0, y: 0)
    public var description: String { "(\(x), \(y))" }

    /// The component-wise sum: `a` moved by `b`.
    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    /// The component-wise difference: the offset from `b` to `a`.
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    /// Both coordinates multiplied by `s`.
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    /// The point transformed by an affine transform.
    public func applying(_ t: AffineTransform2D) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

/// A width and a height.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal extent, in points (may be negative, as in CGSize; rects standardise it).
    public var width: Double
    /// The vertical extent, in points (may be negative, as in CGSize; rects standardise it).
    public var height: Double
    /// A size of `width` × `height` points (`CGSize(width:height:)`).
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    /// A size of `width` × `height` points, unlabelled.
    public init(_ width: Double, _ height: Double) { self.width = width; self.height = height }
    /// No width and no height (`CGSize.zero`).
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)x\(height)" }
}

/// An origin and a size. Operations treat the rect as standardised (non-negative size), as CGRect does.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The corner the size is measured from: the top left for a standardised rect.
    public var origin: Point
    /// The width and height, possibly negative (operations use the standardised rect).
    public var size: Size
    /// A rect of `size` from `origin` (`CGRect(origin:size:)`).
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }
    /// A rect from (`x`, `y`) of `width` × `height` points (`CGRect(x:y:width:height:)`).
    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y); size = Size(width: width, height: height)
    }
    /// A rect from (`x`, `y`) of `width` × `height` points, unlabelled.
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }
    /// The empty rect at the origin (`CGRect.zero`).
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The empty rect at infinity, the identity of `union`.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)
    public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

    /// The size's width as stored (negative for an unstandardised rect; `CGRect.width` is always positive).
    public var width: Double { size.width }
    /// The size's height as stored (negative for an unstandardised rect).
    public var height: Double { size.height }
    /// The left edge's x.
    public var minX: Double { Swift.min(origin.x, origin.x + size.width) }
    /// The right edge's x.
    public var maxX: Double { Swift.max(origin.x, origin.x + size.width) }
    /// The top edge's y (y grows down).
    public var minY: Double { Swift.min(origin.y, origin.y + size.height) }
    /// The bottom edge's y.
    public var maxY: Double { Swift.max(origin.y, origin.y + size.height) }
    /// The x halfway between the left and right edges.
    public var midX: Double { origin.x + size.width / 2 }
    /// The y halfway between the top and bottom edges.
    public var midY: Double { origin.y + size.height / 2 }
    /// The point at (`midX`, `midY`).
    public var center: Point { Point(x: midX, y: midY) }
    /// Whether this is `.null`, the rect at infinity that `intersection(_:)` returns for no overlap.
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// Whether the rect is null or has no width or no height (`CGRect.isEmpty`).
    public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

    /// The same rect with a non-negative width and height.
    public var standardized: Rect { Rect(x: minX, y: minY, width: abs(size.width), height: abs(size.height)) }
    /// The smallest rect with integer edges that contains this one.
    public var integral: Rect {
        if isNull { return self }
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    /// The standardised rect shrunk by `dx` on the left and right and `dy` at the top and bottom (grown for negative
    /// values); `.null` when that leaves a negative size (`CGRect.insetBy(dx:dy:)`).
    public func insetBy(dx: Double, dy: Double) -> Rect {
        let r = standardized
        let w = r.width - 2 * dx, h = r.height - 2 * dy
        if w < 0 || h < 0 { return .null }
        return Rect(x: r.minX + dx, y: r.minY + dy, width: w, height: h)
    }
    /// The same rect moved by `dx`, `dy` points.
    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: origin.x + dx, y: origin.y + dy, width: size.width, height: size.height)
    }
    /// The smallest rect containing both; a null rect adds nothing (`CGRect.union(_:)`).
    public func union(_ other: Rect) -> Rect {
        if isNull { return other }
        if other.isNull { return self }
        let x0 = Swift.min(minX, other.minX), y0 = Swift.min(minY, other.minY)
        return Rect(x: x0, y: y0, width: Swift.max(maxX, other.maxX) - x0, height: Swift.max(maxY, other.maxY) - y0)
    }
    /// The overlap of two rects, or `.null` when they do not overlap.
    public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let x0 = Swift.max(minX, other.minX), y0 = Swift.max(minY, other.minY)
        let x1 = Swift.min(maxX, other.maxX), y1 = Swift.min(maxY, other.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
    /// Whether the two rects overlap in an area (touching edges do not count).
    public func intersects(_ other: Rect) -> Bool {
        let r = intersection(other)
        return !r.isNull && r.width > 0 && r.height > 0
    }
    /// Whether the point lies inside (min edges included, max edges excluded, as CGRect).
    public func contains(_ p: Point) -> Bool {
        !isNull && p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }
    /// Whether `r` lies wholly inside this rect (edges may touch).
    public func contains(_ r: Rect) -> Bool {
        !isNull && !r.isNull && r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY
    }
    /// The bounding box of the rect's corners under an affine transform.
    public func applying(_ t: AffineTransform2D) -> Rect {
        if isNull { return self }
        let corners = [Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: minX, y: maxY), Point(x: maxX, y: maxY)]
            .map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min()!, y0 = ys.min()!
        return Rect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
}
