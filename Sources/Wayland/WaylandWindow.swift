import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import ScrollwayWaylandProtocols

/// How a window's frames reach its buffers (`WaylandWindow.presentMode`).
public enum PresentMode: String, Sendable, CaseIterable {
    /// Scrolled pixels are moved, not composited again: by moving the buffer's offset in its
    /// memory where that costs least, else in place.
    case fast
    /// Every changed pixel is composited again; the rest is copied from the newest buffer.
    case general
    /// A benchmark baseline, not a way to show anything: after the first frame, every frame
    /// commits the other buffer unchanged with full damage and asks for the next, drawing
    /// nothing (what the compositor costs a client that does no work: its floor).
    case flipOnly = "flip-only"
}

/// A toplevel window showing a `ScrollwayViews.Window`: xdg-shell surface, configure/ack, shm buffers,
/// and frame pacing with at most one frame callback in flight.
///
/// Rendering: on a change the view tree asks its host for a frame (`WindowHost`); with no
/// callback in flight the frame is drawn at once, otherwise on the callback. Animations are
/// evaluated at the predicted presentation time (callback time + one refresh). A buffer is
/// brought up to date by copying, from the newest buffer, what changed since it was last
/// drawn (its age), then compositing only this frame's damage; `damage_buffer` names exactly
/// that damage.
@MainActor
public final class WaylandWindow: WindowHost {
    public let content: Window
    /// Strong: the window's proxies must be destroyed before the display is disconnected.
    let connection: WaylandConnection
    private var surface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var pool: BufferPool?
    private var frameCallback: OpaquePointer?
    private var pendingSize: Size?
    private(set) var configured = false
    private var wantsFrame = true
    /// The recent frames' updates, to bring an older buffer up to date.
    private var history = FrameHistory()
    /// How frames reach the buffers: `.fast` moves scrolled pixels (by buffer offset where that
    /// is cheapest); `.general` composites every changed pixel again (no moves), copying the
    /// rest from the newest buffer. Both give the same pixels.
    public var presentMode: PresentMode = .fast {
        didSet { content.detectsScrollMoves = presentMode == .fast }
    }
    /// The last frame's plan (tests and benchmarks see which path ran).
    public private(set) var lastPlan: PresentPlan?
    /// Where the last committed frame's main-thread CPU time went (statistics; measured only while
    /// `onCommit` is set, zero otherwise).
    public private(set) var lastFrameTimes = FrameStepTimes()
    /// Called after each commit with the plan that brought the buffer up to date (statistics).
    public var onCommit: ((PresentPlan, FrameStepTimes) -> Void)?
    /// The size the opaque region was last set for (.zero: none set).
    private var opaqueRegionSize: Size?
    /// The compositor asked to close the window.
    public internal(set) var closeRequested = false
    /// Frames committed (for tests and benchmarks).
    public private(set) var framesCommitted = 0
    private var feedbacks: [OpaquePointer] = []
    /// The last presentation (on the platform's monotonic clock) and the refresh it reported.
    public private(set) var lastPresentation: (time: Double, refresh: Double)?
    /// Whether the toplevel is fullscreen (kiosk) per the last configure.
    public private(set) var isFullscreen = false
    public let defaultSize: Size
    /// Draw a title bar when the compositor does not decorate (off: the app draws its own or
    /// wants none). Never in fullscreen.
    public var clientSideDecorations = true { didSet { updateDecorations() } }
    private var decoration: OpaquePointer?
    private var idleInhibitor: OpaquePointer?
    /// Whether the last frame found every buffer held (the warning is said once per stretch).
    private var buffersAllHeld = false
    /// Keep the screen from blanking or locking while this window is visible (a kiosk, a video
    /// wall): a `zwp_idle_inhibitor_v1` on the surface. The compositor honours it only while
    /// the surface is visible, as the protocol says. Without the global (`canInhibitIdle`),
    /// setting it does nothing and `isInhibitingIdle` stays false.
    public var inhibitsIdle = false { didSet { updateIdleInhibitor() } }
    /// Whether an idle inhibitor exists for the surface now.
    public var isInhibitingIdle: Bool { idleInhibitor != nil }
    /// Whether the compositor offers idle inhibition (zwp_idle_inhibit_manager_v1).
    public var canInhibitIdle: Bool { connection.idleInhibitManager != nil }
    /// No pointer cursor over this window (kiosks, touch panels): the pointer's enters set an
    /// empty cursor at once, so not one frame shows the theme's arrow.
    public var hidesCursor = false { didSet { connection.input.cursorVisibilityChanged() } }
    private var fractionalScaleObject: OpaquePointer?
    private var viewport: OpaquePointer?
    /// The compositor's preferred fractional scale (wp_fractional_scale_v1), if it sent one.
    public private(set) var fractionalScale: Double?
    private var serverSideDecorated = false
    private let title: String
    public private(set) var titleBar: TitleBar?

    /// Maps a toplevel showing `content`; its first frame is drawn before this returns, with
    /// `presentMode` and `onCommit` already in place.
    public init(
        connection: WaylandConnection, content: Window, title: String, appID: String = "scrollway",
        fullscreen: Bool = false, presentMode: PresentMode = .fast,
        onCommit: ((PresentPlan, FrameStepTimes) -> Void)? = nil
    ) throws {
        self.connection = connection
        self.content = content
        self.presentMode = presentMode
        content.detectsScrollMoves = presentMode == .fast
        self.onCommit = onCommit
        defaultSize = content.bounds.size
        self.title = title
        surface = wl_compositor_create_surface(connection.compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(connection.wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        let me = Unmanaged.passUnretained(self).toOpaque()
        xdg_surface_add_listener(xdgSurface, Listeners.xdgSurface, me)
        xdg_toplevel_add_listener(toplevel, Listeners.toplevel, me)
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        xdg_toplevel_set_min_size(toplevel, 120, 120)
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) }
        if let manager = connection.fractionalScaleManager, connection.viewporter != nil {
            fractionalScaleObject = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScaleObject, Listeners.fractionalScale, me)
        }
        if let manager = connection.decorationManager {
            decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)
            zxdg_toplevel_decoration_v1_add_listener(decoration, Listeners.decoration, me)
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
        }
        wl_surface_commit(surface)
        connection.window = self
        content.host = self
        try connection.roundtrip()
    }

    isolated deinit {
        for f in feedbacks { wp_presentation_feedback_destroy(f) }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        if let idleInhibitor { zwp_idle_inhibitor_v1_destroy(idleInhibitor) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let fractionalScaleObject { wp_fractional_scale_v1_destroy(fractionalScaleObject) }
        pool = nil
        if let toplevel { xdg_toplevel_destroy(toplevel) }
        if let xdgSurface { xdg_surface_destroy(xdgSurface) }
        if let surface { wl_surface_destroy(surface) }
    }

    // MARK: Configure

    func toplevelConfigure(width: Int, height: Int, states: UnsafeMutablePointer<wl_array>?) {
        // 0×0: we choose. Otherwise the compositor's size, exactly (kiosk-shell insists).
        pendingSize = width > 0 && height > 0 ? Size(width: Double(width), height: Double(height)) : nil
        var fullscreen = false
        if let states, states.pointee.size > 0 {
            let count = states.pointee.size / MemoryLayout<UInt32>.size
            let values = states.pointee.data.assumingMemoryBound(to: UInt32.self)
            for i in 0..<count where values[i] == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue { fullscreen = true }
        }
        isFullscreen = fullscreen
    }

    func decorationConfigure(mode: UInt32) {
        serverSideDecorated = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
    }

    /// Whether this window draws its own title bar now.
    public var drawsTitleBar: Bool { clientSideDecorations && !serverSideDecorated && !isFullscreen }

    /// Adds or removes the title bar to match the window's state; content fills the rest.
    func updateDecorations() {
        if drawsTitleBar {
            if titleBar == nil {
                let bar = TitleBar(title: title)
                bar.onClose = { [weak self] in self?.closeRequested = true }
                bar.onMoveRequest = { [weak self] in self?.startMove() }
                titleBar = bar
                content.addSubview(bar)
            }
            titleBar!.frame = Rect(x: 0, y: 0, width: content.bounds.width, height: TitleBar.height)
            content.bringSubviewToFront(titleBar!)
            content.fillInsets = EdgeInsets(top: TitleBar.height, left: 0, bottom: 0, right: 0)
        } else if let bar = titleBar {
            bar.removeFromSuperview()
            titleBar = nil
            content.fillInsets = .zero
        }
    }

    private func startMove() {
        guard let seat = connection.seat else { return }
        xdg_toplevel_move(toplevel, seat, connection.input.lastButtonSerial)
    }

    /// A press within 6 px of a decorated window's edge starts an interactive resize.
    func startResizeIfOnEdge(at p: Point, serial: UInt32) -> Bool {
        guard drawsTitleBar, let seat = connection.seat else { return false }
        let edge = ResizeEdge.at(p, in: content.bounds.size)
        guard edge != 0 else { return false }
        xdg_toplevel_resize(toplevel, seat, serial, edge)
        return true
    }

    func xdgSurfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        let size = pendingSize ?? (configured ? content.bounds.size : defaultSize)
        content.resize(to: size)
        updateDecorations()
        configured = true
        wantsFrame = true
        renderIfPossible()
    }

    /// wp_fractional_scale_v1.preferred_scale, in 120ths. The buffer is then drawn at that scale
    /// and a wp_viewport maps it back onto the logical size (buffer_scale stays 1).
    func preferredFractionalScale(_ scale120: UInt32) {
        guard scale120 > 0, connection.viewporter != nil else { return }
        let s = Double(scale120) / 120
        guard s != fractionalScale else { return }
        fractionalScale = s
        content.scale = s
        setNeedsFrame()
    }

    /// The scale buffers are drawn at: the fractional one when the compositor prefers one,
    /// else the largest output's integer scale.
    var renderScale: Double { fractionalScale ?? Double(connection.bufferScale) }

    func outputsChanged() {
        content.scale = renderScale
        setNeedsFrame()
    }

    // MARK: Frames

    func setNeedsFrame() {
        wantsFrame = true
        // With no callback in flight the next frame can be drawn now (the loop calls us).
    }

    /// The content asked for a frame: noted, and drawn by the loop's next turn or the next frame
    /// callback (never from here: the request can come from inside a frame being prepared).
    public func windowNeedsFrame(_ window: Window) { setNeedsFrame() }

    /// Draws a frame now if one is wanted and allowed (configured, no callback in flight).
    func renderIfPossible() {
        guard configured, wantsFrame, frameCallback == nil else { return }
        render(at: predictedPresentation())
    }

    func frameDone(callback: OpaquePointer?, time: UInt32) {
        precondition(callback == frameCallback, "a frame callback we did not request")
        wl_callback_destroy(callback)
        frameCallback = nil
        if content.hasActiveAnimations { wantsFrame = true }
        guard wantsFrame else { return }
        render(at: predictedPresentation())
    }

    /// When the frame drawn now will most likely reach the screen: the next multiple of the
    /// refresh after the last presentation (wp_presentation feedback), else now + one refresh.
    func predictedPresentation() -> Double {
        let now = sw_monotonic_seconds()
        guard let last = lastPresentation, last.refresh > 0, now - last.time < 1 else {
            return now + connection.refreshInterval
        }
        let periods = ((now - last.time) / last.refresh).rounded(.down) + 1
        return last.time + periods * last.refresh
    }

    /// How old the last presentation may be before a commit asks for another. The prediction
    /// needs the refresh grid's phase and period, which an output keeps; each feedback costs a
    /// wake-up of its own (weston sends it apart from the frame callback), about a sixth of a
    /// zero-work client's time per frame when asked for every frame.
    static let presentationFeedbackInterval = 0.25

    /// Whether this commit asks for presentation feedback: none is out, and there has been no
    /// presentation yet or the last is older than `presentationFeedbackInterval` (well inside
    /// the second within which `predictedPresentation` trusts it).
    private func wantsPresentationFeedback() -> Bool {
        guard feedbacks.isEmpty else { return false }
        guard let last = lastPresentation else { return true }
        return sw_monotonic_seconds() - last.time >= Self.presentationFeedbackInterval
    }

    /// wp_presentation_feedback: presented (on the announced clock) or discarded (nil).
    func presented(feedback: OpaquePointer?, at seconds: Double?, refreshNanoseconds: UInt32) {
        if let feedback {
            wp_presentation_feedback_destroy(feedback)
            feedbacks.removeAll { $0 == feedback }
        }
        guard let seconds, let clock = connection.presentationClock else { return }
        // Move the timestamp onto our monotonic clock through "now" on both clocks.
        let theirNow = sw_clock_seconds(clock)
        guard theirNow >= 0 else { return }
        let ours = sw_monotonic_seconds() - (theirNow - seconds)
        let refresh = refreshNanoseconds > 0 ? Double(refreshNanoseconds) / 1e9 : connection.refreshInterval
        lastPresentation = (ours, refresh)
    }

    private func render(at time: Double) {
        precondition(frameCallback == nil, "never two frame callbacks in flight")
        let scale = renderScale
        let w = Int((content.bounds.width * scale).rounded(.up))
        let h = Int((content.bounds.height * scale).rounded(.up))
        if pool == nil || pool!.width != w || pool!.height != h || pool!.scale != scale {
            pool = nil
            do {
                pool = try BufferPool(
                    shm: connection.shm!, width: w, height: h, scale: scale,
                    offsetScrolling: presentMode == .fast)
            } catch {
                connection.fail(error)
                return
            }
            history.reset()
            content.scale = scale
            opaqueRegionSize = nil
        }
        let acquired: ShmBuffer?
        do {
            acquired = try pool?.acquire()
        } catch {
            connection.fail(error)
            return
        }
        guard let pool, let buffer = acquired else {
            // All busy: a release will come, and the next frame draws. Said once per stretch of
            // held buffers, since a compositor that keeps every buffer costs frames.
            if !buffersAllHeld {
                buffersAllHeld = true
                Diagnostics.wayland.warning(
                    "the compositor holds all \(BufferPool.maximumCount) buffers; frames wait for a release")
            }
            return
        }
        buffersAllHeld = false
        precondition(!buffer.isBusy, "never draw into a buffer the compositor may be reading")
        wantsFrame = false
        if presentMode == .flipOnly && buffer.frame != nil {
            // The floor: draw nothing, show the other buffer, want the next frame at once.
            lastPlan = .own(move: nil, byOffset: false, damage: PixelRegion())
            commit(buffer, damage: PixelRegion(PixelRect(x: 0, y: 0, width: w, height: h)), scale: scale)
            wantsFrame = true
            return
        }
        let update: FrameUpdate
        // The steps are timed only for a listener (`--frame-stats`): each reading is a system call.
        let timed = onCommit != nil
        let started = timed ? FrameStepTimes.threadSeconds() : 0
        do {
            update = try content.prepareFrameUpdate(time: time)
        } catch {
            connection.fail(error)
            return
        }
        // Nothing changed: commit nothing (an empty commit may never get a frame callback);
        // running animations are ticked by the event loop's timeout instead.
        if update.isEmpty && framesCommitted > 0 { return }
        let prepared = timed ? FrameStepTimes.threadSeconds() : 0
        let frame = history.record(update)
        let newest = pool.newest(other: buffer)
        let window = PixelRect(x: 0, y: 0, width: w, height: h)
        let plan = history.plan(
            held: buffer.frame, newest: newest?.frame, window: window,
            movesByOffset: presentMode == .fast && buffer.movesByOffset)
        let recentred: Bool
        do {
            (lastPlan, recentred) = try present(plan, into: buffer, from: newest, damage: update.damage)
        } catch {
            connection.fail(error)
            return
        }
        buffer.frame = frame
        let presented = timed ? FrameStepTimes.threadSeconds() : 0
        lastFrameTimes = FrameStepTimes(
            prepare: prepared - started, present: presented - prepared, recentred: recentred)
        commit(buffer, damage: update.changed, scale: scale)
    }

    /// Attaches `buffer`, names `damage` (device pixels), asks for the next frame callback (and
    /// presentation feedback when the last is old), and commits.
    private func commit(_ buffer: ShmBuffer, damage: PixelRegion, scale: Double) {
        if fractionalScale != nil, let viewporter = connection.viewporter {
            if viewport == nil { viewport = wp_viewporter_get_viewport(viewporter, surface) }
            wl_surface_set_buffer_scale(surface, 1)
            wp_viewport_set_destination(viewport, Int32(content.bounds.width), Int32(content.bounds.height))
        } else {
            wl_surface_set_buffer_scale(surface, Int32(scale))
        }
        updateOpaqueRegion()
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        for r in damage.rects {
            wl_surface_damage_buffer(surface, Int32(r.x0), Int32(r.y0), Int32(r.width), Int32(r.height))
        }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, Listeners.frame, Unmanaged.passUnretained(self).toOpaque())
        if let presentation = connection.presentation, wantsPresentationFeedback(),
            let feedback = wp_presentation_feedback(presentation, surface)
        {
            wp_presentation_feedback_add_listener(
                feedback, Listeners.presentationFeedback, Unmanaged.passUnretained(self).toOpaque())
            feedbacks.append(feedback)
        }
        wl_surface_commit(surface)
        buffer.isBusy = true
        framesCommitted += 1
        if let lastPlan { onCommit?(lastPlan, lastFrameTimes) }
    }

    /// What `present` did: the plan carried out, and whether the frame was recentred in its ring.
    private typealias Presented = (plan: PresentPlan, recentred: Bool)

    /// Brings `buffer` to the newest frame as `plan` says; a move by offset moves the buffer in
    /// its ring first. Returns the plan carried out and whether the frame was recentred in its
    /// ring.
    ///
    /// A move that would take the frame past an end of its ring recentres it. All of the frame
    /// but this frame's `damage` is then either composited again, when that moves fewer bytes
    /// (`Window.repaintWork`: a list in a buffer that streams its fills), or copied: from the
    /// newest buffer when that holds the frame before (`FrameHistory.planFromNewest`;
    /// `Canvas.copyPixels` streams the rows), else by the ring from the buffer's own kept rows
    /// (`ShmRing.move`). Why from the newest: the buffer is two frames old, so its own rows miss
    /// the strip the frame before exposed, a second copy from the newest buffer anyway; the
    /// newest holds all of them, drawn a frame ago and so partly still in the caches
    /// (measured: docs/decisions.md).
    private func present(
        _ plan: PresentPlan, into buffer: ShmBuffer, from newest: ShmBuffer?, damage: PixelRegion
    ) throws -> Presented {
        if let move = plan.offsetMove, !buffer.fits(move) {
            let window = PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)
            let copied = PixelRegion(window).subtracting(damage)
            if let work = content.repaintWork(insteadOf: copied, window: window, canvas: buffer.canvas) {
                try buffer.recentre(for: move)
                content.paint(work, into: buffer.canvas)
                return (.repaint(window), true)
            }
            if let newest, let copy = history.planFromNewest(newest: newest.frame, window: window) {
                try buffer.recentre(for: move)
                content.present(copy, into: buffer.canvas, newest: newest.canvas)
                return (copy, true)
            }
        }
        let recentred = try plan.offsetMove.map { try buffer.move(by: $0) } ?? false
        content.present(plan, into: buffer.canvas, newest: newest?.canvas)
        return (plan, recentred)
    }

    /// Tells the compositor the whole surface is opaque when the window's clear colour is (every
    /// pixel then ends opaque): it can skip blending it and what lies under it.
    private func updateOpaqueRegion() {
        let size = content.bounds.size
        let opaque = content.clearColor.alpha >= 1
        guard opaqueRegionSize != (opaque ? size : .zero) else { return }
        opaqueRegionSize = opaque ? size : .zero
        guard opaque, let region = wl_compositor_create_region(connection.compositor) else {
            wl_surface_set_opaque_region(surface, nil)
            return
        }
        wl_region_add(region, 0, 0, Int32(size.width.rounded(.up)), Int32(size.height.rounded(.up)))
        wl_surface_set_opaque_region(surface, region)
        wl_region_destroy(region)
    }

    /// Work worth doing while nothing animates, one piece per call (the event loop calls it
    /// when idle): faults in a buffer ring, so scrolling into it later costs no page faults.
    /// Returns whether more is left.
    func idleWork() -> Bool { pool?.prefaultNext() ?? false }

    /// Whether idle work is left (a buffer ring not faulted in yet).
    var hasIdleWork: Bool { pool?.needsPrefault ?? false }

    private func updateIdleInhibitor() {
        if inhibitsIdle, idleInhibitor == nil, let manager = connection.idleInhibitManager {
            idleInhibitor = zwp_idle_inhibit_manager_v1_create_inhibitor(manager, surface)
        } else if !inhibitsIdle, let inhibitor = idleInhibitor {
            zwp_idle_inhibitor_v1_destroy(inhibitor)
            idleInhibitor = nil
        }
    }

    /// Asks the compositor to maximize (or restore) the window.
    public func setMaximized(_ maximized: Bool) {
        if maximized { xdg_toplevel_set_maximized(toplevel) } else { xdg_toplevel_unset_maximized(toplevel) }
    }

    /// Asks for fullscreen (kiosks) or back to a normal window.
    public func setFullscreen(_ fullscreen: Bool) {
        if fullscreen { xdg_toplevel_set_fullscreen(toplevel, nil) } else { xdg_toplevel_unset_fullscreen(toplevel) }
    }

    /// The size of the buffers being drawn, in device pixels (for tests).
    public var bufferSize: (width: Int, height: Int)? { pool.map { ($0.width, $0.height) } }

    /// Frames recentred in their buffer rings since the buffers were last made (for tests).
    var bufferRecentres: Int { pool?.recentres ?? 0 }

    /// Whether a frame callback is in flight (for tests of the pacing rule).
    public var isWaitingForFrame: Bool { frameCallback != nil }
}

/// A committed frame's main-thread CPU time by step, in seconds: `prepare` (animations, layout,
/// rasterizing, working out the update) and `present` (planning, moving, copying and
/// compositing into the buffer). The rest of a frame's time is the event loop's.
public struct FrameStepTimes: Sendable, Equatable {
    public var prepare = 0.0
    public var present = 0.0
    /// The frame's buffer reached an end of its ring and its rows were copied to the other end
    /// (`present` then holds about one frame copy more): what a fast fling's slowest frames are.
    public var recentred = false

    public init(prepare: Double = 0, present: Double = 0, recentred: Bool = false) {
        self.prepare = prepare
        self.present = present
        self.recentred = recentred
    }

    static func threadSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

    /// `clock`'s reading in seconds (CPU clocks for statistics, the monotonic clock for times).
    public static func seconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
