import LayerGraphics
import LayerKit
import LayerMedia

/// A whole playlist as one layer tree on one clock (issue 30): each item's tree in a slot of the canvas's size,
/// placed on the timeline by the slot's layer time, and during a transition two slots at once, posed as the
/// transition shows them. `pose(at:)` is the one code path that turns a playlist time into the tree: the window
/// calls it before each snapshot (`PlaybackSession.willSnapshot`) and an export before each frame
/// (`Exporter.willSnapshot`), so both show the same pixels at the same time.
///
/// The layer transitions are SEMANTICS-ANIMATION.md §9's pictures with the old side live instead of frozen (both items
/// play): with `e` the unit vector towards the subtype's side and `E` the canvas's width or height along it, `fade`
/// is the new over the old at opacity `p` (the slots are opaque, so this is `(1 − p)·old + p·new`); `moveIn` the new at
/// `(1 − p)·E·e` over the still old; `push` the old at `−p·E·e` and the new at `(1 − p)·E·e`; `reveal` the old at
/// `−p·E·e` over the still new. `cube`: the two items are adjacent faces of a cube of the canvas's width (height for
/// top and bottom) that turns a quarter, seen with the card's perspective (eye at 1.5 times the longer side).
/// `p` runs linearly over the overlap. Only slots that show at a time are in the tree, so an item not playing is not
/// asked for frames (its decoder, opened ahead, holds its first frames ready).
public final class PlaylistTree {
    /// One item: its tree (anchored at its top left, of its own canvas size), its canvas, and the media time it starts at.
    public struct Item {
        /// The item's layer tree (a card's host).
        public var layer: Layer
        /// The item's canvas, which is scaled to fit the playlist's, centred.
        public var size: (width: Int, height: Int)
        /// The media time shown at the item's start (`--start`).
        public var begin: Double
        /// The item's chapters, in its media time (PgUp/PgDn and `chapter` while it plays).
        public var chapters: [Chapter] = []
        /// The item's subtitles in its tree (`t`, `sub` and `sub-delay` while it plays).
        public var subtitles: SubtitleLayer?
        /// An item.
        public init(layer: Layer, size: (width: Int, height: Int), begin: Double = 0, chapters: [Chapter] = [], subtitles: SubtitleLayer? = nil) {
            self.layer = layer; self.size = size; self.begin = begin; self.chapters = chapters; self.subtitles = subtitles
        }
    }

    /// The tree a host shows: the canvas, with the slots that show now.
    public let root: Layer
    /// Where the items sit on the clock (longer after `append`).
    public private(set) var timeline: PlaylistTimeline
    /// How items follow each other (nil: cuts).
    public let transition: PlaylistTransition?
    /// The canvas in pixels.
    public let size: (width: Int, height: Int)
    /// Whether the playlist starts again after its end.
    public let loops: Bool
    private(set) var items: [Item]
    private var slots: [Layer]
    private var shown: [Int] = []

    /// A tree of `items` on `timeline` in a canvas of `size`.
    public init(items: [Item], timeline: PlaylistTimeline, transition: PlaylistTransition?, size: (width: Int, height: Int), loops: Bool = false) {
        precondition(items.count == timeline.items.count, "one item per timeline item")
        self.items = items
        self.timeline = timeline
        self.transition = transition
        self.size = size
        self.loops = loops && timeline.totalFrames > 0
        let w = Double(size.width), h = Double(size.height)
        var slots: [Layer] = []
        let root = Layer()
        // Built without implicit animations (SEMANTICS-ANIMATION.md §4: a host's own layout never animates).
        Transaction.withoutActions {
            root.name = "playlist"
            // Anchored at its centre: the cube's perspective (a sublayer transform) is applied about the anchor, so the
            // eye looks at the canvas's centre.
            root.position = Point(x: w / 2, y: h / 2)
            root.bounds = Rect(x: 0, y: 0, width: w, height: h)
            root.backgroundColor = .black // the canvas clips: no masksToBounds, which would keep a video from the display's direct path
            if transition?.kind == .cube {
                root.sublayerTransform = Transform3D.makePerspective(distance: 1.5 * max(w, h))
            }
            for (k, item) in items.enumerated() { slots.append(Self.slot(k, for: item, size: size)) }
        }
        self.root = root
        self.slots = slots
        pose(at: 0)
    }

    /// Item `k`'s slot: the canvas, black, with the item's tree fitted into it, centred.
    private static func slot(_ k: Int, for item: Item, size: (width: Int, height: Int)) -> Layer {
        let w = Double(size.width), h = Double(size.height)
        let slot = Layer()
        slot.name = "playlist item \(k + 1)"
        slot.bounds = Rect(x: 0, y: 0, width: w, height: h)
        slot.position = Point(x: w / 2, y: h / 2)
        slot.backgroundColor = .black // opaque: `fade` is then exactly (1 − p)·old + p·new
        let scale = min(w / Double(max(1, item.size.width)), h / Double(max(1, item.size.height)))
        item.layer.transform = Transform3D.makeScale(scale, scale, 1)
        item.layer.position = Point(x: (w - Double(item.size.width) * scale) / 2, y: (h - Double(item.size.height) * scale) / 2)
        slot.addSublayer(item.layer)
        return slot
    }

    /// One more item at the end while playing (`loadfile PATH append`): `timeline` is the old one with it appended
    /// (`PlaylistTimeline.appending`). Its slot shows from its start on, as the others' (call on the thread that poses).
    public func append(_ item: Item, timeline: PlaylistTimeline) {
        precondition(timeline.items.count == items.count + 1, "the old timeline with one more item")
        Transaction.withoutActions { slots.append(Self.slot(items.count, for: item, size: size)) }
        items.append(item)
        self.timeline = timeline
    }

    /// The playlist time shown at clock time `t`: `t` itself, wrapped into the playlist when it loops.
    public func playlistTime(_ t: Double) -> Double {
        guard loops, t >= timeline.duration else { return t }
        return t.truncatingRemainder(dividingBy: timeline.duration)
    }

    /// Poses the tree for clock time `t`: which items show, where each is in its own media, and the transition's
    /// picture. Changes no animation and starts none (the changes are made without actions).
    public func pose(at t: Double) {
        let m = playlistTime(t)
        let show = showing(at: m)
        let running = timeline.transition(at: m)
        Transaction.withoutActions {
            for k in show {
                let slot = slots[k]
                // The slot's local time is the item's media time: t − its start + its begin (the loop's wrap taken off).
                slot.beginTime = 0
                slot.timeOffset = (m - t) + mediaOffset(k)
                slot.transform = .identity
                slot.position = Point(x: Double(size.width) / 2, y: Double(size.height) / 2)
                slot.opacity = 1
                slot.zPosition = 0
                // During a transition each item stays in its slot (a card's shadow never spills onto the other); alone,
                // unclipped, so that a plain video goes to the display as it is (`DirectVideo`).
                slot.masksToBounds = running != nil
            }
            if let running, let transition { poseTransition(transition, old: slots[running.outgoing], new: slots[running.outgoing + 1],
                                                            p: running.progress) }
            if show != shown {
                // Only the slots move: what the host added above them (the window's on-screen display) stays.
                for k in shown where !show.contains(k) { slots[k].removeFromSuperlayer() }
                for (i, k) in show.enumerated() {
                    slots[k].removeFromSuperlayer()
                    root.insertSublayer(slots[k], at: i)
                }
                shown = show
            }
        }
    }

    /// Whether compositing at clock time `t` would now wait for a decoder of an item that shows then (asked before
    /// the tree is posed for `t`: an item about to come in counts).
    public func videoWouldWait(at t: Double) -> Bool {
        let m = playlistTime(t)
        // An item's tree runs on its slot's clock: the item's media time.
        return showing(at: m).contains { items[$0].layer.videoWouldWait(at: m + mediaOffset($0)) }
    }

    /// The items that show at playlist time `m`, in drawing order (the outgoing item first during a transition).
    private func showing(at m: Double) -> [Int] {
        if let running = timeline.transition(at: m) { return [running.outgoing, running.outgoing + 1] }
        return timeline.items.indices.filter { timeline.shows($0, at: m) }
    }

    /// Item `k`'s media time less the playlist time: its slot's time offset (without a loop's wrap).
    func mediaOffset(_ k: Int) -> Double { items[k].begin - timeline.start(of: k) }

    /// The item playing at clock time `t` (the incoming one during a transition).
    public func index(at t: Double) -> Int { timeline.index(at: playlistTime(t)) }

    private func poseTransition(_ transition: PlaylistTransition, old: Layer, new: Layer, p: Double) {
        let w = Double(size.width), h = Double(size.height)
        let e: (x: Double, y: Double)
        switch transition.subtype {
        case .fromLeft: e = (-1, 0)
        case .fromRight: e = (1, 0)
        case .fromTop: e = (0, -1)
        case .fromBottom: e = (0, 1)
        }
        let extent = e.x != 0 ? w : h
        func shift(_ layer: Layer, _ by: Double) {
            layer.position = Point(x: w / 2 + by * extent * e.x, y: h / 2 + by * extent * e.y)
        }
        switch transition.kind {
        case .layer(.fade):
            new.opacity = p
        case .layer(.moveIn):
            shift(new, 1 - p)
        case .layer(.push):
            shift(old, -p)
            shift(new, 1 - p)
        case .layer(.reveal):
            shift(old, -p)
            old.zPosition = 1 // the old slides away over the new
        case .cube:
            // Faces of a cube of edge `extent` centred `extent / 2` behind the canvas: the old is the front face, the
            // new the face on the subtype's side; the cube turns a quarter so that the new comes to the front.
            let half = extent / 2
            let quarter = Double.pi / 2
            // About y for a side that is left or right, about x for top or bottom; the signs turn the new side to us.
            let (ax, ay): (Double, Double) = e.x != 0 ? (0, 1) : (1, 0)
            let side = e.x != 0 ? e.x : -e.y
            func face(_ placed: Double) -> Transform3D {
                Transform3D.makeTranslation(0, 0, half)
                    .concatenating(Transform3D.makeRotation(placed, ax, ay, 0))
                    .concatenating(Transform3D.makeRotation(-side * quarter * p, ax, ay, 0))
                    .concatenating(Transform3D.makeTranslation(0, 0, -half))
            }
            old.transform = face(0)
            new.transform = face(side * quarter)
        }
    }
}
