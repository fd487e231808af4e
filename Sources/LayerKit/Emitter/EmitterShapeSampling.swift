import Foundation

/// Where on the emitter's shape a particle is born (SEMANTICS-LAYERS.md §7 "Shapes"), relative to the shape's centre,
/// from three uniform draws (x, y, z) and one that picks a part (a face, an edge or a corner).
extension EmitterLayer.Shape {
    func offset(mode: EmitterLayer.Mode, width w: Double, height h: Double, depth d: Double,
                _ ux: Double, _ uy: Double, _ uz: Double, part: Double) -> (Double, Double, Double) {
        let sx = ux - 0.5, sy = uy - 0.5, sz = uz - 0.5
        func corner(_ count: Int) -> Int { min(Int(part * Double(count)), count - 1) }
        switch self {
        case .point:
            return (0, 0, 0)
        case .line:
            if mode == .points { return (corner(2) == 0 ? -w / 2 : w / 2, 0, 0) }
            return (sx * w, 0, 0)
        case .rectangle:
            switch mode {
            case .volume, .surface: return (sx * w, sy * h, 0)
            case .points:
                let c = corner(4)
                return ((c & 1 == 0 ? -w : w) / 2, (c & 2 == 0 ? -h : h) / 2, 0)
            case .outline:
                // Uniform along the perimeter: the draw picks a length along it.
                let aw = abs(w), ah = abs(h), perimeter = 2 * (aw + ah)
                guard perimeter > 0 else { return (0, 0, 0) }
                var s = ux * perimeter
                if s < aw { return (s - aw / 2, -ah / 2, 0) }; s -= aw
                if s < ah { return (aw / 2, s - ah / 2, 0) }; s -= ah
                if s < aw { return (aw / 2 - s, ah / 2, 0) }; s -= aw
                return (-aw / 2, ah / 2 - s, 0)
            }
        case .cuboid:
            switch mode {
            case .volume: return (sx * w, sy * h, sz * d)
            case .points:
                let c = corner(8)
                return ((c & 1 == 0 ? -w : w) / 2, (c & 2 == 0 ? -h : h) / 2, (c & 4 == 0 ? -d : d) / 2)
            case .surface:
                // A face chosen by its area, then uniform on it.
                let aw = abs(w), ah = abs(h), ad = abs(d)
                let areas = [ah * ad, aw * ad, aw * ah]   // faces normal to x, y, z (two of each)
                let total = areas.reduce(0, +)
                guard total > 0 else { return (sx * w, sy * h, sz * d) }
                // The draw of the coordinate the face fixes picks which of its two faces.
                let pick = part * total
                if pick < areas[0] { return ((ux < 0.5 ? -0.5 : 0.5) * w, sy * h, sz * d) }
                if pick < areas[0] + areas[1] { return (sx * w, (uy < 0.5 ? -0.5 : 0.5) * h, sz * d) }
                return (sx * w, sy * h, (uz < 0.5 ? -0.5 : 0.5) * d)
            case .outline:
                // One of the 12 edges, chosen by length, then uniform along it.
                let aw = abs(w), ah = abs(h), ad = abs(d)
                let total = 4 * (aw + ah + ad)
                guard total > 0 else { return (0, 0, 0) }
                // The draws of the two coordinates an edge fixes pick which of the four parallel edges.
                let pick = part * total
                func side(_ u: Double) -> Double { u < 0.5 ? -0.5 : 0.5 }
                if pick < 4 * aw { return (sx * w, side(uy) * h, side(uz) * d) }
                if pick < 4 * (aw + ah) { return (side(ux) * w, sy * h, side(uz) * d) }
                return (side(ux) * w, side(uy) * h, sz * d)
            }
        case .circle:
            let angle = 2 * Double.pi * ux
            // Inside: √u makes the density uniform over the disc; on the circle for outline and points.
            let r = (mode == .volume || mode == .surface) ? w * uy.squareRoot() : w
            return (r * cos(angle), r * sin(angle), 0)
        case .sphere:
            let angle = 2 * Double.pi * ux
            let z = 2 * uy - 1, ring = (max(0, 1 - z * z)).squareRoot()
            // Inside: ∛u makes the density uniform over the ball; on the sphere otherwise.
            let r = mode == .volume ? w * cbrt(uz) : w
            return (r * ring * cos(angle), r * ring * sin(angle), r * z)
        }
    }
}
