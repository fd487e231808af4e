import LayerKit

/// The videos a layer tree shows, for a host that drives several players on one clock (a scene's inputs): each
/// `PlayerLayer` asks its player for the frame of its own local time when the tree is snapshotted, so every input
/// follows the host's clock; the host only needs to know when a decoder is still on its way to that frame.
extension Layer {
    /// The players of the `PlayerLayer`s in this tree, each once, in tree order (a player shown by several
    /// layers decodes once).
    public var playersInTree: [Player] {
        var seen = Set<ObjectIdentifier>(), out: [Player] = []
        _ = visitPlayerLayers(parentTime: 0) { layer, _ in
            if let p = layer.player, seen.insert(ObjectIdentifier(p)).inserted { out.append(p) }
            return false
        }
        return out
    }

    /// Whether snapshotting this tree at `time` (on its parent's clock) would now wait for a video decoder: some
    /// `PlayerLayer`'s player is still decoding towards the frame of that layer's local time. A window shows what
    /// it has meanwhile instead of blocking (as it does for a single `Player`).
    public func videoWouldWait(at time: Double) -> Bool {
        visitPlayerLayers(parentTime: time) { layer, local in layer.player?.wouldWait(forFrameAt: local) ?? false }
    }

    /// Calls `body` with each `PlayerLayer` and its local time (as `LayerSnapshot` computes it) until it says true.
    private func visitPlayerLayers(parentTime: Double, _ body: (PlayerLayer, Double) -> Bool) -> Bool {
        let local = localTime(fromParentTime: parentTime)
        guard local.isFinite else { return false }
        if let p = self as? PlayerLayer, body(p, local) { return true }
        for s in sublayers ?? [] where s.visitPlayerLayers(parentTime: local, body) { return true }
        if let mask, mask.visitPlayerLayers(parentTime: local, body) { return true }
        return false
    }
}
