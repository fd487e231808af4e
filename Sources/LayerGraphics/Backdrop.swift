/// What a surface shows after a frame drawn over an opaque canvas colour: that colour everywhere except, on each
/// row, one stretch of columns where the layers above the canvas drew.
///
/// A movie's canvas rarely changes while its layers move over it. A frame drawn into a surface that still holds
/// an earlier frame refills only what either frame drew on (`Compositor.render(_:into:over:)`), and a converter that
/// keeps the earlier frame's planes converts only that (`YUV420Conversion.convert(_:…:since:)`); both give the
/// same bytes as starting afresh.
public struct Backdrop: Sendable, Equatable {
    /// The canvas colour as the surface holds it: a premultiplied BGRA word.
    public let color: UInt32
    /// The surface's width in pixels.
    public let width: Int
    /// The surface's height in pixels.
    public let height: Int
    /// Per row, the start and end of the columns that may differ from `color` (start ≥ end: none).
    private let spans: [Int32]

    /// - Parameters:
    ///   - color: the canvas colour as a premultiplied BGRA word.
    ///   - width: the surface's width in pixels.
    ///   - height: the surface's height in pixels.
    ///   - spans: `2 × height` values: each row's first column that may differ from `color` and the column
    ///     after its last one, within 0…width (start ≥ end: the whole row is `color`).
    public init(color: UInt32, width: Int, height: Int, spans: [Int32]) {
        precondition(spans.count == 2 * height, "one (start, end) pair a row")
        self.color = color; self.width = width; self.height = height; self.spans = spans
    }

    /// The columns of row `y` that may differ from the canvas colour; nil when none do.
    @inline(__always)
    public func span(row y: Int) -> (start: Int, end: Int)? {
        let a = Int(spans[2 * y]), b = Int(spans[2 * y + 1])
        return a < b ? (a, b) : nil
    }

    /// Whether a surface that shows `self` can be brought to a later frame drawn over `other`'s canvas by
    /// redrawing what either frame drew on: the same colour and size.
    public func sharesCanvas(with other: Backdrop) -> Bool {
        color == other.color && width == other.width && height == other.height
    }

    /// The columns of rows `rows` that differ in either of two frames: the smallest stretch holding both frames'
    /// spans there (nil: none).
    public static func changedColumns(rows: Range<Int>, _ a: Backdrop, _ b: Backdrop) -> (start: Int, end: Int)? {
        var lo = Int.max, hi = Int.min
        for y in rows {
            if let s = a.span(row: y) { lo = min(lo, s.start); hi = max(hi, s.end) }
            if let s = b.span(row: y) { lo = min(lo, s.start); hi = max(hi, s.end) }
        }
        return lo < hi ? (lo, hi) : nil
    }
}
