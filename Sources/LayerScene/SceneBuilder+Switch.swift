import Foundation
import LayerGraphics
import LayerKit

/// `switch` layers (SCENES.md §3): one sublayer shown at a time, `cuts` changing which, each optionally with a
/// transition. The cuts are compiled onto the scene clock as ordinary animations of the sublayers (a discrete
/// `hidden` keyframe animation each, and per transition opacity or additive position animations), so the picture
/// is a pure function of time: an export seek shows the right cut, and during a transition the outgoing and the
/// incoming sublayer both render live (both keep playing), where LayerKit's `Transition` freezes the old state.
///
/// The pictures are SEMANTICS-ANIMATION.md §9's, with `e` the unit vector towards the subtype's side and `E` the
/// switch's width or height along it: `fade` fades the upper of the two (in sibling order) in or out over the
/// other, which is exactly `(1 − p)·old + p·new` for opaque content *(ours: a translucent upper layer shows the
/// lower through it)*; `moveIn` slides the new in from `E·e` over the old; `push` moves the new from `E·e` and the
/// old to `−E·e`; `reveal` slides the old away to `−E·e` over the new. The one that must be on top is lifted by
/// `zPosition` during the transition when the sibling order has it below, and the switch clips to its bounds
/// while a moving transition runs.
extension SceneBuilder {
    static let cutKeys: Set<String> = ["at", "show", "transition", "when"]
    static let transitionKeys: Set<String> = ["type", "subtype", "duration", "timingFunction"]

    /// One cut, read and checked.
    struct Cut {
        var at: Double
        /// Index of the sublayer shown from `at`.
        var show: Int
        var transition: CutTransition?
    }

    struct CutTransition {
        var type: TransitionType
        var subtype: TransitionSubtype
        var duration: Double
        var timingFunction: TimingFunction?
    }

    /// Reads the `cuts` of `switchJSON` and compiles them onto the sublayers of `layer` (already built).
    mutating func compileCuts(_ switchJSON: JSONValue, path: String, to layer: Layer) {
        let json = switchJSON["cuts"]
        let children = layer.sublayers ?? []
        var cuts: [Cut] = []
        if let json {
            let site = Site(json: json, path: "\(path).cuts")
            guard let list = json.elements else { ctx.expected("a list of cuts", site, got: SceneValue(literal: json)); return }
            let ids = children.map { $0.name ?? "" }
            // A cut may not start before the previous cut's transition has ended: two at once have no picture.
            var free = -Double.infinity
            for (i, c) in list.enumerated() {
                let p = "\(path).cuts[\(i)]"
                guard isIncluded(c, path: p), let cut = readCut(c, path: p, ids: ids) else { continue }
                if cut.at < free {
                    ctx.error(Site(json: c["at"] ?? c, path: "\(p).at"),
                              "expected a time at or after \(formatNumber(free)) (the previous cut and its transition), got \(formatNumber(cut.at))")
                    continue
                }
                free = cut.at + (cut.transition?.duration ?? 0)
                cuts.append(cut)
            }
        }
        guard !children.isEmpty else {
            if !cuts.isEmpty { ctx.error(Site(json: switchJSON, path: path), "a switch shows one of its sublayers, and it has none") }
            return
        }
        for (child, c) in zip(children, children.indices) where !(child.speed > 0) {
            ctx.error(Site(json: switchJSON["sublayers"] ?? switchJSON, path: "\(path).sublayers[\(c)](\"\(child.name ?? "")\")"),
                      "a switch's sublayers must run forwards (speed > 0) for its cuts to fall on their clocks, got speed \(formatNumber(child.speed))")
            return
        }
        compile(cuts, children: children, switchLayer: layer)
    }

    private mutating func readCut(_ json: JSONValue, path: String, ids: [String]) -> Cut? {
        guard let members = json.members else { ctx.expected("a cut {\"at\": …, \"show\": …}", Site(json: json, path: path), got: SceneValue(literal: json)); return nil }
        ctx.checkKeys(members, known: Self.cutKeys, path: path)
        guard let (av, asite) = field(json, "at", path) else { ctx.error(Site(json: json, path: path), "missing \"at\" (when the cut happens)"); return nil }
        guard let at = ctx.time(av, asite, min: 0) else { return nil }
        guard let (sv, ssite) = field(json, "show", path) else { ctx.error(Site(json: json, path: path), "missing \"show\" (the id of the sublayer to show)"); return nil }
        guard let id = ctx.string(sv, ssite) else { return nil }
        guard let index = ids.firstIndex(of: id) else {
            let hint = suggestion(for: id, among: ids).map { "; did you mean \"\($0)\"?" } ?? ""
            ctx.error(ssite, "expected the id of one of the switch's sublayers (\(ids.joined(separator: ", "))), got \"\(id)\"\(hint)")
            return nil
        }
        var cut = Cut(at: at, show: index)
        if let t = json["transition"] {
            let tpath = "\(path).transition"
            guard let tm = t.members else { ctx.expected("a transition {\"type\": …, \"duration\": …}", Site(json: t, path: tpath), got: SceneValue(literal: t)); return nil }
            ctx.checkKeys(tm, known: Self.transitionKeys, path: tpath)
            var tr = CutTransition(type: .fade, subtype: .fromLeft, duration: 0.25, timingFunction: nil)
            if let (v, s) = field(t, "type", tpath) {
                guard let name = ctx.choice(v, s, TransitionType.allCases.map(\.rawValue)) else { return nil }
                tr.type = TransitionType(rawValue: name)!
            }
            if let (v, s) = field(t, "subtype", tpath) {
                guard let name = ctx.choice(v, s, TransitionSubtype.allCases.map(\.rawValue)) else { return nil }
                tr.subtype = TransitionSubtype(rawValue: name)!
            }
            // As any animation: 0 (or none) is Core Animation's 0.25 s.
            if let (v, s) = field(t, "duration", tpath) {
                guard let d = ctx.time(v, s, min: 0) else { return nil }
                if d > 0 { tr.duration = d }
            }
            if let (v, s) = field(t, "timingFunction", tpath) {
                guard let f = ctx.timingFunction(v, s) else { return nil }
                tr.timingFunction = f
            }
            cut.transition = tr
        }
        return cut
    }

    /// Turns checked cuts into animations: visibility intervals per sublayer, then each transition's motion.
    private func compile(_ cuts: [Cut], children: [Layer], switchLayer: Layer) {
        // Each sublayer's visible spans [from, until) on the switch's clock.
        var spans = [[(from: Double, until: Double)]](repeating: [], count: children.count)
        var shown = 0, since = -Double.infinity
        for (k, cut) in cuts.enumerated() where cut.show != shown {
            let end = cut.at + (cut.transition?.duration ?? 0)
            spans[shown].append((since, end))
            if let t = cut.transition { addTransition(t, at: cut.at, from: shown, to: cut.show, children: children, switchLayer: switchLayer, index: k) }
            shown = cut.show
            since = cut.at
        }
        spans[shown].append((since, .infinity))
        for (child, s) in zip(children, spans) { schedule(child, visible: s) }
    }

    /// A discrete `hidden` keyframe animation that shows `child` during `visible` (sorted, not overlapping).
    private func schedule(_ child: Layer, visible: [(from: Double, until: Double)]) {
        var changes: [Double] = []
        for s in visible {
            if s.from.isFinite { changes.append(s.from) }
            if s.until.isFinite { changes.append(s.until) }
        }
        let hiddenFirst = visible.first.map { $0.from.isFinite } ?? true
        guard !changes.isEmpty else {
            if hiddenFirst { child.isHidden = true }
            return
        }
        // Value j holds from change j (the first from the start); a span that ends where the next begins cancels out.
        var values: [Bool] = [hiddenFirst]
        var times: [Double] = [0]
        for t in changes {
            if let last = times.last, last == t, times.count > 1 { values.removeLast(); times.removeLast(); continue }
            values.append(!values.last!)
            times.append(t)
        }
        let total = max(times.last!, 1)
        let a = KeyframeAnimation(keyPath: "hidden")
        a.calculationMode = .discrete
        a.values = values
        a.keyTimes = times.map { $0 / total } + [1]
        a.duration = total
        a.fillMode = .both
        a.isRemovedOnCompletion = false
        onSwitchClock(a, at: 0, for: child)
        child.add(a, forKey: "switch")
    }

    /// Sets `a`'s begin time and speed so that its local time is the switch's clock minus `at`, whatever the
    /// sublayer's own `beginTime`, `speed` and `timeOffset` (a clip placed on the timeline keeps its placement).
    /// The layer's clock is `(t − B)·S + O`; an animation with begin `b` and speed `1/S` then sees `t − B + (O − b)/S`.
    private func onSwitchClock(_ a: Animation, at: Double, for child: Layer) {
        a.speed = 1 / child.speed
        a.beginTime = child.timeOffset + (at - child.beginTime) * child.speed
    }

    private func addTransition(_ t: CutTransition, at: Double, from old: Int, to new: Int, children: [Layer], switchLayer: Layer, index k: Int) {
        func animation(_ keyPath: String, from: (any AnimatableValue)?, to: (any AnimatableValue)?, additive: Bool = false) -> BasicAnimation {
            let a = BasicAnimation(keyPath: keyPath)
            a.fromValue = from
            a.toValue = to
            a.isAdditive = additive
            a.duration = t.duration
            a.timingFunction = t.timingFunction
            a.fillMode = .removed  // only while the transition runs
            a.isRemovedOnCompletion = false  // a later seek back must find it
            return a
        }
        let oldLayer = children[old], newLayer = children[new]
        let newOnTop = new > old
        if t.type == .fade {
            // The upper one fades; the lower stays opaque under it. Its other end is its own current opacity.
            let upper = newOnTop ? newLayer : oldLayer
            let a = newOnTop ? animation("opacity", from: 0.0, to: nil) : animation("opacity", from: nil, to: 0.0)
            onSwitchClock(a, at: at, for: upper)
            upper.add(a, forKey: "switch-cut\(k)-fade")
            return
        }
        let e: Point
        switch t.subtype {
        case .fromLeft: e = Point(x: -1, y: 0)
        case .fromRight: e = Point(x: 1, y: 0)
        case .fromTop: e = Point(x: 0, y: -1)
        case .fromBottom: e = Point(x: 0, y: 1)
        }
        let size = switchLayer.bounds.size
        let away = Point(x: e.x * size.width, y: e.y * size.height)
        let zero = Point(x: 0, y: 0)
        if t.type == .moveIn || t.type == .push {
            let a = animation("position", from: away, to: zero, additive: true)
            onSwitchClock(a, at: at, for: newLayer)
            newLayer.add(a, forKey: "switch-cut\(k)-in")
        }
        if t.type == .push || t.type == .reveal {
            let a = animation("position", from: zero, to: Point(x: -away.x, y: -away.y), additive: true)
            onSwitchClock(a, at: at, for: oldLayer)
            oldLayer.add(a, forKey: "switch-cut\(k)-out")
        }
        // moveIn draws the new over the old, reveal the old over the new: lift the one sibling order puts below.
        let lifted: Layer? = t.type == .moveIn ? (newOnTop ? nil : newLayer) : t.type == .reveal ? (newOnTop ? oldLayer : nil) : nil
        if let lifted {
            let a = animation("zPosition", from: 1.0, to: 1.0, additive: true)
            onSwitchClock(a, at: at, for: lifted)
            lifted.add(a, forKey: "switch-cut\(k)-lift")
        }
        // Content is clipped to the switch's bounds while it moves (§9).
        let clip = animation("masksToBounds", from: true, to: true)
        clip.timingFunction = nil
        clip.beginTime = at
        switchLayer.add(clip, forKey: "switch-cut\(k)-clip")
    }
}
