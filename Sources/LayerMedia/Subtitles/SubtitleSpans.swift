/// A run of a text cue in one style: what `{\i1}` and `{\b1}` ask for (SubRip's `<i>` and `<b>` and WebVTT's come
/// out of FFmpeg's decoders as those tags). Other override tags (colours, positions…) are a text track's to ignore.
public struct SubtitleSpan: Sendable, Equatable {
    /// The run's text, without markup.
    public var text: String
    /// Whether the run is italic.
    public var isItalic: Bool
    /// Whether the run is bold.
    public var isBold: Bool

    /// A run of `text`, plain unless `isItalic` or `isBold`.
    public init(text: String, isItalic: Bool = false, isBold: Bool = false) {
        self.text = text; self.isItalic = isItalic; self.isBold = isBold
    }
}

extension SubtitleTrack {
    /// The styled runs of an ASS event's Text field (after its eighth comma), with the same text as
    /// `plainText(ofEvent:)`: line breaks for `\N`, spaces for `\h`, no markup, the ends trimmed.
    public static func spans(ofEvent event: String) -> [SubtitleSpan] {
        var commas = 0
        var index = event.startIndex
        while index < event.endIndex && commas < 8 {
            if event[index] == "," { commas += 1 }
            index = event.index(after: index)
        }
        return spans(ofASSText: commas == 8 ? event[index...] : Substring(event))
    }

    static func spans(ofASSText text: Substring) -> [SubtitleSpan] {
        var spans: [SubtitleSpan] = []
        var current = SubtitleSpan(text: "")
        var block: String? = nil
        var escape = false
        func style(_ italic: Bool, _ bold: Bool) {
            guard italic != current.isItalic || bold != current.isBold else { return }
            if !current.text.isEmpty { spans.append(current) }
            current = SubtitleSpan(text: "", isItalic: italic, isBold: bold)
        }
        for character in text {
            if block != nil {
                if character == "}" {
                    var italic = current.isItalic, bold = current.isBold
                    for tag in block!.split(separator: "\\") {
                        let name = tag.first, value = tag.dropFirst()
                        let digits = value.allSatisfy { ("0"..."9").contains($0) }
                        switch name {
                        case "i" where digits: italic = value == "1"
                        case "b" where digits: bold = value == "1" || (Int(value).map { $0 >= 600 } ?? false)
                        case "r": italic = false; bold = false
                        default: continue
                        }
                    }
                    style(italic, bold)
                    block = nil
                } else {
                    block!.append(character)
                }
                continue
            }
            if escape {
                escape = false
                switch character {
                case "N", "n": current.text.append("\n")
                case "h": current.text.append(" ")
                default: current.text.append("\\"); current.text.append(character)
                }
                continue
            }
            switch character {
            case "{": block = ""
            case "\\": escape = true
            case "\r": continue
            default: current.text.append(character)
            }
        }
        if escape { current.text.append("\\") }
        if !current.text.isEmpty { spans.append(current) }
        // The ends trimmed as the plain text is.
        while let first = spans.first {
            let trimmed = String(first.text.drop { $0.isWhitespace || $0.isNewline })
            if trimmed.isEmpty { spans.removeFirst() } else { spans[0].text = trimmed; break }
        }
        while let last = spans.last {
            var text = last.text
            while let c = text.last, c.isWhitespace || c.isNewline { text.removeLast() }
            if text.isEmpty { spans.removeLast() } else { spans[spans.count - 1].text = text; break }
        }
        return spans
    }
}
