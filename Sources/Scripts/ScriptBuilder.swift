import ScrollwayGeometry
import ScrollwayGestures

/// Builds gesture scripts in code, typed: drags, taps, keys, wheel clicks and screenshots at
/// given times (ms), merged in time order (events at equal times keep the order they were
/// added), so a screenshot can be taken while a drag goes on. The tour, the benches and tests
/// build their scripts here instead of writing JSON by hand; `ScriptWriter` turns the result
/// into a file `scrollway play` reads.
public struct ScriptBuilder {
    private var events: [ScriptEvent] = []

    public init() {}

    /// The script, in time order.
    public var script: GestureScript {
        // Sorted by time; a stable sort keeps the order of events added at the same time.
        let ordered = events.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }
        return GestureScript(events: ordered.map(\.element))
    }

    /// The last event's time (0 when empty).
    public var end: Double { events.map(\.t).max() ?? 0 }

    /// Any event at `t`.
    public mutating func add(_ kind: ScriptEvent.Kind, at t: Double) {
        events.append(ScriptEvent(t: t, kind))
    }

    /// A finger down at `from` at `t`, moving to `to` in 16 ms steps over `ms`, held `hold` ms
    /// and lifted (unless `lift` is false), each group ended by `touch.frame`.
    public mutating func drag(
        from: Point, to: Point, at t: Double, ms: Double, hold: Double = 0, id: Int = 0, lift: Bool = true
    ) {
        add(.touchDown(id: id, x: from.x, y: from.y), at: t)
        add(.touchFrame, at: t)
        let steps = max(1, Int(ms / 16))
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            let ti = t + ms * f
            add(.touchMotion(id: id, x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f), at: ti)
            add(.touchFrame, at: ti)
        }
        guard lift else { return }
        add(.touchUp(id: id), at: t + ms + hold)
        add(.touchFrame, at: t + ms + hold)
    }

    /// A finger down at `point` and up `hold` ms later (two of them 150 ms apart: a double tap).
    public mutating func tap(at point: Point, at t: Double, hold: Double = 60, id: Int = 0) {
        add(.touchDown(id: id, x: point.x, y: point.y), at: t)
        add(.touchFrame, at: t)
        add(.touchUp(id: id), at: t + hold)
        add(.touchFrame, at: t + hold)
    }

    /// A key (an xkb keysym name) pressed at `t` and released `hold` ms later.
    public mutating func key(_ name: String, at t: Double, hold: Double = 30) {
        add(.key(name, pressed: true), at: t)
        add(.key(name, pressed: false), at: t + hold)
    }

    /// `clicks` wheel detents (negative: towards the start) over `point`, one 40 ms apart.
    public mutating func wheel(clicks: Int, over point: Point, at t: Double, axis: Axis = .vertical) {
        add(.pointerMotion(x: point.x, y: point.y), at: t)
        add(.pointerFrame, at: t)
        let sign = clicks < 0 ? -1.0 : 1.0
        for i in 0..<abs(clicks) {
            let ti = t + Double(i) * 40
            add(.pointerAxis(axis, value: 15 * sign, source: .wheel, value120: 120 * sign), at: ti)
            add(.pointerFrame, at: ti)
        }
    }

    /// A screenshot named `name` at `t`.
    public mutating func screenshot(_ name: String, at t: Double) {
        add(.screenshot(name: name), at: t)
    }
}
