/// One subtitle: shown from `start` (inclusive) to `end` (exclusive), in milliseconds of media time.
public struct SubtitleCue: Sendable, Equatable {
    /// When the cue appears, in milliseconds of media time.
    public var start: Int64
    /// When it is gone again (exclusive), in milliseconds of media time.
    public var end: Int64
    /// The cue as plain text (override tags stripped, `\N` as a line break): what a text track shows.
    public var text: String
    /// The cue as FFmpeg decodes every text subtitle: an ASS event without its timing
    /// (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`), as libass takes it.
    public var assEvent: String
    /// `text` in runs of italic and bold, as the cue marks them.
    public var spans: [SubtitleSpan]

    /// A cue shown from `start` to `end`.
    /// - Parameters:
    ///   - start: when it appears, in milliseconds.
    ///   - end: when it is gone, in milliseconds.
    ///   - text: the plain text.
    ///   - assEvent: the ASS event without its timing.
    ///   - spans: the styled runs of `text`; nil: all of it plain.
    public init(start: Int64, end: Int64, text: String, assEvent: String, spans: [SubtitleSpan]? = nil) {
        self.start = start; self.end = end; self.text = text; self.assEvent = assEvent
        self.spans = spans ?? (text.isEmpty ? [] : [SubtitleSpan(text: text)])
    }

    /// Whether the cue shows at `millisecond` (`SubtitleTrack.millisecond(at:)`): start ≤ t < end.
    public func covers(_ millisecond: Int64) -> Bool { start <= millisecond && millisecond < end }
}

/// A subtitle track read up front: a SubRip, WebVTT, ASS/SSA file, or one subtitle stream of a movie.
public struct SubtitleTrack: Sendable {
    /// How a track's cues are drawn.
    public enum Kind: Sendable, Equatable {
        /// Plain text cues (SubRip, WebVTT, mov_text…), drawn as text at the bottom centre.
        case text
        /// ASS/SSA, drawn by libass with the track's styles, positions and effects.
        case ass
    }

    /// Whether the cues are drawn as plain text or by libass.
    public var kind: Kind
    /// FFmpeg's codec name (`subrip`, `ass`, `webvtt`, `mov_text`).
    public var codec: String
    /// The stream's language tag, when it has one.
    public var language: String?
    /// The ASS script header (`[Script Info]`, `[V4+ Styles]`…) the decoder made or the file carried.
    public var assHeader: String
    /// In order of start.
    public var cues: [SubtitleCue] { didSet { cues.sort { $0.start < $1.start }; longest = Self.longest(cues) } }
    /// The longest cue's length: how far back from a time a cue can start and still show.
    private var longest: Int64 = 0
    /// Cues that could not be used (undecodable, no or negative duration, beyond the limits).
    public var skippedCues: Int

    /// A track of `cues` (sorted by start here).
    public init(kind: Kind, codec: String, language: String? = nil, assHeader: String, cues: [SubtitleCue], skippedCues: Int = 0) {
        self.kind = kind; self.codec = codec; self.language = language; self.assHeader = assHeader
        self.cues = cues.sorted { $0.start < $1.start }; self.skippedCues = skippedCues
        longest = Self.longest(self.cues)
    }

    private static func longest(_ cues: [SubtitleCue]) -> Int64 {
        cues.reduce(0) { max($0, $1.end &- $1.start) }
    }

    /// The most cues, and text bytes, one track may hold: a damaged or hostile file ends in a warning, not in
    /// memory exhausted.
    public static let maximumCues = 200_000
    /// The most bytes of cue text one track may hold (32 MiB).
    public static let maximumTextBytes = 32 << 20

    /// The millisecond a time in seconds falls in, for comparing with cue times: a frame at 1.0 s computed as
    /// 0.99999999 is in millisecond 1000, and one at 2.4999 is in 2499 (a cue ending at 2.5 s still shows).
    /// NaN and times beyond any medium are clamped.
    public static func millisecond(at seconds: Double) -> Int64 {
        guard seconds.isFinite else { return seconds == .infinity ? Int64.max / 2 : (seconds.isNaN ? 0 : Int64.min / 2) }
        let ms = (seconds * 1000 + 1e-3).rounded(.down)
        return Int64(Swift.min(Swift.max(ms, -4e15), 4e15))
    }

    /// The cues showing at `seconds`, in order of start.
    public func cues(at seconds: Double) -> [SubtitleCue] {
        let ms = Self.millisecond(at: seconds)
        // Cues are sorted by start: those starting after `ms` cannot show, nor those starting more than the longest
        // cue's length before it; the few between are looked at.
        func firstStarting(after limit: Int64) -> Int {
            var low = 0, high = cues.count
            while low < high {
                let mid = (low + high) / 2
                if cues[mid].start <= limit { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let end = firstStarting(after: ms)
        let begin = firstStarting(after: ms &- longest &- 1)
        return cues[begin..<end].filter { $0.covers(ms) }
    }

    /// The plain text of an ASS event's Text field: override blocks (`{\i1}`, `{\pos(…)}`) removed, `\N` and `\n`
    /// as line breaks, `\h` as a space. Markup never shows as text.
    public static func plainText(ofEvent event: String) -> String {
        // The Text field follows the eighth comma (ReadOrder, Layer, Style, Name, MarginL, MarginR, MarginV, Effect).
        var commas = 0
        var index = event.startIndex
        while index < event.endIndex && commas < 8 {
            if event[index] == "," { commas += 1 }
            index = event.index(after: index)
        }
        let text = commas == 8 ? event[index...] : Substring(event)
        return plainText(ofASSText: text)
    }

    /// A SubRip cue whose timing line is malformed is not a cue to FFmpeg's demuxer: its number, timing and text
    /// end up as more lines of the cue before. Those lines are cut off (the text before them is returned); nil
    /// when the text has no timing line in it.
    static func withoutSwallowedCue(_ text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let timing = lines.firstIndex(where: { $0.contains("-->") }) else { return nil }
        var cut = timing
        if cut > 0, !lines[cut - 1].isEmpty, lines[cut - 1].allSatisfy({ ("0"..."9").contains($0) }) { cut -= 1 }
        return lines[..<cut].joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func plainText(ofASSText text: Substring) -> String {
        var out = ""
        var inBlock = false
        var escape = false
        for character in text {
            if inBlock { if character == "}" { inBlock = false }; continue }
            if escape {
                escape = false
                switch character {
                case "N", "n": out.append("\n")
                case "h": out.append(" ")
                default: out.append("\\"); out.append(character)
                }
                continue
            }
            switch character {
            case "{": inBlock = true
            case "\\": escape = true
            case "\r": continue
            default: out.append(character)
            }
        }
        if escape { out.append("\\") }
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

import Foundation
