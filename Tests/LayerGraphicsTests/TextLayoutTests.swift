import CCairo
@testable import LayerGraphics
import Testing

// TextLayout laid out and drawn with pango (SEMANTICS-LAYERS.md §2, "Test by"): the same pixels as pango driven
// directly, alignment margins, justification, ellipsizing, attribute runs and hostile input.

/// The first and last columns with any ink (alpha > 0) in rows `rows`, or nil for none.
func inkColumns(_ image: Image, rows: Range<Int>? = nil) -> ClosedRange<Int>? {
    var lo = Int.max, hi = Int.min
    for y in rows ?? 0..<image.height {
        for x in 0..<image.width where image.pixel(x: x, y: y).a > 0 {
            lo = min(lo, x)
            hi = max(hi, x)
        }
    }
    return lo <= hi ? lo...hi : nil
}

/// `text` drawn at the top-left of a `width` × `height` canvas.
func drawn(_ text: TextLayout, width: Double, height: Double, scale: Double = 1) -> Image {
    let context = DrawingContext(size: Size(width: width, height: height), scale: scale)
    context.draw(text, at: .zero)
    return context.makeImage()
}

func samePixels(_ a: Image, _ b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    return a.withUnsafePixels { pa in b.withUnsafePixels { pb in pa.elementsEqual(pb) } }
}

@Suite("Text layout")
struct TextLayoutTests {
    @Test(arguments: [(PANGO_ALIGN_CENTER, TextAlignment.center), (PANGO_ALIGN_RIGHT, .right), (PANGO_ALIGN_LEFT, .left)])
    func wrappedTextIsPangosOwnPixels(pangoAlignment: PangoAlignment, alignment: TextAlignment) {
        let string = "The quick brown fox jumps over the lazy dog, twice over."
        let ours = drawn(TextLayout(string, font: "DejaVu Sans", fontSize: 14, color: .black, width: 150, wraps: true,
                                    alignment: alignment), width: 150, height: 80)
        // The same with pango's calls made here by hand.
        let context = DrawingContext(size: Size(width: 150, height: 80))
        let layout = pango_cairo_create_layout(context.cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        PangoTextLayout.configure(pango_layout_get_context(layout))
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string("DejaVu Sans")
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, 14 * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_layout_set_width(layout, 150 * PANGO_SCALE)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_auto_dir(layout, 0)
        pango_layout_set_alignment(layout, pangoAlignment)
        pango_layout_set_text(layout, string, -1)
        cairo_set_source_rgba(context.cr, 0, 0, 0, 1)
        cairo_move_to(context.cr, 0, 0)
        pango_cairo_show_layout(context.cr, layout)
        let theirs = context.makeImage()
        #expect(inkColumns(theirs) != nil)
        #expect(samePixels(ours, theirs))
    }

    @Test func anUnwrappedCentredLineHasEqualMargins() throws {
        let image = drawn(TextLayout("Centred", fontSize: 20, width: 200, alignment: .center), width: 200, height: 30)
        let ink = try #require(inkColumns(image))
        let left = ink.lowerBound, right = 199 - ink.upperBound
        #expect(abs(left - right) <= 1, "margins \(left) and \(right)")
    }

    @Test func unwrappedLinesAlignOneByOne() throws {
        let text = TextLayout("A long first line\nshort", fontSize: 16, width: 220, alignment: .right)
        let image = drawn(text, width: 220, height: 50)
        let lines = text.measured()
        #expect(lines.lineCount == 2)
        let lineHeight = Int(lines.logical.height / 2)
        let first = try #require(inkColumns(image, rows: 0..<lineHeight))
        let second = try #require(inkColumns(image, rows: lineHeight..<(2 * lineHeight)))
        #expect(first.upperBound >= 218 && second.upperBound >= 218, "both lines end at the right edge")
        #expect(second.lowerBound > first.lowerBound + 40, "the short line starts further right")
    }

    @Test func rightAlignedInkEndsAtTheRightEdge() throws {
        for wraps in [false, true] {
            let image = drawn(TextLayout("Right", fontSize: 20, width: 120, wraps: wraps, alignment: .right), width: 120, height: 30)
            let ink = try #require(inkColumns(image))
            #expect(ink.upperBound >= 118, "last ink column \(ink.upperBound) (wraps \(wraps))")
        }
    }

    @Test func justifiedLinesSpanTheWidthButTheLast() throws {
        let text = TextLayout("Lorem ipsum dolor sit amet, consectetur adipiscing elit. Quisque massa arcu, eleifend vel.",
                              fontSize: 15, width: 180, wraps: true, alignment: .justified)
        let metrics = text.measured()
        #expect(metrics.lineCount >= 3)
        let image = drawn(text, width: 180, height: metrics.logical.height)
        let lineHeight = metrics.logical.height / Double(metrics.lineCount)
        for line in 0..<metrics.lineCount {
            let rows = Int(Double(line) * lineHeight)..<Int(Double(line + 1) * lineHeight)
            let ink = try #require(inkColumns(image, rows: rows))
            if line < metrics.lineCount - 1 {
                #expect(ink.lowerBound <= 2 && ink.upperBound >= 177, "line \(line) spans \(ink)")
            } else {
                #expect(ink.upperBound < 170, "the paragraph's last line is not stretched")
            }
        }
    }

    @Test func endTruncationEndsWithAnEllipsis() {
        let string = "Lorem ipsum dolor sit amet"
        let text = TextLayout(string, font: "DejaVu Sans", fontSize: 14, width: 100, ellipsis: .end)
        #expect(text.measured().isEllipsized)
        #expect(text.measured().lineCount == 1)
        let truncated = drawn(text, width: 100, height: 20)
        // Some prefix of the string followed by "…", drawn plainly, is exactly the truncated line.
        let matches = (1..<string.count).contains { count in
            let plain = TextLayout(String(string.prefix(count)) + "…", font: "DejaVu Sans", fontSize: 14, width: 100)
            return samePixels(drawn(plain, width: 100, height: 20), truncated)
        }
        #expect(matches)
        #expect(!TextLayout("Lorem", font: "DejaVu Sans", fontSize: 14, width: 100, ellipsis: .end).measured().isEllipsized)
    }

    @Test func wrappedTruncationKeepsTheLinesThatFit() {
        let string = String(repeating: "word ", count: 60)
        let text = TextLayout(string, fontSize: 12, width: 100, wraps: true, ellipsis: .end, height: 45)
        let metrics = text.measured()
        #expect(metrics.isEllipsized)
        #expect(metrics.logical.height <= 45)
        #expect(metrics.lineCount >= 2)
    }

    @Test func startAndMiddleTruncationEllipsizeToo() {
        for mode in [TextEllipsis.start, .middle] {
            let metrics = TextLayout("Lorem ipsum dolor sit amet", fontSize: 14, width: 90, ellipsis: mode).measured()
            #expect(metrics.isEllipsized && metrics.logical.width <= 90)
        }
    }

    @Test func aWordLongerThanTheWidthBreaksBetweenCharacters() {
        let metrics = TextLayout("Supercalifragilisticexpialidocious", fontSize: 14, width: 60, wraps: true).measured()
        #expect(metrics.lineCount >= 3)
        #expect(metrics.logical.width <= 60)
    }

    @Test func anUnderlinedRunHasARowOfItsColourOnlyUnderTheRun() throws {
        // "ipsum" (bytes 6..<11) red and underlined in black text.
        let runs = [TextRun(range: 6..<11, attributes: TextAttributes(color: .red, underline: .single))]
        let text = TextLayout("Lorem ipsum dolor", runs: runs, font: "DejaVu Sans", fontSize: 20)
        let image = drawn(text, width: 220, height: 30)
        let redRows = (0..<30).filter { y in (0..<220).filter { isRed(image.pixel(x: $0, y: y)) }.count > 30 }
        let row = try #require(redRows.last, "an underline row")
        let reds = (0..<220).filter { isRed(image.pixel(x: $0, y: row)) }
        let plain = drawn(TextLayout("Lorem ", font: "DejaVu Sans", fontSize: 20), width: 220, height: 30)
        let ipsumStart = try #require(inkColumns(plain)).upperBound
        #expect(reds.first! >= ipsumStart - 2, "the underline starts at 'ipsum'")
        let before = try #require(inkColumns(drawn(TextLayout("Lorem ipsum", font: "DejaVu Sans", fontSize: 20), width: 220, height: 30)))
        #expect(reds.last! <= before.upperBound + 3, "and ends with it")
        let blackUnderline = (0..<220).filter { let p = image.pixel(x: $0, y: row); return p.a > 200 && p.r < 60 }
        #expect(blackUnderline.count < 10, "no underline under the rest")
    }

    @Test func colourAlphaAndStrikethroughAndKernApply() throws {
        let half = drawn(TextLayout("Hello", runs: [TextRun(range: 0..<5, attributes: TextAttributes(color: Color(red: 0, green: 0, blue: 1, alpha: 0.5)))],
                                    fontSize: 20), width: 80, height: 30)
        let maxAlpha = (0..<30).flatMap { y in (0..<80).map { half.pixel(x: $0, y: y).a } }.max() ?? 0
        #expect(maxAlpha >= 120 && maxAlpha <= 135)
        let plain = TextLayout("Hello", fontSize: 20).measured().logical.width
        let kerned = TextLayout("Hello", runs: [TextRun(range: 0..<5, attributes: TextAttributes(kern: 4))], fontSize: 20)
        #expect(abs(kerned.measured().logical.width - (plain + 16)) < 0.5, "4 points between each two of 5 characters")
        let struck = drawn(TextLayout("o o o", runs: [TextRun(range: 0..<5, attributes: TextAttributes(strikethrough: true))], fontSize: 20), width: 80, height: 30)
        let unstruck = drawn(TextLayout("o o o", fontSize: 20), width: 80, height: 30)
        let struckInk = (0..<30).map { y in (0..<80).filter { struck.pixel(x: $0, y: y).a > 128 }.count }.max()!
        let plainInk = (0..<30).map { y in (0..<80).filter { unstruck.pixel(x: $0, y: y).a > 128 }.count }.max()!
        #expect(struckInk > plainInk + 10, "a row crosses the spaces")
    }

    @Test func runsOverNonASCIITextUseByteOffsets() throws {
        // "é" is two bytes: "ipsum" starts at byte 7 of "Lorém ipsum".
        let string = "Lorém ipsum"
        let start = string.utf8.count - 5
        let text = TextLayout(string, runs: [TextRun(range: start..<string.utf8.count, attributes: TextAttributes(color: .red))],
                              font: "DejaVu Sans", fontSize: 20)
        let image = drawn(text, width: 150, height: 30)
        let prefix = try #require(inkColumns(drawn(TextLayout("Lorém ", font: "DejaVu Sans", fontSize: 20), width: 150, height: 30)))
        let redColumns = (0..<150).filter { x in (0..<30).contains { isRed(image.pixel(x: x, y: $0)) } }
        #expect(try #require(redColumns.first) > prefix.upperBound - 2)
    }

    @Test func postScriptNamesMapToWeightAndStyle() {
        #expect(FontName.postScriptParts("Helvetica-Bold")! == ("Helvetica", 700, false))
        #expect(FontName.postScriptParts("Helvetica-BoldOblique")! == ("Helvetica", 700, true))
        #expect(FontName.postScriptParts("Helvetica-Italic")! == ("Helvetica", 400, true))
        #expect(FontName.postScriptParts("Helvetica-Light")! == ("Helvetica", 300, false))
        #expect(FontName.postScriptParts("Times-Black")! == ("Times", 900, false))
        #expect(FontName.postScriptParts("DejaVu Sans Bold") == nil)
        #expect(FontName.postScriptParts("Foo-Bar") == nil)
        #expect(FontName.postScriptParts("-Bold") == nil)
        let regular = TextLayout("Wide", font: "DejaVu Sans", fontSize: 20).measured().ink.width
        let bold = TextLayout("Wide", font: "DejaVu Sans-Bold", fontSize: 20).measured().ink.width
        #expect(bold > regular + 1)
    }

    @Test func anUnknownFontFallsBackAndIsReportedOnce() {
        let name = "NoSuchFamily\(UInt32.random(in: 0...UInt32.max))"
        let context = DrawingContext(size: Size(width: 1, height: 1))
        let layout = pango_cairo_create_layout(context.cr)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let pangoContext = pango_layout_get_context(layout)!
        #expect(!FontName.isKnown(name, in: pangoContext))
        #expect(FontName.isKnown("DejaVu Sans", in: pangoContext))
        #expect(FontName.isKnown("monospace", in: pangoContext))
        #expect(TextLayout("Text", font: name, fontSize: 20).measured().ink.width > 0, "drawn in the fallback")
        #expect(FontName.checked.withLock { $0.contains(name) })
        #expect(!FontName.checked.withLock { $0.insert(name).inserted }, "not checked (or reported) again")
    }

    @Test func hostileInputIsClampedNotFatal() {
        let huge = String(repeating: "x", count: TextLayout.maxUTF8Count + 10) + "é"
        #expect(PangoTextLayout.sanitized(huge).utf8.count <= TextLayout.maxUTF8Count)
        #expect(PangoTextLayout.sanitized("a\0b") == "a b")
        for size in [Double.nan, -5, 0, .infinity, 1e300] {
            _ = drawn(TextLayout("size", fontSize: size), width: 20, height: 20)
        }
        #expect(TextLayout("size", fontSize: .nan).measured().ink.isEmpty)
        for width in [Double.nan, -1, 0, .infinity, 1e300] {
            _ = drawn(TextLayout("width", fontSize: 10, width: width, wraps: true, ellipsis: .end, height: .nan), width: 20, height: 20)
        }
        let runs = [TextRun(range: -5..<1000, attributes: TextAttributes(fontSize: .nan, color: Color(red: .nan, green: 2, blue: -1), kern: .infinity)),
                    TextRun(range: 3..<3, attributes: TextAttributes(underline: .double)), TextRun(range: -9..<(-2), attributes: TextAttributes(strikethrough: true))]
        _ = drawn(TextLayout("runs", runs: runs), width: 20, height: 20)
        #expect(TextLayout("", fontSize: 12).measured().lineCount == 1)
        _ = drawn(TextLayout("\u{202E}\u{0301}\u{FFFF}\n\n\t", fontSize: 12, width: 20, alignment: .natural), width: 20, height: 20)
    }
}

private func isRed(_ p: PremultipliedColor) -> Bool { p.a > 150 && p.r > 150 && p.g < 60 && p.b < 60 }
