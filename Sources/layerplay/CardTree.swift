import Foundation
import LayerGraphics
import LayerKit
import LayerMedia
import LayerScene

/// Today's card, built from the built-in scene `builtin:card` (SCENES.md §5): the input and the effect flags are
/// the scene's params, and the hosts (a window, a movie, a still) show `host`: the scene's canvas and, above it,
/// upright and over the whole canvas, the subtitles.
///
/// Only where the tree comes from changed: playing, exporting, subtitles and audio stay the hosts' own.
final class CardTree {
    /// What the hosts render: the card scene's root, then the subtitles.
    let host = Layer()
    let scene: LoadedScene
    /// The subtitles, over the whole canvas and above everything else (not turned with the card).
    let subtitles: SubtitleLayer?

    /// - Parameters:
    ///   - params: the card's params from the flags (`Layerplay.cardParams`), `input` excluded.
    ///   - media: opens the input; LayerMedia's by default (`layerplay bench` passes its synthetic test card).
    init(input: String, params: [(name: String, value: String)], subtitles: SubtitleLayer?,
         media: SceneMedia = MediaAssetSceneMedia()) throws {
        var options = SceneLoadOptions(file: "builtin:card", directory: FileManager.default.currentDirectoryPath)
        options.arguments = [input]
        options.allowsNetwork = true  // the user typed the input: any URL or pipe (SCENES.md §2 is for scene files)
        options.sets = params
        // MediaAssetSceneMedia opens the input as any scene's: a PlayerLayer for a video, contents for a still,
        // and for sound only whatever it shows for sound.
        options.media = media
        do throws(SceneErrors) { scene = try SceneLoader.load(contentsOf: "builtin:card", options: options) } catch {
            // The user wrote flags, not a scene: say what was wrong, not where in the built-in file.
            throw RunError(error.diagnostics.first?.message ?? error.description)
        }
        self.subtitles = subtitles
        host.name = "card-host"
        host.anchorPoint = .zero
        host.position = .zero
        host.bounds = scene.root.bounds
        Transaction.withoutActions {
            host.addSublayer(scene.root)
            if let subtitles {
                subtitles.frame = host.bounds
                host.addSublayer(subtitles)
            }
        }
        subtitles?.player = player
    }

    /// The canvas in pixels.
    var canvas: PixelSize {
        PixelSize(width: max(1, Int(scene.canvasSize.width.rounded())), height: max(1, Int(scene.canvasSize.height.rounded())))
    }

    /// The card's video player, nil for a still or sound only: the window's session feeds it and seeks it.
    var player: Player? { Self.firstPlayer(scene.root) }

    static func firstPlayer(_ layer: Layer) -> Player? {
        if let p = (layer as? PlayerLayer)?.player { return p }
        for s in layer.sublayers ?? [] { if let p = firstPlayer(s) { return p } }
        return nil
    }
}

extension Color {
    /// `#rrggbbaa`: every colour the command line parses (CSS names, #rgb, #rrggbb, #rrggbbaa) has 8-bit
    /// components, so this text parses back to the same colour.
    var hexText: String {
        func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
        return String(format: "#%02x%02x%02x%02x", byte(red), byte(green), byte(blue), byte(alpha))
    }
}
