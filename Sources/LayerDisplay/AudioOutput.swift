import LayerGraphics
import CSDL2
import Foundation
import LayerMedia

/// Plays an `AudioStream` through an SDL audio device, and is the playback's master clock: each device
/// callback notes which timeline time it hands over and when, and the clock interpolates from there with
/// the host clock, minus the device's buffer (ffplay's audio clock).
final class AudioOutput: PlaybackClock, @unchecked Sendable { // mutable state in `state`; `device` fixed after init
    let stream: AudioStream
    private var device: SDL_AudioDeviceID = 0
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
    }

    /// Opens the default output device (or SDL's dummy one) and a stream of `path`'s sound in its format, placed
    /// on the timeline by `placement`.
    init(path: String, range: PlaybackRange, placement: AudioPlacement = AudioPlacement(offset: 0)) throws {
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
        state = Guarded(State(anchorTime: range.start, anchorHost: hostSeconds()))
        // SDL converts to the device for us (no changes allowed below); the stream resamples once to what we ask.
        stream = try AudioStream(path: path, sampleRate: 48000, channels: 2, range: range, placement: placement)
        latency = Double(wanted.samples) / Double(wanted.freq)
        wanted.userdata = Unmanaged.passUnretained(self).toOpaque()
        var obtained = SDL_AudioSpec()
        device = SDL_OpenAudioDevice(nil, 0, &wanted, &obtained, 0)
        if device == 0 {
            stream.stop()
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
        let (time, starved) = stream.read(into: samples, frames: frames)
        let (volume, muted) = state.withLock { s in
            s.anchorTime = time
            s.anchorHost = hostSeconds()
            s.anchorLength = starved ? 0 : Double(frames) / 48000
            s.starved = starved
            return (s.volume, s.muted)
        }
        if muted { samples.update(repeating: 0, count: frames * 2) }
        else if volume < 1 { for i in 0..<(frames * 2) { samples[i] *= Float(volume) } }
    }

    // MARK: Clock

    var time: Double {
        state.withLock { s in
            if s.paused { return s.anchorTime }
            // Interpolated within the last callback's samples; the device plays them one buffer later.
            let into = min(max(0, hostSeconds() - s.anchorHost), s.anchorLength)
            return s.anchorTime + into - latency
        }
    }

    var isPaused: Bool { state.withLock { $0.paused } }

    func setPaused(_ paused: Bool) {
        let was = state.withLock { s in
            let was = s.paused
            if paused && !was {
                // Hold the time heard now.
                let into = min(max(0, hostSeconds() - s.anchorHost), s.anchorLength)
                s.anchorTime = s.anchorTime + into - latency
                s.anchorLength = 0
            }
            s.paused = paused
            return was
        }
        guard was != paused else { return }
        if !paused { stream.seek(to: state.withLock { $0.anchorTime }) } // resume exactly where the picture stands
        SDL_PauseAudioDevice(device, paused ? 1 : 0)
    }

    func seek(to t: Double) {
        SDL_LockAudioDevice(device)
        stream.seek(to: t)
        state.withLock { s in s.anchorTime = t; s.anchorHost = hostSeconds(); s.anchorLength = 0 }
        SDL_UnlockAudioDevice(device)
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
