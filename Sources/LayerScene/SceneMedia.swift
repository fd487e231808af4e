import LayerGraphics
import LayerKit
import LayerMedia

/// What probing a media input tells expressions (`inputs.ID.width` …, SCENES.md §3).
public struct SceneMediaInfo: Sendable, Equatable {
    public var size: Size?
    public var duration: Double?
    public var fps: Double?
    public var hasAudio: Bool
    public init(size: Size?, duration: Double?, fps: Double?, hasAudio: Bool) {
        self.size = size; self.duration = duration; self.fps = fps; self.hasAudio = hasAudio
    }

    var sceneValue: SceneValue {
        let w = size?.width ?? 0, h = size?.height ?? 0
        return .object([
            "width": .number(w), "height": .number(h), "size": .list([.number(w), .number(h)]),
            "aspect": .number(h > 0 ? w / h : 1), "duration": duration.map(SceneValue.number) ?? .undefined,
            "fps": fps.map(SceneValue.number) ?? .undefined, "hasVideo": .bool(size != nil), "hasAudio": .bool(hasAudio),
        ])
    }
}

/// A media input of a scene: a file shown by one or more `media` layers.
public struct SceneInput: Sendable, Equatable {
    public var id: String
    /// The path as resolved against the scene's folder (or the working directory for command-line values).
    public var src: String
    /// The media time shown at a layer's local time 0.
    public var start: Double
    public var loop: Bool
    public var stream: Int?
    public var info: SceneMediaInfo?
}

/// Opens media for a scene: probes inputs and makes the layers that show them. The scene module only describes;
/// LayerMedia's implementation (`MediaAssetSceneMedia`) decodes, and tests can pass a double whose time they control.
public protocol SceneMedia: AnyObject {
    /// Probes `path`; the thrown error's description becomes the message ("cannot open 'clip.mov': …").
    func probe(_ path: String) throws -> SceneMediaInfo
    /// A layer showing `input` with `videoGravity`, playing on the scene clock.
    func makeLayer(for input: SceneInput, videoGravity: ContentsGravity) throws -> Layer
    /// The text subtitle tracks of `path`, in stream order; LayerMedia's reader unless a double answers.
    func subtitleTracks(_ path: String) throws -> [SubtitleTrack]
    /// The load finished without errors and `root` is the scene's tree: the layers made know their place and
    /// timing now (shared decodes can be checked against them). Nothing by default.
    func didBuild(_ root: Layer)
}

extension SceneMedia {
    /// The text subtitle tracks of the file at `path`, in stream order (a `subtitles` layer's `input` + `stream`).
    public func subtitleTracks(_ path: String) throws -> [SubtitleTrack] { try SubtitleReader.tracks(in: path) }
    public func didBuild(_ root: Layer) {}
}
