import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

extension Layerplay {
    /// Plays the input in a window with its sound (no -o): the card with its effects, live, and ffplay's keys.
    func play() throws {
        if at != nil { throw RunError("--at picks the time of a still; to play from a time use --start") }
        let media = try openMedia(input)
        let asset = media.asset
        let card = try cardTree(asset: asset, inWindow: true)
        let canvas = card.canvas
        let begin = start?.seconds ?? 0
        // Stills play until quit, unless --duration says otherwise.
        try checkLiveStart(asset)
        let end = duration.map { begin + $0.seconds } ?? (asset.isStill || asset.isLive ? .infinity : asset.duration)
        if end.isFinite && begin >= end { throw RunError("nothing to play: --start \(begin) is past the end of '\(input)' (\(asset.duration) s)") }
        var frameRate: Double?
        if let v = asset.video, !asset.isStill, v.frameRateNumerator > 0, v.frameRateDenominator > 0 {
            frameRate = Double(v.frameRateNumerator) / Double(v.frameRateDenominator)
        }
        var options = PlaybackSession.Options(title: URL(fileURLWithPath: input).lastPathComponent,
                                              range: PlaybackRange(start: begin, end: end, loops: loop), frameRate: frameRate)
        options.fullscreen = fullscreen
        options.seekable = !asset.isLive
        options.keepOpen = keepOpen
        options.showsOSD = !noOSD
        options.muted = mute
        options.volume = volume / 100
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
        // On a terminal, one status line updated in place, as ffplay's (never into a pipe or a file).
        let status = isatty(STDERR_FILENO) != 0 ? StatusLine(length: end - begin) { StandardError.write($0) } : nil
        if let status { session.onTick = { status.update($0) } }
        let statistics = session.run()
        status?.finish()
        if stats { StandardError.writeLine(statistics.json) }
    }

    /// The audio visualisers of a tree (an audio-only card has one).
    static func audioVisualizers(_ layer: Layer) -> [AudioVisualizerLayer] {
        ((layer as? AudioVisualizerLayer).map { [$0] } ?? []) + (layer.sublayers ?? []).flatMap(audioVisualizers)
    }
}
