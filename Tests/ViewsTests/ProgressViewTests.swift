import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A progress view as UIKit's UIProgressView: the tint fills the track from its leading end to
/// the progress, clamped to 0…1; an animated change slides the fill's edge on the ease-in-out
/// curve while `progress` reads the new value at once; a reader hears a progress bar in whole
/// percent.
///
/// The view is 200×4 at (20, 20) in a white 400×100 window: the fill ends at x = 20 + 200·p.
@MainActor
@Suite struct ProgressViewTests {
    let window = Window(size: Size(width: 400, height: 100))
    let bar = ProgressView(frame: Rect(x: 20, y: 20, width: 200, height: 4))

    init() {
        window.clearColor = .white
        window.addSubview(bar)
        window.layoutIfNeeded()
    }

    /// The window's pixel on the track's middle line at `x`.
    func pixel(_ x: Int, _ canvas: Canvas) -> UInt32 { canvas.pixel(x: x, y: 22) }

    @Test func theTintFillsTheTrackToTheProgress() throws {
        bar.progress = 0.4
        var render = try Offscreen.render(window)
        let tint = Color.tint.premultipliedARGB
        let track = Color(rgb: 229, 229, 234).premultipliedARGB
        #expect(pixel(60, render) == tint && pixel(97, render) == tint)
        #expect(pixel(102, render) == track && pixel(200, render) == track)
        // Clamped to 0…1; not a number is ignored.
        bar.progress = 1.5
        #expect(bar.progress == 1)
        bar.progress = .nan
        #expect(bar.progress == 1)
        bar.progress = -2
        #expect(bar.progress == 0)
        // Right to left, from the right end.
        bar.progress = 0.25
        bar.semanticContentAttribute = .forceRightToLeft
        render = try Offscreen.render(window)
        #expect(pixel(200, render) == tint && pixel(165, render) == track && pixel(60, render) == track)
        // The bar style: square ends, no track of its own.
        bar.progressViewStyle = .bar
        bar.semanticContentAttribute = .forceLeftToRight
        render = try Offscreen.render(window)
        #expect(pixel(20, render) == tint && pixel(100, render) == Color.white.premultipliedARGB)
        #expect(bar.intrinsicContentSize.height == 2.5)
    }

    /// Animated, the fill's edge goes from 40% to 90% over a quarter second on the ease-in-out
    /// curve (halfway in time, halfway in width); `progress` reads 0.9 from the start.
    @Test func anAnimatedChangeSlidesTheFillWhileTheValueIsNew() throws {
        bar.progress = 0.4
        try window.prepareFrame(time: 1)
        bar.setProgress(0.9, animated: true)
        #expect(bar.progress == 0.9)
        try window.prepareFrame(time: 1)
        let fill = try #require(bar.subviews.first)
        #expect(fill.frame.width == 80)
        try window.prepareFrame(time: 1.125)
        #expect(abs(fill.frame.width - 130) < 0.01, "\(fill.frame)")
        try window.prepareFrame(time: 1.3)
        #expect(fill.frame == Rect(x: 0, y: 0, width: 180, height: 4))
        // A new width while it rests: the fill follows.
        bar.frame.size.width = 100
        window.layoutIfNeeded()
        #expect(fill.frame.width == 90)
    }

    @Test func aReaderHearsAProgressBarInWholePercent() {
        var told = 0
        final class Listener: WindowObserver {
            var onValue: () -> Void = {}
            func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {
                if case .valueChanged = notification { onValue() }
            }
        }
        let listener = Listener()
        listener.onValue = { told += 1 }
        window.addObserver(listener)
        bar.progress = 0.426
        #expect(bar.resolvedAccessibility.role == .progressIndicator)
        #expect(bar.resolvedAccessibility.label == "Progress")
        #expect(
            bar.accessibilityValue
                == AccessibilityValue(current: 0.426, minimum: 0, maximum: 1, step: 0.01, text: "43%"))
        #expect(!bar.accessibilitySetValue(0.9) && bar.progress == 0.426)
        bar.progress = 0.426
        #expect(told == 1)
    }
}
