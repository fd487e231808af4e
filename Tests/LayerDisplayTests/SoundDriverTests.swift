import LayerDisplay
import Testing

/// Which sound drivers SDL tries (issue 20, item 3): a sound server is looked for even when `XDG_RUNTIME_DIR` is unset,
/// and only ALSA, which prints to stderr when there is no card, is left out where there is none.
@Suite("Sound drivers")
struct SoundDriverTests {
    @Test func aSoundServerIsTriedWithoutXDGRuntimeDir() {
        // Before: no XDG_RUNTIME_DIR and no ALSA card meant "no sound card" without asking SDL at all.
        let plan = DisplayProbe.soundDrivers(environment: ["HOME": "/root"], asoundCards: "--- no soundcards ---\n", hasSoundDevices: true)
        #expect(plan == .only(["pulseaudio", "pipewire"]))
        #expect(DisplayProbe.soundDrivers(environment: [:], asoundCards: nil, hasSoundDevices: false) == .only(["pulseaudio", "pipewire"]))
    }

    @Test func withACardOrAChosenDriverSDLChooses() {
        let cards = " 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n"
        #expect(DisplayProbe.soundDrivers(environment: [:], asoundCards: cards, hasSoundDevices: true) == .sdlChooses)
        #expect(DisplayProbe.soundDrivers(environment: ["SDL_AUDIODRIVER": "dummy"], asoundCards: "--- no soundcards ---\n",
                                          hasSoundDevices: false) == .sdlChooses)
        #expect(DisplayProbe.soundDrivers(environment: [:], asoundCards: nil, hasSoundDevices: true) == .sdlChooses)
    }
}
