import Foundation

/// One command of the player's vocabulary, named and spelled as mpv's input commands (for the ones we have): what a
/// key binding, an `input.conf` line and a JSON IPC `command` array all say. `PlaybackSession.execute(_:)` carries
/// every one of them out; a new command is one case here and one branch there.
public enum PlayerCommand: Equatable, Sendable {
    /// How `seek` reads its target (mpv's flags).
    public enum SeekMode: String, Sendable {
        /// Seconds from the current position.
        case relative
        /// A position in seconds.
        case absolute
        /// A position as a percentage of the range.
        case absolutePercent = "absolute-percent"
        /// Percent of the range from the current position.
        case relativePercent = "relative-percent"
    }

    /// `cycle PROPERTY [up|down]`: a switch flips; a choice (sub, audio, audio-display) moves to its next value.
    case cycle(String, down: Bool = false)
    /// `add PROPERTY [VALUE]`: a number property changes by VALUE (1 when left out).
    case add(String, Double)
    /// `multiply PROPERTY FACTOR`.
    case multiply(String, Double)
    /// `set PROPERTY VALUE`.
    case set(String, String)
    /// `seek TARGET [relative|absolute|absolute-percent|relative-percent]`.
    case seek(Double, SeekMode)
    /// `frame-step`: pause and show the next frame.
    case frameStep
    /// `frame-back-step`: pause and show the frame before, exactly.
    case frameBackStep
    /// `screenshot`: the composited frame to a PNG in the screenshot directory.
    case screenshot
    /// `screenshot-to-file PATH`.
    case screenshotToFile(String)
    /// `ab-loop`: set A, then B (the range between them loops), then clear.
    case abLoop
    /// `playlist-next`, `playlist-prev`.
    case playlistNext, playlistPrev
    /// `loadfile PATH [replace|append]`.
    case loadFile(String, append: Bool)
    /// `show-text TEXT`: a message in the on-screen display.
    case showText(String)
    /// `show-progress`: the position against the length in the on-screen display.
    case showProgress
    /// `keypress KEY`: as if KEY were pressed (the bindings decide what it does).
    case keypress(String)
    /// `quit [CODE]`.
    case quit(Int32?)
    /// `quit-watch-later`: quit and remember the position (resumed next time).
    case quitWatchLater
    /// `scene-set NAME VALUE` (ours): a playing scene's param takes VALUE now, animating as an implicit change
    /// (SCENES.md §11); the host carries it out (`PlaybackSession.sceneSet`).
    case sceneSet(String, String)

    /// Why a command line is not a command.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The command of one `input.conf`-style line without its key (`seek 5`, `cycle pause`, `add volume -2`).
    public init(line: String) throws(ParseError) {
        try self.init(words: try Self.split(line))
    }

    /// The command of its words: a JSON IPC `command` array's items as text, or a line split by `split(_:)`.
    /// mpv's prefixes (`no-osd`, `osd-msg`, `async`…) are accepted and ignored.
    public init(words all: [String]) throws(ParseError) {
        var words = all[...]
        while let first = words.first, Self.ignoredPrefixes.contains(first) { words = words.dropFirst() }
        guard let name = words.first else { throw ParseError("empty command") }
        let args = Array(words.dropFirst())
        func arg(_ i: Int) -> String? { i < args.count ? args[i] : nil }
        func need(_ count: ClosedRange<Int>) throws(ParseError) {
            guard count.contains(args.count) else {
                throw ParseError("'\(name)' takes \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound)–\(count.upperBound)") argument(s), got \(args.count)")
            }
        }
        func number(_ i: Int) throws(ParseError) -> Double {
            guard let text = arg(i), let value = Self.number(text) else { throw ParseError("'\(name)': '\(arg(i) ?? "")' is not a number") }
            return value
        }
        switch name {
        case "cycle":
            try need(1...2)
            if let dir = arg(1), dir != "up", dir != "down" { throw ParseError("'cycle': the direction is up or down, not '\(dir)'") }
            self = .cycle(args[0], down: arg(1) == "down")
        case "add":
            try need(1...2)
            self = .add(args[0], args.count == 2 ? try number(1) : 1)
        case "multiply":
            try need(2...2)
            self = .multiply(args[0], try number(1))
        case "set":
            try need(2...2)
            self = .set(args[0], args[1])
        case "seek":
            try need(1...3) // mpv's third argument (the old "exact" flag) is accepted and ignored
            let flags = arg(1).map { $0.split(separator: "+").map(String.init) } ?? []
            var mode = SeekMode.relative
            for flag in flags {
                if let m = SeekMode(rawValue: flag) { mode = m } else if !["exact", "keyframes"].contains(flag) {
                    throw ParseError("'seek': unknown flag '\(flag)' (relative, absolute, absolute-percent, relative-percent)")
                }
            }
            self = .seek(try number(0), mode)
        case "frame-step": try need(0...1); self = .frameStep
        case "frame-back-step": try need(0...0); self = .frameBackStep
        case "screenshot": try need(0...2); self = .screenshot
        case "screenshot-to-file":
            try need(1...2)
            self = .screenshotToFile(args[0])
        case "ab-loop": try need(0...0); self = .abLoop
        case "playlist-next": try need(0...1); self = .playlistNext
        case "playlist-prev": try need(0...1); self = .playlistPrev
        case "loadfile":
            try need(1...3)
            let mode = arg(1) ?? "replace"
            guard mode == "replace" || mode == "append" || mode == "append-play" else {
                throw ParseError("'loadfile': the mode is replace, append or append-play, not '\(mode)'")
            }
            self = .loadFile(args[0], append: mode != "replace")
        case "show-text":
            try need(1...3)
            self = .showText(args[0])
        case "show-progress": try need(0...0); self = .showProgress
        case "keypress":
            try need(1...2)
            self = .keypress(args[0])
        case "quit":
            try need(0...1)
            if let code = arg(0) {
                guard let value = Int32(code) else { throw ParseError("'quit': '\(code)' is not an exit code") }
                self = .quit(value)
            } else { self = .quit(nil) }
        case "quit-watch-later": try need(0...1); self = .quitWatchLater
        case "scene-set":
            try need(2...2)
            self = .sceneSet(args[0], args[1])
        default:
            throw ParseError("unknown command '\(name)'")
        }
    }

    /// mpv's command prefixes, which change how a command is shown or run; ours always run in order and show as
    /// the command says.
    static let ignoredPrefixes: Set<String> = ["no-osd", "osd-auto", "osd-bar", "osd-msg", "osd-msg-bar", "raw",
                                                "expand-properties", "repeatable", "nonrepeatable", "async", "sync"]

    /// A number as mpv reads one: a decimal, or a ratio `a/b` (input.conf's `multiply speed 1/1.1`).
    static func number(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == parts.count, values.allSatisfy(\.isFinite) else { return nil }
        if values.count == 1 { return values[0] }
        guard values.count == 2, values[1] != 0 else { return nil }
        return values[0] / values[1]
    }

    /// A line split into words as mpv's input.conf: spaces separate, `"…"` and `'…'` quote (with `\"` and `\\`
    /// inside double quotes), `#` outside quotes starts a comment.
    public static func split(_ line: String) throws(ParseError) -> [String] {
        var words: [String] = []
        var current = "", inWord = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            switch c {
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            case "#":
                if inWord { current.append(c) } else { return words }
            case "\"", "'":
                inWord = true
                var closed = false
                while let d = chars.next() {
                    if d == c { closed = true; break }
                    if c == "\"", d == "\\", let e = chars.next() {
                        current.append(e == "n" ? "\n" : e)
                    } else { current.append(d) }
                }
                if !closed { throw ParseError("a quote is not closed") }
            default:
                current.append(c); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
