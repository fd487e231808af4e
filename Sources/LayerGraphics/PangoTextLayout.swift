import CCairo

/// A `TextLayout` laid out by pango in a cairo context: the PangoLayout with its attributes, width, wrapping,
/// alignment and ellipsizing set, and, where pango has no width to align within (unwrapped text), the offset of
/// each line by (W − line width) × {0, ½, 1} (SEMANTICS-LAYERS.md §2). One layout per measure or draw.
final class PangoTextLayout {
    let layout: OpaquePointer
    /// The box width lines align within when pango does not align them itself; nil when pango does.
    private let manualAlignWidth: Double?
    private let alignment: TextAlignment
    private static let unit = Double(PANGO_SCALE)

    /// Counts layouts for tests (a task-local, so tests running in parallel do not see each other's layouts).
    @TaskLocal static var counter: LayoutCounter?

    init(_ text: TextLayout, cr: OpaquePointer) {
        Self.counter?.count += 1
        let layout = pango_cairo_create_layout(cr)!
        self.layout = layout
        alignment = text.alignment
        let context = pango_layout_get_context(layout)!
        Self.configure(context)
        pango_layout_context_changed(layout)

        let base = FontName.makeDescription(text.font)
        defer { pango_font_description_free(base) }
        pango_font_description_set_absolute_size(base, Self.clampedSize(text.fontSize) * Self.unit)
        pango_layout_set_font_description(layout, base)
        FontName.warnIfUnknown(text.font, in: context)

        let string = Self.sanitized(text.text)
        string.withCString { pango_layout_set_text(layout, $0, Int32(string.utf8.count)) }
        let attributes = Self.attributeList(text.runs, byteCount: string.utf8.count, context: context)
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)

        let width = Self.clampedExtent(text.width)
        let ellipsizes = text.ellipsis != .none && width != nil
        let pangoWidth = (text.wraps || ellipsizes) ? width : nil
        manualAlignWidth = pangoWidth == nil ? (width ?? Self.widestLine(layout)) : nil
        if let pangoWidth {
            pango_layout_set_width(layout, Int32(pangoWidth * Self.unit))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_justify(layout, text.alignment == .justified && text.wraps ? 1 : 0)
        }
        switch text.alignment {
        case .natural, .justified: pango_layout_set_auto_dir(layout, 1); pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .left: pango_layout_set_auto_dir(layout, 0); pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_auto_dir(layout, 0); pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_auto_dir(layout, 0); pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        }
        if ellipsizes {
            pango_layout_set_ellipsize(layout, Self.ellipsizeMode(text.ellipsis))
            // Unwrapped: one line per paragraph (-1). Wrapped: as many lines as fit the height.
            let height = text.wraps ? Self.clampedExtent(text.height) : nil
            pango_layout_set_height(layout, height.map { Int32($0 * Self.unit) } ?? -1)
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// 72 dpi (1 pt = 1 unit of user space), no hinting, no hint metrics and no rounding of glyph positions to whole
    /// units (pango rounds by default since 1.44), so text lays out the same at every scale.
    static func configure(_ context: OpaquePointer) {
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
    }

    /// One laid-out line: where it is drawn (its baseline's left end, relative to the box's top-left) and its boxes.
    struct Line {
        let line: UnsafeMutablePointer<PangoLayoutLine>
        let origin: Point
        let logical: Rect
        let ink: Rect
    }

    /// The lines in order, with the unwrapped alignment offsets applied.
    func lines() -> [Line] {
        guard let iter = pango_layout_get_iter(layout) else { return [] }
        defer { pango_layout_iter_free(iter) }
        var result: [Line] = []
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, &ink, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iter)) / Self.unit
            var dx = 0.0
            if let width = manualAlignWidth {
                // pango placed the line within the widest line; place it within the box instead.
                let lineWidth = Double(logical.width) / Self.unit
                dx = max(0, width - lineWidth) * alignmentFactor(line) - Double(logical.x) / Self.unit
            }
            let logicalRect = Self.rect(logical).offsetBy(dx: dx, dy: 0)
            let inkRect = Self.rect(ink).offsetBy(dx: dx, dy: 0)
            let originX = Double(logical.x) / Self.unit + dx
            result.append(Line(line: line, origin: Point(x: originX, y: baseline), logical: logicalRect, ink: inkRect))
        } while pango_layout_iter_next_line(iter) != 0
        return result
    }

    /// 0, ½ or 1: how much of the spare width goes before an unwrapped line.
    private func alignmentFactor(_ line: UnsafeMutablePointer<PangoLayoutLine>) -> Double {
        switch alignment {
        case .left: return 0
        case .center: return 0.5
        case .right: return 1
        case .natural, .justified:
            return pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL ? 1 : 0
        }
    }

    func metrics() -> TextMetrics {
        let all = lines()
        guard let first = all.first else { return TextMetrics(logical: .zero, ink: .zero, lineCount: 0, isEllipsized: false) }
        var logical = first.logical, ink = first.ink
        for line in all.dropFirst() {
            logical = logical.union(line.logical)
            ink = ink.isEmpty ? line.ink : (line.ink.isEmpty ? ink : ink.union(line.ink))
        }
        return TextMetrics(logical: logical, ink: ink, lineCount: all.count, isEllipsized: pango_layout_is_ellipsized(layout) != 0)
    }

    /// Draws every line with its top-left box corner at `point`, in the cairo context's current source colour.
    func draw(cr: OpaquePointer, at point: Point) {
        for line in lines() {
            cairo_move_to(cr, point.x + line.origin.x, point.y + line.origin.y)
            pango_cairo_show_layout_line(cr, line.line)
        }
        cairo_new_path(cr)
    }

    /// The width of the widest line (pango's logical width of an unwrapped layout).
    private static func widestLine(_ layout: OpaquePointer) -> Double {
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.width) / unit
    }

    private static func rect(_ r: PangoRectangle) -> Rect {
        Rect(x: Double(r.x) / unit, y: Double(r.y) / unit, width: Double(r.width) / unit, height: Double(r.height) / unit)
    }

    private static func ellipsizeMode(_ ellipsis: TextEllipsis) -> PangoEllipsizeMode {
        switch ellipsis {
        case .none: return PANGO_ELLIPSIZE_NONE
        case .start: return PANGO_ELLIPSIZE_START
        case .middle: return PANGO_ELLIPSIZE_MIDDLE
        case .end: return PANGO_ELLIPSIZE_END
        }
    }

    /// A size in points that pango's fixed point holds: not finite or negative → 0 (nothing drawn).
    static func clampedSize(_ size: Double) -> Double {
        size.isFinite && size > 0 ? min(size, TextLayout.maxFontSize) : 0
    }

    /// A box width or height: nil unless finite and positive.
    static func clampedExtent(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return min(value, TextLayout.maxExtent)
    }

    /// The text pango gets: NUL (which would end pango's string) becomes a space, of the same byte length so the
    /// runs' offsets stay right; beyond `maxUTF8Count` bytes it is cut at a character boundary.
    static func sanitized(_ text: String) -> String {
        var text = text
        if text.utf8.count > TextLayout.maxUTF8Count {
            var end = text.utf8.index(text.startIndex, offsetBy: TextLayout.maxUTF8Count)
            while end > text.startIndex, end.samePosition(in: text.unicodeScalars) == nil { end = text.utf8.index(before: end) }
            text = String(text[..<end])
        }
        if text.utf8.contains(0) { text = String(decoding: text.utf8.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self) }
        return text
    }
}

/// How many pango layouts were made while it was the task's `PangoTextLayout.counter`.
final class LayoutCounter: @unchecked Sendable {
    // Only the task that installed it (synchronous code under `withValue`) touches it.
    var count = 0
}
