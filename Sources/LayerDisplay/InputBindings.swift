import CSDL2
import Foundation

/// Which command each key runs: the defaults (ffplay's and mpv's keys, written as an `input.conf`), then the user's
/// `input.conf` over them (mpv's syntax: `KEY command args`, `#` comments; `KEY ignore` unbinds). Keys are named as
/// mpv names them: a printed character as itself (`a`, `S`, `#`, `{`), others by name (`SPACE`, `LEFT`, `PGUP`,
/// `BS`, `ENTER`, `ESC`, `KP_DIVIDE`, `MBTN_LEFT_DBL`), with modifiers in front (`Ctrl+=`, `Shift+LEFT`).
public struct InputBindings: Sendable {
    /// Key name → the command it runs.
    public private(set) var commands: [String: PlayerCommand] = [:]

    /// The default keys as an `input.conf`: also what `--help` and the README list.
    public static let defaultConf = """
    SPACE cycle pause
    p cycle pause
    q quit
    ESC quit
    Q quit-watch-later
    f cycle fullscreen
    MBTN_LEFT_DBL cycle fullscreen
    m cycle mute
    9 add volume -10
    0 add volume 10
    KP_DIVIDE add volume -10
    KP_MULTIPLY add volume 10
    LEFT seek -10
    RIGHT seek 10
    DOWN seek -60
    UP seek 60
    s frame-step
    . frame-step
    , frame-back-step
    t cycle sub
    SHARP cycle audio
    [ multiply speed 1/1.1
    ] multiply speed 1.1
    { multiply speed 0.5
    } multiply speed 2
    BS set speed 1
    l ab-loop
    i cycle stats
    PGUP add chapter 1
    PGDWN add chapter -1
    S screenshot
    Ctrl++ add audio-delay 0.1
    Ctrl+= add audio-delay 0.1
    Ctrl+KP_ADD add audio-delay 0.1
    Ctrl+- add audio-delay -0.1
    Ctrl+KP_SUBTRACT add audio-delay -0.1
    z add sub-delay -0.1
    x add sub-delay 0.1
    w cycle audio-display
    > playlist-next
    ENTER playlist-next
    < playlist-prev
    """

    /// The keys, for `--help` (the defaults above, said for people).
    public static let keyHelp = """
    Keys while playing (ffplay's and mpv's; input.conf rebinds them):
      space, p   pause / resume          s, .  /  ,   frame forward / back
      ← / →      seek 10 s back / on     ↓ / ↑        seek 60 s back / on
      [ / ]      speed −/+ 10 %          { / }        speed halved / doubled
      Backspace  speed 1                 l            A-B loop: A, B, off
      S          screenshot (PNG)        i            statistics overlay
      PgUp/PgDn  next / previous chapter t            subtitles: next, off
      #          audio track: next       >/Enter, <   playlist: next / previous
      Ctrl+/−    audio delay ±100 ms     z / x        subtitle delay ∓/±100 ms
      m          mute                    9 / 0        volume down / up
      f          fullscreen              q, Esc / Q   quit / quit and resume
      w          sound: waveform / spectrum (an audio-only input)
      click      seek to that fraction of the width; double click: fullscreen
    """

    /// The defaults.
    public static var defaults: InputBindings {
        var bindings = InputBindings()
        // The defaults are this file's own text: a line that does not parse is a bug caught by the tests.
        _ = bindings.apply(conf: defaultConf)
        return bindings
    }

    /// No bindings: keys do nothing until `apply(conf:)` binds them (`defaults` has the player's keys).
    public init() {}

    /// Binds the lines of an `input.conf` text over the current bindings; returns one message per line that is not
    /// a binding ("line N: why"), which the caller prints as warnings (mpv warns and goes on).
    @discardableResult
    public mutating func apply(conf text: String) -> [String] {
        var problems: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            do throws(PlayerCommand.ParseError) {
                let words = try PlayerCommand.split(line)
                guard words.count >= 2 else { throw PlayerCommand.ParseError("a key needs a command") }
                let key = Self.normalize(words[0])
                if words.count == 2 && words[1] == "ignore" { commands[key] = nil; continue }
                commands[key] = try PlayerCommand(words: Array(words.dropFirst()))
            } catch {
                problems.append("line \(index + 1): \(error.description)")
            }
        }
        return problems
    }

    /// The command bound to `key` (a name as `name(of:)` gives, or as written in input.conf).
    public func command(for key: String) -> PlayerCommand? { commands[Self.normalize(key)] }

    /// A key name in one spelling: modifiers as `Ctrl+`, `Alt+`, `Shift+`, `Meta+` in that order; names of more
    /// than one character in capitals (mpv reads `space` and `SPACE` alike); a single character as it is.
    static func normalize(_ key: String) -> String {
        var rest = Substring(key)
        var modifiers: Set<String> = []
        // "Ctrl++" is Ctrl and "+": a modifier is only taken while something follows its "+".
        while let plus = rest.firstIndex(of: "+"), plus != rest.startIndex, rest.index(after: plus) != rest.endIndex {
            let word = rest[..<plus].lowercased()
            guard let modifier = ["ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "meta": "Meta"][word] else { break }
            modifiers.insert(modifier)
            rest = rest[rest.index(after: plus)...]
        }
        var base = rest.count > 1 ? rest.uppercased() : String(rest)
        if base == "SHARP" { base = "#" } // mpv's name for the key, since `#` starts a comment in input.conf
        return ["Ctrl", "Alt", "Shift", "Meta"].filter(modifiers.contains).map { $0 + "+" }.joined() + base
    }

    // MARK: Keys from SDL

    /// The name of the key an SDL key-down or button event presses, or nil for other events.
    static func name(of event: SDL_Event) -> String? {
        switch SDL_EventType(event.type) {
        case SDL_KEYDOWN:
            let sym = Int(event.key.keysym.sym)
            let mod = Int(event.key.keysym.mod)
            let shift = mod & Int(KMOD_SHIFT.rawValue) != 0
            var prefix = ""
            if mod & Int(KMOD_CTRL.rawValue) != 0 { prefix += "Ctrl+" }
            if mod & Int(KMOD_ALT.rawValue) != 0 { prefix += "Alt+" }
            if let special = specialKeys[sym] {
                return prefix + (shift ? "Shift+" : "") + special
            }
            guard sym > 32, sym < 127, let scalar = Unicode.Scalar(UInt32(sym)) else { return nil }
            // A printed character as a keyboard prints it with shift held: the US layout's pairs ('S', '#', '{', '>').
            var char = Character(scalar)
            if shift {
                if char.isLetter { char = Character(char.uppercased()) } else if let shifted = usShifted[char] { char = shifted }
            }
            return prefix + String(char)
        case SDL_MOUSEBUTTONDOWN:
            let button: String
            switch Int32(event.button.button) {
            case SDL_BUTTON_LEFT: button = "MBTN_LEFT"
            case SDL_BUTTON_RIGHT: button = "MBTN_RIGHT"
            case SDL_BUTTON_MIDDLE: button = "MBTN_MID"
            default: return nil
            }
            return event.button.clicks >= 2 ? button + "_DBL" : button
        default:
            return nil
        }
    }

    /// SDL key codes of keys without a printed character (and space), by mpv's names.
    static let specialKeys: [Int: String] = [
        Int(SDLK_SPACE.rawValue): "SPACE", Int(SDLK_LEFT.rawValue): "LEFT", Int(SDLK_RIGHT.rawValue): "RIGHT",
        Int(SDLK_UP.rawValue): "UP", Int(SDLK_DOWN.rawValue): "DOWN", Int(SDLK_ESCAPE.rawValue): "ESC",
        Int(SDLK_RETURN.rawValue): "ENTER", Int(SDLK_KP_ENTER.rawValue): "KP_ENTER", Int(SDLK_BACKSPACE.rawValue): "BS",
        Int(SDLK_TAB.rawValue): "TAB", Int(SDLK_PAGEUP.rawValue): "PGUP", Int(SDLK_PAGEDOWN.rawValue): "PGDWN",
        Int(SDLK_HOME.rawValue): "HOME", Int(SDLK_END.rawValue): "END", Int(SDLK_DELETE.rawValue): "DEL",
        Int(SDLK_INSERT.rawValue): "INS", Int(SDLK_KP_DIVIDE.rawValue): "KP_DIVIDE", Int(SDLK_KP_MULTIPLY.rawValue): "KP_MULTIPLY",
        Int(SDLK_KP_PLUS.rawValue): "KP_ADD", Int(SDLK_KP_MINUS.rawValue): "KP_SUBTRACT",
        Int(SDLK_F1.rawValue): "F1", Int(SDLK_F2.rawValue): "F2", Int(SDLK_F3.rawValue): "F3", Int(SDLK_F4.rawValue): "F4",
        Int(SDLK_F5.rawValue): "F5", Int(SDLK_F6.rawValue): "F6", Int(SDLK_F7.rawValue): "F7", Int(SDLK_F8.rawValue): "F8",
        Int(SDLK_F9.rawValue): "F9", Int(SDLK_F10.rawValue): "F10", Int(SDLK_F11.rawValue): "F11", Int(SDLK_F12.rawValue): "F12",
    ]

    /// What shift makes of the US layout's unshifted characters.
    static let usShifted: [Character: Character] = [
        "1": "!", "2": "@", "3": "#", "4": "$", "5": "%", "6": "^", "7": "&", "8": "*", "9": "(", "0": ")",
        "-": "_", "=": "+", "[": "{", "]": "}", "\\": "|", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?", "`": "~",
    ]

    // MARK: Events for a key name (tests, scripted demos)

    /// The SDL event that presses `key` (a name as in input.conf: `SPACE`, `S`, `{`, `Ctrl+=`), as a US keyboard
    /// delivers it, or nil for a name no key of that layout makes.
    public static func keyEvent(_ key: String) -> SDL_Event? {
        var rest = normalize(key)
        var mod = 0
        for (prefix, flag) in [("Ctrl+", KMOD_LCTRL), ("Alt+", KMOD_LALT), ("Shift+", KMOD_LSHIFT), ("Meta+", KMOD_LGUI)] where rest.hasPrefix(prefix) {
            mod |= Int(flag.rawValue)
            rest.removeFirst(prefix.count)
        }
        var sym: Int
        if let special = specialKeys.first(where: { $0.value == rest })?.key {
            sym = special
        } else if rest.count == 1, let char = rest.first {
            if char.isUppercase, let lower = char.lowercased().first { sym = Int(lower.asciiValue ?? 0); mod |= Int(KMOD_LSHIFT.rawValue) }
            else if let plain = usShifted.first(where: { $0.value == char })?.key { sym = Int(plain.asciiValue ?? 0); mod |= Int(KMOD_LSHIFT.rawValue) }
            else { sym = Int(char.asciiValue ?? 0) }
            if sym == 0 { return nil }
        } else { return nil }
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = SDL_Keycode(sym)
        e.key.keysym.mod = UInt16(mod)
        return e
    }

    /// An SDL key-down event for `key` (an `SDL_KeyCode`), as a keyboard would deliver it.
    public static func keyEvent(_ key: SDL_KeyCode) -> SDL_Event {
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = SDL_Keycode(key.rawValue)
        return e
    }

    /// A click at `x` points from the window's left edge: left button by default, `clicks` 2 for a double click.
    public static func clickEvent(x: Int, rightButton: Bool = false, clicks: Int = 1) -> SDL_Event {
        var e = SDL_Event()
        e.button.type = SDL_MOUSEBUTTONDOWN.rawValue
        e.button.button = UInt8(rightButton ? SDL_BUTTON_RIGHT : SDL_BUTTON_LEFT)
        e.button.state = UInt8(SDL_PRESSED)
        e.button.x = Int32(x)
        e.button.clicks = UInt8(clicks)
        return e
    }
}
