import CCairo
import Foundation

/// Font names as apps write them, turned into pango font descriptions (SEMANTICS-LAYERS.md §2, "Fonts").
///
/// A PostScript-style name `Family-Style` maps its suffix (Bold, Italic, Oblique, BoldItalic, BoldOblique, Light,
/// Medium, Black…) to a weight and a style; any other string is a pango description ("DejaVu Sans Bold"), whose
/// size part is ignored: the size always comes from the layout. Families resolve through fontconfig; a family it
/// does not know falls back to its default, with one warning line on stderr per name.
public enum FontName {
    /// The family, weight (pango's 100–1000) and italic-ness a PostScript-style name stands for; nil when `name` is
    /// not of that form (no dash, or a suffix that names no weight or style).
    public static func postScriptParts(_ name: String) -> (family: String, weight: Int, italic: Bool)? {
        guard let dash = name.lastIndex(of: "-"), dash != name.startIndex else { return nil }
        let family = String(name[..<dash]).trimmingCharacters(in: .whitespaces)
        var suffix = name[name.index(after: dash)...].lowercased()
        guard !family.isEmpty, !suffix.isEmpty else { return nil }
        var italic = false
        for slant in ["italic", "oblique"] where suffix.hasSuffix(slant) {
            italic = true
            suffix.removeLast(slant.count)
        }
        guard let weight = weights[suffix] else { return nil }
        return (family, weight, italic)
    }

    /// Suffix words and their CSS/pango weights ("" is a bare `-Italic`).
    private static let weights: [String: Int] = [
        "": 400, "regular": 400, "roman": 400, "book": 400, "normal": 400, "plain": 400,
        "thin": 100, "hairline": 100, "extralight": 200, "ultralight": 200, "light": 300,
        "medium": 500, "semibold": 600, "demibold": 600, "demi": 600, "bold": 700,
        "extrabold": 800, "ultrabold": 800, "heavy": 800, "black": 900, "ultrablack": 1000,
    ]

    /// A new pango description for `name` with no size set (free it with `pango_font_description_free`).
    static func makeDescription(_ name: String) -> OpaquePointer {
        if let parts = postScriptParts(name) {
            let description = pango_font_description_new()!
            pango_font_description_set_family(description, parts.family)
            pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(parts.weight)))
            pango_font_description_set_style(description, parts.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
            return description
        }
        let description = pango_font_description_from_string(name)!
        pango_font_description_unset_fields(description, PANGO_FONT_MASK_SIZE)
        return description
    }

    /// The family fontconfig actually gives for `name`'s family, in pango `context`.
    static func resolvedFamily(of name: String, in context: OpaquePointer) -> String? {
        let description = makeDescription(name)
        defer { pango_font_description_free(description) }
        return loadedFamily(description, in: context)
    }

    private static func loadedFamily(_ description: OpaquePointer, in context: OpaquePointer) -> String? {
        pango_font_description_set_absolute_size(description, 12 * Double(PANGO_SCALE))
        guard let font = pango_context_load_font(context, description) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let loaded = pango_font_describe(font)
        defer { pango_font_description_free(loaded) }
        return pango_font_description_get_family(loaded).map { String(cString: $0) }
    }

    /// Whether `name`'s family is one fontconfig knows (itself, or an alias such as Helvetica → Nimbus Sans),
    /// rather than its default fallback. Generic families (sans-serif, monospace…) are always known.
    static func isKnown(_ name: String, in context: OpaquePointer) -> Bool {
        let description = makeDescription(name)
        defer { pango_font_description_free(description) }
        guard let requested = pango_font_description_get_family(description).map({ String(cString: $0) }),
              !requested.isEmpty else { return true }
        let families = requested.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if families.contains(where: genericFamilies.contains) { return true }
        guard let resolved = loadedFamily(description, in: context)?.lowercased() else { return false }
        if families.contains(resolved) { return true }
        // An unknown family gets fontconfig's default sans-serif; an alias lands on a face of its own.
        return resolved != resolvedFamily(of: "sans-serif", in: context)?.lowercased()
    }

    private static let genericFamilies: Set<String> = ["sans", "sans-serif", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji"]

    /// The names already checked (each warns at most once per process).
    static let checked = Guarded<Set<String>>([])

    /// Checks `name` the first time it is used and writes one warning line on stderr if fontconfig does not know it.
    static func warnIfUnknown(_ name: String, in context: OpaquePointer) {
        guard checked.withLock({ $0.insert(name).inserted }) else { return }
        guard !isKnown(name, in: context) else { return }
        let fallback = resolvedFamily(of: name, in: context) ?? "the default font"
        // Foundation's FileHandle.write(_:) traps when the write fails; a warning must never be what crashes.
        try? FileHandle.standardError.write(contentsOf: Data("warning: font '\(name)' not found; using \(fallback)\n".utf8))
    }
}
