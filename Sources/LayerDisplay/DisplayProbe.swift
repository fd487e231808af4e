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

    /// Why no sound can be played here, judged without starting SDL (ALSA prints several lines to stderr
    /// when it finds no card): no sound server socket and no ALSA card. nil: try.
    public static func missingSound() -> String? {
        let env = ProcessInfo.processInfo.environment
        if env["SDL_AUDIODRIVER"] != nil || env["PULSE_SERVER"] != nil { return nil }
        let fm = FileManager.default
        if let runtime = env["XDG_RUNTIME_DIR"],
           fm.fileExists(atPath: runtime + "/pulse/native") || fm.fileExists(atPath: runtime + "/pipewire-0") { return nil }
        if let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8), cards.contains("no soundcards") {
            return "no sound card"
        }
        if !fm.fileExists(atPath: "/proc/asound") && !fm.fileExists(atPath: "/dev/snd") { return "no sound card" }
        return nil
    }

    public static var sdlVersion: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "SDL \(v.major).\(v.minor).\(v.patch)"
    }
}
