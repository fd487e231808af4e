import Foundation

/// Where and how the window opens (mpv's window options): `--geometry WxH+X+Y`, `--autofit WxH`, `--ontop`,
/// `--no-border`.
public struct WindowPlacement: Sendable, Equatable {
    /// A size in points.
    public struct Extent: Sendable, Equatable {
        /// The width, in points.
        public var width: Int
        /// The height, in points.
        public var height: Int
        /// A size of `width` × `height` points.
        public init(width: Int, height: Int) { self.width = width; self.height = height }
    }
    /// The window's size (nil: the canvas's, fitted to the screen).
    public var size: Extent?
    /// The top left corner on the screen, in points (nil: centred).
    public var x: Int?
    /// The top edge on the screen, in points (nil: centred), as `x` is the left.
    public var y: Int?
    /// The largest size the window opens at, its shape kept (mpv's `--autofit`).
    public var autofit: Extent?
    /// Above every other window.
    public var onTop = false
    /// Without the window manager's frame and title bar.
    public var borderless = false

    /// The default: the canvas's size fitted to the screen, centred, with a frame, not on top.
    public init() {}

    /// mpv's geometry: `WxH`, `WxH+X+Y` or `+X+Y` (sizes 1–16384); nil for anything else.
    public static func geometry(_ text: String) -> (size: Extent?, x: Int?, y: Int?)? {
        let pattern = #"^(?:(\d{1,5})x(\d{1,5}))?(?:\+(-?\d{1,5})\+(-?\d{1,5}))?$"#
        guard !text.isEmpty, let regex = try? NSRegularExpression(pattern: pattern),
              let m = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        func group(_ i: Int) -> Int? { Range(m.range(at: i), in: text).flatMap { Int(text[$0]) } }
        let size = group(1).flatMap { w in group(2).map { Extent(width: w, height: $0) } }
        if let size, !(1...16384).contains(size.width) || !(1...16384).contains(size.height) { return nil }
        return (size, group(3), group(4))
    }

    /// The size the window opens at for a canvas of `canvas` points: the geometry's size, else the canvas's; then
    /// shrunk to `autofit`, its shape kept.
    func openingSize(canvas: Extent) -> Extent {
        var size = self.size ?? canvas
        if let fit = autofit {
            let scale = min(1, Double(fit.width) / Double(size.width), Double(fit.height) / Double(size.height))
            size = Extent(width: max(1, Int((Double(size.width) * scale).rounded())), height: max(1, Int((Double(size.height) * scale).rounded())))
        }
        return size
    }
}
