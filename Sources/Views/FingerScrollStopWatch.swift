import ScrollwayGestures

/// Ends a touchpad (finger) scroll whose `axis_stop` never comes, the same way on every
/// platform: 0.5 s after its last event the stops the compositor would have sent are delivered.
/// The stop can be lost (mutter's remote desktop sends none; devices and compositors drop
/// them), and a scroll view left dragging ignores keys and the wheel. libinput sends scroll
/// events over and over while the fingers move and nothing while they rest, so the wait
/// tells a lost stop from motion (the intervals measured are in docs/decisions.md, 0.8.0);
/// resting fingers whose scroll is ended see nothing change (the release's velocity is zero by
/// then), and moving them again starts a new scroll.
///
/// The Wayland pointer feeds it each frame's events, and the offscreen player each script
/// event, so a script without a stop ends at the same time played either way.
@MainActor
public final class FingerScrollStopWatch {
    /// How long a finger scroll may go without an event before it counts as ended.
    public static let timeout = 0.5

    private weak var window: Window?
    /// Delivers the stops (in the window's clock) when the wait runs out.
    private let deliver: ([InputEvent]) -> Void
    /// The axes of a finger scroll still waiting for their axis_stop.
    public private(set) var axes: Set<Axis> = []
    private var timer: TimerToken?
    /// The time of the scroll's last event: the timer, set once, moves itself on to `timeout`
    /// after it when it fires early (not re-armed on every event).
    private var lastEvent = 0.0

    public init(window: Window, deliver: @escaping ([InputEvent]) -> Void) {
        self.window = window
        self.deliver = deliver
    }

    /// Notes events as they are delivered (a group of them, a pointer frame's): a finger
    /// scroll's axis starts or continues the wait, an axis_stop ends its axis's.
    public func observe(_ events: [InputEvent]) {
        var fingerTime: Double?
        for e in events {
            switch e.kind {
            case .axis(let axis, _, .finger, _):
                axes.insert(axis)
                fingerTime = e.time
            case .axisStop(let axis):
                axes.remove(axis)
            default:
                break
            }
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
        let due = lastEvent + Self.timeout
        timer = window?.schedule(at: due) { [weak self] in
            guard let self else { return }
            self.timer = nil
            // Events came since the timer was set: wait on from the last of them.
            if self.lastEvent + Self.timeout > due { return self.arm() }
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
