import ScrollwayGeometry
import ScrollwayRaster

extension Color {
    /// The 1 px border of a text field or text view without the focus.
    public static let fieldBorder = Color(rgb: 190, 190, 196)
    /// A text field's or text view's placeholder text.
    public static let placeholderText = Color(rgb: 160, 160, 166)
}

extension Canvas {
    /// A focus ring just inside `rect` (the ring's own bounds): 2 px of the tint while `focused`,
    /// else 1 px of `idleColor`, or nothing without one. One drawing for every view that shows
    /// its focus this way (a text field in its own image, a text view and a list row through a
    /// ring view over their content).
    public func strokeFocusRing(in rect: Rect, focused: Bool, idleColor: Color?, cornerRadius: Double) {
        guard let color = focused ? .tint : idleColor else { return }
        strokeRoundedRect(
            rect.insetBy(dx: 0.75, dy: 0.75), radius: cornerRadius, lineWidth: focused ? 2 : 1, color: color)
    }
}
