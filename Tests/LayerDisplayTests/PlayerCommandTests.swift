import CSDL2
@testable import LayerDisplay
import Testing

/// The one command vocabulary (issue 30, item 8): mpv's command names parsed from input.conf lines and IPC words,
/// keys named as mpv names them, the user's input.conf over the defaults.
@Suite("Player commands")
struct PlayerCommandTests {
    @Test func linesParseAsMpvSpellsThem() throws {
        #expect(try PlayerCommand(line: "cycle pause") == .cycle("pause"))
        #expect(try PlayerCommand(line: "seek 5") == .seek(5, .relative))
        #expect(try PlayerCommand(line: "seek 50 absolute-percent") == .seek(50, .absolutePercent))
        #expect(try PlayerCommand(line: "seek -3 relative+exact") == .seek(-3, .relative))
        #expect(try PlayerCommand(line: "add volume -2") == .add("volume", -2))
        #expect(try PlayerCommand(line: "add chapter") == .add("chapter", 1))
        #expect(try PlayerCommand(line: "multiply speed 1/1.1") == .multiply("speed", 1 / 1.1))
        #expect(try PlayerCommand(line: "set speed 1.0") == .set("speed", "1.0"))
        #expect(try PlayerCommand(line: "no-osd frame-step") == .frameStep)
        #expect(try PlayerCommand(line: #"show-text "a \"quoted\" word" # comment"#) == .showText(#"a "quoted" word"#))
        #expect(try PlayerCommand(words: ["quit", "4"]) == .quit(4))
    }

    @Test func badLinesSayWhy() {
        #expect(throws: PlayerCommand.ParseError("unknown command 'jump'")) { try PlayerCommand(line: "jump 5") }
        #expect(throws: PlayerCommand.ParseError.self) { try PlayerCommand(line: "seek five") }
        #expect(throws: PlayerCommand.ParseError.self) { try PlayerCommand(line: "seek 5 sideways") }
        #expect(throws: PlayerCommand.ParseError.self) { try PlayerCommand(line: "multiply speed 1/0") }
        #expect(throws: PlayerCommand.ParseError.self) { try PlayerCommand(line: #"show-text "open"#) }
        #expect(throws: PlayerCommand.ParseError("empty command")) { try PlayerCommand(words: []) }
    }

    @Test func inputConfBindsOverTheDefaultsAndReportsBadLines() {
        var bindings = InputBindings.defaults
        let problems = bindings.apply(conf: """
        # mine
        x seek 30          # a comment after
        space cycle mute
        RIGHT ignore
        Ctrl++ add volume 5
        y frobnicate
        z
        """)
        #expect(bindings.command(for: "x") == .seek(30, .relative))
        #expect(bindings.command(for: "SPACE") == .cycle("mute"), "key names are read in any case")
        #expect(bindings.command(for: "RIGHT") == nil)
        #expect(bindings.command(for: "Ctrl++") == .add("volume", 5))
        #expect(bindings.command(for: "LEFT") == .seek(-10, .relative), "the rest of the defaults stay")
        #expect(problems == ["line 6: unknown command 'frobnicate'", "line 7: a key needs a command"])
    }

    @Test func keysAreNamedAsAUSKeyboardTypesThem() throws {
        for name in ["SPACE", "s", "S", "#", "{", "}", "[", ",", "<", ">", "BS", "PGUP", "PGDWN", "Ctrl+=", "Ctrl+-", "ENTER", "Shift+LEFT"] {
            let event = try #require(InputBindings.keyEvent(name), "\(name)")
            #expect(InputBindings.name(of: event) == name)
        }
        #expect(InputBindings.normalize("ctrl+alt+space") == "Ctrl+Alt+SPACE")
        #expect(InputBindings.normalize("alt+Ctrl+x") == "Ctrl+Alt+x")
    }

    @Test func everyDefaultBindingParses() {
        var bindings = InputBindings()
        #expect(bindings.apply(conf: InputBindings.defaultConf).isEmpty)
        #expect(bindings.commands.count == InputBindings.defaultConf.split(separator: "\n").count)
    }

    @Test func geometryAndAutofitAsMpvReadsThem() {
        let g = WindowPlacement.geometry("320x200+10+-5")
        #expect(g?.size == .init(width: 320, height: 200) && g?.x == 10 && g?.y == -5)
        #expect(WindowPlacement.geometry("+40+50").map { $0.size == nil && $0.x == 40 && $0.y == 50 } == true)
        #expect(WindowPlacement.geometry("640x360").map { $0.x == nil } == true)
        for bad in ["", "0x10", "10x", "big", "10x10+5", "99999x10"] { #expect(WindowPlacement.geometry(bad) == nil, "\(bad)") }
        var placement = WindowPlacement()
        placement.autofit = .init(width: 400, height: 400)
        #expect(placement.openingSize(canvas: .init(width: 1600, height: 900)) == .init(width: 400, height: 225))
        #expect(placement.openingSize(canvas: .init(width: 200, height: 100)) == .init(width: 200, height: 100), "autofit never enlarges")
    }

    @Test func configOptionsBecomeArguments() {
        let args = PlayerConfig.optionArguments(in: """
        # defaults
        loop
        volume=50
        fullscreen=yes
        mute=no
        --keep-open
        screenshot-dir = "/tmp/shots"  # quoted
        """).map(\.argument)
        #expect(args == ["--loop", "--volume=50", "--fullscreen", "--keep-open", "--screenshot-dir=/tmp/shots"])
    }
}
