import Foundation
import LayerGraphics
import LayerKit

/// A gradient layer's gradient as drawn (SEMANTICS-LAYERS.md §3): its colour table and the map from a pixel centre
/// to the table, filling the layer's rounded shape with an antialiased edge. A class, as `BodyDraw`: the list and its
/// bands hand it around without copying its fields.
final class GradientDraw {
    let placement: Placement
    /// The bounds with the corner radii: the gradient fills it whether or not the layer masks to bounds.
    let shape: RoundedRect
    let table: GradientTable
    let parameter: GradientParameter
    let opacity: Float
    /// Where the shape's coverage is certainly full, and where it may be above 0 (nil: unknown).
    let deep: DeepInterior?
    let reach: DeepInterior?
    /// The whole shape of a gradient cut to its opaque border's mid-line (Lowering+BorderEdge.swift; nil: not cut).
    var uncutShape: RoundedRect? = nil

    init(placement: Placement, shape: RoundedRect, table: GradientTable, parameter: GradientParameter, opacity: Float) {
        self.placement = placement; self.shape = shape; self.table = table; self.parameter = parameter; self.opacity = opacity
        deep = DeepInterior(inner: shape, toLocal: placement.toLocal)
        reach = DeepInterior(reachOf: shape, toLocal: placement.toLocal)
    }

    /// The same draw with its opacity multiplied (a group of one needs no intermediate buffer).
    /// A gradient cut under its border is drawn whole again: faded apart from the border, it shows through it.
    func withOpacity(_ k: Float) -> GradientDraw {
        GradientDraw(placement: placement, shape: uncutShape ?? shape, table: table, parameter: parameter, opacity: opacity * k)
    }
}

/// t at a point (u, v) of the layer's plane, in points (§3); s is the start and d = end − start, both mapped from
/// unit coordinates into the bounds.
enum GradientParameter {
    /// t = kx·u + ky·v + k0: the projection on the line from s along d, ((p − s)·d) / (d·d).
    case axial(kx: Double, ky: Double, k0: Double)
    /// t = √(((u − sx)/rx)² + ((v − sy)/ry)²); a zero semi-axis (inverse 0 here, `zeroX`/`zeroY`) makes t infinite
    /// off the centre line, so the last colour shows there.
    case radial(sx: Double, sy: Double, inverseRx: Double, inverseRy: Double, zeroX: Bool, zeroY: Bool)
    /// t = frac((atan2(v − sy, u − sx) − θ(d)) / 2π): clockwise on screen (y down), angles in points.
    case conic(sx: Double, sy: Double, angle: Double)

    /// The parameter of `payload` over `bounds`, and the range of t the bounds' points can take.
    init(_ payload: GradientPayload, bounds b: Rect) {
        let s = (b.minX + payload.startPoint.x * b.width, b.minY + payload.startPoint.y * b.height)
        let e = (b.minX + payload.endPoint.x * b.width, b.minY + payload.endPoint.y * b.height)
        let d = (e.0 - s.0, e.1 - s.1)
        switch payload.type {
        case .axial:
            let dd = d.0 * d.0 + d.1 * d.1
            // d = 0: the last colour everywhere (§3, ours); t beyond any location gives it.
            if !(dd > 0) || !dd.isFinite { self = .axial(kx: 0, ky: 0, k0: .infinity); return }
            self = .axial(kx: d.0 / dd, ky: d.1 / dd, k0: -(s.0 * d.0 + s.1 * d.1) / dd)
        case .radial:
            let rx = abs(d.0), ry = abs(d.1)
            self = .radial(sx: s.0, sy: s.1, inverseRx: rx > 0 ? 1 / rx : 0, inverseRy: ry > 0 ? 1 / ry : 0,
                           zeroX: !(rx > 0), zeroY: !(ry > 0))
        case .conic:
            self = .conic(sx: s.0, sy: s.1, angle: d.0 == 0 && d.1 == 0 ? 0 : atan2(d.1, d.0))
        }
    }

    /// t at a local point.
    @inline(__always)
    func t(u: Double, v: Double) -> Double {
        switch self {
        case let .axial(kx, ky, k0): return kx * u + ky * v + k0
        case let .radial(sx, sy, irx, iry, zeroX, zeroY):
            let dx = u - sx, dy = v - sy
            if (zeroX && dx != 0) || (zeroY && dy != 0) { return .infinity }
            let qx = dx * irx, qy = dy * iry
            return (qx * qx + qy * qy).squareRoot()
        case let .conic(sx, sy, angle):
            let turns = (atan2(v - sy, u - sx) - angle) * (0.5 / Double.pi)
            return turns - turns.rounded(.down)
        }
    }

    /// The range of t over `bounds` (what the colour table must cover).
    func range(over b: Rect) -> ClosedRange<Double> {
        switch self {
        case .axial(_, _, let k0):
            if !k0.isFinite { return Double.infinity...Double.infinity }
            // t is affine in the point: its extremes over the bounds are at corners.
            let corners = [t(u: b.minX, v: b.minY), t(u: b.maxX, v: b.minY), t(u: b.minX, v: b.maxY), t(u: b.maxX, v: b.maxY)]
            return corners.min()!...corners.max()!
        case let .radial(_, _, _, _, zeroX, zeroY):
            if zeroX || zeroY { return 0...Double.infinity }
            // t grows with the distance from the centre: its largest value on the bounds is at a corner.
            let far = [t(u: b.minX, v: b.minY), t(u: b.maxX, v: b.minY), t(u: b.minX, v: b.maxY), t(u: b.maxX, v: b.maxY)].max()!
            return 0...far
        case .conic: return 0...1
        }
    }
}

extension Lowering {
    /// A gradient layer's background and gradient (§3: the gradient over the background, below contents and
    /// sublayers), or nil for a layer without a gradient to draw, whose background `contentOps` draws as usual.
    func gradientOps(_ layer: LayerSnapshot, background: SIMD4<Float>?, h: Homography, planes: [HalfPlane],
                     toLocal: PixelToLocal, clips: [ClipShape], shape: RoundedRect) -> [DrawOp]? {
        guard let payload = layer.payload as? GradientPayload, payload.drawsGradient else { return nil }
        let b = layer.bounds.standardized
        guard b.width > 0, b.height > 0, let placement = place(b, h, planes, toLocal, clips) else { return [] }
        var ops: [DrawOp] = []
        if let background {
            ops.append(.body(BodyDraw(placement: placement, shape: shape, background: background, contents: nil, border: nil, opacity: 1)))
        }
        let parameter = GradientParameter(payload, bounds: b)
        let table = GradientTable(payload, range: parameter.range(over: b))
        ops.append(.gradient(GradientDraw(placement: placement, shape: shape, table: table, parameter: parameter, opacity: 1)))
        return ops
    }
}
