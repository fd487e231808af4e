/// A rational time, `value / timescale` seconds: exact for frame times (ARCHITECTURE.md: never wall clock).
public struct MediaTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The time in units of `1/timescale` seconds.
    public var value: Int64
    /// Units a second; positive.
    public var timescale: Int32

    /// The time `value / timescale` seconds; `timescale` must be positive.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "a timescale is positive")
        self.value = value; self.timescale = timescale
    }
    /// The start of a timeline.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// The time in seconds, as a floating-point number.
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
