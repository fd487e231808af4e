import CCairo

/// `TextRun`s → a `PangoAttrList`: font (family, weight, style), size, foreground colour with alpha, underline,
/// strikethrough and letter spacing, each over its run's UTF-8 byte range.
extension PangoTextLayout {
    /// A new list (unref it) with each run's range clamped to the text's `byteCount` bytes; empty ranges are skipped.
    static func attributeList(_ runs: [TextRun], byteCount: Int, context: OpaquePointer) -> OpaquePointer {
        let list = pango_attr_list_new()!
        for run in runs {
            let lower = min(max(run.range.lowerBound, 0), byteCount), upper = min(max(run.range.upperBound, 0), byteCount)
            guard lower < upper else { continue }
            for attribute in attributes(run.attributes, context: context) {
                attribute.pointee.start_index = UInt32(lower)
                attribute.pointee.end_index = UInt32(upper)
                pango_attr_list_insert(list, attribute)
            }
        }
        return list
    }

    private static func attributes(_ a: TextAttributes, context: OpaquePointer) -> [UnsafeMutablePointer<PangoAttribute>] {
        var result: [UnsafeMutablePointer<PangoAttribute>?] = []
        if let font = a.font {
            FontName.warnIfUnknown(font, in: context)
            let description = FontName.makeDescription(font)
            result.append(pango_attr_font_desc_new(description))
            pango_font_description_free(description)
        }
        if let size = a.fontSize {
            result.append(pango_attr_size_new_absolute(Int32(clampedSize(size) * Double(PANGO_SCALE))))
        }
        if let color = a.color {
            result.append(pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)))
            result.append(pango_attr_foreground_alpha_new(channel(color.alpha)))
        }
        if let underline = a.underline {
            let style: PangoUnderline = switch underline {
            case .none: PANGO_UNDERLINE_NONE
            case .single: PANGO_UNDERLINE_SINGLE
            case .double: PANGO_UNDERLINE_DOUBLE
            }
            result.append(pango_attr_underline_new(style))
        }
        if let strikethrough = a.strikethrough { result.append(pango_attr_strikethrough_new(strikethrough ? 1 : 0)) }
        if let kern = a.kern, kern.isFinite {
            result.append(pango_attr_letter_spacing_new(Int32(min(max(kern, -1000), 1000) * Double(PANGO_SCALE))))
        }
        return result.compactMap { $0 }
    }

    /// A straight colour component as pango's 16 bits (NaN → 0).
    static func channel(_ value: Double) -> UInt16 {
        guard value.isFinite else { return 0 }
        return UInt16((min(max(value, 0), 1) * 65535).rounded())
    }
}
