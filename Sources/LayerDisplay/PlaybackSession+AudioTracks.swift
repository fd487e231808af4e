import Foundation

/// mpv's audio track properties (`#` cycles them): which audio stream of the file plays.
extension PlaybackSession {
    /// `aid` (and its alias `audio`, which mpv's `cycle audio` names): the playing audio stream's number from 1;
    /// set to a number, or cycled to the next stream (after the last, the first), at the current time, in sync.
    static let audioTrackProperties: [String: PlayerProperty] = {
        let track = PlayerProperty(
            get: { s in s.audio.map { PropertyValue.integer($0.track.number + 1) } },
            set: { s, v throws(CommandError) in
                guard let audio = s.audio else { throw CommandError("property unavailable", "no sound is playing") }
                let count = audio.track.count
                guard let n = v.double, n == n.rounded(), (1...Double(count)).contains(n) else {
                    throw CommandError("invalid parameter", "the audio track is 1–\(count), not \(v)")
                }
                try s.selectAudioTrack(Int(n) - 1)
            },
            cycle: { s, down throws(CommandError) in
                guard let audio = s.audio else { throw CommandError("property unavailable", "no sound is playing") }
                let (number, count) = audio.track
                guard count > 1 else { return }
                try s.selectAudioTrack((number + (down ? count - 1 : 1)) % count)
            },
            osd: { s in
                guard let audio = s.audio else { return "No sound" }
                let (number, count) = audio.track
                return "Audio: track \(number + 1)/\(count)"
            })
        return ["aid": track, "audio": track]
    }()

    /// Plays audio stream `number` (0 = the first) from now on.
    private func selectAudioTrack(_ number: Int) throws(CommandError) {
        guard let audio else { return }
        do { try audio.selectTrack(number) } catch {
            throw CommandError("error running command", "cannot play audio track \(number + 1): \(error)")
        }
    }
}
