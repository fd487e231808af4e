/// A rational time, `value / timescale` seconds: exact for frame times (ARCHITECTURE.md: never wall clock).
public struct MediaTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var value: Int64
    public var timescale: Int32

    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "a timescale is positive")
        self.value = value; self.timescale = timescale
    }
    public static let zero = MediaTime(value: 0, timescale: 1)

    public var seconds: Double { Double(value) / Double(timescale) }

    /// The frame time `index / rate` for a rational frame rate `num/den`: `index · den / num`.
    public init(frame index: Int64, rateNumerator num: Int32, rateDenominator den: Int32) {
        self.init(value: index * Int64(den), timescale: num)
    }

    public static func < (a: MediaTime, b: MediaTime) -> Bool {
        a.value * Int64(b.timescale) < b.value * Int64(a.timescale)
    }
    public static func == (a: MediaTime, b: MediaTime) -> Bool {
        a.value * Int64(b.timescale) == b.value * Int64(a.timescale)
    }
    public func hash(into h: inout Hasher) { h.combine(seconds) }
    public var description: String { "\(value)/\(timescale)" }
}
