/// What a platform implements to host a `Window` on screen: the one thing the window asks of
/// it is a frame. Everything else goes the other way, the platform calling into the window.
///
/// The contract, both halves:
/// - The window calls `windowNeedsFrame(_:)` once when something changed, then not again until
///   a frame is prepared (`prepareFrame(time:)` or `prepareFrameUpdate(time:)`): one request in
///   flight, which is what lets a platform draw one frame per repaint. The host answers with a
///   frame at its next opportunity (a Wayland frame callback, or at once when none is in
///   flight), at the time the frame is expected to reach the screen. A host may prepare a frame
///   again for the time of the last one, to replace it with the input that came since before
///   the screen shows it (Wayland's `replaceFrame`).
/// - The call can come from inside `prepareFrameUpdate` (animations still running want the next
///   frame): a host notes it there and answers later, never by preparing a frame re-entrantly.
/// - A window starts out needing a frame, and a request made while no host was attached is not
///   repeated: a host reads `Window.needsFrame` when it attaches.
/// - A platform with a system input method sets `Window.hasSystemInputMethod`, tells it what
///   `Window.textInputState` says after each frame and focus change (a `WindowObserver`), and
///   hands its updates to `handle(_:)` as `.textInput` events.
/// - A platform with a clipboard sets `Window.pasteboard` to it (Wayland: wl_data_device); the
///   default is in memory. Text it reads arrives later, through the window's inbox.
/// - The platform feeds the window: `resize(to:)` on a configure, `scale` from the outputs,
///   `handle(_:)` for input, `advanceClock(to:)` and `nextTimerDeadline` for timers,
///   `drainInbox()` each turn of its loop. A platform that sleeps also sets the inbox's wake
///   handler (`WindowInbox.setWakeHandler`), the one part of the contract called from other
///   threads (and from the window's own, when it draws tiles no worker could take).
///
/// The window holds its host weakly, and has one at a time (`Window.host`). A driver that looks
/// at `needsFrame` on every tick of its own clock (the offscreen players) needs no host.
@MainActor
public protocol WindowHost: AnyObject {
    /// `window` changed and wants a frame; called once until the next frame is prepared.
    func windowNeedsFrame(_ window: Window)
}
