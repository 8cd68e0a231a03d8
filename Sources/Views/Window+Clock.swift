/// Something that moves with time, advanced once per frame at the frame's target time.
/// Returning false removes it: no animation, no frames (no CPU burned while nothing moves).
@MainActor
public protocol FrameAnimation: AnyObject {
    func advance(to time: Double) -> Bool
}

/// A timer registered with the window; `Window.nextTimerDeadline` tells the platform when to
/// wake (a timerfd on Wayland, the virtual clock offscreen).
struct WindowTimer {
    let id: Int
    let deadline: Double
    let action: () -> Void
}

/// Identifies a scheduled timer so its owner can cancel it.
public struct TimerToken: Hashable, Sendable {
    let id: Int
}

extension Window {
    /// Moves the window's clock forward (never back) and fires the timers now due.
    public func advanceClock(to time: Double) {
        guard time.isFinite else { return }
        now = max(now, time)
        fireTimers(upTo: now)
    }

    /// Runs `action` once the clock reaches `deadline`.
    @discardableResult
    public func schedule(at deadline: Double, _ action: @escaping () -> Void) -> TimerToken {
        nextTimerID += 1
        timers.append(WindowTimer(id: nextTimerID, deadline: deadline, action: action))
        return TimerToken(id: nextTimerID)
    }

    public func cancelTimer(_ token: TimerToken?) {
        guard let token else { return }
        timers.removeAll { $0.id == token.id }
    }

    /// The earliest pending deadline, for the platform's wake-up.
    public var nextTimerDeadline: Double? { timers.map(\.deadline).min() }

    /// Fires, in deadline order, every timer due at `time` (including ones they schedule).
    public func fireTimers(upTo time: Double) {
        while let i = timers.indices.filter({ timers[$0].deadline <= time + 1e-9 }).min(by: {
            timers[$0].deadline < timers[$1].deadline
        }) {
            let timer = timers.remove(at: i)
            timer.action()
        }
    }

    /// Starts driving `animation` every frame until it reports that it is done.
    public func addAnimation(_ animation: any FrameAnimation) {
        guard !animations.contains(where: { $0 === animation }) else { return }
        animations.append(animation)
        setNeedsFrame()
    }

    public func removeAnimation(_ animation: any FrameAnimation) {
        animations.removeAll { $0 === animation }
    }

    public var hasActiveAnimations: Bool { !animations.isEmpty }

    /// Whether a finger (or the mouse's button) is down on the window: content may be moving
    /// with it though nothing animates.
    public var hasTouchesDown: Bool { !touchRoutes.isEmpty }

    /// Nothing animates, no timer waits and nothing is left to draw: the window's own half of
    /// "at rest", the same on every platform. The frame drivers and the replay layer add what
    /// their platform may still have out (a frame callback, a buffer in flight).
    public var isQuiet: Bool { !hasActiveAnimations && nextTimerDeadline == nil && !needsFrame }

    func runAnimations(at time: Double) {
        let running = animations
        animations = []
        let still = running.filter { $0.advance(to: time) }
        // Keep ones added while advancing, too.
        animations = still + animations.filter { a in !still.contains { $0 === a } }
    }
}
