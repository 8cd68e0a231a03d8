import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews
import Testing

/// A slider as UIKit's UISlider: a finger drags it by its thumb, keeping its hold; the track
/// alone takes a finger nowhere (the mouse presses there); `onValueChanged` hears the user's
/// changes, each move or once at the end; a cancelled drag goes back; keys step a tenth; a pan
/// along the track that starts on the thumb is the slider's; a reader reads and sets its value.
///
/// The slider below is 300 wide at x 20: its thumb (28 across) travels 272 px, its centre at
/// 34 + 272·v for the value v in 0…1, on the track's line y = 42.
@MainActor
@Suite struct SliderTests {
    let window = Window(size: Size(width: 400, height: 200))
    let slider = Slider(value: 0.25, frame: Rect(x: 20, y: 20, width: 300, height: 44))

    init() {
        window.addSubview(slider)
        window.layoutIfNeeded()
    }

    static func centre(_ v: Double) -> Double { 34 + 272 * v }

    func send(_ kind: InputEvent.Kind, at t: Double) { window.handle(InputEvent(time: t, kind)) }

    func press(_ key: Key, at t: Double) {
        send(.key(key, pressed: true, modifiers: []), at: t)
        send(.key(key, pressed: false, modifiers: []), at: t + 0.03)
    }

    @Test func aFingerDragsTheThumbKeepingWhereItTookHold() {
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        // Down 4 px right of the thumb's centre (102): the thumb keeps 4 px left of the finger.
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.25) + 4, y: 40)), at: 1)
        #expect(slider.isTracking && slider.value == 0.25 && heard.isEmpty)
        send(.touchMotion(id: 1, position: Point(x: Self.centre(0.375) + 4, y: 70)), at: 1.02)
        #expect(slider.value == 0.375)
        send(.touchMotion(id: 1, position: Point(x: Self.centre(0.5) + 4, y: 44)), at: 1.04)
        send(.touchUp(id: 1), at: 1.06)
        #expect(slider.value == 0.5 && !slider.isTracking)
        #expect(heard == [0.375, 0.5])
        // Past the end it stops at the maximum.
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.5), y: 40)), at: 2)
        send(.touchMotion(id: 1, position: Point(x: 390, y: 40)), at: 2.02)
        send(.touchUp(id: 1), at: 2.04)
        #expect(slider.value == 1 && heard.last == 1)
        // Set in code: nothing heard.
        slider.value = 0.2
        #expect(heard.count == 3 && slider.value == 0.2)
    }

    @Test func aFingerOnTheTrackAloneDoesNothingWhereTheMouseJumpsAndDrags() {
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        send(.touchDown(id: 1, position: Point(x: 280, y: 42)), at: 1)
        send(.touchMotion(id: 1, position: Point(x: 300, y: 42)), at: 1.02)
        send(.touchUp(id: 1), at: 1.04)
        #expect(slider.value == 0.25 && heard.isEmpty)
        // The mouse pressed at the 0.75 point: the thumb's centre goes there, then follows.
        send(.pointerEnter(position: Point(x: Self.centre(0.75), y: 42)), at: 2)
        send(.pointerButton(.left, pressed: true), at: 2.01)
        #expect(slider.value == 0.75 && slider.isTracking)
        send(.pointerMotion(position: Point(x: Self.centre(0.875), y: 30)), at: 2.03)
        send(.pointerButton(.left, pressed: false), at: 2.05)
        #expect(slider.value == 0.875 && heard == [0.75, 0.875])
    }

    @Test func aSliderThatIsNotContinuousTellsTheValueItEndsAtOnce() {
        var heard: [Double] = []
        slider.isContinuous = false
        slider.onValueChanged = { heard.append($0) }
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.25), y: 42)), at: 1)
        for (i, v) in [0.3, 0.4, 0.625].enumerated() {
            send(.touchMotion(id: 1, position: Point(x: Self.centre(v), y: 42)), at: 1.02 + Double(i) * 0.02)
        }
        #expect(slider.value == 0.625 && heard.isEmpty)
        send(.touchUp(id: 1), at: 1.1)
        #expect(heard == [0.625])
        // Dragged away and back to where it was: no change, nothing told.
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.625), y: 42)), at: 2)
        send(.touchMotion(id: 1, position: Point(x: Self.centre(0.1), y: 42)), at: 2.02)
        send(.touchMotion(id: 1, position: Point(x: Self.centre(0.625), y: 42)), at: 2.04)
        send(.touchUp(id: 1), at: 2.06)
        #expect(heard == [0.625])
    }

    @Test func aCancelledDragPutsTheValueBack() {
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.25), y: 42)), at: 1)
        send(.touchMotion(id: 1, position: Point(x: Self.centre(0.75), y: 42)), at: 1.02)
        #expect(slider.value == 0.75)
        send(.touchCancel, at: 1.04)
        #expect(slider.value == 0.25 && !slider.isTracking)
        // A continuous listener heard it go and come back.
        #expect(heard == [0.75, 0.25])
    }

    @Test func keysStepATenthAndGoToTheEndsMirroredRightToLeft() {
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        slider.minimumValue = -10
        slider.maximumValue = 10
        slider.value = 0
        // Unfocused, the keys are not its.
        press(.right, at: 1)
        #expect(slider.value == 0)
        slider.becomeFocused()
        press(.right, at: 2)
        #expect(slider.value == 2)
        press(.up, at: 3)
        #expect(slider.value == 4)
        press(.left, at: 4)
        press(.down, at: 5)
        #expect(slider.value == 0)
        press(.end, at: 6)
        #expect(slider.value == 10)
        press(.right, at: 7)
        #expect(slider.value == 10)
        press(.home, at: 8)
        #expect(slider.value == -10)
        #expect(heard == [2, 4, 2, 0, 10, -10])
        window.userInterfaceLayoutDirection = .rightToLeft
        press(.left, at: 9)
        #expect(slider.value == -8)
        // The thumb stands from the right: -8 is a tenth of the way, 27.2 px in from its
        // rightmost centre (in the slider's coordinates).
        #expect(slider.subviews[0].frame.midX == 300 - 14 - 27.2)
    }

    /// A slider no wider than its thumb: the thumb cannot travel, so a drag leaves the value.
    @Test func aSliderNarrowerThanItsThumbKeepsItsValueUnderADrag() {
        slider.frame = Rect(x: 20, y: 20, width: 20, height: 44)
        slider.value = 0.6
        window.layoutIfNeeded()
        send(.touchDown(id: 1, position: Point(x: 30, y: 42)), at: 1)
        send(.touchMotion(id: 1, position: Point(x: 31, y: 42)), at: 1.02)
        send(.touchUp(id: 1), at: 1.04)
        #expect(slider.value == 0.6)
    }

    /// A range wider than a double holds: the thumb still stands in the middle for 0, a drag
    /// and the keys still move it.
    @Test func aRangeAsWideAsDoublesGoStillWorks() {
        slider.minimumValue = -1e308
        slider.maximumValue = 1e308
        slider.value = 0
        window.layoutIfNeeded()
        #expect(slider.subviews[0].frame.midX == 14 + 136)
        slider.becomeFocused()
        press(.right, at: 1)
        #expect(abs(slider.value / 2e307 - 1) < 1e-12)  // a tenth of 2e308, in doubles
        send(.touchDown(id: 1, position: Point(x: 20 + slider.subviews[0].frame.midX, y: 42)), at: 2)
        send(.touchMotion(id: 1, position: Point(x: 20 + 14 + 272, y: 42)), at: 2.02)
        send(.touchUp(id: 1), at: 2.04)
        #expect(slider.value == 1e308)
    }

    @Test func theRangeKeepsTheValueAndItsEndsInOrder() {
        slider.value = 0.5
        slider.minimumValue = 2
        #expect(slider.maximumValue == 2 && slider.value == 2)
        slider.maximumValue = 1
        #expect(slider.minimumValue == 1 && slider.value == 1)
        slider.maximumValue = 5
        slider.value = .nan
        #expect(slider.value == 1)
        slider.value = 9
        #expect(slider.value == 5)
        slider.minimumValue = .infinity
        #expect(slider.minimumValue == 1)
    }

    @Test func theTrackIsTintedUpToTheThumb() throws {
        slider.value = 0.5
        let canvas = try Offscreen.render(window)
        // The thumb's centre is at 170: tint left of it, grey right of it, the disc white.
        #expect(canvas.pixel(x: 60, y: 42) == slider.minimumTrackTintColor.premultipliedARGB)
        #expect(canvas.pixel(x: 280, y: 42) == slider.maximumTrackTintColor.premultipliedARGB)
        #expect(canvas.pixel(x: 170, y: 42) == Color.white.premultipliedARGB)
        #expect(canvas.pixel(x: 60, y: 36) == window.clearColor.premultipliedARGB)  // above the track
        #expect(slider.subviews[0].frame == Rect(x: 136, y: 8, width: 28, height: 28))  // the slider's coordinates
    }

    @Test func aPanAlongTheTrackThatStartsOnTheThumbIsTheSlidersNotARecognizersAbove() {
        let pan = PanGestureRecognizer()
        var began = 0
        pan.addAction { g in if g.state == .began { began += 1 } }
        window.addGestureRecognizer(pan)
        // Along the track from the thumb: the slider moves, the pan fails.
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.25), y: 42)), at: 1)
        for i in 1...4 {
            send(
                .touchMotion(id: 1, position: Point(x: Self.centre(0.25) + Double(i) * 8, y: 43)),
                at: 1 + Double(i) * 0.01)
        }
        send(.touchUp(id: 1), at: 1.1)
        #expect(began == 0 && slider.value == 0.25 + 32 / 272)
        // Across the track from the thumb: the pan begins.
        slider.value = 0.25
        send(.touchDown(id: 1, position: Point(x: Self.centre(0.25), y: 42)), at: 2)
        for i in 1...4 {
            send(
                .touchMotion(id: 1, position: Point(x: Self.centre(0.25) + 2, y: 42 + Double(i) * 8)),
                at: 2 + Double(i) * 0.01)
        }
        send(.touchUp(id: 1), at: 2.1)
        #expect(began == 1)
        // Along the track from the track (no thumb there): the pan's.
        send(.touchDown(id: 1, position: Point(x: 250, y: 42)), at: 3)
        for i in 1...4 {
            send(.touchMotion(id: 1, position: Point(x: 250 + Double(i) * 8, y: 42)), at: 3 + Double(i) * 0.01)
        }
        send(.touchUp(id: 1), at: 3.1)
        #expect(began == 2)
    }

    @Test func aReaderReadsItsValueStepsItAndSetsIt() throws {
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        slider.value = 0.5
        let node = try #require(window.accessibilityTree().all.first { $0.view === slider })
        #expect(node.role == .slider)
        #expect(node.value == AccessibilityValue(current: 0.5, minimum: 0, maximum: 1, step: 0.1, text: "50%"))
        slider.accessibilityIncrement()
        #expect(slider.value == 0.6)
        slider.accessibilityDecrement()
        slider.accessibilityDecrement()
        #expect(abs(slider.value - 0.4) < 1e-12)
        #expect(slider.accessibilitySetValue(7) && slider.value == 1)
        #expect(slider.accessibilityValue?.text == "100%")
        #expect(heard.count == 4 && heard.last == 1)
    }
}
