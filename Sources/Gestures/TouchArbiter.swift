import ScrollwayGeometry

/// Decides, for one touch that lands in a scroll view, whether it is a scroll or belongs to the
/// content under it (UIKit's `delaysContentTouches` / `canCancelContentTouches`).
///
/// - With the delay on, the touch is held for 150 ms. If the slop is crossed first, the scroll
///   view takes it and the content never hears of it.
/// - When the 150 ms pass (or the finger lifts first), the content gets it.
/// - If the finger later crosses the slop and cancelling is allowed, the content gets a cancel
///   and the scroll view scrolls.
/// - A touch that stops a fast deceleration (≥ 250 px/s) never goes to the content.
/// - A held touch whose pan failed (it can never scroll) goes to the content at once.
///
/// Pure: time is a parameter; the owner calls `timerFired` at `deadline`.
public struct TouchArbiter: Sendable {
    public static let delay = 0.150
    /// A touch that stops a deceleration at this speed or more is only a "stop", never a tap.
    public static let stopSpeed = 250.0

    public enum State: Hashable, Sendable {
        /// Waiting to see whether it is a scroll (content not told yet).
        case holding
        /// The content has the touch.
        case content
        /// The scroll view has the touch; the content never had it, or was cancelled.
        case scrolling
        /// The touch only stopped motion: the scroll view may still drag with it, content never gets it.
        case stopOnly
    }

    /// What the owner must do.
    public enum Action: Hashable, Sendable {
        /// Deliver the touch's began to the content (late, if it was held).
        case beginContent
        /// Deliver a move to the content.
        case moveContent
        /// Deliver the end to the content.
        case endContent
        /// Cancel the content's touch.
        case cancelContent
        /// The scroll view starts dragging now.
        case beginScrolling
    }

    public private(set) var state: State
    public let downTime: Double
    public let delaysContentTouches: Bool
    public let canCancelContentTouches: Bool
    /// When `timerFired` should be called (nil: no timer needed).
    public var deadline: Double? { state == .holding ? downTime + Self.delay : nil }

    /// - Parameters:
    ///   - time: when the finger landed (s): the 150 ms hold counts from here.
    ///   - delaysContentTouches: whether the touch is held back from the content for 150 ms
    ///     (the scroll view's `delaysContentTouches`).
    ///   - canCancelContentTouches: whether a scroll that starts after the content got the touch
    ///     may cancel it (the scroll view's `canCancelContentTouches`).
    ///   - contentWantsTouch: whether there is content under the touch to offer it to (false:
    ///     content never gets it). Whether the content accepts is asked when it is offered
    ///     (`contentDeclined()`).
    ///   - stoppedSpeed: the deceleration speed this touch interrupted, if any.
    public init(
        time: Double, delaysContentTouches: Bool = true, canCancelContentTouches: Bool = true,
        contentWantsTouch: Bool = true, stoppedSpeed: Double? = nil
    ) {
        downTime = time
        self.delaysContentTouches = delaysContentTouches
        self.canCancelContentTouches = canCancelContentTouches
        if let s = stoppedSpeed, s >= Self.stopSpeed {
            state = .stopOnly
        } else if !contentWantsTouch {
            state = .stopOnly
        } else {
            state = delaysContentTouches ? .holding : .content
        }
    }

    /// The content turned the touch down when it was offered (`touchesShouldBegin` said no at
    /// the `.beginContent` the owner was about to deliver): the touch stays the scroll view's,
    /// which may still drag with it, and the content never hears of it.
    public mutating func contentDeclined() {
        state = .stopOnly
    }

    /// The scroll view's pan failed for this touch (a view under it or another recognizer
    /// stopped it), so the touch will never scroll: a held touch goes to the content at once
    /// rather than when the hold (`delay`) ends, as it would then.
    public mutating func panFailed() -> [Action] {
        guard state == .holding else { return [] }
        state = .content
        return [.beginContent]
    }

    /// The actions due at touch-down (an immediate began when there is no delay).
    public var initialActions: [Action] { state == .content ? [.beginContent] : [] }

    /// The 150 ms passed without a slop crossing: the content gets the touch.
    public mutating func timerFired(time: Double) -> [Action] {
        guard state == .holding, time >= downTime + Self.delay - 1e-9 else { return [] }
        state = .content
        return [.beginContent]
    }

    /// A move. `crossedSlop` is true on the move that crossed it (PanTracker.move's result);
    /// `contentAllowsCancel` is `touchesShouldCancel(in:)`, asked only where UIKit asks it: when
    /// the content has the touch, cancelling is allowed, and the move would begin a scroll.
    public mutating func moved(
        crossedSlop: Bool, scrollEnabled: Bool = true, contentAllowsCancel: @autoclosure () -> Bool = true
    ) -> [Action] {
        switch state {
        case .holding:
            if crossedSlop && scrollEnabled {
                state = .scrolling
                return [.beginScrolling]
            }
            return []
        case .content:
            if crossedSlop && scrollEnabled && canCancelContentTouches && contentAllowsCancel() {
                state = .scrolling
                return [.cancelContent, .beginScrolling]
            }
            return [.moveContent]
        case .stopOnly:
            if crossedSlop && scrollEnabled {
                state = .scrolling
                return [.beginScrolling]
            }
            return []
        case .scrolling:
            return []
        }
    }

    /// The finger lifted. A held touch is a quick tap: the content gets began and end at once.
    public mutating func lifted() -> [Action] {
        switch state {
        case .holding:
            state = .content
            return [.beginContent, .endContent]
        case .content:
            return [.endContent]
        case .scrolling, .stopOnly:
            return []
        }
    }

    /// The compositor cancelled the touch.
    public mutating func cancelled() -> [Action] {
        defer { state = .stopOnly }
        return state == .content ? [.cancelContent] : []
    }
}
