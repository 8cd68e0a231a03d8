import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayViews
import ScrollwayWestonHarness

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
public final class HeadlessPlayer: ScriptTarget {
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
        /// Told the script time (ms) of each event once it is handled: a long play's progress.
        public var onProgress: ((Double) -> Void)?
        /// The keymap a script's key presses type through (`KeyCodes.typedText`), as a rig's
        /// seat and the client's xkb do; nil: the us keymap, compiled at the first key press.
        public var keys: KeyCodes?

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
    private var driver: FrameDriver?
    /// The keymap keys type through (`Options.keys`, else compiled at the first key).
    private var keys: KeyCodes?
    /// Screenshots taken, by name (when no `onScreenshot` takes them).
    public private(set) var screenshots: [String: Canvas] = [:]
    /// Frames of virtual time the last `play` stepped through one by one (quiet stretches
    /// crossed in one step count once): what a play costs, independent of the machine.
    public private(set) var framesStepped = 0

    public init(window: Window, options: Options = Options()) throws {
        self.window = window
        self.options = options
        keys = options.keys
        window.waitsForBackgroundWork = true
        recorder = TraceRecorder(window: window, origin: 0, output: options.trace)
        canvas = try Canvas(size: window.bounds.size, scale: window.scale)
    }

    /// The first line the window cannot play (keyboard.show/hide in a scene without an
    /// on-screen keyboard), found from the script's summary before anything runs.
    public static func unsupportedLine(_ summary: ScriptSummary, in window: Window) -> Int? {
        guard window.onScreenKeyboard == nil else { return nil }
        return [summary.firstLine["keyboard.show"], summary.firstLine["keyboard.hide"]].compactMap { $0 }.min()
    }

    /// The line, field and reason of a `window.resize` whose window the canvas cannot hold at
    /// `scale` (a side of more than 32767 device pixels), found from the script's summary before
    /// anything runs; nil when every one fits. Played, such a resize failed at its event with
    /// the canvas's allocation error, which named no line, after the screenshots before it
    /// were written.
    public static func oversizedResize(
        _ summary: ScriptSummary, scale: Double
    ) -> (
        line: Int, field: String, message: String
    )? {
        let sides = [("width", "wide", summary.widestResize), ("height", "high", summary.tallestResize)]
        for case (let field, let adjective, let (line, side)?) in sides {
            let device = (side * scale).rounded(.up)
            guard device > 32767 else { continue }
            return (
                line, field,
                "a window \(side.messageText) px \(adjective) is \(device.messageText) device pixels at scale "
                    + "\(scale.messageText), more than a canvas holds (32767)"
            )
        }
        return nil
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
    /// The frames are `FrameDriver`'s, with quiet stretches crossed in one step: the trace is the
    /// same byte for byte as frame by frame, and an hour of silence costs nothing.
    public func play(_ source: inout some ScriptEventSource, duration: Double) throws {
        // Each play starts its own clock at 0, as the script's times do.
        driver = nil
        let driver = try start()
        defer { framesStepped = driver.framesStepped }
        try play(
            &source, duration: duration, settle: options.settle, onScreenshot: keep, onProgress: options.onProgress)
    }

    /// A screenshot goes to `onScreenshot`, or is kept by name.
    private func keep(_ name: String, _ shot: Canvas) throws {
        if let onScreenshot = options.onScreenshot {
            try onScreenshot(name, shot)
        } else {
            screenshots[name] = shot
        }
    }

    /// The frame driver of this play, started (frame 0 drawn at time 0) on first use.
    private func start() throws -> FrameDriver {
        if let driver { return driver }
        let driver = FrameDriver(window: window, refresh: options.refresh, skipsQuietFrames: true) {
            [unowned self] t in try render(at: t)
        }
        driver.keyPress = { [unowned self] name, modifiers in
            guard let keys else { return .init() }
            return .init(
                text: keys.typedText(
                    forKeysymNamed: name, shift: modifiers.contains(.shift), control: modifiers.contains(.control)),
                shift: keys.stroke(forKeysymNamed: name)?.shift ?? false)
        }
        self.driver = driver
        if let failure = driver.failure { throw failure }
        return driver
    }

    // MARK: ScriptTarget, on the virtual clock

    public func perform(at t: Double, _ action: () throws -> Void) throws {
        try start().perform(at: t / 1000, action)
    }

    public func inject(_ event: ScriptEvent) throws {
        // The keymap is compiled at the first key (once; a machine without xkb-data is told so,
        // where the keys would have typed nothing, silently).
        if case .key = event.kind, keys == nil { keys = try KeyCodes() }
        try start().apply(event.kind)
    }

    public func resize(to size: Size) throws {
        try start().apply(.windowResize(width: size.width, height: size.height))
    }

    public var isAtRest: Bool { window.isQuiet }

    public func settle(after: Double, limit: Double) throws {
        let driver = try start()
        driver.settle(after: after / 1000, until: (after + limit) / 1000)
        if let failure = driver.failure { throw failure }
    }

    /// The frame at `t` drawn into the player's canvas, copied out (the canvas itself is the next
    /// frame's starting point).
    public func screenshot(at t: Double) throws -> Canvas {
        try render(at: t / 1000)
        if !options.pixels {
            canvas = try Canvas(size: window.bounds.size, scale: window.scale)
            window.composite(into: canvas)
        }
        let shot = try Canvas(width: canvas.width, height: canvas.height, scale: canvas.scale)
        shot.copyPixels(from: canvas, to: PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
        return shot
    }

    private func render(at t: Double) throws {
        guard options.pixels else {
            _ = try window.prepareFrameUpdate(time: t)
            return
        }
        if canvas.width != Int(clamping: window.bounds.width * window.scale, rounding: .up)
            || canvas.height != Int(clamping: window.bounds.height * window.scale, rounding: .up)
        {
            canvas = try Canvas(size: window.bounds.size, scale: window.scale)
            _ = try window.prepareFrame(time: t)
            window.composite(into: canvas)
            return
        }
        // The canvas holds the last frame: a scroll moves its pixels, then the damage is composited.
        try window.render(into: canvas, time: t)
    }
}
