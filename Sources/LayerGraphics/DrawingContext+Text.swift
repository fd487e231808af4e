import CCairo

/// Text through pango-cairo: fonts by pango description ("Sans Bold 14", "DejaVu Serif Italic 9"), shaped and
/// antialiased by pango, drawn in the context's user space (so a scale or rotation applies to it, and a context
/// at scale 2 gets sharp text).
///
/// Sizes are in points of user space, as Core Graphics' font sizes: "Sans 14" is 14 units tall at 1×, not pango's
/// default 14/72 inch at 96 dpi. Hinting is off so that text lays out the same at every scale.
extension DrawingContext {
    /// Draws `text` (newlines start new lines) with its layout box's top-left corner at `point` (not the
    /// baseline: y down), in `color`. Clears the current path.
    public func drawText(_ text: String, at point: Point, font: String, color: Color) {
        withTextLayout(text, font: font) { layout in
            cairo_new_path(cr)
            cairo_move_to(cr, point.x, point.y)
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
            pango_cairo_show_layout(cr, layout)
            cairo_new_path(cr)
        }
    }

    /// The size of the box `drawText` fills with `text` in `font`, in points of user space.
    public func sizeOfText(_ text: String, font: String) -> Size {
        withTextLayout(text, font: font) { layout in
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let unit = Double(PANGO_SCALE)
            return Size(width: Double(logical.width) / unit, height: Double(logical.height) / unit)
        }
    }

    private func withTextLayout<R>(_ text: String, font: String, _ body: (OpaquePointer) -> R) -> R {
        let layout = pango_cairo_create_layout(cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let pangoContext = pango_layout_get_context(layout)
        pango_cairo_context_set_resolution(pangoContext, 72)
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pangoContext, options)
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }
}
