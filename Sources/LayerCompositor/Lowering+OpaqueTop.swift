/// A group whose last draw is opaque wherever anything beneath it in the group draws: the group's picture is that
/// draw alone, so its opacity can go to the draw instead of through an intermediate buffer (the incoming item of a
/// playlist's `fade`, an opaque video over its card's background, SEMANTICS.md §"group opacity").
///
/// Exact where the draw is opaque (the buffer would hold its pixels and nothing else, and its pixels blended at
/// the opacity are what the body kernel blends); on its antialiased edge the colour is faded before it is rounded
/// rather than after, which moves a channel by at most 1.
extension Lowering {
    /// The group's last draw, when it hides every other draw of the group (nil: the group is needed).
    func opaqueTop(of ops: [DrawOp]) -> BodyDraw? {
        guard ops.count > 1, case .body(let top)? = ops.last, top.opaqueArea != nil else { return nil }
        let cover = OpaqueRows(top)
        for op in ops.dropLast() {
            let r = op.bounds.intersection(viewport)
            if r.isEmpty { continue }
            // A body's bounds take in its antialiasing margin; what it may touch is its reach, row by row.
            var reach: DeepInterior? = nil
            if case .body(let d) = op { reach = d.reach }
            for y in r.y0..<r.y1 {
                var a = r.x0, b = r.x1
                if let reach {
                    guard let i = reach.interval(row: y) else { continue }
                    a = max(a, i.0); b = min(b, i.1)
                    if a >= b { continue }
                }
                guard let c = cover.opaqueInterval(row: y), c.0 <= a, c.1 >= b else { return nil }
            }
        }
        return top
    }
}
