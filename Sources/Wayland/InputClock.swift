/// Puts the compositor's input timestamps (whole milliseconds, 32 bits) on the platform's clock
/// (CLOCK_MONOTONIC, in seconds). Release velocities, tap timeouts and fling starts all read these
/// times, so what matters is the spacing between a gesture's events, and that no event is dated
/// after the moment it is read by more than delivery's jitter.
///
/// Two kinds of stamp:
/// - **On our own clock.** weston, wlroots, mutter and KWin stamp what libinput reads with
///   CLOCK_MONOTONIC, ours. Such a stamp is taken as it is (the last 32 bits of our clock's
///   milliseconds say which wrap it belongs to): exact, however late it is read. A client whose
///   main thread stalled reads a swipe's events in one batch, and dated at their reading they
///   were squeezed together: a release velocity several times the finger's.
/// - **On another clock** (a virtual device's own, a rig's script times, a key stamped 0): the
///   offset is fixed when a gesture starts, at the moment its first event is read, so the
///   spacing between the gesture's events is exactly the compositor's. Delivery's jitter may
///   put an event up to `maxLead` ahead of its reading; a stamp further ahead, or dated more
///   than `maxLag` back, or before the last event by over a second, is yet another clock, and
///   the offset starts again at that event.
///
/// A stamp is on our clock when it lies within `ownClockLag` before our clock's present
/// milliseconds (or `maxLead` after): another clock's 32-bit stamp lands there by chance about
/// once in four hundred thousand.
///
/// Pure: the caller passes the moment of reading (`now`).
struct InputClock {
    private var offset: Double?
    /// The time given to the last event: none is dated before it.
    private(set) var lastEventTime = -Double.infinity

    /// How far ahead of its reading jittery delivery may place an event of another clock.
    static let maxLead = 0.050
    /// How long before its reading an event of another clock may be dated: far more than a busy
    /// frame delays reading, far less than a stale clock is off.
    static let maxLag = 1.0
    /// How far back a stamp on our own clock is still taken as one: a main thread stalled this
    /// long (a decode, a page of layout, a swap storm) still dates its input exactly.
    static let ownClockLag = 10.0

    /// The time of an event stamped `ms`, read at `now`.
    mutating func time(_ ms: UInt32, now: Double) -> Double {
        let mapped = Self.onOwnClock(ms, now: now) ?? onOtherClock(ms, now: now)
        lastEventTime = max(lastEventTime, mapped)
        return lastEventTime
    }

    /// A new gesture: a stamp of another clock sets the offset again (between gestures that
    /// clock's base may move: a rig excuses the time a screenshot takes).
    mutating func newGesture() { offset = nil }

    /// `ms` on our own clock, unwrapped to the wrap of 2³² ms that puts it nearest `now`, if it
    /// is within `ownClockLag` before `now` or `maxLead` after.
    static func onOwnClock(_ ms: UInt32, now: Double) -> Double? {
        let nowMs = (now * 1000).rounded(.down)
        guard nowMs.isFinite, nowMs >= 0, nowMs < 0x1p62 else { return nil }
        let present = Int64(clamping: nowMs, rounding: .down)
        let lag = UInt32(truncatingIfNeeded: present) &- ms
        if Double(lag) <= ownClockLag * 1000 { return Double(present - Int64(lag)) / 1000 }
        let lead = 0 &- lag
        if Double(lead) <= maxLead * 1000 { return Double(present + Int64(lead)) / 1000 }
        return nil
    }

    private mutating func onOtherClock(_ ms: UInt32, now: Double) -> Double {
        let t = Double(ms) / 1000
        if let o = offset, t + o <= now + Self.maxLead, t + o >= lastEventTime - 1, t + o >= now - Self.maxLag {
            return t + o
        }
        offset = now - t
        return now
    }
}
