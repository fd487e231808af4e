import Foundation
import LayerGraphics
import LayerKit
import LayerMedia

/// A scene's `subtitles` layer (SCENES.md §3): a text box whose string is the cue at the layer's local time.
///
/// The scene's geometry sets this layer's bounds (their width is the wrap width); the cue shows in `box`, which
/// takes the look keys (background, corners, border, shadow) and holds `text` inset by `padding`. The box's height
/// follows the cue and it grows upwards from the bottom of the bounds, so `anchorPoint: [0.5, 1]` with a zero
/// height keeps the cue's bottom edge at `position`. A layer's own bounds are fixed before its snapshot asks for
/// contents, so the box, a sublayer, is what follows the cue. Between cues the box is hidden.
public final class SceneSubtitlesLayer: Layer {
    /// The cues; nil shows nothing (an input without the subtitle stream asked for).
    public let track: SubtitleTrack?
    /// The medium's length when it loops (local times wrap into it), else nil.
    public let loopDuration: Double?
    /// The media time at local time 0: the input's `start` (SCENES.md §6), so cues keep with its picture.
    public var mediaStart = 0.0
    /// Horizontal and vertical space between the box's edges and the text.
    public var padding = Size(width: 0, height: 0)
    /// Carries the look keys; hidden between cues.
    public let box = Layer()
    /// Carries the text keys; its string is the cue's text.
    public let text = TextLayer()
    /// The text, bounds and padding the box was last laid out for, so an unchanged cue is not measured again.
    private var shown: (text: String, bounds: Rect, padding: Size)?

    /// - Parameters:
    ///   - track: the cues to show; nil shows none.
    ///   - loopDuration: the length of a looping input, so cues repeat as its picture does.
    public init(track: SubtitleTrack?, loopDuration: Double? = nil) {
        self.track = track
        self.loopDuration = loopDuration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        super.init()
        box.name = "subtitle-box"
        text.name = "subtitle-text"
        box.isHidden = true
        text.isWrapped = true
        box.addSublayer(text)
        addSublayer(box)
    }

    /// The cue text at local time `time` (cues showing together stacked, the earlier above); nil between cues.
    public func cueText(at time: Double) -> String? {
        guard let track else { return nil }
        // Media time is the input's `start` plus the local time, as for a media layer; before the medium's start its
        // picture holds the first frame, so the captions hold what is shown at media time 0.
        var t = max(time + (mediaStart.isFinite ? mediaStart : 0), 0)
        if let d = loopDuration, t.isFinite, t >= d { t = t - (t / d).rounded(.down) * d }
        let lines = track.cues(at: t).map(\.text).filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// Lays the box out for the cue of `time`; the layer itself draws its model contents (usually none).
    public override func presentationContents(at time: Double) -> LayerContents? {
        // Changes made for a snapshot's time never animate (SEMANTICS-ANIMATION.md §4).
        Transaction.withoutActions { show(cueText(at: time)) }
        return contents
    }

    private func show(_ cue: String?) {
        let b = bounds.standardized
        let pad = Size(width: max(0, padding.width.isFinite ? padding.width : 0), height: max(0, padding.height.isFinite ? padding.height : 0))
        let width = b.width - 2 * pad.width
        guard let cue, width >= 1, width <= 16384 else { box.isHidden = true; return }
        if shown?.text != cue || shown?.bounds != b || shown?.padding != pad {
            shown = (cue, b, pad)
            text.string = .plain(cue)
            text.bounds = Rect(x: 0, y: 0, width: width, height: 16384)
            let height = min(16384, max(1, text.preferredFrameSize().height))
            text.frame = Rect(x: pad.width, y: pad.height, width: width, height: height)
            box.frame = Rect(x: b.minX, y: b.maxY - height - 2 * pad.height, width: b.width, height: height + 2 * pad.height)
        }
        box.isHidden = false
    }
}
