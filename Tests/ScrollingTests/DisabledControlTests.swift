import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// `Control.isEnabled`, UIControl's: a disabled control is drawn at 40%, hears no touches (one
/// that lands on it stops there), no keys, is passed over by Tab and gives up the focus, is
/// read as not enabled; a finger held on it still scrolls; a drag under way is undone.
@MainActor
@Suite struct DisabledControlTests {
    /// Records the touches that reach it.
    final class Pad: View {
        var began = 0
        override func touchesBegan(_ touches: [Touch]) { began += 1 }
    }

    @Test func aDisabledButtonHearsNoTapAndTheTouchGoesNoFurther() {
        let window = Window(size: Size(width: 300, height: 200))
        let pad = Pad(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        let button = Button(title: "Send", frame: Rect(x: 20, y: 20, width: 120, height: 44))
        window.addSubview(pad)
        window.addSubview(button)
        button.isEnabled = false
        window.handle(InputEvent(time: 1, .touchDown(id: 1, position: Point(x: 60, y: 40))))
        #expect(!button.isHighlighted)
        window.handle(InputEvent(time: 1.05, .touchUp(id: 1)))
        #expect(button.tapCount == 0 && pad.began == 0)
        button.isEnabled = true
        window.handle(InputEvent(time: 2, .touchDown(id: 1, position: Point(x: 60, y: 40))))
        window.handle(InputEvent(time: 2.05, .touchUp(id: 1)))
        #expect(button.tapCount == 1 && pad.began == 0)
    }

    @Test func aDisabledControlIsDrawnAtFortyPercent() throws {
        let window = Window(size: Size(width: 300, height: 200))
        let button = Button(title: "", frame: Rect(x: 20, y: 20, width: 120, height: 44))
        window.addSubview(button)
        var canvas = try Offscreen.render(window)
        #expect(canvas.pixel(x: 60, y: 40) == Color.tint.premultipliedARGB)
        button.isEnabled = false
        canvas = try Offscreen.render(window)
        // The tint (0, 122, 255) at 40% over white: 0.4·c + 0.6·255 = (153, 201.8, 255).
        let p = canvas.pixel(x: 60, y: 40)
        let (r, g, b) = (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
        #expect(abs(r - 153) <= 1 && abs(g - 202) <= 1 && b == 255, "\(r) \(g) \(b)")
        #expect(button.drawn(.tint) == Color.tint.withAlpha(0.4))
    }

    @Test func tabPassesItByAndDisablingTakesTheFocus() {
        let window = Window(size: Size(width: 300, height: 300))
        let first = Button(title: "One", frame: Rect(x: 20, y: 20, width: 120, height: 44))
        let second = Switch(frame: Rect(x: 20, y: 80, width: 59, height: 44))
        let third = Slider(frame: Rect(x: 20, y: 140, width: 200, height: 44))
        for v in [first, second, third] { window.addSubview(v) }
        second.isEnabled = false
        #expect(window.focusableViews.map { ObjectIdentifier($0) } == [first, third].map { ObjectIdentifier($0) })
        second.becomeFocused()
        #expect(window.focusedView == nil)
        third.becomeFocused()
        #expect(third.isFocused)
        // Keys are not its while it is disabled: it gives up the focus.
        third.isEnabled = false
        #expect(window.focusedView == nil)
        let before = third.value
        window.handle(InputEvent(time: 1, .key(.right, pressed: true, modifiers: [])))
        #expect(third.value == before)
    }

    @Test func aSliderDisabledMidDragGoesBackAndHearsNoMore() {
        let window = Window(size: Size(width: 400, height: 200))
        let slider = Slider(value: 0.25, frame: Rect(x: 20, y: 20, width: 300, height: 44))
        window.addSubview(slider)
        window.layoutIfNeeded()
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        window.handle(InputEvent(time: 1, .touchDown(id: 1, position: Point(x: 34 + 68, y: 42))))
        window.handle(InputEvent(time: 1.02, .touchMotion(id: 1, position: Point(x: 34 + 136, y: 42))))
        #expect(slider.value == 0.5)
        slider.isEnabled = false
        #expect(slider.value == 0.25 && !slider.isTracking)
        window.handle(InputEvent(time: 1.04, .touchMotion(id: 1, position: Point(x: 34 + 204, y: 42))))
        window.handle(InputEvent(time: 1.06, .touchUp(id: 1)))
        #expect(slider.value == 0.25 && heard == [0.5, 0.25])
    }

    /// A finger held on a disabled button in a scroll view, then dragged, scrolls: the button
    /// does nothing with it (an enabled one keeps it, UIKit's rule for controls).
    @Test func aFingerHeldOnADisabledButtonStillScrolls() {
        let rig = ScrollBench()
        let button = Button(title: "Send", frame: Rect(x: 100, y: 300, width: 190, height: 60))
        rig.content.addSubview(button)
        button.isEnabled = false
        rig.send(.touchDown(id: 1, position: Point(x: 150, y: 330)), at: 0)
        rig.advance(to: 0.2)
        #expect(!button.isHighlighted)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 300)), at: 0.25)
        rig.send(.touchMotion(id: 1, position: Point(x: 150, y: 260)), at: 0.3)
        #expect(rig.scroll.isDragging)
        rig.send(.touchUp(id: 1), at: 0.35)
        rig.settle()
        #expect(button.tapCount == 0)
    }

    @Test func aReaderHearsItAsNotEnabled() throws {
        let window = Window(size: Size(width: 300, height: 200))
        let button = Button(title: "Send", frame: Rect(x: 20, y: 20, width: 120, height: 44))
        window.addSubview(button)
        button.isEnabled = false
        let node = try #require(window.accessibilityTree().all.first { $0.view === button })
        #expect(!node.states.contains(.enabled) && !node.states.contains(.focusable))
        button.isEnabled = true
        let again = try #require(window.accessibilityTree().all.first { $0.view === button })
        #expect(again.states.isSuperset(of: [.enabled, .focusable]))
    }
}
