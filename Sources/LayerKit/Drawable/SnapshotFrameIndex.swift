/// The export frame a snapshot is taken for, so a `DrawableLayer` can tell its callback (`DrawableFrame.frameIndex`).
/// A task-local value: it needs no change to `snapshot(at:)` and never leaks into a snapshot taken elsewhere.
enum SnapshotFrameIndex {
    @TaskLocal static var current: Int?
}

extension Layer {
    /// `snapshot(at:)` for frame `frameIndex` of an export: the same snapshot, with the index handed to drawables.
    public func snapshot(at time: Double, frameIndex: Int) -> LayerSnapshot {
        SnapshotFrameIndex.$current.withValue(frameIndex) { snapshot(at: time) }
    }

    /// The time of the snapshot being taken, on the root's clock (the host's time).
    var hostTime: Double? {
        var root = self
        while let up = root.superlayer ?? root.maskedLayer { root = up }
        return root.hostState?.time
    }
}
