import LayerGraphics
import LayerKit
import LayerMedia

/// Scene media through LayerMedia: `MediaAsset` probes, a `PlayerLayer` shows a video, a still becomes contents
/// with the same gravity, and an audio-only input shows its sound (`AudioVisualizerLayer`, SCENES.md §3).
public final class MediaAssetSceneMedia: ReloadableSceneMedia {
    private var assets: [String: MediaAsset] = [:]
    /// The players of the layers made since the last (re)load began, by file and loop setting.
    private var players: [String: [Player]] = [:]
    /// During a reload: the players of the tree still playing, for new layers of the same input to take.
    private var reusable: [String: [Player]] = [:]
    /// During a reload: every player of the tree still playing (restored if the reload fails).
    private var playing: [String: [Player]]?

    public init() {}

    public func probe(_ path: String) throws -> SceneMediaInfo {
        let asset = try asset(path)
        let size = asset.video.map { Size(width: Double(max(1, $0.displayWidth)), height: Double(max(1, $0.displayHeight))) }
        let fps = asset.isStill ? nil : asset.video.map(\.frameRate).flatMap { $0 > 0 ? $0 : nil }
        return SceneMediaInfo(size: size, duration: asset.isStill ? nil : asset.duration, fps: fps, hasAudio: asset.audio != nil)
    }

    public func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let asset = try asset(input.src)
        guard asset.video != nil else {
            // Audio only: the sound drawn, as the command line's card shows it (SCENES.md §3).
            let layer = try AudioVisualizerLayer(path: input.src)
            if input.loop, asset.duration > 0 { layer.range = PlaybackRange(start: 0, end: asset.duration, loops: true) }
            return layer
        }
        if asset.isStill {
            let layer = Layer()
            layer.contents = .image(try ImageLoader.load(path: input.src))
            layer.contentsGravity = videoGravity
            return layer
        }
        let key = "\(input.src)\n\(input.loop)"
        let player: Player
        if let reused = reusable[key]?.first {
            reusable[key]?.removeFirst()
            player = reused  // the same file, start and loop: its decoder keeps going (SCENES.md §8)
        } else {
            player = try Player(path: input.src)
            // `loop`: past the end the medium wraps instead of holding its last frame (SCENES.md §6).
            if input.loop, asset.duration > 0 { player.range = PlaybackRange(start: 0, end: asset.duration, loops: true) }
        }
        players[key, default: []].append(player)
        let layer = PlayerLayer(player: player)
        layer.videoGravity = videoGravity
        return layer
    }

    public func beginReload() {
        if let saved = playing { players = saved }  // a reload that neither finished nor was cancelled
        playing = players
        reusable = players
        players = [:]
    }

    public func cancelReload() {
        // The failed load's layers are dropped; the tree that keeps playing has all of its players still.
        if let saved = playing { players = saved }
        playing = nil
        reusable = [:]
    }

    public func finishReload() {
        playing = nil
        reusable = [:]
    }

    /// One probe per file, however many layers show it.
    private func asset(_ path: String) throws -> MediaAsset {
        if let a = assets[path] { return a }
        let a = try MediaAsset(path: path)
        assets[path] = a
        return a
    }
}
