import LayerGraphics
import LayerKit
import LayerMedia

/// Scene media through LayerMedia: `MediaAsset` probes, a `PlayerLayer` shows a video, a still becomes contents
/// with the same gravity, and an audio-only input shows its sound (`AudioVisualizerLayer`, SCENES.md §3).
public final class MediaAssetSceneMedia: ReloadableSceneMedia {
    private var assets: [String: MediaAsset] = [:]
    private var images: [String: Image] = [:]
    /// The players of the layers made since the last (re)load began, one per input (`key(_:)`): every layer of
    /// an input shows the same player, so an input decodes once however many layers show it.
    private var players: [String: Player] = [:]
    /// During a reload: the players of the tree still playing, for new layers of the same input to take.
    private var reusable: [String: Player] = [:]
    /// During a reload: every player of the tree still playing (restored if the reload fails).
    private var playing: [String: Player]?
    /// Decoders opened so far (for tests: one per input, none for an unchanged input on reload).
    private(set) var decodersOpened = 0
    /// The video layers made since the last (re)load began, with their input, for `didBuild`.
    private var made: [(layer: PlayerLayer, key: String, input: SceneInput)] = []

    /// Media with nothing opened yet: files are probed on first use, once each.
    public init() {}

    /// Probes `path` with `MediaAsset`: a video's display size and frame rate (none for a still), its duration (none for
    /// a still) and whether it has sound.
    public func probe(_ path: String) throws -> SceneMediaInfo {
        let asset = try asset(path)
        let size = asset.video.map { Size(width: Double(max(1, $0.displayWidth)), height: Double(max(1, $0.displayHeight))) }
        let fps = asset.isStill ? nil : asset.video.map(\.frameRate).flatMap { $0 > 0 ? $0 : nil }
        return SceneMediaInfo(size: size, duration: asset.isStill ? nil : asset.duration, fps: fps, hasAudio: asset.audio != nil)
    }

    /// A `PlayerLayer` on a player of `input` (looping when the input loops; during a reload, the player of the same
    /// file and loop setting if the playing tree has one), a layer with the picture as contents for a still, or an
    /// empty layer for sound only.
    public func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let asset = try asset(input.src)
        guard asset.video != nil else {
            // Audio only: the sound drawn, as the command line's card shows it (SCENES.md §3).
            // Its times as a video's (SCENES.md §6): media time `start + L` at local time L, wrapping with `loop`
            // (without, past the end the sound is silence: a flat line).
            let layer = try AudioVisualizerLayer(path: SceneFileRule.openableInput(input.src))
            layer.mediaStart = input.start
            if input.loop, asset.duration > 0, asset.duration.isFinite {
                layer.range = PlaybackRange(start: 0, end: asset.duration, loops: true)
            }
            return layer
        }
        if asset.isStill {
            let layer = Layer()
            layer.contents = .image(try image(input.src))
            layer.contentsGravity = videoGravity
            return layer
        }
        let key = Self.key(input)
        let player: Player
        if let shared = players[key] {
            player = shared  // another layer of this input: the same decode
        } else if let reused = reusable.removeValue(forKey: key) {
            player = reused  // the same file, start and loop: its decoder keeps going (SCENES.md §8)
        } else {
            player = try open(input, asset)
        }
        players[key] = player
        let layer = PlayerLayer(player: player)
        layer.videoGravity = videoGravity
        made.append((layer, key, input))
        return layer
    }

    /// A new decode of `input`. A layer at local time L shows media time `start + L` (SCENES.md §6); before the
    /// medium's start its first frame, past its end the last frame, or with `loop` it wraps.
    private func open(_ input: SceneInput, _ asset: MediaAsset) throws -> Player {
        let player = try Player(path: SceneFileRule.openableInput(input.src))
        decodersOpened += 1
        player.timeOffset = input.start
        if asset.duration > 0, asset.duration.isFinite {
            player.range = PlaybackRange(start: 0, end: asset.duration, loops: input.loop)
        }
        return player
    }

    private func reopen(_ input: SceneInput) -> Player? {
        guard let asset = assets[input.src] else { return nil }
        return try? open(input, asset)
    }

    /// One decode serves the layers of an input only while they ask for the same times: a decoder asked for two
    /// times seconds apart, frame after frame, would seek back and forth on every frame. So the layers of an
    /// input whose clocks differ from the first's (a `beginTime`, `speed` or `timeOffset` of their own or of a
    /// superlayer) get a decode per clock, kept across reloads like the others.
    public func didBuild(_ root: Layer) {
        defer { made = [] }
        var clocks: [ObjectIdentifier: LayerClock] = [:]
        func walk(_ layer: Layer, _ parent: LayerClock) {
            let clock = parent.then(layer)
            if layer is PlayerLayer { clocks[ObjectIdentifier(layer)] = clock }
            for s in layer.sublayers ?? [] { walk(s, clock) }
            if let mask = layer.mask { walk(mask, clock) }
        }
        walk(root, LayerClock())
        var first: [String: LayerClock] = [:]
        for entry in made {
            guard let clock = clocks[ObjectIdentifier(entry.layer)] else { continue }
            guard let shared = first[entry.key] else { first[entry.key] = clock; continue }
            if clock == shared { continue }
            let key = entry.key + "\n@" + clock.description
            // (Should the file no longer open, the layer keeps the shared decode: slower, never wrong.)
            guard let p = players[key] ?? reusable.removeValue(forKey: key) ?? reopen(entry.input) else { continue }
            players[key] = p
            entry.layer.player = p
        }
    }

    /// What makes two layers' inputs one decode: the same file, in-point, looping and stream (an input id, or the
    /// same values written inline on several layers).
    static func key(_ input: SceneInput) -> String {
        "\(input.src)\n\(input.start)\n\(input.loop)\n\(input.stream.map(String.init) ?? "")"
    }

    /// Keeps the playing tree's players aside, for the next load's layers of the same inputs to take.
    public func beginReload() {
        if let saved = playing { players = saved }  // a reload that neither finished nor was cancelled
        made = []
        images = [:]  // a reload reads stills again (an edited image shows)
        playing = players
        reusable = players
        players = [:]
    }

    /// The reload failed: every player stays with the tree that keeps playing.
    public func cancelReload() {
        // The failed load's layers are dropped; the tree that keeps playing has all of its players still.
        if let saved = playing { players = saved }
        made = []
        playing = nil
        reusable = [:]
    }

    /// The reload succeeded: players no new layer took are let go (closed when their old layers go).
    public func finishReload() {
        playing = nil
        reusable = [:]
    }

    /// One probe per file, however many layers show it.
    private func asset(_ path: String) throws -> MediaAsset {
        if let a = assets[path] { return a }
        // Absolute, so FFmpeg reads it as a file whatever it contains (SceneFileRule).
        let a = try MediaAsset(path: SceneFileRule.openableInput(path))
        assets[path] = a
        return a
    }

    /// One decode per still, however many layers show it.
    private func image(_ path: String) throws -> Image {
        if let i = images[path] { return i }
        let i = try ImageLoader.load(path: SceneFileRule.openableInput(path))
        images[path] = i
        return i
    }
}

/// A layer's clock as a function of the tree's time: `local = scale · t + offset` (CAMediaTiming, composed down
/// from the root).
private struct LayerClock: Equatable, CustomStringConvertible {
    var scale = 1.0, offset = 0.0

    /// The clock of `layer`, a sublayer of one with this clock: `(t − beginTime) · speed + timeOffset`.
    func then(_ layer: Layer) -> LayerClock {
        LayerClock(scale: scale * layer.speed, offset: (offset - layer.beginTime) * layer.speed + layer.timeOffset)
    }

    var description: String { "\(scale),\(offset)" }
}
