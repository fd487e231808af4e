import Foundation
import LayerGraphics
import LayerKit

/// Live reload of a playing scene (SCENES.md §8). The host shows `host`, a layer that never changes and holds the
/// current scene's root; the reloader watches the scene file and the files it read (included scene files among
/// them, so editing an included scene reloads the whole), and after the changes have
/// settled for `debounce` seconds loads the file again with the same options (so command-line params are kept).
/// A clean load replaces the scene's root inside `host` without actions, so nothing animates across the swap;
/// the host's clock and pause state are untouched, and animations keep their phase because their times are on
/// the scene clock. A failed load keeps the old tree and reports its first error as one line.
///
/// It runs on the host's loop (`poll(now:)` each turn): the tree is only touched between frames.
public final class SceneReloader {
    /// Seconds a change must settle before the file is read (an editor's save is often several writes).
    public static let debounce = 0.15

    /// The scene shown and its options, shared with `scene-set` (a param it changed stays across reloads).
    public let live: LiveScene
    /// The layer the host shows: the current scene's root is its first sublayer.
    public var host: Layer { live.host }
    /// The scene playing now: the first load, or the last reload (or `scene-set`) that succeeded.
    public var scene: LoadedScene { live.scene }
    /// Successful reloads so far.
    public private(set) var reloads = 0
    private let path: String
    private var options: SceneLoadOptions { live.options }
    private var watcher: FileWatcher
    private var pendingSince: Double?
    /// Receives one line per failed reload (`layerplay: error: …`) and per warning.
    private let report: (String) -> Void
    /// Also receives a failed reload's error line, after `report`: a window shows it in a corner until a reload works
    /// (`PlaybackSession.showNotice(_:)`), since a terminal behind the window is easy to miss.
    public var onError: ((String) -> Void)?

    /// - Parameters:
    ///   - path: the scene file, as opened.
    ///   - options: the options it was loaded with (kept for every reload, so command-line params stay).
    ///   - scene: the scene as first loaded from `path` with `options`.
    ///   - report: receives one line per failed reload and per warning (`layerplay` prints them to stderr).
    public init(path: String, options: SceneLoadOptions, scene: LoadedScene, report: @escaping (String) -> Void) {
        self.path = path
        live = LiveScene(scene: scene, options: options, path: path)
        self.report = report
        watcher = FileWatcher(paths: [path] + scene.files)
    }

    /// Looks for changes; reloads once they have settled. `now` is seconds on a steady clock. Returns whether the
    /// tree was replaced.
    @discardableResult
    public func poll(now: Double) -> Bool {
        if watcher.changed(now: now) { pendingSince = now }
        guard let since = pendingSince, now - since >= Self.debounce else { return false }
        pendingSince = nil
        return reload()
    }

    /// Loads the file again now; true when the new tree replaced the old.
    @discardableResult
    public func reload() -> Bool {
        let next: LoadedScene
        do throws(SceneErrors) { next = try live.load() } catch {
            let line = "layerplay: error: \(error.description)"
            report(line)
            onError?(line)
            return false
        }
        for w in next.warnings { report("layerplay: warning: \(w)") }
        // What the running host cannot change: said once per reload that changes it.
        if next.canvasSize != scene.canvasSize {
            report("layerplay: warning: \(options.file): the canvas size changed to \(formatNumber(next.canvasSize.width))x\(formatNumber(next.canvasSize.height)); the window keeps its size until a restart")
        }
        if next.fps != scene.fps { report("layerplay: warning: \(options.file): the new fps (\(formatNumber(next.fps))) waits for a restart") }
        if audioSource(next) != audioSource(scene) { report("layerplay: warning: \(options.file): the new audio input plays from the next start") }
        live.replace(with: next)
        reloads += 1
        let files = [path] + next.files
        if Set(files.map { URL(fileURLWithPath: $0).standardizedFileURL.path }) != Set(watcher.paths) { watcher = FileWatcher(paths: files) }
        return true
    }

    private func audioSource(_ s: LoadedScene) -> String? { s.audioInput.flatMap { id in s.inputs.first { $0.id == id }?.src } }
}

/// Media that can keep its decoders across reloads: inputs shown again with the same file and loop setting get
/// the players they had (no reopening, no A/V hiccup); the others are opened anew.
public protocol ReloadableSceneMedia: SceneMedia {
    /// The next loads' layers may take the players of the layers made so far.
    func beginReload()
    /// The reload failed: the players stay with the tree that keeps playing.
    func cancelReload()
    /// The reload succeeded: players no new layer took are closed.
    func finishReload()
}
