import Foundation
import LayerMedia

/// Inputs that are not one local file (issue 28): the run's open settings, and a live input's range.
extension Layerplay {
    /// Sets how every open of this run's inputs behaves, and refuses flags that do not fit the input.
    func prepareInputs() throws {
        InputSettings.current = streams.inputSettings
        if streams.inputFPS != nil && !InputLocation(input).isPicturePattern {
            throw RunError("--input-fps sets the rate of numbered pictures (frame_%04d.png); '\(input)' is not a pattern")
        }
    }

    /// A live input has no duration to seek in: it is shown from wherever it is when opened, so --start is refused
    /// with one line rather than waiting, frame by frame, for the stream to get there.
    func checkLiveStart(_ asset: MediaAsset) throws {
        guard asset.isLive, let start, start.seconds > 0 else { return }
        throw RunError("'\(input)' is live (it has no duration) and cannot seek: leave out --start")
    }

    /// For a live input, what ends its export: its video's last frame (or --duration, whichever comes first).
    func liveEnd(_ card: CardTree, _ asset: MediaAsset) -> ((Double) -> Bool)? {
        guard asset.isLive, let player = card.player else { return nil }
        return { player.hasEnded(at: $0) }
    }
}
