/// Orders the planes of a 3D rendering context back to front, splitting those that cross (a binary space
/// partition, as Chromium's cc/trees/bsp_tree does for preserve-3d).
///
/// Each node's plane is, among the first few polygons given to it, the one that cuts the fewest others (the first
/// on a tie): a cut is a seam where both pieces' antialiased edges meet, so cuts are made only where needed. The
/// others go to its front or back subtree, cut in two when they straddle it, or join the node when coplanar. Drawing a node's far subtree, then the node, then its
/// near subtree paints every piece before anything in front of it. Coplanar polygons keep the order they were
/// given (the context's drawing order: `zPosition`, then array order), whichever side the eye is on.
///
/// Cost: O(n log n) for planes in general position, O(n²) pieces at worst (every plane crossing every other).
struct BSPTree {
    private final class Node {
        /// The polygon whose plane splits space here; its normal says which side is front.
        let splitter: DrawPolygon
        /// The splitter and the polygons coplanar with it, in the order given.
        var coplanar: [DrawPolygon] = []
        var front: Node?
        var back: Node?
        init(_ splitter: DrawPolygon) { self.splitter = splitter }
    }

    private let root: Node?

    /// - Parameter polygons: in the context's drawing order (it decides between coplanar planes).
    init(_ polygons: [DrawPolygon]) {
        root = Self.build(polygons[...])
    }

    /// How many polygons are tried as a node's plane: enough for the scenes layers make, and it bounds the cost.
    static let splitterCandidates = 8

    private static func build(_ polygons: ArraySlice<DrawPolygon>) -> Node? {
        guard !polygons.isEmpty else { return nil }
        let splitter = bestSplitter(polygons)
        let plane = polygons[splitter]
        let node = Node(plane)
        var front: [DrawPolygon] = [], back: [DrawPolygon] = []
        for i in polygons.indices {
            let p = polygons[i]
            if i == splitter { node.coplanar.append(p); continue }
            switch plane.classify(p) {
            case .coplanar: node.coplanar.append(p)
            case .front: front.append(p)
            case .back: back.append(p)
            case .straddling:
                let pieces = plane.split(p)
                if let f = pieces.front { front.append(f) }
                if let b = pieces.back { back.append(b) }
            }
        }
        node.front = build(front[...])
        node.back = build(back[...])
        return node
    }

    /// The index of the candidate whose plane straddles the fewest of the others.
    private static func bestSplitter(_ polygons: ArraySlice<DrawPolygon>) -> Int {
        var best = polygons.startIndex, fewest = Int.max
        for i in polygons.indices.prefix(splitterCandidates) {
            var cuts = 0
            for j in polygons.indices where j != i && polygons[i].classify(polygons[j]) == .straddling {
                cuts += 1
                if cuts >= fewest { break }
            }
            if cuts < fewest { best = i; fewest = cuts }
            if cuts == 0 { break }
        }
        return best
    }

    /// Every piece, farthest first.
    func backToFront() -> [DrawPolygon] {
        var out: [DrawPolygon] = []
        if let root { Self.walk(root, into: &out) }
        return out
    }

    private static func walk(_ node: Node, into out: inout [DrawPolygon]) {
        let eyeInFront = node.splitter.facesEye
        if let far = eyeInFront ? node.back : node.front { walk(far, into: &out) }
        out += node.coplanar
        if let near = eyeInFront ? node.front : node.back { walk(near, into: &out) }
    }
}
