import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The real platform in the weston rig: a window on a compositor, driven by real wl_touch,
/// wl_pointer and wl_keyboard events.
@MainActor
@Suite(.serialized) struct WaylandPlatformTests {
    /// The list scene at the rig's size, mapped.
    func start(width: Int = 390, height: Int = 600) throws -> (WestonRig, WaylandApp, ScrollView) {
        let rig = try WestonRig(width: width, height: height)
        let window = Scene.list.makeWindow(size: Size(width: Double(width), height: Double(height)))
        let app = try WaylandApp(content: window, title: "Scrollway test", socket: rig.socketPath)
        try app.settle()
        let main = try #require(window.view(named: "main") as? ScrollView)
        return (rig, app, main)
    }

    /// Plays the gesture `build` lays out from compositor time `ms` through the replay layer:
    /// each event once it is due (`RealTimePacer`), handled by weston, then read and handled by
    /// the app.
    func send(_ rig: WestonRig, _ app: WaylandApp, at ms: Double, _ build: (inout ScriptBuilder) -> Void) throws {
        try WestonTarget(rig: rig, app: app).send(from: ms, build)
    }

    @Test func theWindowMapsAtTheKioskSizeAndShowsItsPixels() throws {
        let (rig, app, main) = try start()
        #expect(app.window.content.bounds.size == Size(width: 390, height: 600))
        #expect(app.window.framesCommitted >= 1)
        try rig.parkPointer()
        main.contentOffset = Point(x: 0, y: 123)
        try app.settle()
        let shown = try rig.capture()
        let expected = try Offscreen.render(app.window.content)
        var mismatches = 0
        for y in stride(from: 0, to: 600, by: 3) {
            for x in stride(from: 0, to: 390, by: 3) where shown.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0, "\(mismatches) sampled pixels differ from the offscreen render")
        #expect(!app.window.isWaitingForFrame || app.window.framesCommitted > 1)
    }

    @Test func thePointerShowsTheThemeCursorOverTheWindow() throws {
        let (rig, app, _) = try start()
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 100, y: 100), at: 0) }
        try app.settle()
        let withCursor = try rig.capture()
        let expected = try Offscreen.render(app.window.content)
        // The cursor image sits at the pointer (hotspot at its tip): pixels there differ.
        var differing = 0
        for y in 100..<116 {
            for x in 100..<110 where withCursor.pixel(x: x, y: y) != expected.pixel(x: x, y: y) { differing += 1 }
        }
        #expect(differing > 10)
        try rig.parkPointer()
        try app.settle()
        let parked = try rig.capture()
        #expect(parked.pixel(x: 102, y: 105) == expected.pixel(x: 102, y: 105))
        // The next motion brings the pointer, and its cursor, back.
        try send(rig, app, at: 900) { $0.pointer(to: Point(x: 200, y: 200), at: 0) }
        try app.settle()
        let back = try rig.capture()
        var again = 0
        for y in 200..<216 {
            for x in 200..<210 where back.pixel(x: x, y: y) != expected.pixel(x: x, y: y) { again += 1 }
        }
        #expect(again > 10)
        // And hidden again: a sprite the rig put back is taken down like any other.
        try rig.parkPointer()
        try app.settle()
        let parkedAgain = try rig.capture()
        var left = 0
        for y in 200..<216 {
            for x in 200..<210 where parkedAgain.pixel(x: x, y: y) != expected.pixel(x: x, y: y) { left += 1 }
        }
        #expect(left == 0, "\(left) cursor pixels left after hiding the pointer again")
    }

    @Test func aTouchDragScrollsByTheDistanceLessTheSlop() throws {
        let (rig, app, main) = try start()
        // Ten moves of 20 px 16 ms apart, held still for 200 ms before lifting: no fling.
        try send(rig, app, at: 1000) { b in
            b.drag(
                from: Point(x: 200, y: 500), through: (1...10).map { Point(x: 200, y: 500 - Double($0) * 20) }, at: 0,
                step: 16, liftAfter: 200)
        }
        try app.settle()
        #expect(main.contentOffset.y == 190)
        #expect(!main.isDecelerating && !main.isDragging)
        // The compositor shows it.
        try rig.parkPointer()
        try app.settle()
        let shown = try rig.capture()
        let expected = try Offscreen.render(app.window.content)
        #expect(shown.pixel(x: 20, y: 300) == expected.pixel(x: 20, y: 300))
        #expect(shown.pixel(x: 100, y: 10) == expected.pixel(x: 100, y: 10))
    }

    @Test func aTouchpadBurstEndingInAxisStopProducesMomentum() throws {
        let (rig, app, main) = try start()
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 200, y: 300), at: 0) }
        try send(rig, app, at: 1000) { b in
            for i in 0..<10 {
                b.add(.pointerAxis(.vertical, value: 10, source: .finger, value120: nil), at: Double(i * 10))
                b.add(.pointerFrame, at: Double(i * 10))
            }
        }
        #expect(main.contentOffset.y == 250)  // 10 × 10 × 2.5, 1:1 while the fingers are down
        try send(rig, app, at: 1100) { b in
            b.add(.pointerAxisStop(.vertical), at: 0)
            b.add(.pointerFrame, at: 0)
        }
        #expect(main.isDecelerating)
        // The momentum carries it on past 400 (waited for, not timed).
        try app.pump(until: { main.contentOffset.y > 400 }, "the touchpad momentum to pass 400 px")
    }

    @Test func wheelDetentsMoveBySpecStep() throws {
        let (rig, app, main) = try start()
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 200, y: 300), at: 0) }
        try send(rig, app, at: 600) { $0.wheel(120, at: 0) }
        try app.settle()
        let step = WheelAnimation.step(viewport: 600, value120: 120)
        #expect(abs(main.contentOffset.y - step) < 0.5)
        try send(rig, app, at: 700) { $0.wheel(240, at: 0) }
        try app.settle()
        #expect(abs(main.contentOffset.y - 3 * step) < 0.5)
    }

    /// Wayland reports Ctrl in `wl_keyboard.modifiers`, after Ctrl's own key event: a wheel
    /// turned while it is held zooms (×1.1 per detent, about the pointer), and once it is
    /// released the wheel scrolls again.
    @Test func ctrlWheelZoomsTheMapAndTheWheelScrollsOnceCtrlIsUp() throws {
        let (rig, app, window) = try startScene(.zoom)
        let main = try #require(window.view(named: "main") as? ScrollView)
        let scale = main.zoomScale
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 195, y: 300), at: 0) }
        try send(rig, app, at: 600) { b in
            b.add(.key("Control_L", pressed: true), at: 0)
            b.wheel(360, at: 20)
        }
        try app.settle()
        #expect(abs(main.zoomScale - scale / pow(1.1, 3)) < 1e-9)
        try send(rig, app, at: 700) { $0.add(.key("Control_L", pressed: false), at: 0) }
        let offset = main.contentOffset
        try send(rig, app, at: 800) { $0.wheel(120, at: 0) }
        try app.settle()
        #expect(abs(main.zoomScale - scale / pow(1.1, 3)) < 1e-9)
        #expect(abs(main.contentOffset.y - offset.y - WheelAnimation.step(viewport: 600, value120: 120)) < 0.5)
    }

    @Test func pageDownAndEndMoveAsSpecified() throws {
        let (rig, app, main) = try start()
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 200, y: 300), at: 0) }
        try send(rig, app, at: 1000) { $0.key("Page_Down", at: 0, hold: 1) }
        // The ω = 14 spring needs ~0.72 s to come within half a pixel of 560 px.
        try app.settle()
        #expect(main.contentOffset.y == 600 - 40)
        try send(rig, app, at: 2000) { $0.key("End", at: 0, hold: 1) }
        // 5.6 million px of 100,000 rows: the ω = 14 spring needs ~1.5 s, and it follows the end
        // as rows are measured on the way: every row passed is measured (text laid out), slow in a
        // debug build on a loaded machine, so the guard against a hang is wider.
        try app.settle(timeout: 60)
        #expect(main.contentOffset.y == main.verticalRange.upperBound)
    }

    @Test func aFlingThroughAllBuffersStillShowsExactlyTheOffscreenPicture() throws {
        let (rig, app, main) = try start()
        try send(rig, app, at: 1000) { b in
            b.drag(
                from: Point(x: 200, y: 550), through: (1...6).map { Point(x: 200, y: 550 - Double($0) * 40) }, at: 0,
                step: 10, liftAfter: 5)
        }
        #expect(main.isDecelerating)
        // Until the fling and the indicators' fade are over (a fast fling runs ~3.5 s).
        try app.pump(
            until: { app.isAtRest && app.window.content.nextTimerDeadline == nil }, timeout: 15,
            "the fling and the indicator fade to end")
        #expect(!main.isDecelerating)
        #expect(app.window.framesCommitted > 20)  // many frames: every buffer reused with copy-forward
        let (mismatches, box) = try offscreenMismatches(rig, app, width: 390, height: 600)
        #expect(
            mismatches == 0, "\(mismatches) pixels differ after the fling, within \(box); offset \(main.contentOffset)")
    }

    @Test func aHeldKeyRepeats() throws {
        let (rig, app, main) = try start()
        try send(rig, app, at: 500) { $0.pointer(to: Point(x: 200, y: 300), at: 0) }
        try send(rig, app, at: 1000) { $0.add(.key("Down", pressed: true), at: 0) }
        // Held until the press and at least two repeats have moved it (past weston's delay).
        try app.pump(until: { main.contentOffset.y >= 120 }, "two key repeats")
        try send(rig, app, at: 2200) { $0.add(.key("Down", pressed: false), at: 0) }
        try app.settle()
        // The repeats stopped with the release: nothing moves it any more.
        let stopped = main.contentOffset.y
        try app.pump(until: { app.window.content.nextTimerDeadline == nil && app.isAtRest }, "the last timers")
        #expect(main.contentOffset.y == stopped)
        // One press is 40 px; repeats add more 40 px steps.
        #expect(main.contentOffset.y >= 120)
        #expect(main.contentOffset.y.truncatingRemainder(dividingBy: 40) == 0)
    }

    @Test func killingWestonEndsTheClientWithAClearMessageWithinASecond() throws {
        let (rig, app, _) = try start()
        kill(rig.process.pid, SIGKILL)
        let started = Date()
        var failure: Error?
        while failure == nil && Date().timeIntervalSince(started) < 2 {
            do { try app.step(maxWait: 0.1) } catch { failure = error }
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(elapsed < 1.0, "took \(elapsed) s")
        let message = "\(failure.map { "\($0)" } ?? "none")"
        #expect(message.contains("the Wayland connection was lost"), "\(message)")
    }
}

@MainActor
@Suite(.serialized) struct WaylandLoopTests {
    @Test func anIdleWindowDrawsNothingAndWakesOnRequest() throws {
        let rig = try WestonRig(width: 390, height: 600)
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 600))
        let app = try WaylandApp(content: window, title: "idle", socket: rig.socketPath)
        try app.settle()
        let frames = app.window.framesCommitted
        // Nothing changes: a second of steps commits no frame and each step sleeps.
        let start = Date()
        var steps = 0
        while Date().timeIntervalSince(start) < 0.5 {
            try app.step(maxWait: 0.25)
            steps += 1
        }
        #expect(app.window.framesCommitted == frames)
        #expect(steps <= 4, "the loop spun \(steps) times while idle")
        // Another thread wakes it at once.
        let waker = app.waker
        Thread.detachNewThread {
            usleep(50_000)
            waker.wake()
        }
        let t0 = Date()
        try app.step(maxWait: 5)
        #expect(Date().timeIntervalSince(t0) < 1)
        // A change is drawn in one frame.
        (window.view(named: "main") as? ScrollView)?.contentOffset = Point(x: 0, y: 40)
        try app.step(maxWait: 0)
        #expect(app.window.framesCommitted == frames + 1)
    }

    /// A compositor that stops answering while an app starts makes the start fail with a
    /// message that says so, instead of an app blocked in wl_display_roundtrip for good.
    @Test func anAppWhoseCompositorStopsAnsweringFailsToStart() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer {
            kill(rig.process.pid, SIGCONT)
            rig.stop()
        }
        kill(rig.process.pid, SIGSTOP)
        let window = Window(size: Size(width: 320, height: 240))
        #expect(
            throws: WaylandError.connectionLost(
                "the compositor did not answer within \(WaylandConnection.answerTimeout) s")
        ) { _ = try WaylandApp(content: window, title: "stopped", socket: rig.socketPath) }
    }
}

extension ScriptBuilder {
    /// A wheel turn of `value120` (120 a detent) at `t`, over wherever the pointer is: 15 px of
    /// axis value a detent, as weston sends a mouse wheel's.
    fileprivate mutating func wheel(_ value120: Double, at t: Double) {
        add(.pointerAxis(.vertical, value: 15 * value120 / 120, source: .wheel, value120: value120), at: t)
        add(.pointerFrame, at: t)
    }
}
