import CSDL2

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

    public static var sdlVersion: String {
        var v = SDL_version()
        SDL_GetVersion(&v)
        return "SDL \(v.major).\(v.minor).\(v.patch)"
    }
}
