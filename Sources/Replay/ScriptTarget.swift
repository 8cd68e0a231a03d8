import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayViews

/// Where a gesture script plays: the offscreen platform on its virtual clock (`HeadlessPlayer`)
/// or a real window in a compositor in real time (`CompositorTarget`, weston's rig today). Each
/// platform says only how time passes, how one input event reaches the app, how the screen is
/// read and when it is at rest; what a script event means (a screenshot, the on-screen keyboard,
/// a resize, input) is decided once, here, so every platform plays a script the same way and a
/// new compositor is one more conformance of this protocol.
///
/// Times are script times: milliseconds from the script's start.
@MainActor
public protocol ScriptTarget: AnyObject {
    /// The app's window the script plays into.
    var window: Window { get }
    /// Runs `action` at script time `t`: after everything due before `t` (frames, timers, earlier
    /// input), before a frame drawn at `t`, so that frame shows what `action` did.
    func perform(at t: Double, _ action: () throws -> Void) throws
    /// Delivers one input event (touch, pointer, wheel, keys, text input) now.
    func inject(_ event: ScriptEvent) throws
    /// The window's pixels as they are shown at script time `t` (the current time).
    func screenshot(at t: Double) throws -> Canvas
    /// Resizes the window as a compositor's configure would (`window.resize`), where the platform
    /// can; platforms that cannot refuse such scripts before they start (`checkSupported`).
    func resize(to size: Size) throws
    /// Nothing moves and nothing is out: the window is quiet (`Window.isQuiet`) and the platform
    /// has nothing in flight (a frame callback, a buffer, a tile on a worker).
    var isAtRest: Bool { get }
    /// Runs on after the last event, at least one frame, until the target is at rest at or after
    /// script time `after`, or `limit` milliseconds after it.
    func settle(after: Double, limit: Double) throws
}

/// A script that cannot be played as asked (an event the platform cannot deliver, a key the
/// keymap cannot type), with the line it comes from.
public struct ReplayError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension ScriptTarget {
    /// What one script event does, on every platform: a screenshot reads the screen, the on-screen
    /// keyboard (the app's own view, never injected) is shown or hidden in the app, a resize goes
    /// to the platform, and everything else is input.
    public func apply(_ event: ScriptEvent, onScreenshot: (String, Canvas) throws -> Void) throws {
        switch event.kind {
        case .screenshot(let name): try onScreenshot(name, screenshot(at: event.t))
        case .keyboardShow: window.onScreenKeyboard?.show()
        case .keyboardHide: window.onScreenKeyboard?.hide()
        case .windowResize(let w, let h): try resize(to: Size(width: w, height: h))
        default: try inject(event)
        }
    }

    /// Plays events from `source` (in time order) at their times, then settles for at most
    /// `settle` ms after `duration` (the script's end; the last event's time when that is later).
    /// Events are read one at a time, so a script file of any length plays in constant memory.
    /// `onProgress` hears each event's time once it is handled.
    public func play(
        _ source: inout some ScriptEventSource, duration: Double, settle: Double,
        onScreenshot: (String, Canvas) throws -> Void, onProgress: ((Double) -> Void)? = nil
    ) throws {
        var end = duration
        while let e = try source.next() {
            try perform(at: e.t) { try apply(e, onScreenshot: onScreenshot) }
            onProgress?(e.t)
            end = max(end, e.t)
        }
        try self.settle(after: end, limit: settle)
    }

    /// Plays the gesture `build` lays out, its times in ms from script time `start`, and returns
    /// the script time of its last event: the one gesture vocabulary (`ScriptBuilder`) for tests
    /// on every platform. Screenshots in it are passed to `onScreenshot` (dropped by default).
    @discardableResult
    public func send(
        from start: Double, onScreenshot: (String, Canvas) throws -> Void = { _, _ in },
        _ build: (inout ScriptBuilder) -> Void
    ) throws -> Double {
        var b = ScriptBuilder()
        build(&b)
        for e in b.script.events {
            let shifted = ScriptEvent(t: start + e.t, line: e.line, e.kind)
            try perform(at: shifted.t) { try apply(shifted, onScreenshot: onScreenshot) }
        }
        return start + b.end
    }
}
