import Foundation
import LayerDisplay
import LayerGraphics
import LayerMedia

extension Layerplay {
    /// Plays the input in a window with its sound (no -o): the card with its effects, live, and ffplay's keys.
    func play() throws {
        if at != nil { throw RunError("--at picks the time of a still; to play from a time use --start") }
        let media = try openMedia(input)
        let asset = media.asset
        let canvas = size ?? media.size
        let scene = CardScene(media: media.media, effects: try effects(canvas: canvas),
                              subtitles: try subtitleLayer(for: media, inWindow: true))
        let begin = start?.seconds ?? 0
        // Stills play until quit, unless --duration says otherwise.
        let end = duration.map { begin + $0.seconds } ?? (asset.isStill ? .infinity : asset.duration)
        if end.isFinite && begin >= end { throw RunError("nothing to play: --start \(begin) is past the end of '\(input)' (\(asset.duration) s)") }
        var frameRate: Double?
        if let v = asset.video, !asset.isStill, v.frameRateNumerator > 0, v.frameRateDenominator > 0 {
            frameRate = Double(v.frameRateNumerator) / Double(v.frameRateDenominator)
        }
        var options = PlaybackSession.Options(title: URL(fileURLWithPath: input).lastPathComponent,
                                              range: PlaybackRange(start: begin, end: end, loops: loop), frameRate: frameRate)
        options.fullscreen = fullscreen
        options.keepOpen = keepOpen
        options.showsOSD = !noOSD
        options.muted = mute
        options.volume = volume / 100
        let player: Player?
        if case .player(let p) = media.media { player = p } else { player = nil }
        // The drawn sound follows the timeline as the player's picture does (through loops).
        if case .sound(let v) = media.media { v.range = options.range }
        let session: PlaybackSession
        do {
            session = try PlaybackSession(root: scene.root, size: (canvas.width, canvas.height), player: player,
                                          audioPath: noAudio || asset.audio == nil ? nil : input, options: options) { width, height in
                // The canvas follows the window; the card keeps --layer-size, or its share of the canvas.
                let window = PixelSize(width: width, height: height)
                scene.layout(canvas: window, layerSize: layerSize ?? defaultLayerSize(window))
            }
        } catch { throw RunError("\(error)") }
        session.subtitles = scene.subtitles
        // On a terminal, one status line updated in place, as ffplay's (never into a pipe or a file).
        let status = isatty(STDERR_FILENO) != 0 ? StatusLine(length: end - begin) { StandardError.write($0) } : nil
        if let status { session.onTick = { status.update($0) } }
        let statistics = session.run()
        status?.finish()
        if stats { StandardError.writeLine(statistics.json) }
    }
}
