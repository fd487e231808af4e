import Foundation
import LayerGraphics
import LayerKit

/// A layer that shows a player's video (AVPlayerLayer): the frame for the snapshot's time, placed by
/// `videoGravity`, with the stream's sample aspect ratio and rotation applied (a phone video shot upright
/// shows upright). Transforms, corners, borders, masks and shadows apply as to any layer.
open class PlayerLayer: Layer {
    /// The player whose video the layer shows; nil shows nothing.
    public var player: Player? {
        didSet { videoLayer.player = player; layoutVideo() }
    }
    /// `resizeAspect` (the default), `resizeAspectFill` or `resize`.
    public var videoGravity: ContentsGravity = .resizeAspect {
        didSet { layoutVideo() }
    }
    open override var bounds: Rect {
        didSet { layoutVideo() }
    }

    /// The rectangle the picture occupies in the layer's bounds (after gravity).
    public private(set) var videoRect: Rect = .zero
    /// Whether a frame has been decoded and can be shown.
    public var isReadyForDisplay: Bool { player?.hasFrame ?? false }

    private let videoLayer = VideoContentsLayer()

    /// A layer with no player yet.
    public override init() {
        super.init()
        videoLayer.name = "video"
        // The picture is the layer's contents (SEMANTICS-LAYERS.md §9): a part, so neither `sublayers` nor hit
        // tests show it, and replacing the sublayers keeps the video.
        addPartSublayer(videoLayer)
    }

    /// A layer showing `player`'s video.
    public convenience init(player: Player) {
        self.init()
        self.player = player
        videoLayer.player = player
        layoutVideo()
    }

    /// Places the picture: its display size fitted by gravity, turned by the rotation metadata about its centre.
    private func layoutVideo() {
        guard let video = player?.asset.video else { videoRect = .zero; return }
        let b = bounds.standardized
        let dw = Double(video.displayWidth), dh = Double(video.displayHeight)
        guard dw > 0, dh > 0 else { return }
        let sx = b.width / dw, sy = b.height / dh
        let size: Size
        switch videoGravity {
        case .resize: size = b.size
        case .resizeAspectFill: size = Size(width: dw * max(sx, sy), height: dh * max(sx, sy))
        default: size = Size(width: dw * min(sx, sy), height: dh * min(sx, sy))
        }
        videoRect = Rect(x: b.midX - size.width / 2, y: b.midY - size.height / 2, width: size.width, height: size.height)
        // The stored picture is unrotated: its layer has the pre-rotation size and turns clockwise by the metadata.
        let quarter = video.rotation == 90 || video.rotation == 270
        // The player's own video layer never animates (SEMANTICS-ANIMATION.md §4).
        Transaction.begin()
        Transaction.disableActions = true
        defer { Transaction.commit() }
        videoLayer.bounds = Rect(x: 0, y: 0, width: quarter ? size.height : size.width, height: quarter ? size.width : size.height)
        player?.anticipateDrawnSize(width: videoLayer.bounds.width, height: videoLayer.bounds.height)
        videoLayer.position = Point(x: videoRect.midX, y: videoRect.midY)
        videoLayer.transform = Transform3D.makeRotation(Double(video.rotation) * .pi / 180, 0, 0, 1)
        videoLayer.contentsGravity = .resize // the sample aspect ratio is in the layer's size
    }
}

/// The picture inside a `PlayerLayer`: its contents are the player's frame at the snapshot's time.
final class VideoContentsLayer: Layer {
    weak var player: Player?
    override func presentationContents(at time: Double) -> LayerContents? {
        player?.frame(at: time).map { .pixelBuffer($0.pixelBuffer) }
    }
}
