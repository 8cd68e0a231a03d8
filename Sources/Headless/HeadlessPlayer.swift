import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// The offscreen platform: the same window and views with no compositor, rendering into an
/// in-memory canvas, on a virtual clock. Events are delivered at their script times; frames run
/// at n/refresh. The same script therefore gives the same trace, byte for byte, on any machine.
///
/// Background work (tiles drawn on worker threads) would make frames depend on thread timing,
/// so the player sets the window's `waitsForBackgroundWork`: each frame waits for every tile
/// requested so far and shows it at once, exactly as if it had been drawn synchronously (no
/// frame went out without it, so nothing fades in). The main thread does wait here; that is the
/// price of repeatable screenshots, and only the interactive platforms promise otherwise.
@MainActor
public final class HeadlessPlayer {
    public struct Options {
        /// Frames per second of the virtual display.
        public var refresh: Double
        /// How long (ms) to keep going after the last event if things still move.
        public var settle: Double
        /// Where trace records go: kept in memory (tests read `recorder.text`), streamed, or dropped.
        public var trace: TraceWriter.Output
        /// Takes each screenshot as it is made; without it the player keeps them in `screenshots`.
        public var onScreenshot: ((String, Canvas) throws -> Void)?
        /// Whether every frame's pixels are drawn. Traces never depend on pixels, so a play that
        /// takes no screenshots can run the frames (animations, layout, rasterizing, delegates)
        /// without compositing them; a screenshot then composites the whole window, which gives
        /// the same pixels as frame-by-frame updates (the present-path tests hold that).
        public var pixels: Bool

        /// The displays there are: 1 to 1000 Hz.
        public static let refreshRange = 1.0...1000.0
        /// At most an hour of settling after the last event.
        public static let settleRange = 0.0...3_600_000.0

        public init(
            refresh: Double = 60, settle: Double = 2000, trace: TraceWriter.Output = .memory,
            onScreenshot: ((String, Canvas) throws -> Void)? = nil, pixels: Bool = true
        ) {
            precondition(Self.refreshRange.contains(refresh), "refresh must be 1–1000 Hz (callers validate it)")
            precondition(Self.settleRange.contains(settle), "settle must be 0–3,600,000 ms (callers validate it)")
            self.refresh = refresh
            self.settle = settle
            self.trace = trace
            self.onScreenshot = onScreenshot
            self.pixels = pixels
        }
    }

    public let window: Window
    public let options: Options
    public let recorder: TraceRecorder
    private var canvas: Canvas
    private var modifiers: Modifiers = []
    /// Screenshots taken, by name (when no `onScreenshot` takes them).
    public private(set) var screenshots: [String: Canvas] = [:]
    /// Frames of virtual time the last `play` stepped through one by one (quiet stretches
    /// crossed in one step count once): what a play costs, independent of the machine.
    public private(set) var framesStepped = 0

    public init(window: Window, options: Options = Options()) throws {
        self.window = window
        self.options = options
        window.waitsForBackgroundWork = true
        recorder = TraceRecorder(window: window, origin: 0, output: options.trace)
        canvas = try Canvas(size: window.bounds.size, scale: window.scale)
    }

    /// The first line the window cannot play (keyboard.show/hide in a scene without an
    /// on-screen keyboard), found from the script's summary before anything runs.
    public static func unsupportedLine(_ summary: ScriptSummary, in window: Window) -> Int? {
        guard window.firstView(of: OnScreenKeyboard.self) == nil else { return nil }
        return [summary.firstLine["keyboard.show"], summary.firstLine["keyboard.hide"]].compactMap { $0 }.min()
    }

    /// Plays `script` to the end: the last event's time plus `settle`, or earlier once nothing
    /// moves after the last event.
    public func play(_ script: GestureScript) throws {
        var source = script.source
        try play(&source, duration: script.duration)
    }

    /// Plays events from `source` (in time order, ending at `duration` ms) without holding them:
    /// a script file of any length plays in constant memory.
    ///
    /// Frames run at n/refresh while anything moves. A quiet stretch (no animation, no timer,
    /// nothing to draw) is crossed in one step to the frame that delivers the next event: those
    /// frames would draw nothing and record nothing, so the trace is the same byte for byte, and
    /// an hour of silence costs nothing.
    public func play(_ source: inout some ScriptEventSource, duration: Double) throws {
        let dt = 1 / options.refresh
        let lastT = duration / 1000
        let end = lastT + options.settle / 1000
        var pending = try source.next()
        var n = 0
        framesStepped = 0
        try render(at: 0)
        while true {
            framesStepped += 1
            if let next = pending, isQuiet {
                // The first frame whose time reaches the event (as the delivery test below reads it).
                let first = Int(((next.t / 1000 - 1e-9) / dt).rounded(.up))
                if first - 1 > n { n = first - 1 }
            }
            n += 1
            let ft = Double(n) * dt
            while let e = pending, e.t / 1000 <= ft + 1e-9 {
                try deliver(e)
                pending = try source.next()
            }
            window.advanceClock(to: ft)
            if window.needsFrame { try render(at: ft) }
            if pending == nil && ft >= lastT && (isQuiet || ft >= end) { break }
        }
    }

    private var isQuiet: Bool {
        !window.hasActiveAnimations && window.nextTimerDeadline == nil && !window.needsFrame
    }

    private func render(at t: Double) throws {
        guard options.pixels else {
            _ = try window.prepareFrameUpdate(time: t)
            return
        }
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
            if !options.pixels {
                canvas = try Canvas(size: window.bounds.size, scale: window.scale)
                window.composite(into: canvas)
            }
            let shot = try Canvas(width: canvas.width, height: canvas.height, scale: canvas.scale)
            shot.copyPixels(from: canvas, to: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
            if let onScreenshot = options.onScreenshot {
                try onScreenshot(name, shot)
            } else {
                screenshots[name] = shot
            }
        case .keyboardShow:
            window.advanceClock(to: t)
            (window.firstView(of: OnScreenKeyboard.self))?.show()
        case .keyboardHide:
            window.advanceClock(to: t)
            (window.firstView(of: OnScreenKeyboard.self))?.hide()
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
