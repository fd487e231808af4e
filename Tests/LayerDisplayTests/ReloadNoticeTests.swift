import CSDL2
import Foundation
import LayerDisplay
import LayerKit
import LayerMedia
import LayerScene
import Testing

// SCENES.md §8: a failed live reload's error line is shown in a window corner while the file stays broken, and goes
// with the first reload that works (issue 30: it went after 3 s while still broken, and lingered after the fix). Wired as `layerplay`
// wires it (SceneRun.swift): the reloader polled on the session's tick, its error line handed to showNotice.
extension PlaybackTests {
    @Test func aBrokenEditShowsItsErrorLineInTheWindowUntilTheFileIsFixed() throws {
        useDummyDrivers()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reload-notice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("live.json").path
        func scene(_ opacity: String) -> String {
            """
            {"version": "1.0", "canvas": {"size": "160x90"},
             "layers": [{"id": "box", "frame": [10, 10, 50, 50], "opacity": \(opacity), "backgroundColor": "red"}]}
            """
        }
        try scene("0.5").write(toFile: path, atomically: false, encoding: .utf8)
        let options = SceneLoadOptions(file: "live.json", directory: dir.path)
        let loaded = try SceneLoader.load(contentsOf: path, options: options)
        var printed: [String] = []
        let reloader = SceneReloader(path: path, options: options, scene: loaded) { printed.append($0) }
        let session = try PlaybackSession(root: reloader.host, size: (160, 90), player: nil, audioPath: nil,
                                          options: .init(title: "live", range: PlaybackRange(start: 0, end: .infinity, loops: false), frameRate: 30)) { _, _ in }
        reloader.onError = { [unowned session] line in session.showNotice(line) }

        let script = Script()
        var shown: String?, shownAt = 0.0, overWindow = false
        var later: (age: Double, message: String?)?, gone: (age: Double, message: String?)?
        script.when({ $0.clock >= 0.2 }) { _ in try? scene("\"=0.5 +\"").write(toFile: path, atomically: false, encoding: .utf8) }
        script.when({ _ in session.notice?.message != nil }) { s in
            shown = session.notice?.message
            shownAt = s.wallSeconds
            overWindow = session.notice?.layer.superlayer != nil && reloader.host.sublayers?.contains { $0 === session.notice?.layer } != true
        }
        script.when({ s in s.wallSeconds > shownAt + 3.5 }) { s in
            later = (s.wallSeconds - shownAt, session.notice?.message)
            try? scene("0.75").write(toFile: path, atomically: false, encoding: .utf8) // fixed
        }
        script.when({ _ in reloader.reloads == 1 }) { s in gone = (s.wallSeconds - shownAt, session.notice?.message); press(SDLK_q) }
        script.attach(to: session)
        let scripted = session.onTick
        session.onTick = { state in
            scripted?(state)
            if reloader.poll(now: ProcessInfo.processInfo.systemUptime) { session.clearNotice(); session.setNeedsFrame() }
        }
        _ = session.run()

        #expect(script.finished)
        let line = try #require(printed.first)
        #expect(printed.count == 1 && line.hasPrefix("layerplay: error: live.json:2:"), "\(printed)")
        #expect(shown == line, "the window shows the printed line: \(String(describing: shown))")
        #expect(overWindow, "drawn at the window's pixels over the picture (WindowOverlay), not in the played tree")
        // Still there 3.5 s later: the file is still broken.
        let mid = try #require(later)
        #expect(mid.message == line, "still shown \(mid.age) s in")
        // Gone with the reload of the fixed file.
        let end = try #require(gone)
        #expect(end.message == nil, "gone once the file loads again, \(end.age) s after it appeared")
        #expect(reloader.reloads == 1, "only the fixed file replaced the tree")
    }
}
