import ArgumentParser
import LayerGraphics

/// `WxH`, both positive integers.
struct PixelSize: ExpressibleByArgument, Equatable {
    var width: Int, height: Int
    init(width: Int, height: Int) { self.width = width; self.height = height }
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else { return nil }
        width = w; height = h
    }
    static var defaultCompletionKind: CompletionKind { .default }
}

extension Color: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

/// `X,Y,Z`, not all zero.
struct Axis: ExpressibleByArgument {
    var x, y, z: Double
    init?(argument: String) {
        let p = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard p.count == 3, p.allSatisfy(\.isFinite), p.contains(where: { $0 != 0 }) else { return nil }
        x = p[0]; y = p[1]; z = p[2]
    }
    init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
    var defaultValueDescription: String { "\(x),\(y),\(z)" }
}

/// `W[:COLOR]`.
struct BorderSpec: ExpressibleByArgument {
    var width: Double
    var color: Color
    init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 1).map(String.init)
        guard let w = Double(parts[0]), w.isFinite, w >= 0 else { return nil }
        width = w
        if parts.count == 2 {
            guard let c = try? Color(parsing: parts[1]) else { return nil }
            color = c
        } else { color = .white }
    }
}

/// `R[:OPACITY[:DX,DY]]`.
struct ShadowSpec: ExpressibleByArgument {
    var radius: Double
    var opacity = 0.5
    var offset = Size(width: 0, height: 8)
    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count), let r = Double(parts[0]), r.isFinite, r >= 0 else { return nil }
        radius = r
        if parts.count >= 2 {
            guard let o = Double(parts[1]), (0...1).contains(o) else { return nil }
            opacity = o
        }
        if parts.count == 3 {
            let xy = parts[2].split(separator: ",").compactMap { Double($0) }
            guard xy.count == 2, xy.allSatisfy(\.isFinite) else { return nil }
            offset = Size(width: xy[0], height: xy[1])
        }
    }
}

/// `aspect`, `fill` or `resize`.
enum GravityOption: String, ExpressibleByArgument, CaseIterable {
    case aspect, fill, resize
}

/// Seconds (`2.5`) or `[hh:]mm:ss[.ms]`.
struct TimeSpec: ExpressibleByArgument {
    var seconds: Double
    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, p) in parts.enumerated() {
            guard let v = Double(p), v.isFinite, v >= 0 else { return nil }
            if i < parts.count - 1 && v != v.rounded() { return nil }
            // In [hh:]mm:ss, minutes and seconds are below 60 (as FFmpeg reads times): 99:99:99 is a typo.
            if i > 0 && v >= 60 { return nil }
            total = total * 60 + v
        }
        seconds = total
    }
}
