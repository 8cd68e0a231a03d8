import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayGestures

/// The seat's touchscreen: events grouped per wl_touch.frame; the last finger's up also ends a
/// group, because weston 10 sends no frame after it.
@MainActor
final class WaylandTouch {
    unowned let input: WaylandInput
    let proxy: OpaquePointer
    private var pending: [InputEvent] = []
    private var down: Set<Int32> = []

    init(input: WaylandInput, proxy: OpaquePointer) {
        self.input = input
        self.proxy = proxy
        wl_touch_add_listener(proxy, Listeners.touch, Unmanaged.passUnretained(self).toOpaque())
    }

    func release() { wl_touch_release(proxy) }

    /// The touchscreen went away: fingers still down are cancelled, as the compositor would.
    func unplugged() {
        if !down.isEmpty || !pending.isEmpty { cancel() }
    }

    private static func point(_ x: wl_fixed_t, _ y: wl_fixed_t) -> Point {
        Point(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    }

    func down(time ms: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        if down.isEmpty { input.newGesture() }
        down.insert(id)
        pending.append(InputEvent(time: input.time(ms), .touchDown(id: Int(id), position: Self.point(x, y))))
    }

    func motion(time ms: UInt32, id: Int32, x: wl_fixed_t, y: wl_fixed_t) {
        pending.append(InputEvent(time: input.time(ms), .touchMotion(id: Int(id), position: Self.point(x, y))))
    }

    func up(time ms: UInt32, id: Int32) {
        down.remove(id)
        pending.append(InputEvent(time: input.time(ms), .touchUp(id: Int(id))))
        // weston 10 sends no wl_touch.frame after the last up: that up ends the group.
        if down.isEmpty { frame() }
    }

    func frame() {
        let events = pending
        pending.removeAll()
        input.deliver(events)
    }

    func cancel() {
        pending.removeAll()
        down.removeAll()
        input.deliver([InputEvent(time: max(input.lastEventTime, sw_monotonic_seconds()), .touchCancel)])
    }
}
