import ScrollwayGestures

/// Ends a touchpad (finger) scroll whose `axis_stop` does not come, the same way on every
/// platform, by delivering the stops the compositor would have sent.
///
/// A finger scroll is held while the fingers rest: libinput sends scroll events over and over
/// while they move (docs/decisions.md has the intervals) and nothing while they rest, and
/// weston, sway and KWin send the `axis_stop` when they lift, however long they rested first.
/// So quiet alone does not end a scroll; these do:
/// - its `axis_stop` (on each axis it had events on);
/// - the pointer leaving the window: the stop would go to the surface under it then, so the
///   scroll ends at the leave;
/// - `safetyTimeout` (5 s) without an event: a stop that was lost (a device or compositor
///   dropped it). A view left held ignores keys and the wheel, so it is not held for ever; 5 s
///   is longer than fingers rest mid-scroll to read a line or find a place, and short enough
///   for a held view to answer keys again soon;
/// - `stoplessTimeout` (0.5 s) without an event, once this pointer has shown it sends no stops
///   (a scroll ran out its time and no `axis_stop` has come from it, ever: mutter's remote
///   desktop sends none). The first stop that comes trusts the pointer again.
///
/// The release's velocity is zero after a wait that long (the pause means the fingers had
/// stopped), and moving the fingers again starts a new scroll.
///
/// The Wayland pointer feeds it each frame's events, and the offscreen player each script
/// event, so a script without a stop ends at the same time played either way.
@MainActor
public final class FingerScrollStopWatch {
    /// How long a finger scroll may go without an event before it counts as ended, from a
    /// pointer that sends stops (or has not shown yet that it sends none).
    public static let safetyTimeout = 5.0
    /// The same, from a pointer that has shown it sends no stops.
    public static let stoplessTimeout = 0.5

    private weak var window: Window?
    /// Delivers the stops (in the window's clock) when the wait runs out.
    private let deliver: ([InputEvent]) -> Void
    /// The axes of a finger scroll still waiting for their axis_stop.
    public private(set) var axes: Set<Axis> = []
    /// Whether an axis_stop has come from this pointer.
    public private(set) var hasSeenStop = false
    /// Whether a scroll has run out of time (its stop had not come).
    public private(set) var hasTimedOut = false
    private var timer: TimerToken?
    /// The time of the scroll's last event: the timer, set once, moves itself on to `timeout`
    /// after it when it fires early (not re-armed on every event).
    private var lastEvent = 0.0

    /// How long the current scroll may go without an event: `stoplessTimeout` once a scroll
    /// ran out of time and no stop has ever come, else `safetyTimeout`.
    public var timeout: Double { hasTimedOut && !hasSeenStop ? Self.stoplessTimeout : Self.safetyTimeout }

    public init(window: Window, deliver: @escaping ([InputEvent]) -> Void) {
        self.window = window
        self.deliver = deliver
    }

    /// Notes events as they are delivered (a group of them, a pointer frame's): a finger
    /// scroll's axis starts or continues the wait, an axis_stop ends its axis's, and the
    /// pointer leaving ends the scroll there.
    public func observe(_ events: [InputEvent]) {
        var fingerTime: Double?
        var leftAt: Double?
        for e in events {
            switch e.kind {
            case .axis(let axis, _, .finger, _):
                axes.insert(axis)
                fingerTime = e.time
            case .axisStop(let axis):
                axes.remove(axis)
                hasSeenStop = true
            case .pointerLeave:
                leftAt = e.time
            default:
                break
            }
        }
        if let leftAt {
            cancel()
            return end(at: leftAt)
        }
        if let fingerTime {
            lastEvent = fingerTime
            if timer == nil { arm() }
        }
        if axes.isEmpty { cancel() }
    }

    /// Ends the scroll now (the pointer was unplugged), at `t` or the window's clock.
    public func endNow(at t: Double? = nil) {
        cancel()
        end(at: t ?? window?.now ?? 0)
    }

    /// Forgets the scroll without ending it (the connection is going).
    public func cancel() {
        window?.cancelTimer(timer)
        timer = nil
    }

    private func arm() {
        let due = lastEvent + timeout
        timer = window?.schedule(at: due) { [weak self] in
            guard let self else { return }
            self.timer = nil
            // Events came since the timer was set (or a stop came and lengthened the wait):
            // wait on from the last of them.
            if self.lastEvent + self.timeout > due { return self.arm() }
            if !self.axes.isEmpty { self.hasTimedOut = true }
            self.end(at: due)
        }
    }

    private func end(at t: Double) {
        guard !axes.isEmpty else { return }
        let stops = axes.sorted { $0 == .vertical && $1 != .vertical }.map { InputEvent(time: t, .axisStop($0)) }
        axes.removeAll()
        deliver(stops)
    }
}
