import Foundation
import LayerGraphics

/// A layer that draws a string, as Core Animation's CATextLayer (SEMANTICS-LAYERS.md §2): laid out by pango in the
/// bounds (the first line's top at `bounds.minY`), drawn into the contents at `bounds.size × contentsScale` pixels.
///
/// The drawing is a `DrawnLayerPayload`, so it is kept while the text, its settings, the bounds' size and
/// `contentsScale` stay equal: a text that does not change is laid out and rasterised once, however many frames
/// show it. `contentsScale` is never raised for you: text on a magnified layer pixelates until you set it to the
/// magnification, as on iOS. Shadows follow the glyphs (they are the contents' alpha).
open class TextLayer: Layer {
    /// What a text layer shows: a plain string in the layer's `font`, `fontSize` and `foregroundColor`, or an
    /// attributed string whose runs carry their own (`TextAttributes` scope; unset: Helvetica 12 pt, opaque black).
    public enum Text: Sendable, Equatable {
        /// A plain string in the layer's font, size and colour.
        case plain(String)
        /// An attributed string whose runs carry their own font, size and colour.
        case attributed(AttributedString)
    }

    /// Where a line too long for the bounds is cut with "…" (CATextLayerTruncationMode).
    public enum TruncationMode: Sendable, Hashable {
        /// Lines are clipped at the bounds, with no "…".
        case none
        /// The start, middle or end of the line gives way to "…".
        case start, middle, end
    }

    /// How lines sit in the bounds' width (CATextLayerAlignmentMode).
    public enum AlignmentMode: Sendable, Hashable {
        /// Left for left-to-right text (the default).
        case natural
        /// Against the left or right edge, or centred.
        case left, right, center
        /// Stretched to the full width, but for the last line of a paragraph.
        case justified
    }

    /// The text drawn; nil draws nothing.
    public var string: Text? { didSet { if string != oldValue { laidOutText = nil } } }
    /// The font of a plain string: a PostScript-style name (`Helvetica-Bold`) or a pango description. Unknown
    /// families fall back to fontconfig's default with one warning on stderr.
    public var font: String = "Helvetica"
    /// The size of a plain string, in points. Animatable.
    public var fontSize: Double = 36 { didSet { didChangeValue(forKey: "fontSize", from: oldValue) } }
    /// The colour of a plain string; nil draws no text. Animatable (nil animates as transparent black).
    public var foregroundColor: Color? = .white {
        didSet { didChangeValue(forKey: "foregroundColor", from: oldValue ?? .clear) }
    }
    /// Whether lines wrap at the bounds' width (a word longer than a line breaks between characters).
    public var isWrapped = false
    /// Where a line too long for the bounds is cut with "…"; `.none` clips it.
    public var truncationMode: TruncationMode = .none
    /// How lines sit in the bounds' width.
    public var alignmentMode: AlignmentMode = .natural
    /// Kept for Core Animation's API; no effect, as glyphs are never hinted here.
    public var allowsFontSubpixelQuantization = false

    /// An empty text layer: white 36-point Helvetica, as Core Animation's defaults.
    public override init() { super.init() }

    open override class var animatableProperties: [AnimatableProperty] {
        super.animatableProperties + [
            AnimatableProperty("fontSize", value: { (layer: TextLayer) in layer.fontSize }, set: { layer, v in layer.fontSize = v }),
            AnimatableProperty("foregroundColor", value: { (layer: TextLayer) in layer.foregroundColor ?? .clear }, set: { layer, v in layer.foregroundColor = v }),
        ]
    }

    /// The text and runs of `string` as pango gets them, made once per change of `string` (an attributed string's runs
    /// are converted to UTF-8 ranges here, not per frame); `.some(nil)` for no string, nil when not made yet.
    private var laidOutText: (text: String, runs: [TextRun], isPlain: Bool)??

    private var textAndRuns: (text: String, runs: [TextRun], isPlain: Bool)? {
        if let laidOutText { return laidOutText }
        let made: (text: String, runs: [TextRun], isPlain: Bool)? = switch string {
        case nil: nil
        case .plain(let s): (s, [], true)
        case .attributed(let a): { let (text, runs) = TextLayer.runs(of: a); return (text, runs, false) }()
        }
        laidOutText = .some(made)
        return made
    }

    /// The layout of the current text in a box of `width` (nil: unbounded) with the given size and colour.
    func textLayout(width: Double?, height: Double?, fontSize: Double, color: Color?) -> TextLayout? {
        guard let (text, runs, isPlain) = textAndRuns else { return nil }
        return TextLayout(
            text, runs: runs,
            font: isPlain ? font : "Helvetica", fontSize: isPlain ? fontSize : 12,
            color: isPlain ? (color.flatMap { $0.alpha > 0 ? $0 : nil }) : .black,
            width: width, wraps: isWrapped, alignment: alignmentMode.textAlignment,
            ellipsis: truncationMode.textEllipsis, height: height)
    }

    /// A text layer's drawing: its layout, whose box is the bounds.
    struct Payload: DrawnLayerPayload, Equatable {
        let layout: TextLayout
        func draw(in context: DrawingContext, bounds: Rect) {
            context.draw(layout, at: bounds.origin)
        }
    }

    open override func snapshotPayload(_ presentation: LayerPresentation, at time: Double) -> (any LayerPayload)? {
        var size = fontSize, color = foregroundColor
        if case .number(let n)? = presentation.extras["fontSize"] { size = n }
        if case .color(let c)? = presentation.extras["foregroundColor"] { color = c }
        let b = presentation.bounds.standardized
        return textLayout(width: b.width, height: b.height, fontSize: size, color: color).map(Payload.init)
    }

    /// The size the text takes (points, rounded up): unwrapped, its widest line and all its lines; wrapped, the
    /// same at the current bounds' width. Costs a layout.
    open override func preferredFrameSize() -> Size {
        let width = bounds.standardized.width
        guard var layout = textLayout(width: isWrapped ? width : nil, height: nil, fontSize: fontSize, color: .black)
        else { return .zero }
        layout.ellipsis = .none
        let logical = layout.measured().logical
        return Size(width: logical.width.rounded(.up), height: logical.height.rounded(.up))
    }
}

/// `layer.string = "Hello"`, as CATextLayer takes an NSString.
extension TextLayer.Text: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .plain(value) }
}

extension TextLayer.AlignmentMode {
    var textAlignment: TextAlignment {
        switch self {
        case .natural: .natural
        case .left: .left
        case .right: .right
        case .center: .center
        case .justified: .justified
        }
    }
}

extension TextLayer.TruncationMode {
    var textEllipsis: TextEllipsis {
        switch self {
        case .none: .none
        case .start: .start
        case .middle: .middle
        case .end: .end
        }
    }
}
