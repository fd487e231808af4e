extension Path {
    /// `UIBezierPath`'s spelling of `addArc(center:radius:startAngle:endAngle:clockwise:)`
    /// (`addArcWithCenter:radius:startAngle:endAngle:clockwise:`), for listings ported from UIKit: the same arc.
    public mutating func addArc(withCenter center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
}
