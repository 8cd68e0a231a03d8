import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// The name the weston target had before every compositor had a rig.
public typealias WestonTarget = CompositorTarget

/// A script played into the app's real window inside a compositor's headless rig (weston's,
/// sway's: `CompositorRig`), in real time with the script's timestamps: input goes through the
/// compositor's seat (`SeatInjector`), the app's event loop runs between events, and screenshots
/// are what the compositor shows (no cursor). Frame times differ from run to run; resting
/// positions and delegate calls do not.
@MainActor
public final class CompositorTarget: ScriptTarget {
    public let rig: any CompositorRig
    public let app: WaylandApp
    public let window: Window
    public let injector: SeatInjector
    private let ownsRig: Bool

    /// Starts a rig of `compositor` the window's size with the app in it, and waits until the
    /// window is mapped and at rest with the pointer off it. `stop()` ends both.
    public convenience init(window: Window, title: String = "Scrollway", compositor: Compositor = .weston) throws {
        let rig = try compositor.start(
            width: Int(clamping: window.bounds.width), height: Int(clamping: window.bounds.height))
        do {
            let app = try WaylandApp(content: window, title: title, socket: rig.socketPath)
            self.init(rig: rig, app: app, ownsRig: true)
            try app.settle()
            try showWithoutPointer()
        } catch {
            rig.stop()
            throw error
        }
    }

    /// Plays into an app already running in `rig` (a test that set both up itself); the rig stays
    /// the caller's.
    public convenience init(rig: any CompositorRig, app: WaylandApp) {
        self.init(rig: rig, app: app, ownsRig: false)
    }

    private init(rig: any CompositorRig, app: WaylandApp, ownsRig: Bool) {
        self.rig = rig
        self.app = app
        self.window = app.window.content
        self.injector = SeatInjector(rig: rig)
        self.ownsRig = ownsRig
    }

    /// Stops the rig this target started (its compositor and runtime directory).
    public func stop() {
        if ownsRig { rig.stop() }
    }

    /// No compositor's seat takes pointer gestures or window sizes, and `compositor`'s may take
    /// less (no touch on sway): refused before anything runs, at the first such line. (The
    /// on-screen keyboard's events this target plays in the app.)
    public static func checkSupported(_ summary: ScriptSummary, file: String, compositor: Compositor = .weston) throws {
        for (type, line) in summary.firstLine.sorted(by: { $0.value < $1.value }) where !type.hasPrefix("keyboard.") {
            if let why = SeatInjector.refusal(of: type, on: compositor) { throw ReplayError("\(file):\(line): \(why)") }
        }
    }

    /// Plays `source` in real time from now (its time 0), with a trace of the app, then waits
    /// until the window is at rest or `settle` ms have passed after the last event.
    public func play(
        _ source: some ScriptEventSource, settle: Double, trace: TraceWriter.Output = .discard,
        onScreenshot: (String, Canvas) throws -> Void
    ) throws {
        var source = source
        rig.pacer.begin()
        let recorder = TraceRecorder(window: window, origin: window.now, output: trace)
        recorder.recordCurrentFrame(at: window.now)
        try play(&source, duration: 0, settle: settle, onScreenshot: onScreenshot)
        withExtendedLifetime(recorder) {}
    }

    // MARK: ScriptTarget, in real time

    /// Steps the app's loop until `t` is due on the rig's pacer (the first paced time begins it).
    public func perform(at t: Double, _ action: () throws -> Void) throws {
        try rig.pacer.wait(until: t) { try app.step(maxWait: $0) }
        try action()
    }

    /// Injects the event, waits until weston has handled it (a roundtrip on the rig's own
    /// connection: the app's alone could overtake it), then lets the app read and handle what
    /// weston sent, without waiting for frames.
    public func inject(_ event: ScriptEvent) throws {
        try injector.inject(event)
        try rig.seat.roundtrip()
        try app.catchUp()
    }

    /// Returns once the app has been sent all the input played so far, also where the seat's
    /// roundtrip does not prove it (`SeatInput.roundtripDelivers`: mutter's). There a tap of
    /// Left Shift, a key that changes nothing in the app, follows the input, and the app's loop
    /// runs until the window has handled its release: a compositor delivers one seat's input
    /// in order, so everything sent before has arrived. Not for a window without the keyboard
    /// (the key would go elsewhere): the roundtrip is all there is then. The tap reaches the
    /// window like any key (a trace recording it lists it), so `play` does not wait this way;
    /// a test that reads the app's state after input does (`timeout`: seconds).
    public func awaitDelivery(timeout: Double = 10) throws {
        try rig.seat.roundtrip()
        guard !rig.seat.roundtripDelivers, window.isKeyWindow else { return }
        guard let shift = rig.keys.stroke(forKeysymNamed: "Shift_L") else {
            throw ReplayError("\(rig.compositor)'s keymap has no Shift_L to prove input delivered with")
        }
        let watch = KeyReleaseWatch(key: Key(keysymName: "Shift_L"))
        window.addObserver(watch)
        defer { window.removeObserver(watch) }
        rig.seat.key(shift.evdev, pressed: true, time: 0)
        rig.seat.key(shift.evdev, pressed: false, time: 0)
        try rig.seat.flush()
        try rig.seat.roundtrip()
        try app.pump(
            until: { watch.released }, timeout: timeout,
            "the app to get a Shift tap played after the input, through \(rig.compositor)")
    }

    /// What the compositor shows, the pointer taken off the window first (a cursor would show in
    /// the picture) and what that changed in the app drawn and presented.
    public func screenshot(at t: Double) throws -> Canvas {
        try showWithoutPointer()
        defer { rig.pacer.excuseUntilNow() }
        return try rig.capture()
    }

    public func resize(to size: Size) throws {
        throw ReplayError("\(rig.compositor) cannot resize a window from a script (no window-size injection)")
    }

    /// The platform is at rest (`WaylandApp.isAtRest`: presented, nothing in flight) and no timer
    /// waits (an indicator's fade).
    public var isAtRest: Bool { app.isAtRest && window.nextTimerDeadline == nil }

    public func settle(after: Double, limit: Double) throws {
        try rig.seat.roundtrip()
        try app.step(maxWait: 0)
        let end = Deadline.now + limit / 1000
        while !isAtRest {
            let left = end - Deadline.now
            guard left > 0 else { break }
            try app.step(maxWait: min(left, 0.05))
        }
    }

    /// Parks the pointer (unless the script holds a button: `SeatInjector.holdsAButton`) and
    /// waits until the app has handled its leaving and the compositor
    /// shows the app as it is at this moment: nothing needed drawing, or a frame committed after
    /// now (a hover ending redrawn, an animation's next step) has been presented. An animation
    /// still running goes on and is not waited out: a screenshot is the window at its time, as
    /// offscreen, and waiting for the end of a fling made the script's next events land after
    /// it (a touch meant to catch the fling found it at rest). The guard against a hang is
    /// wide: a frame of End in the list of 100,000 rows measures every row it passes, slow in a
    /// debug build on a loaded machine (docs/decisions.md, 0.15.0).
    private func showWithoutPointer() throws {
        // Not while the script holds a button: the leave would end its drag.
        if !injector.holdsAButton { try rig.parkPointer() }
        try app.catchUp()
        let committed = app.window.framesCommitted
        try app.pump(
            until: {
                !app.window.isWaitingForFrame && (!window.needsFrame || app.window.framesCommitted > committed)
            }, timeout: 60, "the window to present its frame")
    }
}

/// Sees a window handle the release of one key (`CompositorTarget.awaitDelivery`).
@MainActor
private final class KeyReleaseWatch: WindowObserver {
    let key: Key
    private(set) var released = false

    init(key: Key) { self.key = key }

    func window(_ window: Window, willHandle event: InputEvent) {
        if case .key(let k, pressed: false, _) = event.kind, k == key { released = true }
    }
}
