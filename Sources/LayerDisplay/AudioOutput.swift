import LayerGraphics
import CSDL2
import Foundation
import LayerMedia

/// Plays an `AudioStream` through an SDL audio device, and is the playback's master clock: each device
/// callback notes which timeline time it hands over and when, and the clock interpolates from there with
/// the host clock, minus the device's buffer (ffplay's audio clock).
///
/// Started (or resumed, or moved while playing), the clock runs on the host clock at once, from the picture's time,
/// and the device's first callback with sound skips the samples the picture has already passed, so that the sound
/// joins in step and the device's clock takes over without a jump: a device whose first callback comes late (SDL 2.26
/// under PulseAudio, after its sink's buffer of silence: 1.3–2.1 s, issue 30 item 7) no longer holds the picture.
final class AudioOutput: PlaybackClock, @unchecked Sendable { // mutable state in `state`; `device` fixed after init
    /// The sound playing: a file's stream or a playlist's mix; replaced (with the device locked) when the audio
    /// track changes.
    private(set) var stream: any PlaybackSoundSource
    private var device: SDL_AudioDeviceID = 0
    /// What a file's stream was opened with, for a stream of another track (`selectTrack`); nil for a mix.
    private let file: (path: String, range: PlaybackRange, placement: AudioPlacement, live: Bool)?
    /// The sound of a live input (issue 28): when it runs dry while playing, the clock goes on on the host clock
    /// (the stream's own clock is the wall clock) instead of stopping, and the sound joins again where the picture is.
    private let live: Bool
    /// Seconds between handing samples to SDL and hearing them (one device buffer).
    private let latency: Double
    private let state: Guarded<State>

    struct State {
        var paused = true
        /// Timeline time of the first sample of the last callback, when it ran, and how long it lasts.
        var anchorTime: Double
        var anchorHost: Double
        var anchorLength = 0.0
        var starved = true
        var volume = 1.0
        var muted = false
        /// Timeline seconds per wall second.
        var speed = 1.0
        /// Seconds the sound plays after its picture (mpv's `audio-delay`): the picture of timeline time `t` is heard
        /// with the sound of `t - delay`. The anchors are the sound's times; the clock (the picture's) adds it.
        var delay = 0.0
        /// While the device has not yet handed over sound since playing (again): the sound's time then and the host
        /// time; the clock runs on the host clock from there (nil: the device's callbacks drive it).
        var hostStart: (time: Double, host: Double)? { didSet { lastCallback = nil } }
        /// When the last callback ran while `hostStart` is set: the device's clock takes over at a callback one
        /// buffer after the one before (callbacks flowing in real time), not at the burst some devices ask for at
        /// once when unpaused and then fall silent for a second or two (SDL under PulseAudio).
        var lastCallback: Double?

        /// The sound's time the host clock gives now, while `hostStart` is set.
        func hostTime(_ now: Double) -> Double? { hostStart.map { $0.time + (now - $0.host) * speed } }
    }

    /// Whether the clock runs on the host clock, waiting for the device's first sound (see the type's comment).
    var runsOnHostClock: Bool { state.withLock { !$0.paused && $0.hostStart != nil } }

    /// The tempo filter while the speed is not 1 (touched on the device's thread, or with the device locked).
    private var tempo: AudioTempo?
    /// Where the tempo filter's output starts on the timeline (nil: at the next sample read), and how many frames it
    /// has given since: its frame `n` plays timeline time `origin + n × speed / rate` (`AudioTempo`).
    private var tempoOrigin: Double?
    private var tempoFramesOut = 0
    private var scratch = [Float](repeating: 0, count: 1024 * 2)

    /// Opens the default output device (or SDL's dummy one) and a stream of `path`'s sound in its format, placed
    /// on the timeline by `placement`.
    /// `live`: a live input's sound, which keeps the gaps of its stream as silence and, running dry, leaves the clock
    /// to the host clock (see `live`).
    convenience init(path: String, range: PlaybackRange, placement: AudioPlacement = AudioPlacement(offset: 0), device name: String? = nil,
                     live: Bool = false) throws {
        try self.init(range: range, device: name, file: (path, range, placement, live)) {
            try AudioStream(path: path, sampleRate: 48000, channels: 2, range: range, placement: placement, keepsGaps: live)
        }
    }

    /// Opens the device for the samples `makeSource` gives (interleaved stereo float at 48 kHz): a file's stream, or a
    /// playlist's mix (`PlaylistAudioMix`), made once the sound system is up.
    init(range: PlaybackRange, device name: String? = nil, file: (path: String, range: PlaybackRange, placement: AudioPlacement, live: Bool)? = nil,
         source makeSource: () throws -> any PlaybackSoundSource) throws {
        // SDL tries its drivers before we decide there is no sound (a sound server may run without XDG_RUNTIME_DIR).
        let drivers = DisplayProbe.soundDriversHere()
        if case .only(let names) = drivers { setenv("SDL_AUDIODRIVER", names.joined(separator: ","), 1) }
        defer { if case .only = drivers { unsetenv("SDL_AUDIODRIVER") } }
        if SDL_InitSubSystem(UInt32(SDL_INIT_AUDIO)) != 0 {
            if case .only = drivers { throw DisplayError("no sound card, and no sound server answered") }
            throw DisplayError("cannot play sound: \(String(cString: SDL_GetError())) (write the result to a file with -o OUT.mp4)")
        }
        var wanted = SDL_AudioSpec()
        wanted.freq = 48000
        wanted.format = SDL_AudioFormat(AUDIO_F32SYS)
        wanted.channels = 2
        wanted.samples = 1024
        wanted.callback = { userdata, bytes, length in
            guard let userdata, let bytes else { return }
            Unmanaged<AudioOutput>.fromOpaque(userdata).takeUnretainedValue().fill(bytes, Int(length))
        }
        self.file = file
        live = file?.live ?? false
        state = Guarded(State(anchorTime: range.start, anchorHost: hostSeconds()))
        // SDL converts to the device for us (no changes allowed below); the stream resamples once to what we ask.
        stream = try makeSource()
        latency = Double(wanted.samples) / Double(wanted.freq)
        wanted.userdata = Unmanaged.passUnretained(self).toOpaque()
        var obtained = SDL_AudioSpec()
        device = SDL_OpenAudioDevice(name, 0, &wanted, &obtained, 0)
        if device == 0 {
            stream.stop()
            if let name {
                let known = (0..<max(0, SDL_GetNumAudioDevices(0))).compactMap { SDL_GetAudioDeviceName($0, 0).map { String(cString: $0) } }
                throw DisplayError("no sound device '\(name)'" + (known.isEmpty ? "" : " (devices: \(known.map { "'\($0)'" }.joined(separator: ", ")))"))
            }
            throw DisplayError("cannot open the sound device: \(String(cString: SDL_GetError()))")
        }
    }

    deinit { close() }

    /// Stops the device (waits for a running callback) and the decoder; safe to call twice.
    func close() {
        if device != 0 {
            SDL_CloseAudioDevice(device)
            device = 0
            SDL_QuitSubSystem(UInt32(SDL_INIT_AUDIO))
        }
        stream.stop()
    }

    /// The device callback (SDL's audio thread): samples of the stream, at the volume, or silence when muted.
    private func fill(_ bytes: UnsafeMutablePointer<UInt8>, _ length: Int) {
        let frames = length / (4 * 2)
        let samples = UnsafeMutableRawPointer(bytes).bindMemory(to: Float.self, capacity: frames * 2)
        // The picture moves on the host clock until sound arrives: what this buffer starts with is heard one buffer
        // from now, so skip to the sound of that moment; if the decoder has not got that far, silence, and again next time.
        if let target = state.withLock({ s in s.paused ? nil : s.hostTime(hostSeconds() + latency) }) {
            guard stream.skip(to: target) else {
                samples.update(repeating: 0, count: frames * 2)
                return
            }
        }
        let (time, starved) = tempo == nil ? stream.read(into: samples, frames: frames) : stretched(into: samples, frames: frames)
        let (volume, muted) = state.withLock { s in
            let now = hostSeconds(), length = Double(frames) / 48000
            if starved && live && !s.paused && s.hostStart == nil {
                // A live stream ran dry (a gap, a reconnect, its end): its clock is the wall clock, so the picture goes
                // on from the time heard now, and the sound that comes back joins where the picture is (`skip`).
                let into = min(max(0, now - s.anchorHost), s.anchorLength)
                s.hostStart = (s.anchorTime + (into - latency) * s.speed, now)
                return (s.volume, s.muted)
            }
            if s.hostStart != nil {
                // The device's clock takes over once sound flows (it then reads what the host clock read).
                let gap = s.lastCallback.map { now - $0 } ?? 0
                s.lastCallback = now
                if starved || gap < 0.5 * length || gap > 2 * length { return (s.volume, s.muted) }
                s.hostStart = nil
            }
            s.anchorTime = time
            s.anchorHost = hostSeconds()
            // Wall seconds these samples last; the clock moves `speed` times as fast.
            s.anchorLength = starved ? 0 : Double(frames) / 48000
            s.starved = starved
            return (s.volume, s.muted)
        }
        if muted { samples.update(repeating: 0, count: frames * 2) }
        else if volume < 1 { for i in 0..<(frames * 2) { samples[i] *= Float(volume) } }
    }

    /// `frames` frames of the stream played at the speed, pitch kept: the stream is read (`speed` times as many
    /// frames) through the tempo filter. Returns the timeline time of the first frame, and whether the stream had
    /// nothing (then silence, and the filter starts afresh from the next sample that arrives).
    private func stretched(into samples: UnsafeMutablePointer<Float>, frames: Int) -> (time: Double, starved: Bool) {
        guard let tempo else { return (0, true) }
        let speed = tempo.tempo
        while tempo.available < frames {
            let (time, starved) = scratch.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, frames: 1024) }
            if starved {
                samples.update(repeating: 0, count: frames * 2)
                resetTempo()
                return (time, true)
            }
            if tempoOrigin == nil { tempoOrigin = time; tempoFramesOut = 0 }
            do { try scratch.withUnsafeBufferPointer { try tempo.push($0.baseAddress!, frames: 1024) } } catch { break }
        }
        let got = tempo.pull(into: samples, frames: frames)
        if got < frames { (samples + got * 2).update(repeating: 0, count: (frames - got) * 2) }
        let time = (tempoOrigin ?? 0) + Double(tempoFramesOut) * speed / 48000
        tempoFramesOut += got
        return (time, false)
    }

    /// A new tempo filter for the current speed (none at 1×); its output is placed by the next sample read.
    private func resetTempo() {
        let speed = state.withLock { $0.speed }
        tempo = speed == 1 ? nil : try? AudioTempo(tempo: speed, sampleRate: 48000, channels: 2)
        tempoOrigin = nil
        tempoFramesOut = 0
    }

    /// Plays `speed` times as fast (0.25–4), the pitch kept; the sound goes on from the time heard now.
    func setSpeed(_ speed: Double) {
        let heard = time - delay
        SDL_LockAudioDevice(device)
        state.withLock { s in
            s.speed = speed
            s.anchorTime = heard; s.anchorHost = hostSeconds(); s.anchorLength = 0
            // The sound starts again from `heard`: the host clock carries the picture until it does.
            if !s.paused { s.hostStart = (heard, s.anchorHost) }
        }
        // The filter holds samples read ahead at the old speed: start again from the time heard now.
        stream.seek(to: heard)
        resetTempo()
        SDL_UnlockAudioDevice(device)
    }

    /// The sound's delay behind the picture, in seconds (negative: ahead); the picture stays where it is.
    var delay: Double {
        get { state.withLock { $0.delay } }
        set {
            let picture = time
            state.withLock { $0.delay = newValue }
            seek(to: picture)
        }
    }

    var speed: Double { state.withLock { $0.speed } }

    /// Whether the sound has ended and been handed to the device whole (a live input's stream stopped): the session
    /// may end once its picture has too.
    var hasPlayedOut: Bool { stream.hasPlayedOut }

    // MARK: Clock

    var time: Double {
        state.withLock { s in
            if s.paused { return s.anchorTime + s.delay }
            if let t = s.hostTime(hostSeconds()) { return t + s.delay }
            // Interpolated within the last callback's samples; the device plays them one buffer later.
            let into = min(max(0, hostSeconds() - s.anchorHost), s.anchorLength)
            return s.anchorTime + (into - latency) * s.speed + s.delay
        }
    }

    var isPaused: Bool { state.withLock { $0.paused } }

    func setPaused(_ paused: Bool) {
        let was = state.withLock { s in
            let was = s.paused
            if paused && !was {
                // Hold the time heard now.
                let into = min(max(0, hostSeconds() - s.anchorHost), s.anchorLength)
                s.anchorTime = s.hostTime(hostSeconds()) ?? s.anchorTime + (into - latency) * s.speed
                s.anchorLength = 0
                s.hostStart = nil
            }
            // Playing from the time held: on the host clock at once, until the device hands over sound.
            if !paused && was { s.hostStart = (s.anchorTime, hostSeconds()) }
            s.paused = paused
            return was
        }
        guard was != paused else { return }
        if !paused {
            SDL_LockAudioDevice(device)
            stream.seek(to: state.withLock { $0.anchorTime }) // resume exactly where the picture stands
            resetTempo()
            SDL_UnlockAudioDevice(device)
        }
        SDL_PauseAudioDevice(device, paused ? 1 : 0)
    }

    func seek(to t: Double) {
        SDL_LockAudioDevice(device)
        let heard = t - state.withLock { $0.delay }
        stream.seek(to: heard)
        state.withLock { s in
            s.anchorTime = heard; s.anchorHost = hostSeconds(); s.anchorLength = 0
            if !s.paused { s.hostStart = (heard, s.anchorHost) } // moved while playing: the picture goes on meanwhile
        }
        resetTempo()
        SDL_UnlockAudioDevice(device)
    }

    // MARK: Tracks

    /// Plays audio stream `number` of the file from the time heard now (mpv's `aid`, `#`): the new stream is opened
    /// before the old one stops, so a stream that cannot be opened leaves the sound as it was; the clock holds its
    /// time, so the picture stays in sync.
    /// Which audio stream of the file plays (0 = the first) and how many it has; a playlist's mix is one track.
    var track: (number: Int, count: Int) { (stream as? AudioStream)?.track ?? (0, 1) }

    func selectTrack(_ number: Int) throws {
        guard let file, let current = stream as? AudioStream else {
            throw DisplayError("the audio track cannot change while a playlist plays on one timeline")
        }
        let (path, range, placement, live) = file
        let previous = current.track.number
        StreamChoice.choose(number, of: .audio, in: path)
        let next: AudioStream
        do { next = try AudioStream(path: path, sampleRate: 48000, channels: 2, range: range, placement: placement, keepsGaps: live) } catch {
            StreamChoice.choose(previous, of: .audio, in: path)
            throw error
        }
        let picture = time
        SDL_LockAudioDevice(device)
        let old = stream
        stream = next
        SDL_UnlockAudioDevice(device)
        old.stop()
        seek(to: picture)
    }

    // MARK: Volume

    var volume: Double {
        get { state.withLock { $0.volume } }
        set { state.withLock { $0.volume = min(max(newValue, 0), 1) } }
    }
    var isMuted: Bool {
        get { state.withLock { $0.muted } }
        set { state.withLock { $0.muted = newValue } }
    }
}
