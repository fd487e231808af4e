import Foundation
import LayerKit

/// A scene whose tree can be replaced while a host shows it: a live reload (`SceneReloader`) or a param changed by
/// `scene-set` (SCENES.md §8 and §11). The host shows `host`, a layer that never changes and holds the current
/// scene's root, so a window and an export take their snapshots of the same layer whatever was swapped in.
public final class LiveScene {
    /// The layer the host shows: the current scene's root is its first sublayer (a window adds its displays after it).
    public let host = Layer()
    /// The scene shown now: the first load, or the last load that replaced it.
    public private(set) var scene: LoadedScene
    /// The options the next load uses: the first load's, with every param value `scene-set` gave since.
    public private(set) var options: SceneLoadOptions
    /// The scene file that is loaded again.
    let path: String

    /// - Parameters:
    ///   - scene: the scene as loaded with `options`.
    ///   - options: what loaded it (kept for every later load, so command-line params stay).
    ///   - path: the scene file as opened (default: the options' `file`).
    public init(scene: LoadedScene, options: SceneLoadOptions, path: String? = nil) {
        self.scene = scene
        self.options = options
        self.path = path ?? options.file
        host.name = "scene-host"
        host.anchorPoint = .zero
        host.position = .zero
        host.bounds = scene.root.bounds
        Transaction.withoutActions { host.addSublayer(scene.root) }
    }

    /// Loads the scene file again with the current options, keeping the decoders of inputs that stay (a failed load
    /// gives them back to the tree that keeps playing).
    func load() throws(SceneErrors) -> LoadedScene {
        let media = options.media as? ReloadableSceneMedia
        media?.beginReload()
        do throws(SceneErrors) {
            return try SceneLoader.load(contentsOf: path, options: options)
        } catch {
            media?.cancelReload()
            throw error
        }
    }

    /// Shows `next` (loaded by `load()`) in place of the current scene, without actions: nothing animates across
    /// the swap unless `morphAt` is given, in which case every animatable property that changed moves from what was
    /// shown at that tree time to its new value as an implicit change would (`SceneMorph`).
    func replace(with next: LoadedScene, morphAt time: Double? = nil) {
        if let time { SceneMorph.carry(from: scene.root, to: next.root, at: time) }
        Transaction.withoutActions {
            host.replaceSublayer(scene.root, with: next.root)
            host.bounds = next.root.bounds
        }
        (options.media as? ReloadableSceneMedia)?.finishReload()
        scene = next
    }

    /// `scene-set NAME VALUE` (SCENES.md §11): the param takes `text` (parsed as `--set` parses it) from tree time
    /// `time` on, the tree changing as an implicit change would (0.25 s, Core Animation's default curve). Later
    /// loads (a live reload, the next `scene-set`) keep the value. Returns the param's value as the OSD says it.
    /// A name the scene does not declare, or a value that does not parse or is out of range, throws and leaves the
    /// scene as it was.
    @discardableResult
    public func set(_ name: String, _ text: String, at time: Double) throws(SceneSetError) -> String {
        guard let param = scene.params.first(where: { $0.name == name }) else {
            let names = scene.params.map(\.name)
            throw SceneSetError("'\(name)' is not a param of this scene" + (names.isEmpty ? " (it has none)" : " (\(names.joined(separator: ", ")))"))
        }
        if case .failure(let e) = ParamText.parse(text, as: param.kind) { throw SceneSetError("'\(name)': \(e.message)") }
        let previous = options
        options.sets.removeAll { $0.name == name }
        options.sets.append((name, text))
        let next: LoadedScene
        do throws(SceneErrors) { next = try load() } catch {
            options = previous
            throw SceneSetError("'\(name)': \(error.description)")
        }
        replace(with: next, morphAt: time)
        return "\(name) = \(text)"
    }
}

/// Why a `scene-set` was refused (the scene keeps playing as it was).
public struct SceneSetError: Error, CustomStringConvertible, Sendable {
    /// One line: what was wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
