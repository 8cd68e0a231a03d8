import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScripts
import ScrollwayViews

/// Drives a window on a virtual clock at a fixed refresh rate: the one frame loop of the
/// offscreen player, the offscreen bench and the tests, so all of them see a window behave the
/// same way.
///
/// Frame n runs at n/refresh: the clock is advanced to its time (timers due by then fire), and
/// the window draws if it needs to. Events go in at their own times, interleaved with frames and
/// timers by time: an event's delivery first advances the clock to its time (timers due by then
/// fire first), and an event at a frame's time goes in before that frame, so the frame shows it
/// (as a compositor's frame shows the input that came before it). The same calls therefore give
/// the same frames, byte for byte, on any machine.
@MainActor
public final class FrameDriver {
    public let window: Window
    public let refresh: Double
    /// Crosses quiet stretches (nothing animates, no timer waits, nothing to draw) in one step to
    /// the frame an event goes into: those frames would draw and record nothing, so what is seen
    /// is the same, and an hour of silence costs nothing. Off, every frame runs (a test that checks
    /// something after each frame, a bench that paces them).
    public let skipsQuietFrames: Bool
    /// The clock's time, seconds.
    public private(set) var time = 0.0
    /// The last frame run (frame 0 is drawn at time 0 when the driver starts).
    public private(set) var frame = 0
    /// Frames run one by one so far (a skipped quiet stretch costs nothing): what driving costs,
    /// independent of the machine.
    public private(set) var framesStepped = 0
    /// Why drawing a frame failed (the draw hook threw): the driver then stops running frames and
    /// delivering events, and `perform` throws it.
    public private(set) var failure: (any Error)?
    /// At the start of every frame the driver runs, before the events due in it, with the frame's
    /// time (the bench paces frames in real time here).
    public var beforeFrame: ((Double) -> Void)?
    /// After every frame the driver runs; `true` when the window drew that frame.
    public var afterFrame: ((Bool) -> Void)?

    private let draw: (Double) throws -> Void
    private var input = ScriptInput()
    /// What a script's key press types (`ScriptInput.keyPress`): by default nothing, with no
    /// Shift; the player gives the keymap's.
    public var keyPress: (String, Modifiers) -> ScriptInput.KeyPress {
        get { input.keyPress }
        set { input.keyPress = newValue }
    }
    /// Ends a finger scroll whose axis_stop never comes, as the Wayland platform does.
    private lazy var stopWatch = FingerScrollStopWatch(window: window) { [unowned self] stops in
        for e in stops { window.handle(e) }
    }
    /// Events and actions given a time ahead (`schedule`), in time order (equal times in the order
    /// given); each runs before the first frame whose time reaches it.
    private var queue: [(t: Double, action: () -> Void)] = []
    /// Whether something went in for the next frame since the last one ran: that frame then runs
    /// even when the window looks quiet (it is the frame that shows what went in).
    private var nextFrameHasInput = false

    /// Draws the window's first frame at time 0. `draw` draws a frame at a time (by default the
    /// window prepares it, with no pixels kept); the player and the bench composite into their
    /// canvas.
    public init(
        window: Window, refresh: Double = 60, skipsQuietFrames: Bool = false,
        draw: ((Double) throws -> Void)? = nil
    ) {
        precondition(refresh > 0 && refresh.isFinite, "a refresh rate is a positive number of Hz")
        self.window = window
        self.refresh = refresh
        self.skipsQuietFrames = skipsQuietFrames
        self.draw = draw ?? { [unowned window] t in _ = try window.prepareFrame(time: t) }
        drawFrame(at: 0)
    }

    /// Frame `n`'s time, seconds.
    public func frameTime(_ n: Int) -> Double { Double(n) * (1 / refresh) }

    /// Nothing animates, no timer waits and the window has nothing to draw (`Window.isQuiet`:
    /// offscreen nothing else can be out).
    public var isQuiet: Bool { window.isQuiet }

    /// Runs the frames up to `t` (each after the scheduled events due by its time) and the
    /// events scheduled up to `t`, then sets the clock to `t`.
    public func advance(to t: Double) {
        while failure == nil {
            skipQuietFrames(toward: t)
            guard frameTime(frame + 1) <= t + 1e-9 else { break }
            step()
        }
        runScheduled(through: t)
        setClock(t)
    }

    public func advance(by dt: Double) { advance(to: time + dt) }

    /// Handles an event at `t` (now, if nil): after the frames before `t`, before the frame at it.
    public func send(_ kind: InputEvent.Kind, at t: Double? = nil) {
        try? perform(at: t) { deliver(kind) }
    }

    /// Hands input to the window at the clock's time, and to the watch for lost axis_stops.
    private func deliver(_ kind: InputEvent.Kind) {
        let event = InputEvent(time: time, kind)
        window.handle(event)
        stopWatch.observe([event])
    }

    /// Sends every event of `script` at its time (milliseconds from `start` seconds; from now if
    /// nil), through the one mapping from script events to input (`ScriptInput`). Window events
    /// act on the window; a screenshot is the player's (it keeps a canvas) and is passed over.
    public func send(_ script: GestureScript, from start: Double? = nil) {
        let origin = start ?? time
        for e in script.events where failure == nil {
            try? perform(at: origin + e.t / 1000) { apply(e.kind) }
        }
    }

    /// Sends the gesture `build` lays out (times in ms from `start` seconds; from now if nil);
    /// returns the time of its last event.
    @discardableResult
    public func send(from start: Double? = nil, _ build: (inout ScriptBuilder) -> Void) -> Double {
        let origin = start ?? time
        var b = ScriptBuilder()
        build(&b)
        send(b.script, from: origin)
        return origin + b.end / 1000
    }

    /// Runs `action` at `t` (now, if nil) where an event at `t` would go: after the frames before
    /// `t` and with the clock at `t`. Throws why a frame on the way failed to draw.
    public func perform(at t: Double? = nil, _ action: () throws -> Void) throws {
        let t = t ?? time
        while failure == nil {
            skipQuietFrames(toward: t)
            guard !(t <= frameTime(frame + 1) + 1e-9) else { break }
            step()
        }
        if let failure { throw failure }
        runScheduled(through: t)
        setClock(t)
        nextFrameHasInput = true
        try action()
    }

    /// What a script event does to the window at the clock's time: input through `ScriptInput`;
    /// a resize, or the on-screen keyboard shown or hidden, on the window. False for a screenshot,
    /// which needs a canvas (the player takes it).
    @discardableResult
    public func apply(_ kind: ScriptEvent.Kind) -> Bool {
        switch kind {
        case .windowResize(let w, let h): window.resize(to: Size(width: w, height: h))
        case .keyboardShow: window.onScreenKeyboard?.show()
        case .keyboardHide: window.onScreenKeyboard?.hide()
        case .screenshot: return false
        default: for k in input.inputKinds(for: kind) { deliver(k) }
        }
        return true
    }

    /// Schedules an event for `t`: it goes in when frames reach its time (`advance`), so a gesture
    /// can be laid out ahead and played by running frames.
    public func schedule(_ kind: InputEvent.Kind, at t: Double) {
        schedule(at: t) { [unowned self] in deliver(kind) }
    }

    /// Schedules every event of `script`, at its time in milliseconds from `start` seconds.
    public func schedule(_ script: GestureScript, from start: Double) {
        for e in script.events { schedule(at: start + e.t / 1000) { [unowned self] in apply(e.kind) } }
    }

    /// Schedules `action` for `t`, as an event there would go in.
    public func schedule(at t: Double, _ action: @escaping () -> Void) {
        let i = queue.firstIndex { $0.t > t } ?? queue.endIndex
        queue.insert((t, action), at: i)
    }

    /// Runs frames until the window is quiet after one and nothing scheduled waits (at least one
    /// frame: the one that shows what went in last), for at most `limit` seconds more.
    public func settle(limit: Double = 20) { settle(after: time, until: time + limit) }

    /// Runs frames, at least one, until one at or after `start` leaves the window quiet with
    /// nothing scheduled, or one reaches `end` (the player: its script's last event, and that
    /// plus the settle time).
    public func settle(after start: Double, until end: Double) {
        while failure == nil {
            step()
            let ft = frameTime(frame)
            if ft >= start && ((isQuiet && queue.isEmpty) || ft >= end) { break }
        }
    }

    /// With `skipsQuietFrames`, while the window is quiet and nothing went in for the next frame:
    /// on to the frame before the one that reaches `target` or the next scheduled event.
    private func skipQuietFrames(toward target: Double) {
        guard skipsQuietFrames, !nextFrameHasInput, isQuiet else { return }
        let next = min(target, queue.first?.t ?? target)
        // The first frame whose time reaches it (as the delivery test in `perform` reads it).
        let first = Int(clamping: (next - 1e-9) / (1 / refresh), rounding: .up)
        if first - 1 > frame { frame = first - 1 }
    }

    /// The next frame: the events scheduled by its time, the clock to its time, and the frame
    /// drawn if the window needs it.
    private func step() {
        frame += 1
        framesStepped += 1
        let ft = frameTime(frame)
        beforeFrame?(ft)
        runScheduled(through: ft)
        setClock(ft)
        let draws = window.needsFrame
        if draws { drawFrame(at: ft) }
        nextFrameHasInput = false
        afterFrame?(draws)
    }

    private func runScheduled(through t: Double) {
        while let first = queue.first, first.t <= t + 1e-9 {
            queue.removeFirst()
            setClock(first.t)
            nextFrameHasInput = true
            first.action()
        }
    }

    private func setClock(_ t: Double) {
        window.advanceClock(to: t)
        time = max(time, t)
    }

    private func drawFrame(at t: Double) {
        do { try draw(t) } catch { failure = error }
    }
}
