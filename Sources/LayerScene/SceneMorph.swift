import LayerKit

/// How a scene tree built anew for a changed param (`scene-set`) takes over from the tree on screen as an implicit
/// change would (SEMANTICS-ANIMATION.md §4's default action): each animatable property with a default action whose
/// model value differs moves from the value shown at the change's time to the new model value in 0.25 s on the
/// default curve. The animations get that time as their explicit `beginTime`, not the host's "now", so a window
/// (the change made live) and an export (the change replayed from a take) compute the same frames.
///
/// Layers are paired by their place in the tree (the same class, the same sublayer index; by `name`, the scene's
/// `id`, where the number of sublayers changed); a layer with no partner (a `when` or `repeat` that changed) appears
/// at once.
enum SceneMorph {
    /// The animation key prefix of a morph (`scene-set opacity`): a second change replaces the first.
    static let keyPrefix = "scene-set "
    /// Core Animation's implicit duration (`Transaction.animationDuration`'s default).
    static let duration = 0.25

    /// `Layer`'s keys with a default action (the table of SEMANTICS-ANIMATION.md §4), except `contents`, which
    /// changes at once here (a new image or frame source is not a crossfade a param asked for).
    static let layerKeys = ["anchorPoint", "anchorPointZ", "backgroundColor", "borderColor", "borderWidth", "bounds",
                            "contentsCenter", "contentsRect", "cornerRadius", "minificationFilterBias", "opacity",
                            "position", "shadowColor", "shadowOffset", "shadowOpacity", "shadowPath", "shadowRadius",
                            "sublayerTransform", "transform", "zPosition"]

    /// Adds to `new`'s tree the animations that carry `old`'s tree (on screen) over to it, from tree time `time`.
    static func carry(from old: Layer, to new: Layer, at time: Double) {
        guard type(of: old) == type(of: new) else { return }
        let oldLocal = old.convertTime(time, from: nil), newLocal = new.convertTime(time, from: nil)
        // A beginTime of exactly 0 means the scene clock's zero only on an unhosted tree; the swap hosts it.
        let begin = newLocal == 0 ? Double.leastNonzeroMagnitude : newLocal
        let shown = old.presentation(at: oldLocal)
        // A morph still running from an earlier change goes on in the new tree (its key may be replaced below).
        for key in old.animationKeys() ?? [] where key.hasPrefix(keyPrefix) {
            if let running = old.animation(forKey: key), !running.isFinished(at: oldLocal) { new.add(running, forKey: key) }
        }
        let extras = type(of: old).animatableProperties.filter(\.hasDefaultAction).map(\.key)
        for key in layerKeys + extras {
            guard let before = old.value(forKeyPath: key), let after = new.value(forKeyPath: key), before != after,
                  let from = shown.value(forKeyPath: key) else { continue }
            let animation = BasicAnimation(keyPath: key)
            animation.fromValue = from
            animation.duration = duration
            animation.timingFunction = .default
            animation.beginTime = begin
            new.add(animation, forKey: keyPrefix + key)
        }
        for (o, n) in pairs(old.sublayers ?? [], new.sublayers ?? []) { carry(from: o, to: n, at: time) }
        if let o = old.mask, let n = new.mask { carry(from: o, to: n, at: time) }
    }

    /// The sublayers paired by index when their numbers match, otherwise by name (names that appear once on each side).
    private static func pairs(_ old: [Layer], _ new: [Layer]) -> [(Layer, Layer)] {
        if old.count == new.count { return Array(zip(old, new)) }
        func unique(_ layers: [Layer]) -> [String: Layer] {
            var seen: [String: Layer?] = [:]
            for l in layers { if let name = l.name { seen[name] = seen[name] == nil ? l : .some(nil) } }
            return seen.compactMapValues { $0 }
        }
        let byName = unique(old)
        return unique(new).compactMap { name, n in byName[name].map { ($0, n) } }
    }
}
