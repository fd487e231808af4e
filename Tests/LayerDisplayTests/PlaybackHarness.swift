import CSDL2
import Foundation
import LayerDisplay
import LayerGraphics
import LayerKit
import LayerMedia
import TestSupport

/// Headless playback: SDL's dummy video and audio drivers (a window nobody sees, a sound device that
/// consumes samples in real time), unless the environment already chose drivers.
func useDummyDrivers() {
    setenv("SDL_VIDEODRIVER", "dummy", 0)
    setenv("SDL_AUDIODRIVER", "dummy", 0)
}

/// A small canvas with the CLI's look: a container with a shadow, tilted in 3D with perspective, holding
/// the media layer with rounded corners and a border. Small, because tests run debug builds.
struct SmallScene {
    let root = Layer()
    let container = Layer()
    let card: Layer

    init(player: Player?) {
        card = player.map { PlayerLayer(player: $0) } ?? Layer()
        root.backgroundColor = Color(white: 0.125)
        container.shadowOpacity = 0.5
        container.shadowRadius = 4
        container.shadowOffset = Size(width: 3, height: 3)
        container.transform = Transform3D.makeRotation(.pi / 8, 0, 1, 0).concatenating(.makePerspective(distance: 300))
        card.cornerRadius = 6
        card.masksToBounds = true
        card.borderWidth = 2
        card.borderColor = .white
        root.addSublayer(container)
        container.addSublayer(card)
        layout(128, 72)
    }

    func layout(_ width: Int, _ height: Int) {
        root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        root.position = Point(x: root.bounds.midX, y: root.bounds.midY)
        let cardBounds = Rect(x: 0, y: 0, width: Double(width) * 0.7, height: Double(height) * 0.7)
        container.bounds = cardBounds
        container.position = root.position
        card.bounds = cardBounds
        card.position = Point(x: cardBounds.midX, y: cardBounds.midY)
    }
}

/// Opens a session on `sample` (from media/) with the small scene.
func makeSession(_ sample: String, loops: Bool = false, start: Double = 0, duration: Double? = nil,
                 spin: Double? = nil, relayoutOnResize: Bool = false, keepOpen: Bool = false,
                 seekable: Bool = true, speed: Double = 1) throws -> (PlaybackSession, SmallScene) {
    useDummyDrivers()
    let path = mediaSample(sample)
    let asset = try MediaAsset(path: path)
    let player = asset.video != nil ? try Player(path: path) : nil
    let scene = SmallScene(player: player)
    if let spin {
        let a = BasicAnimation(keyPath: "transform.rotation.y")
        a.fromValue = 0.0; a.toValue = 2 * Double.pi; a.duration = spin; a.repeatCount = .infinity; a.isAdditive = true
        scene.container.add(a, forKey: "spin")
    }
    let rate = asset.video.map { Double($0.frameRateNumerator) / Double(max(1, $0.frameRateDenominator)) }
    let end = duration.map { start + $0 } ?? asset.duration
    var options = PlaybackSession.Options(title: sample, range: PlaybackRange(start: start, end: end, loops: loops), frameRate: rate)
    options.relayoutOnResize = relayoutOnResize
    options.seekable = seekable
    options.keepOpen = keepOpen
    options.speed = speed
    let session = try PlaybackSession(root: scene.root, size: (128, 72), player: player, audioPath: asset.audio != nil ? path : nil,
                                      options: options) { w, h in scene.layout(w, h) }
    return (session, scene)
}

/// Pushes a key press into SDL's queue: the session reads it like a key from the keyboard.
func press(_ key: SDL_KeyCode) {
    var e = InputBindings.keyEvent(key)
    SDL_PushEvent(&e)
}

/// Pushes the key named as in input.conf (`S`, `{`, `Ctrl+=`, `BS`), as a US keyboard sends it.
func press(_ key: String) {
    guard var e = InputBindings.keyEvent(key) else { fatalError("no key '\(key)'") }
    SDL_PushEvent(&e)
}

func click(x: Int) {
    var e = InputBindings.clickEvent(x: x)
    SDL_PushEvent(&e)
}

/// A script of steps run from the session's tick: each step waits for its condition, then acts once.
final class Script {
    private var steps: [(condition: (PlaybackSession.State) -> Bool, action: (PlaybackSession.State) -> Void)] = []
    private(set) var log: [PlaybackSession.State] = []

    func when(_ condition: @escaping (PlaybackSession.State) -> Bool, _ action: @escaping (PlaybackSession.State) -> Void) {
        steps.append((condition, action))
    }

    /// Runs on each tick; also quits after `timeout` wall seconds so that a broken session cannot hang a test.
    func attach(to session: PlaybackSession, timeout: Double = 20) {
        session.onTick = { [self] state in
            if state.wallSeconds > timeout { press(SDLK_q); return }
            guard let step = steps.first, step.condition(state) else { return }
            steps.removeFirst()
            log.append(state)
            step.action(state)
        }
    }

    var finished: Bool { steps.isEmpty }
}
