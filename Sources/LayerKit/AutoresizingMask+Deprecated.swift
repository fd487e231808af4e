// AutoresizingMask's first member names dropped CA's `layer` prefix while CornerMask kept it. Both now use
// Core Animation's names; these old spellings stay so old code builds, with a fix-it to the new name.
extension AutoresizingMask {
    /// The old spelling of `layerNotSizable`.
    @available(*, deprecated, renamed: "layerNotSizable")
    public static var notSizable: AutoresizingMask { .layerNotSizable }
    /// The old spelling of `layerMinXMargin`.
    @available(*, deprecated, renamed: "layerMinXMargin")
    public static var minXMargin: AutoresizingMask { .layerMinXMargin }
    /// The old spelling of `layerWidthSizable`.
    @available(*, deprecated, renamed: "layerWidthSizable")
    public static var widthSizable: AutoresizingMask { .layerWidthSizable }
    /// The old spelling of `layerMaxXMargin`.
    @available(*, deprecated, renamed: "layerMaxXMargin")
    public static var maxXMargin: AutoresizingMask { .layerMaxXMargin }
    /// The old spelling of `layerMinYMargin`.
    @available(*, deprecated, renamed: "layerMinYMargin")
    public static var minYMargin: AutoresizingMask { .layerMinYMargin }
    /// The old spelling of `layerHeightSizable`.
    @available(*, deprecated, renamed: "layerHeightSizable")
    public static var heightSizable: AutoresizingMask { .layerHeightSizable }
    /// The old spelling of `layerMaxYMargin`.
    @available(*, deprecated, renamed: "layerMaxYMargin")
    public static var maxYMargin: AutoresizingMask { .layerMaxYMargin }
}
