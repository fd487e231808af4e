import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia

/// A playlist opened as one tree and one sound on one timeline (issue 30): what the window plays in one session and
/// an export of several inputs renders, built by the same code for both.
struct OpenedPlaylist {
    /// The inputs that opened, in order.
    let items: [String]
    /// The tree; `tree.pose(at:)` before each snapshot.
    let tree: PlaylistTree
    /// The items' sound, mixed on the timeline (nil when no item has sound, or with --no-audio).
    let mix: PlaylistAudioMix?
    /// The first item's frame rate (the window's frame grid, the export's default rate); nil without video.
    let frameRate: (num: Int32, den: Int32)?
    /// The cards (their players decode ahead from each item's start).
    let cards: [CardTree]
}

/// An item that cannot sit on a playlist's timeline (a still plays until quit, a live stream has no end): a window
/// then plays its items one session each, as before, and an export refuses.
struct NotOnTimeline: Error, CustomStringConvertible { let description: String }

extension Layerplay {
    /// Whether these inputs can play on one timeline: files of a known length (not a still, not a live stream).
    static func playsOnTimeline(_ assets: [MediaAsset]) -> Bool {
        assets.allSatisfy { !$0.isStill && !$0.isLive && $0.duration.isFinite && $0.duration > 0 }
    }

    /// Opens `items` as one timeline: each item's card (the effect flags apply to each), from --start for --duration
    /// (or to its picture's end), joined by --transition. `skipping` says what to do with an item that fails to open:
    /// a window skips it with one line (`skip` returns), an export stops (nil: rethrow).
    /// - Throws: `RunError` when an item cannot play on a timeline (a still, a live stream) or none opens.
    func openPlaylist(_ items: [String], inWindow: Bool, skip: ((String, RunError) -> Void)?) throws -> OpenedPlaylist {
        var opened: [OpenedItem] = []
        for item in items {
            do { opened.append(try openPlaylistItem(item, inWindow: inWindow)) } catch let error as RunError {
                guard let skip else { throw error }
                skip(item, error)
            }
        }
        guard let first = opened.first else { throw RunError("no input of the playlist could be played") }
        let transition = playlistOptions.parsedTransition
        let timeline = PlaylistTimeline(lengths: opened.map(\.length), transition: transition?.seconds ?? 0)
        if timeline.wasClamped, let transition {
            StandardError.writeLine("layerplay: warning: an item is shorter than twice the transition (\(transition.seconds) s): its transitions are shortened to half its length")
        }
        let canvas = first.card.canvas
        // In a window, each item's chapters and subtitles serve PgUp/PgDn and `t` while it plays.
        let tree = PlaylistTree(items: opened.map { $0.treeItem(inWindow: inWindow) },
                                timeline: timeline, transition: transition, size: (canvas.width, canvas.height),
                                loops: inWindow && loopPlaylist)
        var mix: PlaylistAudioMix?
        if !noAudio && opened.contains(where: { $0.asset.audio != nil }) {
            do {
                mix = try PlaylistAudioMix(items: opened.map(\.soundItem),
                                           timeline: timeline, channels: 2, loops: inWindow && loopPlaylist)
            } catch {
                if !inWindow { throw RunError("\(error)") }
                StandardError.writeLine("layerplay: warning: playing without sound: \(error)")
            }
        }
        var rate: (num: Int32, den: Int32)?
        if let v = first.asset.video, v.frameRateNumerator > 0, v.frameRateDenominator > 0 { rate = (v.frameRateNumerator, v.frameRateDenominator) }
        return OpenedPlaylist(items: opened.map(\.item), tree: tree, mix: mix, frameRate: rate, cards: opened.map(\.card))
    }

    /// One input opened for a playlist's timeline: its card, from --start for --duration (or to its picture's end).
    /// - Throws: `NotOnTimeline` for a still or a live stream, `RunError` when it cannot be opened or played.
    func openPlaylistItem(_ item: String, inWindow: Bool) throws -> OpenedItem {
        var one = self
        one.input = item
        let media = try one.openMedia(item)
        let asset = media.asset
        guard Self.playsOnTimeline([asset]) else {
            throw NotOnTimeline(description: "'\(item)' is \(asset.isStill ? "a still" : "live, with no length"): a playlist of several inputs takes files of a known length")
        }
        let card = try one.cardTree(asset: asset, inWindow: inWindow)
        let begin = start?.seconds ?? 0
        let end = asset.video == nil ? asset.duration : asset.pictureLength() ?? asset.duration
        let length = min(duration?.seconds ?? .infinity, end - begin)
        guard length > 0 else { throw RunError("nothing to play: --start \(begin) is past the end of '\(item)' (\(end) s)") }
        // The item's media time runs from its begin and holds its last frame after its end (never wraps).
        card.player?.range = PlaybackRange(start: begin, end: begin + length, loops: false)
        if card.player == nil { for v in Self.audioVisualizers(card.host) { v.range = PlaybackRange(start: begin, end: begin + length, loops: false) } }
        return OpenedItem(item: item, asset: asset, card: card, begin: begin, length: length, hasSound: !noAudio && asset.audio != nil)
    }
}

/// One input of a playlist, opened (`openPlaylistItem`).
struct OpenedItem {
    let item: String
    let asset: MediaAsset
    let card: CardTree
    /// The media time it starts at (--start), and how long it plays.
    let begin: Double, length: Double
    /// Whether its sound plays (it has some, and not --no-audio).
    let hasSound: Bool

    /// Its place in the tree; in a window, with its chapters and subtitles (PgUp/PgDn and `t` while it plays).
    func treeItem(inWindow: Bool) -> PlaylistTree.Item {
        PlaylistTree.Item(layer: card.host, size: (card.canvas.width, card.canvas.height), begin: begin,
                          chapters: inWindow ? (try? MediaAsset.chapters(of: item)) ?? [] : [], subtitles: card.subtitles)
    }

    /// Its part of the mixed sound (silent without sound).
    var soundItem: PlaylistAudioMix.Item { .init(path: hasSound ? item : nil, begin: begin) }
}
