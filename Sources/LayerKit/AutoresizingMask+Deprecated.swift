// AutoresizingMask's first member names dropped CA's `layer` prefix while CornerMask kept it. Both now use
// Core Animation's names; these old spellings stay so old code builds, with a fix-it to the new name.
extension AutoresizingMask {
    @available(*, deprecated, renamed: "layerNotSizable")
    public static var notSizable: AutoresizingMask { .layerNotSizable }
    @available(*, deprecated, renamed: "layerMinXMargin")
    public static var minXMargin: AutoresizingMask { .layerMinXMargin }
    @available(*, deprecated, renamed: "layerWidthSizable")
    public static var widthSizable: AutoresizingMask { .layerWidthSizable }
    @available(*, deprecated, renamed: "layerMaxXMargin")
    public static var maxXMargin: AutoresizingMask { .layerMaxXMargin }
    @available(*, deprecated, renamed: "layerMinYMargin")
    public static var minYMargin: AutoresizingMask { .layerMinYMargin }
    @available(*, deprecated, renamed: "layerHeightSizable")
    public static var heightSizable: AutoresizingMask { .layerHeightSizable }
    @available(*, deprecated, renamed: "layerMaxYMargin")
    public static var maxYMargin: AutoresizingMask { .layerMaxYMargin }
}
