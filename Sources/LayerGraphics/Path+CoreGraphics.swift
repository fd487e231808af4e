// CGPath's initialisers as Core Graphics spells them, with the optional transform (issue 26 item 5). Core Graphics
// takes the transform as `UnsafePointer<CGAffineTransform>?` (`transform: nil` or `transform: &t`); here it is a plain
// optional value: `Path(rect: r, transform: nil)` compiles as written, and `&t` becomes `t`.

extension Path {
    /// A closed rectangle, mapped through `transform` when one is given (`CGPath(rect:transform:)`).
    public init(rect: Rect, transform: AffineTransform2D?) {
        self.init(rect: rect)
        if let transform { self = applying(transform) }
    }

    /// The ellipse inscribed in `rect`, mapped through `transform` when one is given (`CGPath(ellipseIn:transform:)`).
    public init(ellipseIn rect: Rect, transform: AffineTransform2D?) {
        self.init(ellipseIn: rect)
        if let transform { self = applying(transform) }
    }

    /// A rectangle whose four corners are quarter ellipses `cornerWidth` wide and `cornerHeight` high, mapped through
    /// `transform` when one is given (`CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`). Core Graphics
    /// requires each radius to be at most half the matching side; here a larger one is clamped to it (and a negative
    /// one is 0, a plain rectangle).
    public init(roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double, transform: AffineTransform2D?) {
        self.init(roundedRect: rect, byRoundingCorners: .allCorners, cornerRadii: Size(width: cornerWidth, height: cornerHeight))
        if let transform { self = applying(transform) }
    }
}
