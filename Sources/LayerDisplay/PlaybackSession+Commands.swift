import Foundation
import LayerKit
import LayerMedia

/// The one executor of the command vocabulary (`PlayerCommand`) and the one property table: keys, input.conf
/// bindings and the JSON IPC all end here.
extension PlaybackSession {
    /// Carries out a command from a key (its OSD message shown); a failure is shown in the OSD too.
    func perform(_ command: PlayerCommand) {
        do { try execute(command) } catch {
            osd?.show(error.detail, at: hostSeconds())
            if clock.isPaused { invalidate() }
        }
    }

    /// Carries out `command`; `showsOSD` false runs it silently (an IPC `set_property`).
    public func execute(_ command: PlayerCommand, showsOSD: Bool = true) throws(CommandError) {
        let message = try carryOut(command)
        guard showsOSD, let osd, let message else { return }
        switch message {
        case .hide: osd.hide()
        case .text(let text, let sticky): osd.show(text, at: hostSeconds(), sticky: sticky)
        }
        if clock.isPaused { invalidate() }
    }

    /// What the OSD does after a command.
    enum OSDMessage { case text(String, sticky: Bool = false), hide }

    private func carryOut(_ command: PlayerCommand) throws(CommandError) -> OSDMessage? {
        if !options.seekable { // a live input (no duration, issue 28): its seek commands only say so
            switch command {
            case .seek, .frameBackStep: throw CommandError("error running command", "Live: cannot seek")
            default: break
            }
        }
        switch command {
        case .cycle(let name, let down):
            let property = try Self.property(name)
            if let cycle = property.cycle {
                try cycle(self, down)
            } else if case .flag(let on)? = property.get(self), let set = property.set {
                try set(self, .flag(!on))
            } else {
                throw CommandError("invalid parameter", "'\(name)' cannot be cycled")
            }
            return osdMessage(after: name)
        case .add(let name, let by):
            try change(name) { $0 + by }
            return osdMessage(after: name)
        case .multiply(let name, let factor):
            try change(name) { $0 * factor }
            return osdMessage(after: name)
        case .set(let name, let text):
            try setProperty(name, PropertyValue(text: text))
            return osdMessage(after: name)
        case .seek(let value, let mode):
            seek(value, mode)
            return .text(progressText)
        case .frameStep:
            step()
            return .text(progressText)
        case .showProgress:
            return .text(progressText)
        case .showText(let text):
            return .text(text)
        case .keypress(let key):
            guard let bound = bindings.command(for: key) else { return nil }
            if case .keypress = bound { throw CommandError("invalid parameter", "'\(key)' is bound to another keypress") }
            return try carryOut(bound)
        case .quit(let code):
            end(.quit)
            requestedExitCode = code
            return nil
        case .quitWatchLater:
            end(.quit)
            quitWatchLater = true
            return nil
        case .playlistNext, .playlistPrev:
            let playlist = try requirePlaylist()
            let next: Bool
            if case .playlistNext = command { next = true } else { next = false }
            if let playlistTree { return try movePlaylist(on: playlistTree, next: next) }
            guard next ? playlist.next() : playlist.previous() else {
                throw CommandError("error running command", next ? "the last item is playing" : "the first item is playing")
            }
            end(.playlistMove)
            return nil
        case .loadFile(let path, let append):
            let playlist = try requirePlaylist()
            if append {
                if playlistTree != nil { try appendItem(path) }
                playlist.append(path)
                return .text("Added \(URL(fileURLWithPath: path).lastPathComponent)")
            }
            playlist.replace(with: path)
            end(.playlistMove)
            return nil
        case .screenshot:
            return .text("Screenshot: " + (try screenshot(to: nil)))
        case .screenshotToFile(let path):
            return .text("Screenshot: " + (try screenshot(to: path)))
        case .frameBackStep:
            stepBack()
            return .text(progressText)
        case .sceneSet(let name, let value):
            guard let sceneSet else { throw CommandError("error running command", "no scene is playing") }
            let said: String
            do { said = try sceneSet(name, value, clock.time) } catch { throw CommandError("invalid parameter", "scene-set: \(error)") }
            invalidate() // the new tree shows at once, paused or not
            return .text(said)
        case .abLoop:
            let now = presentedTime ?? clock.time
            switch abLoop {
            case (nil, _): abLoop = (now, nil)
            case (let a?, nil) where now > a: abLoop = (a, now)
            default: abLoop = (nil, nil)
            }
            return .text(abLoopText)
        }
    }

    /// Ends `run()` at the next turn of the loop, saying why.
    func end(_ reason: EndReason) {
        quit = true
        endReason = reason
    }

    private func requirePlaylist() throws(CommandError) -> Playlist {
        guard let playlist else { throw CommandError("error running command", "this window plays no playlist") }
        return playlist
    }

    /// Seeks as mpv's `seek` does, on the timeline of the loop being played.
    private func seek(_ value: Double, _ mode: PlayerCommand.SeekMode) {
        let r = options.range
        switch mode {
        case .relative: seek(to: clock.time + value)
        case .absolute: seek(to: r.loopStart(clock.time) + (value - r.start))
        case .absolutePercent:
            guard r.length.isFinite else { return }
            seek(to: r.loopStart(clock.time) + value / 100 * r.length)
        case .relativePercent:
            guard r.length.isFinite else { return }
            seek(to: clock.time + value / 100 * r.length)
        }
    }

    /// The index of the chapter at the clock's time (-1 before the first); the time a seek asked for counts, not
    /// the frame still on screen, so that two quick PgUps go two chapters on.
    var currentChapter: Int {
        let media = options.range.mediaTime(clock.time) + 1e-3
        return (chapters.lastIndex { $0.start <= media }) ?? -1
    }

    /// What the OSD says of the A-B loop.
    var abLoopText: String {
        let clock = { OnScreenDisplay.clock(self.options.range.mediaTime($0)) }
        switch abLoop {
        case (let a?, let b?): return "A-B loop: \(clock(a)) – \(clock(b))"
        case (let a?, nil): return "A-B loop start: \(clock(a))"
        default: return "A-B loop cleared"
        }
    }

    /// "0:01 / 0:02": the position in the file against the range's length.
    var progressText: String {
        let r = options.range
        let position = OnScreenDisplay.clock(r.mediaTime(clock.time))
        return r.length.isFinite ? position + " / " + OnScreenDisplay.clock(r.length) : position
    }

    private func osdMessage(after name: String) -> OSDMessage? {
        guard let say = Self.properties[name]?.osd else { return nil }
        guard let text = say(self) else { return .hide }
        // "Paused" stays while paused.
        return .text(text, sticky: name == "pause")
    }

    /// Changes a number property by `f`, within its range.
    private func change(_ name: String, _ f: (Double) -> Double) throws(CommandError) {
        let property = try Self.property(name)
        guard let value = property.get(self) else { throw CommandError("property unavailable", "'\(name)' is unavailable") }
        if case .flag = value { throw CommandError("invalid parameter", "'\(name)' is a switch: cycle it") }
        guard let number = value.double else {
            throw CommandError("invalid parameter", "'\(name)' is not a number")
        }
        try setProperty(name, .number(f(number)))
    }

    // MARK: Properties

    /// The property's value, or an error saying why there is none.
    public func getProperty(_ name: String) throws(CommandError) -> PropertyValue {
        guard let value = try Self.property(name).get(self) else { throw CommandError("property unavailable", "'\(name)' is unavailable") }
        return value
    }

    /// Sets a property (numbers are clamped to its range).
    public func setProperty(_ name: String, _ value: PropertyValue) throws(CommandError) {
        let property = try Self.property(name)
        guard let set = property.set else { throw CommandError.readOnly(name) }
        var value = value
        if let range = property.range {
            guard let d = value.double else { throw CommandError.badValue(name, value, "a number") }
            value = .number(min(max(d, range.lowerBound), range.upperBound))
        }
        try set(self, value)
    }

    static func property(_ name: String) throws(CommandError) -> PlayerProperty {
        guard let property = properties[name] else { throw CommandError.notFound(name) }
        return property
    }

    /// Whether the user paused (the clock also holds, unpaused, while a new position's first frame is on its way).
    var isPausedByUser: Bool { clock.isPaused && !resumeOnShow }

    func setPaused(_ pausing: Bool) {
        guard pausing != isPausedByUser else { return }
        resumeOnShow = false
        clock.setPaused(pausing)
        if !pausing { nextTick = max(nextTick, clock.time) }
    }

    private static func flag(_ name: String, _ value: PropertyValue) throws(CommandError) -> Bool {
        guard let b = value.bool else { throw CommandError.badValue(name, value, "yes or no") }
        return b
    }

    /// The property table: mpv's names for what we have (the audio tracks' in PlaybackSession+AudioTracks.swift).
    static let properties: [String: PlayerProperty] = audioTrackProperties.merging(coreProperties) { $1 }

    private static let coreProperties: [String: PlayerProperty] = [
        "pause": PlayerProperty(
            get: { .flag($0.isPausedByUser) },
            set: { s, v throws(CommandError) in s.setPaused(try flag("pause", v)) },
            osd: { $0.isPausedByUser ? "Paused" : nil }),
        "time-pos": PlayerProperty(
            get: { .number($0.options.range.mediaTime($0.clock.time)) },
            set: { s, v throws(CommandError) in
                guard let t = v.double else { throw CommandError.badValue("time-pos", v, "seconds") }
                s.seek(t, .absolute)
            },
            osd: { $0.progressText }),
        "ab-loop-a": PlayerProperty(
            get: { s in s.abLoop.a.map { PropertyValue.number(s.options.range.mediaTime($0)) } ?? .string("no") },
            set: { s, v in s.abLoop.a = v.double.map { s.options.range.loopStart(s.clock.time) + $0 - s.options.range.start } },
            osd: { $0.abLoopText }),
        "ab-loop-b": PlayerProperty(
            get: { s in s.abLoop.b.map { PropertyValue.number(s.options.range.mediaTime($0)) } ?? .string("no") },
            set: { s, v in s.abLoop.b = v.double.map { s.options.range.loopStart(s.clock.time) + $0 - s.options.range.start } },
            osd: { $0.abLoopText }),
        // mpv's chapter: the index of the chapter playing (-1 before the first); set, a seek to a chapter's start.
        "chapter": PlayerProperty(
            get: { s in s.chapters.isEmpty ? nil : .integer(s.currentChapter) },
            set: { s, v throws(CommandError) in
                let chapters = s.chapters
                guard !chapters.isEmpty else { throw CommandError("property unavailable", "'\(s.options.fileName ?? s.options.title)' has no chapters") }
                // On a playlist's timeline, past the last chapter is the next item (mpv's `add chapter 1` on the last
                // chapter ends the file); before the first is the first's start, as for a single file (and in mpv).
                if let tree = s.playlistTree, let i = v.double.map({ Int($0.rounded()) }), i >= chapters.count {
                    _ = try s.movePlaylist(on: tree, next: true)
                    return
                }
                guard let i = v.double.map({ Int($0.rounded()) }), i < chapters.count else {
                    throw CommandError("error running command", "no chapter after the last")
                }
                s.seek(chapters[max(0, i)].start, .absolute)
            },
            osd: { s in
                let i = s.currentChapter, chapters = s.chapters
                return chapters.indices.contains(i) ? "Chapter \(i + 1)/\(chapters.count): \(chapters[i].title)" : nil
            }),
        "chapters": PlayerProperty(get: { .integer($0.chapters.count) }),
        "duration": PlayerProperty(get: { s in s.options.range.length.isFinite ? .number(s.options.range.length) : nil }),
        "percent-pos": PlayerProperty(
            get: { s in
                let r = s.options.range
                guard r.length.isFinite, r.length > 0 else { return nil }
                return .number((r.mediaTime(s.clock.time) - r.start) / r.length * 100)
            },
            set: { s, v throws(CommandError) in
                guard let p = v.double else { throw CommandError.badValue("percent-pos", v, "a percentage") }
                s.seek(p, .absolutePercent)
            },
            osd: { $0.progressText }),
        "speed": PlayerProperty(
            get: { .number($0.clock.speed) },
            set: { s, v in
                // Rounded to a thousandth: the OSD and the IPC say 1.1, not 1.1000000000000001.
                let speed = ((v.double ?? 1) * 1000).rounded() / 1000
                guard speed != s.clock.speed else { return }
                s.clock.setSpeed(speed)
                s.nextTick = max(s.nextTick, s.clock.time)
            },
            osd: { String(format: "Speed %.2f×", $0.clock.speed) },
            range: PlaybackSession.speeds),
        "audio-delay": PlayerProperty(
            get: { s in s.audio.map { PropertyValue.number($0.delay) } },
            set: { s, v in
                guard let audio = s.audio else { return }
                audio.delay = ((v.double ?? 0) * 1000).rounded() / 1000
            },
            osd: { s in s.audio.map { String(format: "Audio delay: %+.0f ms", $0.delay * 1000) } ?? "No sound" },
            range: -10...10),
        "sub-delay": PlayerProperty(
            get: { s in s.playingSubtitles.map { PropertyValue.number($0.delay) } },
            set: { s, v in
                for subtitles in s.everySubtitles { subtitles.delay = ((v.double ?? 0) * 1000).rounded() / 1000 }
                s.invalidate() // shown at once, paused or not
            },
            osd: { s in s.playingSubtitles.map { String(format: "Sub delay: %+.0f ms", $0.delay * 1000) } ?? "No subtitles" },
            range: -600...600),
        // Ours: the statistics overlay (i).
        "stats": PlayerProperty(
            get: { .flag($0.statsOverlay != nil) },
            set: { s, v throws(CommandError) in if try flag("stats", v) != (s.statsOverlay != nil) { s.toggleStatsOverlay() } }),
        "volume": PlayerProperty(
            get: { s in s.audio.map { PropertyValue.number(($0.volume * 100).rounded()) } },
            set: { s, v in s.audio?.volume = (v.double ?? 100) / 100 },
            osd: { s in "Volume \(Int(((s.audio?.volume ?? 0) * 100).rounded()))%" },
            range: 0...100),
        "mute": PlayerProperty(
            get: { s in s.audio.map { PropertyValue.flag($0.isMuted) } },
            set: { s, v throws(CommandError) in s.audio?.isMuted = try flag("mute", v) },
            osd: { s in s.audio?.isMuted == true ? "Muted" : "Sound on" }),
        "fullscreen": PlayerProperty(
            get: { .flag($0.window.isFullscreen) },
            set: { s, v throws(CommandError) in if try flag("fullscreen", v) != s.window.isFullscreen { s.window.toggleFullscreen() } }),
        // mpv's: the window's drawable size in pixels.
        "osd-width": PlayerProperty(get: { .integer($0.window.pixelSize.width) }),
        "osd-height": PlayerProperty(get: { .integer($0.window.pixelSize.height) }),
        "filename": PlayerProperty(get: { s in
            // On a playlist's timeline, the item playing.
            .string(s.playlistTree.flatMap { tree in s.playlist.flatMap { list in
                let k = tree.index(at: s.clock.time)
                return list.items.indices.contains(k) ? URL(fileURLWithPath: list.items[k]).lastPathComponent : nil
            } } ?? s.options.fileName ?? s.options.title)
        }),
        // On a playlist's timeline, the item at the playing position (as `time-pos`, at once after a seek; the title
        // and the events follow the frame shown, a turn of the loop later).
        "playlist-pos": PlayerProperty(
            get: { s in .integer(s.playlistTree.map { $0.index(at: s.clock.time) } ?? s.playlist?.index ?? 0) },
            set: { s, v throws(CommandError) in
                guard let playlist = s.playlist, let i = v.double, i == i.rounded(), playlist.jump(to: Int(i)) else {
                    throw CommandError("error running command", "no playlist item '\(v)'")
                }
                if s.playlistTree != nil { s.seekToPlaylistItem(Int(i)) } else { s.end(.playlistMove) }
            }),
        "playlist-count": PlayerProperty(get: { .integer($0.playlist?.items.count ?? 1) }),
        // mpv's `sub` (`sid`): the track's number from 1, or no.
        "sub": PlayerProperty(
            get: { s in s.playingSubtitles.map { $0.selection.current.map { PropertyValue.integer($0 + 1) } ?? .flag(false) } },
            cycle: { s, _ in
                s.playingSubtitles?.cycleTracks()
                s.invalidate() // shown at once, paused or not
            },
            osd: { s in
                guard let subtitles = s.playingSubtitles else { return "No subtitles" }
                return subtitles.selection.current.map { "Subtitles: track \($0 + 1)" } ?? "Subtitles: off"
            }),
        // Ours: how an audio-only input draws its sound.
        "audio-display": PlayerProperty(
            get: { s in s.root.audioVisualizers.first.map { PropertyValue.string($0.mode == .waveform ? "waveform" : "spectrum") } },
            cycle: { s, _ in
                for v in s.root.audioVisualizers { v.cycleMode() }
                s.invalidate()
            },
            osd: { s in s.root.audioVisualizers.first.map { $0.mode == .waveform ? "Waveform" : "Spectrum" } }),
    ]
}
