import Foundation
import LayerGraphics
import LayerMedia

extension Layerplay {
    /// Renders several inputs into one movie (issue 30): the playlist's timeline, with the same tree, the same pose
    /// for each time and the same mixed sound as the window plays (`openPlaylist`), so the pixels are the window's.
    /// Its length is the sum of the items less the transitions' overlaps.
    func exportPlaylist(to output: String) throws {
        if segmenting.isActive { throw RunError("segments (--segment, --segments) take one input; a playlist exports whole") }
        let opened: OpenedPlaylist
        do { opened = try openPlaylist(try playlistItems(), inWindow: false, skip: nil) } catch let error as NotOnTimeline {
            throw RunError(error.description)
        }
        let tree = opened.tree
        let timeline = tree.timeline
        let rate: (num: Int32, den: Int32) = fps.map { MovieWriter.rational($0) } ?? opened.frameRate ?? (30, 1)
        // At --speed X the movie lasts the timeline / X: frames sample the sped-up playlist clock and the mixed sound
        // goes through the exporter's atempo chain, as a single input's export does (CLI.md's --speed).
        let frames = max(1, Int((timeline.duration / speed * Double(rate.num) / Double(rate.den)).rounded()))
        // The mixed sound goes through a WAV beside nothing the user sees (removed afterwards); the exporter encodes it
        // for the container as it would any input's sound.
        var soundFile: String?
        if let mix = opened.mix, !MovieWriter.isImageSequence(output) {
            let path = NSTemporaryDirectory() + "layerplay-playlist-\(getpid())-\(UUID().uuidString).wav"
            do { try mix.writeWAV(to: path) } catch {
                try? FileManager.default.removeItem(atPath: path)
                throw runError(error)
            }
            mix.stop()
            soundFile = path
        }
        defer { if let soundFile { try? FileManager.default.removeItem(atPath: soundFile) } }
        var settings = EncoderSettings(codec: codec, crf: crf, preset: preset, frameRate: rate)
        settings.control = encoding.control(metadataSource: opened.items[0], transparentCanvas: false)
        let exporter = Exporter(root: tree.root, width: tree.size.width, height: tree.size.height, settings: settings, start: 0,
                                frameCount: frames, audioSource: soundFile)
        exporter.willSnapshot = { tree.pose(at: $0) }
        exporter.speed = speed
        try streams.configure(exporter, for: output, inputIsLive: false)
        try reportingProgress(frameRate: rate) { try exporter.export(to: output, replacing: overwrite, progress: $0) }
    }
}
