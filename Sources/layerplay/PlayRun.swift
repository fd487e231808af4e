import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

extension Layerplay {
    /// Plays the inputs in a window with their sound (no -o), one after the other: the card with its effects, live,
    /// ffplay's and mpv's keys, and mpv's JSON IPC with `--input-ipc-server`.
    func play() throws {
        // Ctrl-C and SIGTERM end the playback as a quit (the position saved, the socket removed), then exit with
        // 128 + the signal, as shells expect of a program a signal stopped.
        do { try Interruption.during { try playAll() } } catch let interrupted as InterruptedError {
            throw ExitRequest(code: 128 + interrupted.signal)
        }
    }

    private func playAll() throws {
        if at != nil { throw RunError("--at picks the time of a still; to play from a time use --start") }
        let list = Playlist(try playlistItems(), loops: loopPlaylist)
        let ipc: PlayerIPC?
        do { ipc = try inputIPCServer.map { try PlayerIPC(path: $0) } } catch { throw RunError("\(error)") }
        defer { ipc?.stop() }
        let bindings = PlayerConfig.loadBindings()
        // Several inputs play in one window on one clock (PlaylistPlay.swift); a still or a live stream among them
        // plays them one session each, below.
        while list.items.count > 1 {
            switch try playTimeline(list, ipc: ipc, bindings: bindings) {
            case .done: return
            case .listChanged: continue
            case .notOnTimeline: break
            }
            break
        }
        while let item = list.current {
            var one = self
            one.input = item
            let session: PlaybackSession
            do { session = try one.openSession(playlist: list) } catch let error as RunError where list.items.count > 1 {
                // A playlist goes on without the item that failed, with one line saying so.
                StandardError.writeLine("layerplay: warning: skipping '\(item)': \(error.description)")
                list.removeCurrent()
                continue
            }
            session.bindings = bindings
            session.ipc = ipc
            session.playlist = list
            session.screenshotDirectory = screenshotDir
            let statistics = one.run(session)
            if stats { StandardError.writeLine(statistics.json) }
            switch session.endReason {
            case .eof:
                WatchLater.forget(item)
                list.advanceAtEnd()
            case .playlistMove: continue
            case .quit:
                if savePositionOnQuit || session.quitWatchLater, let problem = WatchLater.save(session.position, for: item) {
                    StandardError.writeLine("layerplay: warning: \(problem)")
                }
                if session.interruptedBy != nil { try Interruption.check(writing: item) }
                if let code = session.requestedExitCode, code != 0 { throw ExitRequest(code: code) }
                return
            }
        }
    }

    /// The inputs and `--playlist`'s lines; an input that is an .m3u is its lines.
    func playlistItems() throws -> [String] {
        var items: [String] = []
        for input in inputs {
            let ext = (input as NSString).pathExtension.lowercased()
            items += ext == "m3u" || ext == "m3u8" ? try Self.readPlaylist(input) : [input]
        }
        if let playlist { items += try Self.readPlaylist(playlist) }
        if items.isEmpty { throw RunError("the playlist '\(playlist ?? input)' has no entries") }
        return items
    }

    /// One entry a line; blank lines and `#` lines (m3u's `#EXTM3U`, `#EXTINF`) skipped; a relative path is taken
    /// from the playlist's directory, as players do.
    static func readPlaylist(_ path: String) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RunError("cannot read the playlist '\(path)'")
        }
        let directory = (path as NSString).deletingLastPathComponent
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { $0.hasPrefix("/") || $0.contains("://") || directory.isEmpty ? $0 : (directory as NSString).appendingPathComponent($0) }
    }

    /// A window's options from this run's flags (sound, OSD, speed, placement), the same for one file and a playlist.
    func windowOptions(title: String, fileName: String, range: PlaybackRange, frameRate: Double?) -> PlaybackSession.Options {
        var options = PlaybackSession.Options(title: title, range: range, frameRate: frameRate)
        options.fileName = fileName
        options.fullscreen = fullscreen
        options.keepOpen = keepOpen
        options.showsOSD = !noOSD
        options.muted = mute
        options.volume = volume / 100
        options.speed = speed
        options.audioDevice = audioDevice
        options.placement.onTop = ontop
        options.placement.borderless = noBorder
        options.placement.autofit = autofit.map { .init(width: $0.width, height: $0.height) }
        if let geometry, let g = WindowPlacement.geometry(geometry) {
            options.placement.size = g.size
            options.placement.x = g.x
            options.placement.y = g.y
        }
        return options
    }

    /// A window on this run's `input`: its card, its player and its sound.
    func openSession(playlist: Playlist) throws -> PlaybackSession {
        let media = try openMedia(input)
        let asset = media.asset
        let card = try cardTree(asset: asset, inWindow: true)
        let canvas = card.canvas
        // Without --start, where the last playback was quit with its position saved (Q, --save-position-on-quit).
        let resume = start == nil && !asset.isStill ? WatchLater.position(for: input).flatMap { $0 < asset.duration ? $0 : nil } : nil
        let begin = start?.seconds ?? 0
        // Stills play until quit, unless --duration says otherwise.
        try checkLiveStart(asset)
        let end = duration.map { begin + $0.seconds } ?? (asset.isStill || asset.isLive ? .infinity : asset.duration)
        if end.isFinite && begin >= end { throw RunError("nothing to play: --start \(begin) is past the end of '\(input)' (\(asset.duration) s)") }
        var frameRate: Double?
        if let v = asset.video, !asset.isStill, v.frameRateNumerator > 0, v.frameRateDenominator > 0 {
            frameRate = Double(v.frameRateNumerator) / Double(v.frameRateDenominator)
        }
        let name = URL(fileURLWithPath: input).lastPathComponent
        // The window's title names the item and where it is in a playlist of several.
        let count = playlist.items.count
        var options = windowOptions(title: count > 1 ? "\(name) (\(playlist.index + 1)/\(count))" : name, fileName: name,
                                    range: PlaybackRange(start: begin, end: end, loops: loop), frameRate: frameRate)
        options.seekable = !asset.isLive
        options.live = asset.isLive
        options.startPosition = resume
        options.chapters = (try? MediaAsset.chapters(of: input)) ?? []
        let session: PlaybackSession
        do {
            // The card's canvas keeps its size and the window scales it, letterboxed (relayoutOnResize stays off, as
            // for any video), so the layout callback, called once with the canvas's own size, has nothing to do.
            session = try PlaybackSession(root: card.host, size: (canvas.width, canvas.height), player: card.player,
                                          audioPath: noAudio || asset.audio == nil ? nil : input, options: options) { _, _ in }
        } catch { throw RunError("\(error)") }
        session.subtitles = card.subtitles
        // The drawn sound of an audio-only input follows the window's range through loops, as a video's player does.
        if card.player == nil { for v in Self.audioVisualizers(card.host) { v.range = options.range } }
        return session
    }

    /// Plays a session to its end, with the terminal's status line.
    func run(_ session: PlaybackSession) -> PlaybackStatistics {
        let range = session.range
        // On a terminal, one status line updated in place, as ffplay's (never into a pipe or a file).
        let status = isatty(STDERR_FILENO) != 0 ? StatusLine(length: range.length) { StandardError.write($0) } : nil
        if let status { session.onTick = { status.update($0) } }
        let statistics = session.run()
        status?.finish()
        return statistics
    }

    /// The audio visualisers of a tree (an audio-only card has one).
    static func audioVisualizers(_ layer: Layer) -> [AudioVisualizerLayer] {
        ((layer as? AudioVisualizerLayer).map { [$0] } ?? []) + (layer.sublayers ?? []).flatMap(audioVisualizers)
    }
}

/// A `quit CODE` command's exit status (main exits with it, printing nothing).
struct ExitRequest: Error { let code: Int32 }
