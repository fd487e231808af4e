import CSDL2

/// What a key or a click asks of the playback (ffplay's bindings where ffplay has them).
public enum PlaybackCommand: Equatable, Sendable {
    /// Pause or resume (space, p); a paused session shows "Paused" until resumed.
    case togglePause
    /// End the session (q, Esc, closing the window).
    case quit
    /// Fullscreen on or off (f, a double click); the canvas is scaled to fit either way.
    case toggleFullscreen
    /// Mute or unmute the sound (m).
    case toggleMute
    /// Raise the volume by 10 points (0, keypad *), up to 100 %.
    case volumeUp
    /// Lower the volume by 10 points (9, keypad /), down to 0 %.
    case volumeDown
    /// Seconds forwards (positive) or back.
    case seek(by: Double)
    /// Show the next frame and stay paused.
    case stepFrame
    /// Seek to this fraction (0…1) of the range.
    case seekToFraction(Double)
    /// The next subtitle track, after the last none, then the first again (`SubtitleSelection`).
    case cycleSubtitles
    /// An audio-only input's picture: waveform, then spectrum, then waveform again (`AudioVisualizerLayer`).
    case cycleAudioDisplay

    /// The keys, for `--help`.
    public static let keyHelp = """
    Keys while playing (as ffplay):
      space, p   pause / resume          s        step one frame (stays paused)
      ← / →      seek 10 s back / on     ↓ / ↑    seek 60 s back / on
      m          mute                    9 / 0    volume down / up
      f          fullscreen              q, Esc   quit
      t          subtitles: next stream, then off
      w          sound: waveform / spectrum (an audio-only input)
      click      seek to that fraction of the width (left or right button)
      double click  fullscreen
    """

    /// The command for an SDL event, or nil for events that are not commands. `width` is the window's
    /// width in points (for clicks).
    static func from(_ event: SDL_Event, windowWidth width: Int) -> PlaybackCommand? {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return .quit
        case SDL_KEYDOWN:
            switch Int(event.key.keysym.sym) {
            case Int(SDLK_SPACE.rawValue), Int(SDLK_p.rawValue): return .togglePause
            case Int(SDLK_q.rawValue), Int(SDLK_ESCAPE.rawValue): return .quit
            case Int(SDLK_f.rawValue): return .toggleFullscreen
            case Int(SDLK_m.rawValue): return .toggleMute
            case Int(SDLK_9.rawValue), Int(SDLK_KP_DIVIDE.rawValue): return .volumeDown
            case Int(SDLK_0.rawValue), Int(SDLK_KP_MULTIPLY.rawValue): return .volumeUp
            case Int(SDLK_LEFT.rawValue): return .seek(by: -10)
            case Int(SDLK_RIGHT.rawValue): return .seek(by: 10)
            case Int(SDLK_DOWN.rawValue): return .seek(by: -60)
            case Int(SDLK_UP.rawValue): return .seek(by: 60)
            case Int(SDLK_s.rawValue): return .stepFrame
            case Int(SDLK_t.rawValue): return .cycleSubtitles
            case Int(SDLK_w.rawValue): return .cycleAudioDisplay
            default: return nil
            }
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT) && event.button.clicks >= 2:
            // ffplay: a double click toggles fullscreen (its first click has already sought).
            return .toggleFullscreen
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT) || event.button.button == UInt8(SDL_BUTTON_RIGHT):
            // A right click seeks as a left click does (ffplay seeks on the right button).
            return .seekToFraction(min(max(Double(event.button.x) / Double(max(1, width)), 0), 1))
        default:
            return nil
        }
    }
}

extension PlaybackCommand {
    /// An SDL key-down event for `key` (an `SDL_KeyCode`), as a keyboard would deliver it: for driving the
    /// playback through the same path as the keys (tests, scripted demos).
    public static func keyEvent(_ key: SDL_KeyCode) -> SDL_Event {
        var e = SDL_Event()
        e.key.type = SDL_KEYDOWN.rawValue
        e.key.state = UInt8(SDL_PRESSED)
        e.key.keysym.sym = SDL_Keycode(key.rawValue)
        return e
    }

    /// A click at `x` points from the window's left edge: left button by default, `clicks` 2 for a double click.
    public static func clickEvent(x: Int, rightButton: Bool = false, clicks: Int = 1) -> SDL_Event {
        var e = SDL_Event()
        e.button.type = SDL_MOUSEBUTTONDOWN.rawValue
        e.button.button = UInt8(rightButton ? SDL_BUTTON_RIGHT : SDL_BUTTON_LEFT)
        e.button.state = UInt8(SDL_PRESSED)
        e.button.x = Int32(x)
        e.button.clicks = UInt8(clicks)
        return e
    }
}
