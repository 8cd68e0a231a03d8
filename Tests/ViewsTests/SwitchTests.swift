import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A switch as UIKit's UISwitch: a tap or Space toggles it and `onValueChanged` hears the
/// user's changes only; drawn as a tinted track with the knob at the end that says which; heard
/// as a checkable toggle button, checked while on, named by its label.
@MainActor
@Suite struct SwitchTests {
    let window = Window(size: Size(width: 200, height: 100))
    let toggle = Switch(isOn: false, frame: Rect(x: 20, y: 20, width: 59, height: 44))

    init() {
        window.addSubview(toggle)
        toggle.accessibilityLabel = "Show my photo"
    }

    func tap(at t: Double) {
        let p = Point(x: 50, y: 40)
        window.handle(InputEvent(time: t, .touchDown(id: 1, position: p)))
        window.handle(InputEvent(time: t + 0.05, .touchUp(id: 1)))
    }

    func press(_ key: Key, at t: Double) {
        window.handle(InputEvent(time: t, .key(key, pressed: true, modifiers: [])))
        window.handle(InputEvent(time: t + 0.03, .key(key, pressed: false, modifiers: [])))
    }

    @Test func tapsAndKeysToggleItAndTheUserChangesAreHeard() {
        var heard: [Bool] = []
        toggle.onValueChanged = { heard.append($0) }
        tap(at: 1)
        #expect(toggle.isOn && heard == [true])
        toggle.becomeFocused()
        press(.space, at: 2)
        #expect(!toggle.isOn && heard == [true, false])
        press(.enter, at: 3)
        #expect(toggle.isOn && heard == [true, false, true])
        // Set in code: no valueChanged, as UIKit.
        toggle.isOn = false
        #expect(heard.count == 3)
        // A touch that leaves it before lifting does not toggle it.
        window.handle(InputEvent(time: 4, .touchDown(id: 1, position: Point(x: 50, y: 40))))
        window.handle(InputEvent(time: 4.05, .touchMotion(id: 1, position: Point(x: 180, y: 95))))
        window.handle(InputEvent(time: 4.1, .touchUp(id: 1)))
        #expect(!toggle.isOn)
    }

    @Test func theKnobSitsAtTheEndThatSaysWhichAndTheTrackIsTinted() throws {
        // The track is 51 × 31, centred: x 24…75, y 26.5…57.5; the knob 27 px across, 2 px in.
        toggle.isOn = false
        var canvas = try Offscreen.render(window)
        let offTrack = toggle.offTintColor.premultipliedARGB
        #expect(canvas.pixel(x: 38, y: 42) == Color.white.premultipliedARGB)  // the knob, left
        #expect(canvas.pixel(x: 66, y: 42) == offTrack)
        toggle.isOn = true
        canvas = try Offscreen.render(window)
        #expect(canvas.pixel(x: 38, y: 42) == toggle.onTintColor.premultipliedARGB)
        #expect(canvas.pixel(x: 61, y: 42) == Color.white.premultipliedARGB)  // the knob, right
        #expect(canvas.pixel(x: 22, y: 42) == window.clearColor.premultipliedARGB)  // outside the track
    }

    @Test func itIsHeardAsACheckableToggleButton() throws {
        let node = try #require(window.accessibilityTree().all.first { $0.view === toggle })
        #expect(node.role == .toggleButton && node.label == "Show my photo")
        #expect(node.states.contains(.checkable) && !node.states.contains(.checked))
        toggle.isOn = true
        let on = try #require(window.accessibilityTree().all.first { $0.view === toggle })
        #expect(on.states.isSuperset(of: [.checkable, .checked]))
        #expect(toggle.accessibilityActivate() && !toggle.isOn)
    }
}
