/// Orders the planes of a 3D rendering context back to front, splitting those that cross (a binary space
/// partition, as Chromium's cc/trees/bsp_tree does for preserve-3d).
///
/// Each node's plane is the first polygon given to it; the others go to its front or back subtree, cut in two
/// when they straddle it, or join the node when coplanar. Drawing a node's far subtree, then the node, then its
/// near subtree paints every piece before anything in front of it. Coplanar polygons keep the order they were
/// given (the context's drawing order: `zPosition`, then array order), whichever side the eye is on.
///
/// Cost: O(n log n) for planes in general position, O(n²) pieces at worst (every plane crossing every other).
struct BSPTree {
    private final class Node {
        /// The node's polygon first, then those coplanar with it, in the order given.
        var coplanar: [DrawPolygon]
        var front: Node?
        var back: Node?
        init(_ polygon: DrawPolygon) { coplanar = [polygon] }
    }

    private let root: Node?

    /// - Parameter polygons: in the context's drawing order (it decides between coplanar planes).
    init(_ polygons: [DrawPolygon]) {
        root = Self.build(polygons[...])
    }

    private static func build(_ polygons: ArraySlice<DrawPolygon>) -> Node? {
        guard let first = polygons.first else { return nil }
        let node = Node(first)
        var front: [DrawPolygon] = [], back: [DrawPolygon] = []
        for p in polygons.dropFirst() {
            switch first.classify(p) {
            case .coplanar: node.coplanar.append(p)
            case .front: front.append(p)
            case .back: back.append(p)
            case .straddling:
                let pieces = first.split(p)
                if let f = pieces.front { front.append(f) }
                if let b = pieces.back { back.append(b) }
            }
        }
        node.front = build(front[...])
        node.back = build(back[...])
        return node
    }

    /// Every piece, farthest first.
    func backToFront() -> [DrawPolygon] {
        var out: [DrawPolygon] = []
        if let root { Self.walk(root, into: &out) }
        return out
    }

    private static func walk(_ node: Node, into out: inout [DrawPolygon]) {
        let eyeInFront = node.coplanar[0].facesEye
        if let far = eyeInFront ? node.back : node.front { walk(far, into: &out) }
        out += node.coplanar
        if let near = eyeInFront ? node.front : node.back { walk(near, into: &out) }
    }
}
