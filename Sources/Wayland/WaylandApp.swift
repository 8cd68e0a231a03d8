import Glibc
import ScrollwayAtSpi
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayViews
import ScrollwayWaylandCore
import Synchronization

/// A window on a compositor and the loop that runs it.
///
/// The loop polls three descriptors: the display's, a timerfd armed for the window's next timer
/// (touch hold, key repeat, indicator fades) or, while an animation runs with no frame callback
/// in flight, the next refresh; and an eventfd that `wake()` writes from any thread. When
/// nothing is wanted all three are quiet and the loop sleeps: no frames, no CPU. Where a session
/// bus is followed for assistive technology its descriptor joins them, and while a screen
/// reader is served, the accessibility bus's.
///
/// The eventfd is the window's inbox wake-up: a worker thread that posts a finished tile into an
/// empty inbox wakes the loop, whose next turn drains the inbox (installing the tile asks for a
/// frame). The main thread never waits for a worker.
@MainActor
public final class WaylandApp {
    public let connection: WaylandConnection
    public let window: WaylandWindow
    private let timerFD: Int32
    /// When the timerfd is armed to fire (nil: disarmed, as it is made and after it fires): a
    /// turn that wants the same deadline leaves it be, since a frame's several wake-ups (the
    /// buffer's release, the presentation feedback, the frame callback) would each re-arm it.
    private(set) var armedDeadline: Double?
    /// The descriptors a turn polls, kept for the next turn's (`step`).
    private var pollDescriptors: [pollfd] = []
    /// Main-thread CPU seconds of idle turns outside their pieces (the turn's own waking,
    /// timer and checks) not yet charged to the background budget: charged with the next
    /// piece, since a turn's end comes after its piece has said how long the next must wait.
    private var idleTurnsUncharged = 0.0
    /// The wake descriptor, held in a Sendable box so other threads can call `wake()`.
    public let waker: Waker
    /// Set from any thread (a signal handler's queue) by `requestStop()`; `run` returns at its
    /// next turn.
    private let stopRequested = Atomic<Bool>(false)
    /// The session bus followed for assistive technology and the bridge that serves the
    /// window while it runs (`AccessibilityActivation`).
    private var accessibilityLink: AccessibilityLink?
    /// The window served to assistive technology (AT-SPI), while it runs.
    public var accessibility: AtSpiBridge? { accessibilityLink?.bridge }

    /// Wakes the loop from any thread (worker threads finishing tiles, a quit request). It owns
    /// the eventfd and closes it when the last holder lets go: a worker thread that still holds
    /// the window inbox's wake handler never writes to a closed (or reused) descriptor.
    public final class Waker: Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { close(fd) }
        public func wake() {
            var one: UInt64 = 1
            _ = write(fd, &one, 8)
        }
    }

    /// Connects (to `socket`, or $WAYLAND_DISPLAY) and maps `content` as a toplevel.
    public init(
        content: Window, title: String, socket: String? = nil, appID: String = "scrollway", fullscreen: Bool = false,
        presentMode: PresentMode = .fast, onCommit: ((PresentPlan, FrameStepTimes) -> Void)? = nil,
        accessibility activation: AccessibilityActivation = .automatic
    )
        throws
    {
        connection = try WaylandConnection(socket: socket)
        window = try WaylandWindow(
            connection: connection, content: content, title: title, appID: appID, fullscreen: fullscreen,
            presentMode: presentMode, onCommit: onCommit)
        timerFD = sw_timerfd_create()
        let wake = sw_eventfd_create()
        guard timerFD >= 0, wake >= 0 else {
            throw WaylandError.connectionLost(
                "cannot create the event loop's timerfd/eventfd: \(String(cString: strerror(errno)))")
        }
        waker = Waker(fd: wake)
        content.inbox.setWakeHandler { [waker] in waker.wake() }
        // A system input method types into the window's fields, where the compositor offers one.
        connection.input.textInput?.attach(to: content)
        connection.input.clipboard?.attach(to: content)
        // A screen reader names the window by its title unless the app named it.
        if content.accessibilityLabel == nil { content.accessibilityLabel = title }
        accessibilityLink = AccessibilityLink(activation, content: content, name: appID, input: connection.input)
        if content.backgroundBudget == nil, let budget = Self.quotaBudget() { content.backgroundBudget = budget }
    }

    /// Under a CPU quota the process cannot outrun, background work (tiles) keeps to a quarter of
    /// it while the window is busy and to half at rest, the main thread having the rest
    /// (`BackgroundBudget.shares`); nil without one. An app that set its window's budget before
    /// keeps its own.
    static func quotaBudget() -> BackgroundBudget? {
        guard let quota = CPUQuotaLimit.current(),
            let shares = BackgroundBudget.shares(
                forQuota: quota.cores, processors: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        else { return nil }
        Diagnostics.wayland.info(
            "a CPU quota of \(quota.cores) cores: background work keeps to \(shares.busy) of one core while the window is busy, \(shares.resting) at rest"
        )
        return BackgroundBudget(
            share: shares.busy, restingShare: shares.resting, period: quota.period,
            wallClock: { sw_monotonic_seconds() },
            threadCPUClock: { FrameStepTimes.threadSeconds() })
    }

    isolated deinit {
        window.content.inbox.setWakeHandler(nil)
        close(timerFD)
    }

    /// Runs until the compositor closes the window or `stop` says so. A lost connection or a
    /// protocol error is thrown as one WaylandError.
    public func run(until stop: () -> Bool = { false }) throws {
        while !window.closeRequested && !stop() && !stopRequested.load(ordering: .acquiring) {
            try step(maxWait: .infinity)
        }
    }

    /// Makes `run` return at its next turn, from any thread (SIGINT or SIGTERM handled on a
    /// dispatch queue, say), so that the app can finish what it writes and leave cleanly.
    public nonisolated func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        waker.wake()
    }

    /// Whether `requestStop()` was called.
    public nonisolated var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// The file an app's `--png FILE` asks its first frame be written to (offscreen, with no
    /// compositor), nil when `arguments` (the program's name left out) are none: anything but
    /// none or `--png` and a file is refused, saying what. An example app had taken what it did
    /// not know, and `--png` without its file, as no options at all, and opened its window on
    /// the compositor instead, silently.
    nonisolated public static func pngOutput(_ arguments: [String]) throws -> String? {
        switch arguments.count {
        case 0:
            return nil
        case 1 where arguments[0] == "--png":
            throw UsageError("--png needs the file to write the picture to")
        case 2 where arguments[0] == "--png" && !arguments[1].isEmpty:
            return arguments[1]
        case 2 where arguments[0] == "--png":
            throw UsageError("--png: an empty path names no file")
        default:
            let unknown = arguments[0] == "--png" ? arguments[2] : arguments[0]
            throw UsageError("expected no arguments, or --png FILE; got \(ScriptText.quoted(unknown, quote: "'"))")
        }
    }

    /// A command line an app does not take: what is wrong with it.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Runs an app's top-level code and, when it throws, ends the process as a command-line
    /// tool does: "NAME: the error" on standard error (NAME is the program's file name) and
    /// status 1. A `try` at the top level of `main.swift` instead traps, with a backtrace that
    /// reads as a crash of the app, when the cause is ordinary: no compositor to connect to, a
    /// file that cannot be written, a compositor that went away.
    ///
    ///     WaylandApp.runMain {
    ///         let app = try WaylandApp(content: window, title: "Hello")
    ///         try app.run()
    ///     }
    public static func runMain(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            let path = CommandLine.arguments.first ?? "app"
            let name = path.split(separator: "/").last.map(String.init) ?? path
            // Standard error closed or full loses the message; the status still says it failed.
            StandardStream.error.say("\(name): \(error)\n")
            exit(1)
        }
    }

    /// One turn of the loop: fire due timers, draw if a frame is wanted and allowed, then wait
    /// at most `maxWait` seconds for the display, the timer or a wake-up.
    public func step(maxWait: Double) throws {
        if let failure = connection.failure { throw failure }
        let now = sw_monotonic_seconds()
        window.content.advanceClock(to: now)
        // Tiles finished on worker threads since the last turn (they ask for a frame).
        window.content.drainInbox()
        window.renderIfPossible()
        // Slow work waits for the window to be idle (shown once, nothing animating), one piece a
        // turn, so a touch that starts meanwhile waits for one piece at most.
        let idle =
            window.framesCommitted > 0 && !window.content.hasActiveAnimations && !window.isWaitingForFrame
            && window.scheduledDraw == nil
        // A turn that does idle work is idle work, whole: its own turn of the loop too (arming
        // the timer, the wake-up). It is counted apart from the next frame's time and, under a
        // quota, charged to the budget with the next piece (`idleTurnsUncharged`).
        let idleWorkLeft = idle && window.hasIdleWork
        // Timed only for whoever reads it (frame statistics, a budget): each reading is a system
        // call.
        let setupPending = idle && connection.input.setupPending
        let timesIdleTurn =
            (idleWorkLeft || setupPending) && (window.onCommit != nil || window.content.backgroundBudget != nil)
        let turnStart = timesIdleTurn ? FrameStepTimes.threadSeconds() : 0
        // The keymap, compiled after the first frame, and libwayland-cursor's theme (loaded once,
        // where no theme file has the cursor) are idle time but not the budget's: charged, one
        // long load held the rings back long after it (decisions.md, 0.15.10).
        var unbudgeted = 0.0
        if setupPending {
            connection.input.finishPendingSetup()
            if timesIdleTurn { unbudgeted = FrameStepTimes.threadSeconds() - turnStart }
        }
        var pieces = 0.0
        let idleWorkDelay = idleWorkLeft ? runIdleWork(spent: &pieces) : nil
        // Arm the timerfd for the earliest thing the window waits for.
        var next: Double?
        if let deadline = window.content.nextTimerDeadline { next = deadline }
        if window.content.hasActiveAnimations && !window.isWaitingForFrame {
            next = min(next ?? .infinity, now + connection.refreshInterval)
        }
        // A frame waiting for its moment (as late as still meets the next repaint).
        if let at = window.scheduledDraw { next = min(next ?? .infinity, at) }
        if let idleWorkDelay { next = min(next ?? .infinity, now + idleWorkDelay) }
        // The third buffer given back once unneeded for a while: a later turn's idle work, when
        // the window is idle then (a busy window's own turns come sooner).
        if idle, let at = window.spareReturnTime, at > now, at.isFinite { next = min(next ?? .infinity, at) }
        if next != armedDeadline {
            let delay = next.map { max(0, $0 - now) }
            // At most a day ahead (a deadline set at infinity waits for events only).
            _ = sw_timerfd_arm(timerFD, delay.map { max(1, Int64(clamping: min($0, 86_400) * 1e9)) } ?? 0)
            armedDeadline = next
        }

        try connection.beginRead()
        // The array's storage is kept from turn to turn: a frame takes three turns.
        pollDescriptors.removeAll(keepingCapacity: true)
        pollDescriptors.append(pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0))
        pollDescriptors.append(pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0))
        pollDescriptors.append(pollfd(fd: waker.fd, events: Int16(POLLIN), revents: 0))
        let buses = accessibilityLink?.descriptors ?? []
        for bus in buses {
            pollDescriptors.append(
                pollfd(
                    fd: bus.fileDescriptor, events: Int16(POLLIN) | (bus.wantsToWrite ? Int16(POLLOUT) : 0), revents: 0)
            )
        }
        let ms: Int32 = maxWait.isFinite ? Int32(clamping: min(max(0, maxWait) * 1000, 60_000), rounding: .up) : -1
        let ready = poll(&pollDescriptors, nfds_t(pollDescriptors.count), ms)
        if ready < 0 && errno != EINTR {
            try? connection.finishRead(revents: 0)
            throw WaylandError.connectionLost("poll failed: \(String(cString: strerror(errno)))")
        }
        var drain: UInt64 = 0
        if pollDescriptors[1].revents & Int16(POLLIN) != 0 {
            _ = read(timerFD, &drain, 8)
            armedDeadline = nil  // fired: a one-shot timerfd is disarmed
        }
        if pollDescriptors[2].revents & Int16(POLLIN) != 0 { _ = read(waker.fd, &drain, 8) }
        if timesIdleTurn {
            let turn = FrameStepTimes.threadSeconds() - turnStart
            window.idleSinceCommit += turn
            if window.content.backgroundBudget != nil { idleTurnsUncharged += max(0, turn - pieces - unbudgeted) }
        }
        // A screen reader's calls, answered from the window as it is now, and the session's
        // word on whether one runs. A bus that went away takes accessibility with it, not the app.
        for (i, bus) in buses.enumerated() where pollDescriptors[3 + i].revents != 0 {
            accessibilityLink?.process(bus)
        }
        try connection.finishRead(revents: ready > 0 ? pollDescriptors[0].revents : 0)
        if let failure = connection.failure { throw failure }
    }

    /// One piece of the window's idle work, when its background budget lets one start (under
    /// a CPU quota: faulting a buffer ring in is background work like a tile's, and a whole
    /// ring at once spent several periods' quota, so a touch landing then found none left).
    /// Without a quota the pieces follow each other a turn apart, so that input waits for one
    /// piece, not a ring; a spare buffer takes no replacement until its ring is whole
    /// (`BufferPool.hasReadyBuffer`: drawn before, it faulted its pages in frames, decisions.md
    /// 0.15.9 and 0.15.27). Returns how long until the next piece may run (0: at once; under a
    /// quota the budget's wait, so that the next turn is the next piece's), nil when none is
    /// left; `spent` is the piece's own time.
    private func runIdleWork(spent: inout Double) -> Double? {
        guard let budget = window.content.backgroundBudget else { return window.idleWork() ? 0 : nil }
        let (work, wait) = budget.tryStartWork()
        guard let work else { return wait }
        let more = window.idleWork()
        let finished = budget.finish(work, alsoSpent: idleTurnsUncharged)
        idleTurnsUncharged = 0
        spent = finished.spent
        return more ? finished.wait : nil
    }

    /// Steps until `condition` holds (checked before each step), for at most `timeout`
    /// seconds: the way to wait for the compositor or the app without guessing how long it
    /// takes (a fixed wait is a flake on a loaded machine). Throws `waitTimedOut(what)` when
    /// the time is up.
    public func pump(
        until condition: () throws -> Bool, timeout: Double = 10, _ what: @autoclosure () -> String = "a condition"
    ) throws {
        let end = sw_monotonic_seconds() + timeout
        while try !condition() {
            let left = end - sw_monotonic_seconds()
            guard left > 0 else { throw WaylandError.waitTimedOut("\(what()) (\(timeout) s)") }
            try step(maxWait: min(left, 0.05))
        }
    }

    /// Whether the window shows its latest state and nothing is about to change it: a frame was
    /// committed and presented (no frame callback out), nothing needs drawing, no animation runs,
    /// no background work is out, no idle work (buffer rings to fault in) is left. Timers (an
    /// indicator's fade delay) may still be pending.
    public var isAtRest: Bool {
        let c = window.content
        return window.framesCommitted > 0 && !c.needsFrame && !window.isWaitingForFrame && !c.hasActiveAnimations
            && window.scheduledDraw == nil && !c.hasBackgroundWork && !connection.input.setupPending
            && !window.hasIdleWork
    }

    /// Reads everything the compositor has sent so far (a roundtrip), then steps until the window
    /// is at rest: what those events changed is drawn and presented, and whatever they set
    /// moving has stopped.
    public func settle(timeout: Double = 10) throws {
        try connection.roundtrip()
        try step(maxWait: 0)  // what the events changed is drawn (or asked for) in this turn
        try pump(until: { isAtRest }, timeout: timeout, "the window to come to rest")
    }

    /// Reads everything the compositor has sent so far and handles it, without waiting for
    /// frames: between the events of one gesture.
    public func catchUp() throws {
        try connection.roundtrip()
        try step(maxWait: 0)
    }

    /// Steps for `seconds`: for when time itself is the point (a key held through its repeat
    /// delay); to wait for something, `pump(until:)`.
    public func pump(for seconds: Double) throws {
        let end = sw_monotonic_seconds() + seconds
        while sw_monotonic_seconds() < end {
            try step(maxWait: max(0, end - sw_monotonic_seconds()))
        }
    }
}
