/// A sound clock read on a timeline that is `offset` seconds behind the sound's media time: the sound of a scene
/// input whose `start` is `offset` (SCENES.md §6) plays media time `t + offset` at timeline time `t`, in step
/// with that input's picture, while the session keeps timeline times.
final class OffsetClock: PlaybackClock {
    private let sound: PlaybackClock
    private let offset: Double

    init(_ sound: PlaybackClock, offset: Double) {
        self.sound = sound
        self.offset = offset
    }

    var time: Double { sound.time - offset }
    var isPaused: Bool { sound.isPaused }
    func setPaused(_ paused: Bool) { sound.setPaused(paused) }
    func seek(to t: Double) { sound.seek(to: t + offset) }
}
