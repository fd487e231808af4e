import LayerGraphics
import LayerKit
import LayerMedia

/// Scene media through LayerMedia: `MediaAsset` probes, a `PlayerLayer` shows a video, a still becomes contents
/// with the same gravity, and an audio-only input shows nothing (SCENES.md §3).
public final class MediaAssetSceneMedia: SceneMedia {
    private var assets: [String: MediaAsset] = [:]

    public init() {}

    public func probe(_ path: String) throws -> SceneMediaInfo {
        let asset = try asset(path)
        let size = asset.video.map { Size(width: Double(max(1, $0.displayWidth)), height: Double(max(1, $0.displayHeight))) }
        let fps = asset.isStill ? nil : asset.video.map(\.frameRate).flatMap { $0 > 0 ? $0 : nil }
        return SceneMediaInfo(size: size, duration: asset.isStill ? nil : asset.duration, fps: fps, hasAudio: asset.audio != nil)
    }

    public func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer {
        let asset = try asset(input.src)
        guard asset.video != nil else { return Layer() }
        if asset.isStill {
            let layer = Layer()
            layer.contents = .image(try ImageLoader.load(path: input.src))
            layer.contentsGravity = videoGravity
            return layer
        }
        let player = try Player(path: input.src)
        // `loop`: past the end the medium wraps instead of holding its last frame (SCENES.md §6).
        if input.loop, asset.duration > 0 { player.range = PlaybackRange(start: 0, end: asset.duration, loops: true) }
        let layer = PlayerLayer(player: player)
        layer.videoGravity = videoGravity
        return layer
    }

    /// One probe per file, however many layers show it.
    private func asset(_ path: String) throws -> MediaAsset {
        if let a = assets[path] { return a }
        let a = try MediaAsset(path: path)
        assets[path] = a
        return a
    }
}
