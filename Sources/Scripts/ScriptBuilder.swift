import ScrollwayGeometry
import ScrollwayGestures

/// Builds gesture scripts in code, typed: drags, flicks, taps, touchpad pinches, keys, text, wheel
/// clicks and screenshots at given times (ms), merged in time order (events at equal times keep
/// the order they were added), so a screenshot can be taken while a drag goes on. Times are
/// absolute, so a wait is the gap between two parts (`end` says where the last one ended), and a
/// script's tail after its last event is the player's `settle`. The tour, the benches and tests
/// build their gestures here instead of writing events by hand; `ScriptWriter` turns the result
/// into a file `scrollway play` reads, and `FrameDriver` plays it into a window.
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

    /// A finger down at `from` at `t`, moving to `to` in `step` ms steps (16 by default: one a
    /// 60 Hz frame; as many whole steps as fit in `ms`, the last at `t + ms`), held `hold` ms and
    /// lifted (unless `lift` is false), each group ended by `touch.frame`.
    public mutating func drag(
        from: Point, to: Point, at t: Double, ms: Double, hold: Double = 0, id: Int = 0, lift: Bool = true,
        step: Double = 16
    ) {
        let steps = Int(clamping: ms / step, in: 1...Int.max)
        let moves = (1...steps).map { i in
            let f = Double(i) / Double(steps)
            return (t: t + ms * f, to: Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f))
        }
        touch(from: from, at: t, moves: moves, liftAt: lift ? t + ms + hold : nil, id: id)
    }

    /// A flick: `moves` moves `step` ms apart adding up to `delta`, and the lift one step after
    /// the last, so the finger leaves at full speed and the content flies on.
    public mutating func flick(
        from: Point, by delta: Point, at t: Double, moves: Int = 5, step: Double = 10, id: Int = 0
    ) {
        let ms = Double(moves) * step
        drag(from: from, to: from + delta, at: t, ms: ms, hold: step, id: id, step: step)
    }

    /// A finger down at `from` at `t`, then at each of `points` `step` ms apart, and lifted
    /// `liftAfter` ms after the last (left down when nil): a path that is not a straight line.
    public mutating func drag(
        from: Point, through points: [Point], at t: Double, step: Double = 16, liftAfter: Double? = nil, id: Int = 0
    ) {
        let last = t + Double(points.count) * step
        touch(
            from: from, at: t, moves: Self.moves(through: points, after: t, step: step),
            liftAt: liftAfter.map { last + $0 }, id: id)
    }

    /// A finger already down (`id`) moved to each of `points`, `step` ms apart after `t`, each
    /// move ended by `touch.frame`: a second finger's part in a gesture, or a drag going on.
    public mutating func move(id: Int = 0, through points: [Point], after t: Double, step: Double = 16) {
        for m in Self.moves(through: points, after: t, step: step) { move(id: id, to: m.to, at: m.t) }
    }

    private mutating func move(id: Int, to p: Point, at t: Double) {
        add(.touchMotion(id: id, x: p.x, y: p.y), at: t)
        add(.touchFrame, at: t)
    }

    private static func moves(through points: [Point], after t: Double, step: Double) -> [(t: Double, to: Point)] {
        points.enumerated().map { (t: t + Double($0.offset + 1) * step, to: $0.element) }
    }

    /// A finger down at `from` at `t`, moved at each of `moves`' times, and lifted at `liftAt`
    /// (left down when nil), each group ended by `touch.frame`.
    public mutating func touch(from: Point, at t: Double, moves: [(t: Double, to: Point)], liftAt: Double?, id: Int = 0)
    {
        add(.touchDown(id: id, x: from.x, y: from.y), at: t)
        add(.touchFrame, at: t)
        for m in moves { move(id: id, to: m.to, at: m.t) }
        guard let liftAt else { return }
        add(.touchUp(id: id), at: liftAt)
        add(.touchFrame, at: liftAt)
    }

    /// A touchpad pinch over `point`: the pointer there at `t`, the pinch begun, its scale going
    /// from 1 to `scale` evenly in `step` ms steps over `ms` (whole steps, the last at `t + ms`),
    /// and ended `endAfter` ms after the last update (left open when nil).
    public mutating func pinch(
        over point: Point, to scale: Double, at t: Double, ms: Double, step: Double = 16, endAfter: Double? = 16
    ) {
        add(.pointerMotion(x: point.x, y: point.y), at: t)
        add(.pointerFrame, at: t)
        add(.pinchBegin, at: t)
        let steps = Int(clamping: ms / step, in: 1...Int.max)
        for i in 1...steps {
            let f = Double(i) / Double(steps)
            add(.pinchUpdate(scale: 1 + (scale - 1) * f, dx: 0, dy: 0), at: t + ms * f)
        }
        if let endAfter { add(.pinchEnd(cancelled: false), at: t + ms + endAfter) }
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

    /// Text typed at `t` (the `text` event: an input method's commit, or what `scrollway rig`
    /// types key by key with the us keymap).
    public mutating func text(_ text: String, at t: Double) {
        add(.text(text), at: t)
    }

    /// An input method's composing text at `t`, its cursor a byte range of it (nil hides it;
    /// the default puts it at the end).
    public mutating func preedit(_ text: String, cursor: ClosedRange<Int>?? = .none, at t: Double) {
        let n = text.utf8.count
        add(.preedit(text, cursor: cursor ?? (n...n)), at: t)
    }

    /// An input method committing `text` at `t` (the preedit, if any, goes).
    public mutating func commitText(_ text: String, at t: Double) {
        add(.commitText(text), at: t)
    }

    /// An input method deleting `before` and `after` bytes around the caret at `t`.
    public mutating func deleteSurrounding(before: Int, after: Int, at t: Double) {
        add(.deleteSurrounding(before: before, after: after), at: t)
    }

    /// The pointer moved to `point` at `t` (motion and its frame): a hover, or where a wheel,
    /// a click or a pinch happens next.
    public mutating func pointer(to point: Point, at t: Double) {
        add(.pointerMotion(x: point.x, y: point.y), at: t)
        add(.pointerFrame, at: t)
    }

    /// A pointer button pressed (or released) at `t`, with its frame.
    public mutating func button(_ button: PointerButton = .left, pressed: Bool, at t: Double) {
        add(.pointerButton(button, pressed: pressed), at: t)
        add(.pointerFrame, at: t)
    }

    /// `clicks` wheel detents (negative: towards the start) over `point`, one 40 ms apart.
    public mutating func wheel(clicks: Int, over point: Point, at t: Double, axis: Axis = .vertical) {
        pointer(to: point, at: t)
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
