import CFFmpeg

extension Int64 {
    /// Seconds in ticks of a stream's `timeBase`, rounded by `rule`, for any number a caller may give.
    ///
    /// `Int64(_:)` traps on a Double that is NaN or beyond its range: a time of 1e15 s (`--at`, `--start`,
    /// `Player.frame(at:)`) crashed the process (issue 15). NaN is 0, and the result is kept within ±2⁶², so that
    /// adding a stream's start timestamp cannot overflow either; such a time is past the end of any medium anyway.
    init(ticks seconds: Double, timeBase: AVRational, rounding rule: FloatingPointRoundingRule = .toNearestOrEven) {
        let ticks = (seconds / av_q2d(timeBase)).rounded(rule)
        let limit = Double(1 << 62 as Int64)
        self = ticks.isNaN ? 0 : Int64(Swift.min(Swift.max(ticks, -limit), limit))
    }
}
