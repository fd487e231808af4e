/// A block of text to lay out with pango and draw: the string, its attribute runs, the base font and colour, and
/// the box rules (width, wrapping, alignment, ellipsizing, height). A value: two equal layouts draw the same pixels,
/// so a drawn layer keeps its image while its layout stays equal.
///
/// Sizes are in points of user space (1 pt = 1 unit, as Core Graphics' font sizes). Measure it with `measured()`
/// and draw it with `DrawingContext.draw(_:at:)`. Hostile values are clamped rather than trusted: a size that is not
/// a finite positive number draws nothing, a width or height that is not finite and positive means "none", and a
/// string longer than `maxUTF8Count` bytes is cut at a character boundary.
public struct TextLayout: Sendable, Equatable {
    /// The text; newlines start new paragraphs.
    public var text: String
    /// Attribute runs over `text`, in UTF-8 byte offsets (what pango counts); later runs win where they overlap.
    public var runs: [TextRun]
    /// The base font: a PostScript-style name (`Helvetica-BoldOblique`) or a pango description (`DejaVu Sans Bold`),
    /// whose size part is ignored (see `FontName`).
    public var font: String
    /// The base size in points.
    public var fontSize: Double
    /// The base colour; nil draws no text (the layout still measures).
    public var color: Color?
    /// The box's width in points: lines wrap at it when `wraps`, ellipsize at it with `ellipsis`, and align within
    /// it. nil: no box width (alignment has nothing to align within).
    public var width: Double?
    /// Whether lines wrap at `width` (between words, or between characters inside a word too long for a line).
    public var wraps: Bool
    /// How lines sit in the box's width (natural by default; needs `width` to align within).
    public var alignment: TextAlignment
    /// Where a line too long for `width` shows "…" (none by default).
    public var ellipsis: TextEllipsis
    /// With `wraps` and an ellipsis: the height the lines must fit in; the last line that fits carries the "…".
    public var height: Double?

    /// A layout of `text` with the given runs and box rules; every parameter but the text has the default shown.
    public init(_ text: String, runs: [TextRun] = [], font: String = "Helvetica", fontSize: Double = 12,
                color: Color? = .black, width: Double? = nil, wraps: Bool = false, alignment: TextAlignment = .natural,
                ellipsis: TextEllipsis = .none, height: Double? = nil) {
        self.text = text
        self.runs = runs
        self.font = font
        self.fontSize = fontSize
        self.color = color
        self.width = width
        self.wraps = wraps
        self.alignment = alignment
        self.ellipsis = ellipsis
        self.height = height
    }

    /// The longest text laid out, in UTF-8 bytes (4 MiB): pango's offsets are 32-bit and its time grows with the
    /// text, so a runaway string is cut rather than allowed to stall a frame for minutes.
    public static let maxUTF8Count = 1 << 22
    /// The largest font size used (points); pango's sizes are 32-bit fixed point (1/1024 pt).
    public static let maxFontSize = 16384.0
    /// The largest box width or height used (points).
    public static let maxExtent = 1_000_000.0
}

/// How lines sit in the box's width (NSTextAlignment / CATextLayerAlignmentMode).
public enum TextAlignment: Sendable, Hashable {
    /// Left for a left-to-right paragraph, right for a right-to-left one.
    case natural
    /// Every line starts at the box's left edge.
    case left
    /// Every line ends at the box's right edge.
    case right
    /// Every line is centred in the box's width.
    case center
    /// Every line but a paragraph's last stretched to the width (needs a width).
    case justified
}

/// Where a line too long for the box shows "…" instead of text (CATextLayerTruncationMode).
public enum TextEllipsis: Sendable, Hashable {
    /// No ellipsis: a long line is clipped (or wraps).
    case none
    /// The line's start is replaced: "…end of the line".
    case start
    /// The line's middle is replaced: "start … end".
    case middle
    /// The line's end is replaced: "start of the line…".
    case end
}

/// A range of `TextLayout.text` in UTF-8 byte offsets and the attributes it has.
public struct TextRun: Sendable, Equatable {
    /// The run's span of `TextLayout.text`, in UTF-8 byte offsets.
    public var range: Range<Int>
    /// What the run changes over its range.
    public var attributes: TextAttributes

    /// A run giving `attributes` to the bytes in `range`.
    public init(range: Range<Int>, attributes: TextAttributes) {
        self.range = range
        self.attributes = attributes
    }
}

/// What a run changes; nil leaves the layout's base value.
public struct TextAttributes: Sendable, Equatable {
    /// A font name as `TextLayout.font`: sets family, weight and style.
    public var font: String?
    /// The size in points over the run.
    public var fontSize: Double?
    /// The text colour over the run.
    public var color: Color?
    /// The underline over the run.
    public var underline: TextUnderline?
    /// Whether the run is struck through.
    public var strikethrough: Bool?
    /// Extra space after each character, in points (letter spacing).
    public var kern: Double?

    /// Attributes that change what is given and leave the rest to the layout.
    public init(font: String? = nil, fontSize: Double? = nil, color: Color? = nil, underline: TextUnderline? = nil,
                strikethrough: Bool? = nil, kern: Double? = nil) {
        self.font = font
        self.fontSize = fontSize
        self.color = color
        self.underline = underline
        self.strikethrough = strikethrough
        self.kern = kern
    }
}

/// The underline of a run (NSUnderlineStyle's single and double).
public enum TextUnderline: Sendable, Hashable {
    /// No underline.
    case none
    /// One line under the text.
    case single
    /// Two lines under the text.
    case double
}

/// The extents of a laid-out `TextLayout`, in points, relative to the point it is drawn at (the box's top-left).
public struct TextMetrics: Sendable, Equatable {
    /// The lines' logical boxes (ascent + descent, advance widths): what a label sizes itself to.
    public var logical: Rect
    /// The pixels the glyphs actually cover.
    public var ink: Rect
    /// How many lines were laid out.
    public var lineCount: Int
    /// Whether some text was replaced by "…" (an ellipsis mode and too little room).
    public var isEllipsized: Bool
}
