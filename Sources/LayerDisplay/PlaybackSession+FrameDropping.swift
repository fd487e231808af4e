import LayerKit
import LayerMedia

/// mpv's `--framedrop=decoder` in every window (issue 30): a decoder that falls more than two frames behind the clock
/// skips non-reference frames until it has caught up (`Player.dropsLateFrames`), instead of drifting behind until the
/// next keyframe jump. The frames it skips are never shown, so the grid's accounting already counts them as dropped;
/// `--stats` also says how many the decoders skipped (`decoder_drops`).
extension PlaybackSession {
    /// Every player this window decodes with: its own, those in its tree, and every playlist item's (shown or not).
    var decodingPlayers: [Player] {
        var players = root.playersInTree + (playlistTree?.items.flatMap { $0.layer.playersInTree } ?? [])
        if let player, !players.contains(where: { $0 === player }) { players.append(player) }
        return players
    }

    /// Lets the players drop late frames in their decoders (at the start, and for an item appended while playing).
    func letDecodersDropLateFrames() {
        for player in decodingPlayers { player.dropsLateFrames = options.dropsLateFramesInDecoder }
    }

    /// Notes, at the end, the frames the decoders skipped.
    func noteDecoderDrops() {
        statistics.decoderDrops = decodingPlayers.reduce(0) { $0 + $1.framesSkippedByDecoder }
    }
}
