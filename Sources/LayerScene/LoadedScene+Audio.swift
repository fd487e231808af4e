/// The scene's choice of sound (SCENES.md §3 `audio`): one input's, or none.
extension LoadedScene {
    /// The input whose sound plays and, in a window, drives the clock; nil for `"audio": "none"` or when no
    /// input has sound. An export muxes its sound from its `start` on.
    public var audio: SceneInput? { audioInput.flatMap { id in inputs.first { $0.id == id } } }
}

extension SceneInput {
    /// Where a looping input's sound wraps: its duration, where its picture wraps too (`PlaybackRange` over the
    /// medium); nil when it does not loop or has no known length.
    public var loopLength: Double? {
        guard loop, let d = info?.duration, d.isFinite, d > 0 else { return nil }
        return d
    }
}
