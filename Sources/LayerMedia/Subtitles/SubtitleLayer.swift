import Foundation
import LayerGraphics
import LayerKit

/// Shows a subtitle track over a canvas (its bounds are the canvas, upright, added last so that it is above
/// everything else): the cues of the snapshot's time. Text cues (SubRip, WebVTT, mov_text) are drawn by a
/// `TextLayer`, bottom centre, outlined; ASS/SSA tracks by libass, with their own styles and positions, into a plain layer's
/// contents.
///
/// The sublayers are set for the time of each snapshot while the snapshot is made (in `presentationContents`,
/// which a snapshot asks before it visits the sublayers), so that every frame shows exactly the cues of its own
/// time: a cue from 1.0 to 2.5 s is in the frames whose time t has 1.0 ≤ t < 2.5, in an export and in a window.
public final class SubtitleLayer: Layer {
    /// The tracks `t` cycles through, and which one shows.
    public private(set) var tracks: [SubtitleTrack]
    /// Which of `tracks` shows (`cycleTracks()` steps it).
    public private(set) var selection: SubtitleSelection
    /// Seconds the cues show later than their times (mpv's `sub-delay`; negative: earlier).
    public var delay = 0.0
    /// The player whose timeline the snapshot times are on (loops map back into the medium); nil: they are media times.
    public weak var player: Player?

    /// Draws the text cues: white, over four black copies nudged left, right, up and down (an outline).
    let textLayer = TextLayer()
    let outlineLayers = (0..<4).map { _ in TextLayer() }
    /// Holds the text and its outline, framed as the text.
    let textGroup = Layer()
    /// Shows libass's picture of an ASS/SSA track.
    let assLayer = Layer()
    private var assRenderers: [Int: AssRenderer] = [:]
    /// What the text layer was last set up for, so that an unchanged cue is not laid out again.
    var shownText: (spans: [SubtitleSpan], canvas: Size)?

    /// A layer showing `tracks[selected]` (nil or an index out of range: none shows until `cycleTracks()`).
    public init(tracks: [SubtitleTrack], selected: Int? = 0) {
        self.tracks = tracks
        selection = SubtitleSelection(trackCount: tracks.count, current: selected)
        super.init()
        name = "subtitles"
        textGroup.name = "subtitle-text"
        assLayer.name = "subtitle-ass"
        textGroup.isHidden = true
        assLayer.isHidden = true
        configureText()
        for outline in outlineLayers { textGroup.addSublayer(outline) }
        textGroup.addSublayer(textLayer)
        addSublayer(textGroup)
        addSublayer(assLayer)
    }

    /// The next track, or none after the last (the `t` key).
    public func cycleTracks() { selection.cycle() }

    /// The track that shows, if any.
    public var currentTrack: SubtitleTrack? { selection.current.map { tracks[$0] } }

    /// Sets the sublayers for the cues of `time` and gives no contents of its own.
    public override func presentationContents(at time: Double) -> LayerContents? {
        let media = (player?.range?.mediaTime(time) ?? time) - delay
        // Changes made for a snapshot's time never animate (SEMANTICS-ANIMATION.md §4).
        Transaction.withoutActions { show(at: media) }
        return nil
    }

    private func show(at seconds: Double) {
        let canvas = bounds.standardized
        // A canvas no picture can have (NaN, empty, beyond 16384 pixels) shows none.
        guard let index = selection.current, canvas.width >= 1, canvas.height >= 1, canvas.width <= 16384, canvas.height <= 16384 else {
            textGroup.isHidden = true
            assLayer.isHidden = true
            return
        }
        let track = tracks[index]
        switch track.kind {
        case .text:
            assLayer.isHidden = true
            // Cues showing together are stacked, the earlier above.
            var spans: [SubtitleSpan] = []
            for cue in track.cues(at: seconds) where !cue.spans.isEmpty {
                if !spans.isEmpty { spans.append(SubtitleSpan(text: "\n")) }
                spans += cue.spans
            }
            showText(spans, canvas: canvas)
        case .ass:
            textGroup.isHidden = true
            showASS(track: index, at: seconds, canvas: canvas)
        }
    }

    private func showASS(track index: Int, at seconds: Double, canvas: Rect) {
        if assRenderers[index] == nil { assRenderers[index] = AssRenderer(tracks[index]) }
        guard let renderer = assRenderers[index],
              let frame = renderer.frame(width: Int(canvas.width.rounded()), height: Int(canvas.height.rounded()),
                                         at: SubtitleTrack.millisecond(at: seconds)) else {
            assLayer.isHidden = true
            return
        }
        if case .image(let shown)? = assLayer.contents, shown === frame.image {} else { assLayer.contents = .image(frame.image) }
        let placed = Rect(x: canvas.minX + Double(frame.origin.x), y: canvas.minY + Double(frame.origin.y),
                          width: Double(frame.image.width), height: Double(frame.image.height))
        if assLayer.frame != placed { assLayer.frame = placed }
        if assLayer.isHidden { assLayer.isHidden = false }
    }
}
