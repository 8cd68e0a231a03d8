import Foundation
import Geometry
import Gestures
import Raster
import Scripts
import Scrolling
import Views

/// The offscreen platform: the same window and views with no compositor, rendering into an
/// in-memory canvas, on a virtual clock. Events are delivered at their script times; frames run
/// at n/refresh. The same script therefore gives the same trace, byte for byte, on any machine.
///
/// Background work (tiles drawn on worker threads) would make frames depend on thread timing,
/// so the player sets the window's `waitsForBackgroundWork`: each frame waits for every tile
/// requested so far and shows it at once, exactly as if it had been drawn synchronously (no
/// frame went out without it, so nothing fades in). The main thread does wait here; that is the
/// price of repeatable screenshots, and only the interactive platforms promise otherwise.
public final class HeadlessPlayer {
    public struct Options: Sendable {
        /// Frames per second of the virtual display.
        public var refresh: Double
        /// How long (ms) to keep going after the last event if things still move.
        public var settle: Double

        public init(refresh: Double = 60, settle: Double = 2000) {
            precondition(refresh > 0 && refresh.isFinite, "refresh must be positive")
            self.refresh = refresh
            self.settle = settle
        }
    }

    public let window: Window
    public let options: Options
    public let recorder: TraceRecorder
    private var canvas: Canvas
    private var modifiers: Modifiers = []
    /// Screenshots taken, by name.
    public private(set) var screenshots: [String: Canvas] = [:]

    public init(window: Window, options: Options = Options()) throws {
        self.window = window
        self.options = options
        window.waitsForBackgroundWork = true
        recorder = TraceRecorder(window: window, origin: 0)
        canvas = try Canvas(size: window.bounds.size, scale: window.scale)
    }

    /// An event the window cannot play (keyboard.show/hide in a scene without an on-screen
    /// keyboard), found before anything runs.
    public static func unsupported(_ script: GestureScript, in window: Window) -> ScriptEvent? {
        guard window.view(named: "keyboard") as? OnScreenKeyboard == nil else { return nil }
        return script.events.first {
            if case .keyboardShow = $0.kind { return true }
            if case .keyboardHide = $0.kind { return true }
            return false
        }
    }

    /// Plays `script` to the end: the last event's time plus `settle`, or earlier once nothing
    /// moves after the last event.
    public func play(_ script: GestureScript) throws {
        let dt = 1 / options.refresh
        let events = script.events
        let lastT = (events.last?.t ?? 0) / 1000
        let end = lastT + options.settle / 1000
        var next = 0
        var n = 0
        try render(at: 0)
        while true {
            n += 1
            let ft = Double(n) * dt
            while next < events.count, events[next].t / 1000 <= ft + 1e-9 {
                try deliver(events[next])
                next += 1
            }
            window.advanceClock(to: ft)
            if window.needsFrame { try render(at: ft) }
            let quiet = !window.hasActiveAnimations && window.nextTimerDeadline == nil && !window.needsFrame
            if next == events.count && ft >= lastT && (quiet || ft >= end) { break }
        }
    }

    private func render(at t: Double) throws {
        if canvas.width != Int((window.bounds.width * window.scale).rounded(.up))
            || canvas.height != Int((window.bounds.height * window.scale).rounded(.up))
        {
            canvas = try Canvas(size: window.bounds.size, scale: window.scale)
            _ = try window.prepareFrame(time: t)
            window.composite(into: canvas)
            return
        }
        // The canvas holds the last frame: a scroll moves its pixels, then the damage is composited.
        try window.render(into: canvas, time: t)
    }

    private func deliver(_ e: ScriptEvent) throws {
        let t = e.t / 1000
        func send(_ kind: InputEvent.Kind) { window.handle(InputEvent(time: t, kind)) }
        switch e.kind {
        case .touchDown(let id, let x, let y): send(.touchDown(id: id, position: Point(x: x, y: y)))
        case .touchMotion(let id, let x, let y): send(.touchMotion(id: id, position: Point(x: x, y: y)))
        case .touchUp(let id): send(.touchUp(id: id))
        case .touchFrame: send(.touchFrame)
        case .touchCancel: send(.touchCancel)
        case .pointerMotion(let x, let y): send(.pointerMotion(position: Point(x: x, y: y)))
        case .pointerButton(let b, let pressed): send(.pointerButton(b, pressed: pressed))
        case .pointerAxis(let axis, let value, let source, let value120):
            send(.axis(axis, value: value, source: source, value120: value120))
        case .pointerAxisStop(let axis): send(.axisStop(axis))
        case .pointerFrame: send(.pointerFrame)
        case .pinchBegin: send(.pinchBegin(fingers: 2))
        case .pinchUpdate(let scale, let dx, let dy): send(.pinchUpdate(scale: scale, dx: dx, dy: dy))
        case .pinchEnd(let cancelled): send(.pinchEnd(cancelled: cancelled))
        case .key(let name, let pressed):
            let m = Self.modifier(name)
            if let m { if pressed { modifiers.insert(m) } else { modifiers.remove(m) } }
            send(.key(Key(keysymName: name), pressed: pressed, modifiers: modifiers))
        case .text(let text): send(.text(text))
        case .windowResize(let w, let h):
            window.advanceClock(to: t)
            window.resize(to: Size(width: w, height: h))
        case .screenshot(let name):
            window.advanceClock(to: t)
            try render(at: t)
            let shot = try Canvas(width: canvas.width, height: canvas.height, scale: canvas.scale)
            shot.copyPixels(from: canvas, to: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
            screenshots[name] = shot
        case .keyboardShow:
            window.advanceClock(to: t)
            (window.view(named: "keyboard") as? OnScreenKeyboard)?.show()
        case .keyboardHide:
            window.advanceClock(to: t)
            (window.view(named: "keyboard") as? OnScreenKeyboard)?.hide()
        }
    }

    static func modifier(_ keysym: String) -> Modifiers? {
        switch keysym {
        case "Shift_L", "Shift_R": return .shift
        case "Control_L", "Control_R": return .control
        case "Alt_L", "Alt_R": return .alt
        case "Super_L", "Super_R": return .logo
        default: return nil
        }
    }
}
