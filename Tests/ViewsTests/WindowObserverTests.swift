import ScrollwayGeometry
import ScrollwayViews
import Testing

@MainActor
@Suite struct WindowObserverTests {
    @MainActor
    /// Writes what it hears, tagged with its name, into a log shared with other observers; can
    /// be told to run something once the next time it hears of a frame.
    final class Listener: WindowObserver {
        let name: String
        let log: Log
        var onNextFrame: (() -> Void)?

        init(_ name: String, log: Log) {
            self.name = name
            self.log = log
        }

        func window(_ window: Window, willPrepareFrameAt time: Double) {
            log.lines.append("\(name) will \(time)")
            let action = onNextFrame
            onNextFrame = nil
            action?()
        }
        func window(_ window: Window, didPrepareFrameAt time: Double) { log.lines.append("\(name) did \(time)") }
        func window(_ window: Window, focusDidChangeTo view: View?, byTouch: Bool) {
            log.lines.append("\(name) focus \(view?.name ?? "nil") \(byTouch)")
        }
        func window(_ window: Window, interactiveKeyboardDragAt fingerY: Double?) {
            log.lines.append("\(name) drag \(fingerY.map { "\($0)" } ?? "end")")
        }
    }

    @MainActor
    final class Log { var lines: [String] = [] }

    @MainActor
    /// Hears frames only: the protocol's defaults cover the rest.
    final class FrameCounter: WindowObserver {
        var frames = 0
        func window(_ window: Window, didPrepareFrameAt time: Double) { frames += 1 }
    }

    /// A window holding one view named "field" to focus.
    static func window() -> (Window, View) {
        let window = Window(size: Size(width: 100, height: 100))
        let field = View(frame: Rect(x: 0, y: 0, width: 50, height: 20))
        field.name = "field"
        window.addSubview(field)
        return (window, field)
    }

    @MainActor
    /// A window with a field, and listeners a then b added, sharing one log. It keeps the
    /// listeners alive (the window holds them weakly) for as long as a test uses it.
    final class HeardByTwo {
        let window: Window
        let field: View
        let log = Log()
        let a: Listener
        let b: Listener

        init() {
            (window, field) = WindowObserverTests.window()
            a = Listener("a", log: log)
            b = Listener("b", log: log)
            window.addObserver(a)
            window.addObserver(b)
        }
    }

    @Test func twoObserversHearFramesFocusAndDragsInTheOrderAdded() throws {
        let heard = HeardByTwo()
        let (window, field) = (heard.window, heard.field)
        window.addObserver(heard.a)  // already there: keeps its first place, heard once
        try window.prepareFrame(time: 0.5)
        window.focus(field, byTouch: true)
        window.focus(nil, byTouch: false)
        window.reportInteractiveKeyboardDrag(fingerY: 40)
        window.reportInteractiveKeyboardDrag(fingerY: nil)
        #expect(
            heard.log.lines == [
                "a will 0.5", "b will 0.5", "a did 0.5", "b did 0.5",
                "a focus field true", "b focus field true", "a focus nil false", "b focus nil false",
                "a drag 40.0", "b drag 40.0", "a drag end", "b drag end",
            ])
    }

    @Test func anObserverImplementingOnlyFramesHearsFrames() throws {
        let (window, field) = Self.window()
        let counter = FrameCounter()
        window.addObserver(counter)
        try window.prepareFrame(time: 0)
        window.focus(field, byTouch: true)
        try window.prepareFrame(time: 1)
        #expect(counter.frames == 2)
    }

    @Test func aReleasedObserverIsNotCalled() throws {
        let (window, field) = Self.window()
        let log = Log()
        let a = Listener("a", log: log)
        var b: Listener? = Listener("b", log: log)
        window.addObserver(a)
        window.addObserver(b!)
        b = nil
        try window.prepareFrame(time: 1)
        window.focus(field, byTouch: false)
        #expect(log.lines == ["a will 1.0", "a did 1.0", "a focus field false"])
        withExtendedLifetime(a) {}  // only the window (weakly) refers to it after adding
    }

    @Test func aRemovedObserverIsNotCalled() throws {
        let heard = HeardByTwo()
        heard.window.removeObserver(heard.a)
        try heard.window.prepareFrame(time: 1)
        #expect(heard.log.lines == ["b will 1.0", "b did 1.0"])
    }

    /// An observer removes itself, removes one not yet called, releases another and adds a new
    /// one, all while the window is telling them of a frame: the notification goes on with the
    /// ones still there, and the new one hears from the next notification on.
    @Test func removingReleasingAndAddingDuringANotificationIsSafe() throws {
        let (window, _) = Self.window()
        let log = Log()
        let a = Listener("a", log: log)
        let b = Listener("b", log: log)
        var c: Listener? = Listener("c", log: log)
        let d = Listener("d", log: log)
        let late = Listener("late", log: log)
        for o in [a, b, c!, d] { window.addObserver(o) }
        a.onNextFrame = {
            window.removeObserver(a)
            window.removeObserver(b)
            c = nil
            window.addObserver(late)
        }
        try window.prepareFrame(time: 1)
        #expect(c == nil)
        #expect(log.lines == ["a will 1.0", "d will 1.0", "d did 1.0", "late did 1.0"])
        log.lines = []
        try window.prepareFrame(time: 2)
        #expect(log.lines == ["d will 2.0", "late will 2.0", "d did 2.0", "late did 2.0"])
        withExtendedLifetime((b, d, late)) {}
    }
}
