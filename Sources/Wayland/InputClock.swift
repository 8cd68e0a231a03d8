/// Puts the compositor's input timestamps (whole milliseconds, 32 bits) on the platform's clock
/// (CLOCK_MONOTONIC, in seconds). Release velocities, tap timeouts and fling starts all read these
/// times, so what matters is the spacing between a gesture's events, and that no event is dated
/// after the moment it is read by more than delivery's jitter.
///
/// Two kinds of stamp:
/// - **On our own clock.** weston, wlroots, mutter and KWin stamp what libinput reads with
///   CLOCK_MONOTONIC, ours. Such a stamp is taken as it is (the 32-bit wrap nearest our present):
///   exact, however late it is read. A client whose main thread stalled reads a swipe's events
///   in one batch, and dated at their reading they were squeezed together: a release velocity
///   several times the finger's.
/// - **On another clock** (a virtual device's own, a rig's script times, a key stamped 0): the
///   offset is fixed when a gesture starts, at the moment its first event is read, so the
///   spacing between the gesture's events is exactly the compositor's. Delivery's jitter may
///   put an event up to `maxLead` ahead of its reading; a stamp further ahead, or dated more
///   than `maxLag` back, or before the last event by over a second, is yet another clock, and
///   the offset starts again at that event.
///
/// Which kind a gesture's stamps are is decided at its first event, once for the gesture (a
/// batch whose oldest events fell outside a limit and newest inside was dated two ways, and
/// squeezed): a stamp is ours when it is no further back than the event can have waited unread
/// (`unreadSince`: the connection's read before, or the moment a waiting poll woke) plus the
/// compositor's delay in sending it (`deliverySlack`), and no further ahead than `maxLead`. A
/// clock running steadily behind ours (one counted from a process's start) is told apart so:
/// an event read at once is never seconds old. A key is decided on its own: virtual keyboards
/// stamp on clocks of their own.
///
/// Pure: the caller passes the moment of reading and since when the event can have waited.
struct InputClock {
    private var offset: Double?
    /// Whether the current gesture's stamps are on our clock (nil: decided at its next event).
    private var gestureOnOwnClock: Bool?
    /// The time given to the last event: none is dated before it.
    private(set) var lastEventTime = -Double.infinity

    /// How far ahead of its reading jittery delivery may place an event.
    static let maxLead = 0.050
    /// How long before its reading an event of another clock may be dated: far more than a busy
    /// frame delays reading, far less than a stale clock is off.
    static let maxLag = 1.0
    /// How long a compositor may hold an event it stamped before it is in the socket.
    static let deliverySlack = 0.050

    /// The time of an event stamped `ms`, read at `now`, which can have waited unread since
    /// `unreadSince`; `alone`: decided on its own, not as part of the gesture (a key).
    mutating func time(_ ms: UInt32, now: Double, unreadSince: Double, alone: Bool = false) -> Double {
        let own: Bool
        if alone {
            own = Self.isOnOwnClock(ms, now: now, unreadSince: unreadSince)
        } else {
            if gestureOnOwnClock == nil {
                gestureOnOwnClock = Self.isOnOwnClock(ms, now: now, unreadSince: unreadSince)
            }
            own = gestureOnOwnClock == true
        }
        let mapped = own ? min(Self.unwrapped(ms, near: now) ?? now, now + Self.maxLead) : onOtherClock(ms, now: now)
        lastEventTime = max(lastEventTime, mapped)
        return lastEventTime
    }

    /// A new gesture: which clock its stamps are on is decided at its first event, and a stamp
    /// of another clock sets the offset again (between gestures that clock's base may move: a
    /// rig excuses the time a screenshot takes).
    mutating func newGesture() {
        offset = nil
        gestureOnOwnClock = nil
    }

    /// Whether a stamp read at `now` is on our clock: within `maxLead` ahead, and no further
    /// back than it can have waited unread since `unreadSince`, with `deliverySlack`.
    static func isOnOwnClock(_ ms: UInt32, now: Double, unreadSince: Double) -> Bool {
        guard let t = unwrapped(ms, near: now) else { return false }
        return t <= now + maxLead && now - t <= max(0, now - unreadSince) + deliverySlack
    }

    /// `ms` on our clock's milliseconds, in the 32-bit wrap that puts it nearest `now`.
    static func unwrapped(_ ms: UInt32, near now: Double) -> Double? {
        let nowMs = (now * 1000).rounded(.down)
        guard nowMs.isFinite, nowMs >= 0, nowMs < 0x1p62 else { return nil }
        let present = Int64(clamping: nowMs, rounding: .down)
        let behind = Int32(bitPattern: UInt32(truncatingIfNeeded: present) &- ms)
        return Double(present - Int64(truncatingIfNeeded: behind)) / 1000
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
