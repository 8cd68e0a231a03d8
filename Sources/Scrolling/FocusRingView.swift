import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// A focus ring over its superview (a text view's border, a list row's ring): the tint, 2 px,
/// while the superview has the keyboard focus; otherwise 1 px of `idleColor`, or nothing. A view
/// of its own, so that it stays over what scrolls beneath it and redraws alone.
final class FocusRingView: View {
    let idleColor: Color?
    let cornerRadius: Double

    init(idleColor: Color?, cornerRadius: Double = 6) {
        self.idleColor = idleColor
        self.cornerRadius = cornerRadius
        super.init()
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        canvas.strokeFocusRing(
            in: Rect(origin: .zero, size: bounds.size), focused: superview?.showsFocus ?? false, idleColor: idleColor,
            cornerRadius: cornerRadius)
    }
}
