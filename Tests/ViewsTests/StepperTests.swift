import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A stepper as UIKit's UIStepper: a press steps at once, a hold repeats on the window's clock
/// (after half a second, then every tenth, every twentieth after twenty repeats), a finger off
/// its half pauses the repeats; the ends stop it (the half drawn faint) unless it wraps;
/// `onValueChanged` hears each step or only the last; keys step it; a reader reads, steps and
/// sets it.
///
/// The stepper is 94×32 at (20, 20): its "−" half spans x 20…67 (centre 43.5) and its "+" half
/// x 67…114 (centre 90.5), both on the line y = 36.
@MainActor
@Suite struct StepperTests {
    let window = Window(size: Size(width: 400, height: 200))
    let stepper = Stepper(value: 0, frame: Rect(x: 20, y: 20, width: 94, height: 32))
    static let minus = Point(x: 43.5, y: 36)
    static let plus = Point(x: 90.5, y: 36)

    init() {
        window.addSubview(stepper)
        window.layoutIfNeeded()
    }

    func send(_ kind: InputEvent.Kind, at t: Double) { window.handle(InputEvent(time: t, kind)) }

    func press(_ key: Key, at t: Double) {
        send(.key(key, pressed: true, modifiers: []), at: t)
        send(.key(key, pressed: false, modifiers: []), at: t + 0.03)
    }

    @Test func aPressStepsAtOnceAndAHoldRepeatsFasterAndFaster() {
        var heard: [Double] = []
        stepper.onValueChanged = { heard.append($0) }
        send(.touchDown(id: 1, position: Self.plus), at: 1)
        #expect(stepper.value == 1 && heard == [1] && stepper.highlightedHalf == .increment)
        window.advanceClock(to: 1.49)
        #expect(stepper.value == 1)
        // Repeats at 1.5, 1.6 … 2.0: six.
        window.advanceClock(to: 2.0)
        #expect(stepper.value == 7)
        // The twentieth repeat falls at 3.4; then every 0.05: 3.45 and 3.5.
        window.advanceClock(to: 3.4)
        #expect(stepper.value == 21)
        window.advanceClock(to: 3.5)
        #expect(stepper.value == 23)
        send(.touchUp(id: 1), at: 3.52)
        window.advanceClock(to: 5)
        #expect(stepper.value == 23 && heard == (1...23).map(Double.init) && stepper.highlightedHalf == nil)
        // Set in code: not heard.
        stepper.value = 40
        #expect(heard.count == 23)
    }

    /// A finger slid off its half (past 20 points of slack) pauses the repeats and the
    /// highlight; back on, they go on at the pace they had reached; a cancelled touch keeps
    /// the steps it made.
    @Test func aFingerOffItsHalfPausesTheRepeats() {
        stepper.value = 50
        send(.touchDown(id: 1, position: Self.minus), at: 1)
        window.advanceClock(to: 1.6)
        #expect(stepper.value == 47)
        // Onto the "+" half, 30 past the middle: off the "−" half and its slack.
        send(.touchMotion(id: 1, position: Point(x: 97, y: 36)), at: 1.62)
        #expect(stepper.highlightedHalf == nil)
        window.advanceClock(to: 3)
        #expect(stepper.value == 47)
        send(.touchMotion(id: 1, position: Point(x: 60, y: 40)), at: 3)
        #expect(stepper.highlightedHalf == .decrement)
        window.advanceClock(to: 3.09)
        #expect(stepper.value == 47)
        window.advanceClock(to: 3.1)
        #expect(stepper.value == 46)  // the pace it had reached: one every 0.1
        send(.touchCancel, at: 3.12)
        window.advanceClock(to: 4)
        #expect(stepper.value == 46 && stepper.highlightedHalf == nil)
    }

    /// At an end its half does nothing and a hold stops there; wrapping, it carries round to
    /// the other end; not continuous, the listener hears once, as the press ends.
    @Test func theEndsStopItUnlessItWraps() {
        stepper.minimumValue = 0
        stepper.maximumValue = 10
        stepper.stepValue = 4
        var heard: [Double] = []
        stepper.onValueChanged = { heard.append($0) }
        send(.touchDown(id: 1, position: Self.plus), at: 1)
        window.advanceClock(to: 3)
        send(.touchUp(id: 1), at: 3)
        #expect(stepper.value == 10 && heard == [4, 8, 10])
        #expect(!stepper.canStep(.increment) && stepper.canStep(.decrement))
        send(.touchDown(id: 1, position: Self.plus), at: 4)
        #expect(stepper.highlightedHalf == nil && heard.count == 3)
        send(.touchUp(id: 1), at: 4.05)
        stepper.wraps = true
        send(.touchDown(id: 1, position: Self.plus), at: 5)
        send(.touchUp(id: 1), at: 5.05)
        #expect(stepper.value == 0 && heard.last == 0)
        send(.touchDown(id: 1, position: Self.minus), at: 6)
        send(.touchUp(id: 1), at: 6.05)
        #expect(stepper.value == 10)
        stepper.isContinuous = false
        stepper.wraps = false
        heard = []
        send(.touchDown(id: 1, position: Self.minus), at: 7)
        window.advanceClock(to: 7.5)
        #expect(stepper.value == 2 && heard.isEmpty)
        send(.touchUp(id: 1), at: 7.52)
        #expect(heard == [2])
        // A step that is not more than 0 is refused.
        stepper.stepValue = 0
        stepper.stepValue = -.infinity
        #expect(stepper.stepValue == 4)
    }

    /// A stepper taken out of its window mid-hold leaves no repeat behind on that window's clock.
    @Test func leavingTheWindowEndsTheHold() {
        send(.touchDown(id: 1, position: Self.plus), at: 1)
        #expect(window.nextTimerDeadline == 1.5)
        stepper.removeFromSuperview()
        #expect(window.nextTimerDeadline == nil && stepper.highlightedHalf == nil)
        window.advanceClock(to: 3)
        #expect(stepper.value == 1)
    }

    @Test func keysStepItAndTakeItToItsEnds() {
        var heard: [Double] = []
        stepper.onValueChanged = { heard.append($0) }
        stepper.value = 5
        press(.up, at: 1)
        #expect(stepper.value == 5)  // not focused: not its keys
        stepper.becomeFocused()
        press(.up, at: 2)
        press(.right, at: 3)
        press(.left, at: 4)
        press(.down, at: 5)
        #expect(stepper.value == 5 && heard == [6, 7, 6, 5])
        press(.end, at: 6)
        #expect(stepper.value == 100)
        press(.home, at: 7)
        #expect(stepper.value == 0)
        // Right to left, "+" is on the left, and Left steps up.
        stepper.semanticContentAttribute = .forceRightToLeft
        press(.left, at: 8)
        #expect(stepper.value == 1)
        #expect(stepper.rect(for: .increment) == Rect(x: 0, y: 0, width: 47, height: 32))
        send(.touchDown(id: 1, position: Self.minus), at: 9)
        send(.touchUp(id: 1), at: 9.05)
        #expect(stepper.value == 2)
    }

    /// A reader hears a spin button with the number, its range and its step; its increment
    /// and decrement step it, and a number it sets is kept within the range.
    @Test func aReaderReadsStepsAndSetsIt() {
        var heard: [Double] = []
        stepper.onValueChanged = { heard.append($0) }
        stepper.value = 5
        #expect(stepper.resolvedAccessibility.role == .spinButton)
        #expect(
            stepper.accessibilityValue
                == AccessibilityValue(current: 5, minimum: 0, maximum: 100, step: 1, text: "5"))
        stepper.accessibilityIncrement()
        stepper.accessibilityDecrement()
        stepper.accessibilityDecrement()
        #expect(stepper.value == 4 && heard == [6, 5, 4])
        #expect(stepper.accessibilitySetValue(42.5) && stepper.accessibilityValue?.text == "42.5")
        #expect(stepper.accessibilitySetValue(500) && stepper.value == 100)
        // Tenths said as tenths, and a sum a rounding short of the end lands on it, not round
        // past it to the other end.
        stepper.minimumValue = 0
        stepper.maximumValue = 0.8
        stepper.stepValue = 0.1
        stepper.wraps = true
        stepper.value = 0.1
        stepper.accessibilityIncrement()
        #expect(stepper.value == 0.1 + 0.1 && stepper.accessibilityValue?.text == "0.2")
        stepper.value = 0.2
        stepper.accessibilityIncrement()
        #expect(stepper.value == 0.2 + 0.1 && stepper.accessibilityValue?.text == "0.3")
        stepper.value = 0.7  // 0.7 + 0.1 is 0.7999999999999999
        stepper.accessibilityIncrement()
        #expect(stepper.value == 0.8)
        stepper.accessibilityIncrement()
        #expect(stepper.value == 0)
        stepper.isEnabled = false
        send(.touchDown(id: 1, position: Self.plus), at: 1)
        send(.touchUp(id: 1), at: 1.05)
        #expect(stepper.value == 0)
    }

    /// Drawn: the band, the "−" and "+" in ink, a half under a finger darker, and the half that
    /// cannot go further faint.
    @Test func itDrawsItsHalvesAndTheirStates() throws {
        window.clearColor = .white
        stepper.value = 100
        let render = try Offscreen.render(window)
        // Pressed (a step down to 99, which brings the "+" back).
        let pressed = try { () throws -> Canvas in
            send(.touchDown(id: 1, position: Self.minus), at: 1)
            defer { send(.touchUp(id: 1), at: 1.05) }
            return try Offscreen.render(window)
        }()
        #expect(stepper.value == 99 && pressed.pixel(x: 84, y: 36) == Color.black.premultipliedARGB)
        let band = stepper.fillColor.premultipliedARGB
        let highlight = stepper.highlightColor.premultipliedARGB
        // Away from the glyphs: the band; under the finger, the highlight, to its corner.
        #expect(render.pixel(x: 30, y: 26) == band && render.pixel(x: 104, y: 46) == band)
        #expect(pressed.pixel(x: 30, y: 26) == highlight && pressed.pixel(x: 104, y: 46) == band)
        #expect(pressed.pixel(x: 64, y: 26) == highlight)  // square where the halves meet
        // The "−" in ink; the "+" at the maximum, faint: lighter than the "−", and as light
        // where its bars cross as along them (inked once).
        let minusInk = render.pixel(x: 40, y: 36)
        let plusInk = render.pixel(x: 84, y: 36)
        #expect(minusInk == Color.black.premultipliedARGB)
        #expect(plusInk != band && (plusInk & 0xFF) > 0x60, "\(String(plusInk, radix: 16))")
        #expect(render.pixel(x: 90, y: 36) == plusInk)
        // The "+" has its upright bar: above the centre line, ink; beside it, the band.
        #expect(render.pixel(x: 90, y: 31) == plusInk && render.pixel(x: 86, y: 31) == band)
    }
}
