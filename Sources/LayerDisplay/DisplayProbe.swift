import CSDL2
import Foundation

/// Whether a window can be opened here (SDL's video subsystem starts), and the SDL version in use.
public enum DisplayProbe {
    /// nil when a display is available, else SDL's reason (e.g. no X11/Wayland display).
    public static func unavailableReason() -> String? {
        if SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) != 0 {
            return String(cString: SDL_GetError())
        }
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
        return nil
    }

    /// Why no window can be shown here, judged without starting SDL (whose Wayland probe prints to stderr
    /// when there is no session): neither an X11 nor a Wayland display is named, and no SDL video driver is
    /// chosen explicitly (`SDL_VIDEODRIVER=dummy` for headless runs, `kmsdrm` on a console). nil: try.
    public static func missingDisplay() -> String? {
        let env = ProcessInfo.processInfo.environment
        if env["SDL_VIDEODRIVER"] != nil || env["DISPLAY"] != nil || env["WAYLAND_DISPLAY"] != nil { return nil }
        return "no display (DISPLAY and WAYLAND_DISPLAY are not set)"
    }

    /// Which of SDL's sound drivers to try. SDL's own order (a sound server first, then ALSA…) is right, except where
    /// the machine has no ALSA card: there ALSA prints several lines to stderr before failing, so only the sound
    /// servers are tried (PulseAudio or PipeWire find their socket without `XDG_RUNTIME_DIR`, as ffplay's SDL does).
    public enum SoundDrivers: Equatable {
        /// Let SDL choose (the user's `SDL_AUDIODRIVER`, or its default order).
        case sdlChooses
        /// Only these drivers, tried in order (`SDL_AUDIODRIVER`'s comma-separated form).
        case only([String])
    }

    /// The drivers to try with `environment` and the machine's `/proc/asound/cards` (nil: unreadable).
    public static func soundDrivers(environment env: [String: String], asoundCards: String?, hasSoundDevices: Bool) -> SoundDrivers {
        if env["SDL_AUDIODRIVER"] != nil { return .sdlChooses }
        let noCard = asoundCards.map { $0.contains("no soundcards") } ?? !hasSoundDevices
        return noCard ? .only(["pulseaudio", "pipewire"]) : .sdlChooses
    }

    /// `soundDrivers` for this process and machine.
    static func soundDriversHere() -> SoundDrivers {
        let fm = FileManager.default
        return soundDrivers(environment: ProcessInfo.processInfo.environment,
                            asoundCards: try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8),
                            hasSoundDevices: fm.fileExists(atPath: "/proc/asound") || fm.fileExists(atPath: "/dev/snd"))
    }

    /// The SDL library in use, as "SDL 2.26.5" (`layerplay --version` prints it).
    public static var sdlVersion: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "SDL \(v.major).\(v.minor).\(v.patch)"
    }
}
