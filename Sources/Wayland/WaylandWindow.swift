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

/// What a window's newest commit is (`WaylandWindow.replaceFrame`).
enum NewestCommit: Equatable {
    /// A frame drawn for its repaint, or a replacement known to be shown at it.
    case aimed
    /// A replacement not yet known to be shown at the replaced frame's repaint, committed `lead`
    /// before the repaint expected then (nil: there was none to aim at).
    case replacement(lead: Double?)
    /// A replacement that came too late for that repaint, waiting to be drawn over.
    case lateReplacement
}

/// A toplevel window showing a `ScrollwayViews.Window`: xdg-shell surface, configure/ack, shm buffers,
/// and frame pacing with one frame per repaint, never a commit queued behind another.
///
/// One file per concern: this one the surface and its configure; `+Decorations` the title bar
/// and interactive move and resize; `+Globals` fractional scale and idle inhibition; `+Pacing`
/// frame callbacks and presentation feedback; `+Present` drawing into buffers and committing.
///
/// Rendering: on a change the view tree asks its host for a frame (`WindowHost`); with no
/// callback in flight it is drawn as late as still meets the compositor's next repaint, at once
/// when the compositor is idle (`FrameScheduler`); input that comes after that commit, before
/// its repaint, is drawn at once into a frame that replaces it, once a repaint (`replaceFrame`).
/// Animations are evaluated at the predicted presentation time. A buffer is brought up to date
/// by copying, from the newest buffer, what changed since it was last drawn (its age), then
/// compositing only this frame's damage; `damage_buffer` names exactly that damage.
@MainActor
public final class WaylandWindow: WindowHost {
    public let content: Window
    /// Strong: the window's proxies must be destroyed before the display is disconnected.
    let connection: WaylandConnection
    public let defaultSize: Size
    let title: String

    // MARK: The surface and its configure (this file)
    var surface: OpaquePointer?
    var xdgSurface: OpaquePointer?
    var toplevel: OpaquePointer?
    private var pendingSize: Size?
    /// The room the compositor says a window has (xdg_toplevel.configure_bounds, xdg_wm_base 4):
    /// a size of our choosing stays within it.
    private(set) var bounds: Size?
    private(set) var configured = false
    /// Whether the toplevel is fullscreen (kiosk) per the last configure.
    public private(set) var isFullscreen = false
    /// The compositor asked to close the window.
    public internal(set) var closeRequested = false

    // MARK: Decorations (WaylandWindow+Decorations)
    /// Draw a title bar when the compositor does not decorate (off: the app draws its own or
    /// wants none). Never in fullscreen.
    public var clientSideDecorations = true { didSet { updateDecorations() } }
    var decoration: OpaquePointer?
    var serverSideDecorated = false
    public internal(set) var titleBar: TitleBar?

    // MARK: Optional globals (WaylandWindow+Globals)
    /// Keep the screen from blanking or locking while this window is visible (a kiosk, a video
    /// wall): a `zwp_idle_inhibitor_v1` on the surface. The compositor honours it only while
    /// the surface is visible, as the protocol says. Without the global (`canInhibitIdle`),
    /// setting it does nothing and `isInhibitingIdle` stays false.
    public var inhibitsIdle = false { didSet { updateIdleInhibitor() } }
    var idleInhibitor: OpaquePointer?
    /// No pointer cursor over this window (kiosks, touch panels): the pointer's enters set an
    /// empty cursor at once, so not one frame shows the theme's arrow.
    public var hidesCursor = false { didSet { connection.input.cursorVisibilityChanged() } }
    /// The Xcursor theme the pointer's cursor comes from over this window: by default the one
    /// the environment names ($XCURSOR_THEME, $XCURSOR_SIZE, $XCURSOR_PATH, as libwayland-cursor
    /// reads them). A change shows at once if the pointer is over the window.
    public var cursorTheme = CursorTheme.standard {
        didSet { if cursorTheme != oldValue { connection.input.cursorVisibilityChanged() } }
    }
    var fractionalScaleObject: OpaquePointer?
    var viewport: OpaquePointer?
    /// The buffer scale and viewport destination last set on the surface: state that lasts
    /// from commit to commit, set again only when it changes (not one more request a frame).
    var surfaceScaling: SurfaceScaling?
    /// The compositor's preferred fractional scale (wp_fractional_scale_v1), if it sent one.
    public internal(set) var fractionalScale: Double?
    /// The outputs the surface is on (wl_surface.enter, less leave and outputs removed), in the
    /// order entered: their scales choose the integer buffer scale (`renderScale`).
    var enteredOutputs: [OpaquePointer] = []

    // MARK: Pacing (WaylandWindow+Pacing)
    /// The newest commit's frame callback, until its `done`.
    var frameCallback: OpaquePointer?
    /// The callback of a commit that a replacement replaced before the compositor repainted it
    /// (`replaceFrame`): its `done` still comes, at the repaint that shows the replacement or,
    /// had the replacement come too late for that one, at the one before.
    var replacedCallback: OpaquePointer?
    /// Input reached the window since the last commit (a replacement is drawn only for input).
    var inputSinceCommit = false
    /// The presentation time the last committed frame was drawn for: its replacement is drawn
    /// for the same, so animations show where they will be at that repaint.
    var committedFrameTime: Double?
    /// Frames committed to replace one the compositor had not repainted yet (for tests and
    /// benchmarks; also counted in `framesCommitted`), and those of them shown only at the
    /// repaint after.
    public internal(set) var framesReplaced = 0
    public internal(set) var replacementsShownLate = 0
    /// Late replacements drawn over by the frame aimed at the repaint after (`replaceFrame(at:)`).
    public internal(set) var lateReplacementsDrawnOver = 0
    /// What the newest commit is, as far as replacing goes.
    var newestCommit = NewestCommit.aimed
    var wantsFrame = true
    /// When the next frame is drawn, as late as still meets the compositor's next repaint.
    var scheduler: FrameScheduler
    /// A wanted frame waits until then (the loop's timer wakes for it); nil: none waits.
    public internal(set) var scheduledDraw: Double?
    /// A test hook: each frame is held back this long (s) before it is drawn and committed
    /// (`SCROLLWAY_DEBUG_FRAME_DELAY_MS`), so a bench can show that it measures a late frame.
    let debugFrameDelay: Double
    /// Presentation feedbacks asked for and not answered yet, each with its commit's frame
    /// time (nil: a commit that drew no frame, or one drawn for an idle compositor), and when
    /// the first was asked.
    var feedbacks: [(proxy: OpaquePointer, frameTime: Double?)] = []
    var feedbackAskedAt: Double?
    /// The last presentation (on the platform's monotonic clock), the refresh it reported and
    /// whether a vertical retrace timed it.
    public var lastPresentation: FrameScheduler.Presentation? { scheduler.lastPresentation }
    /// How much later than the time its animations were drawn for the last frame aimed at a
    /// repaint (`FrameScheduler.aims`) with presentation feedback was shown, s (negative:
    /// sooner): how well `predictedPresentation` foresaw it.
    public internal(set) var lastPresentationError: Double?
    /// Whether the compositor tells when frames are shown (wp_presentation); without it the
    /// window paces by frame callbacks and the output's refresh alone.
    public var offersPresentationFeedback: Bool { connection.presentation != nil }

    // MARK: The present path (WaylandWindow+Present)
    /// How frames reach the buffers: `.fast` moves scrolled pixels (by buffer offset where that
    /// is cheapest); `.general` composites every changed pixel again (no moves), copying the
    /// rest from the newest buffer. Both give the same pixels.
    public var presentMode: PresentMode = .fast {
        didSet { content.detectsScrollMoves = presentMode == .fast }
    }
    var pool: BufferPool?
    /// The recent frames' updates, to bring an older buffer up to date.
    var history = FrameHistory()
    /// The size the opaque region was last set for (.zero: none set).
    var opaqueRegionSize: Size?
    /// Whether the last frame found every buffer held (the warning is said once per stretch).
    var buffersAllHeld = false
    /// The last frame's plan (tests and benchmarks see which path ran).
    public internal(set) var lastPlan: PresentPlan?
    /// Where the last committed frame's main-thread CPU time went (statistics; measured only while
    /// `onCommit` is set, zero otherwise).
    public internal(set) var lastFrameTimes = FrameStepTimes()
    /// Main-thread time in the event loop's idle turns (`idleWork`, a cursor theme loaded, and
    /// those turns' own waking and timer) since the last commit.
    var idleSinceCommit = 0.0
    /// Called after each commit with the plan that brought the buffer up to date (statistics).
    /// While it is set, the window's frames time their phases too (`FrameStepTimes.phases`).
    public var onCommit: ((PresentPlan, FrameStepTimes) -> Void)? {
        didSet { timesPhases(onCommit != nil) }
    }
    /// Whether the content's phase clock is this window's (`timesPhases`), not the app's.
    var setsPhaseClock = false
    /// Frames committed (for tests and benchmarks).
    public internal(set) var framesCommitted = 0
    /// Free buffers brought up to the newest frame while idle (`catchUp`; tests).
    public internal(set) var catchUps = 0
    /// How long the third buffer (a ring of one and a half frames) is kept after a frame last
    /// needed it, s. It serves frames that replace one the compositor has not repainted yet,
    /// which come in bursts of input during an animation; a window at rest gives it back, and
    /// the first such frame after finds both buffers held, waits a repaint, and has it made
    /// again while idle.
    public var spareBufferKeep = 30.0
    /// Third buffers given back (`spareBufferKeep`; tests).
    public internal(set) var sparesReturned = 0
    /// The newest frame and a free buffer's frame last found not worth a catch-up.
    var catchUpDeclined: (newest: Int, held: Int?)?
    /// The logical size of the first frame committed: where the compositor placed the window
    /// from (a compositor that later constrains a too-large window has shown it too large first).
    public internal(set) var firstFrameSize: Size?

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
        scheduler = FrameScheduler(refresh: connection.refreshInterval)
        debugFrameDelay =
            getenv("SCROLLWAY_DEBUG_FRAME_DELAY_MS").flatMap { Double(String(cString: $0)) }
            .map { max(0, min($0, 1000)) / 1000 } ?? 0
        surface = wl_compositor_create_surface(connection.compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(connection.wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        let me = Unmanaged.passUnretained(self).toOpaque()
        wl_surface_add_listener(surface, Listeners.surface, me)
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
        timesPhases(onCommit != nil)  // an `onCommit` given to init runs no `didSet`
        connection.window = self
        content.host = self
        try connection.roundtrip()
    }

    isolated deinit {
        for f in feedbacks { wp_presentation_feedback_destroy(f.proxy) }
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let replacedCallback { wl_callback_destroy(replacedCallback) }
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

    /// configure_bounds: how much room there is (an output's work area), sent before the
    /// configure it belongs to; 0×0: unknown.
    func toplevelBounds(width: Int, height: Int) {
        bounds = width > 0 && height > 0 ? Size(width: Double(width), height: Double(height)) : nil
    }

    /// The size to use when the compositor leaves it to us (a 0×0 configure): the current one, or
    /// at first the content's own, within the bounds the compositor gave, else within the
    /// largest output (a 390×844 phone layout on a 720 px tall output would put the title bar
    /// off screen, or be drawn too tall before a tiling compositor sizes it).
    func chosenSize() -> Size {
        let wanted = configured ? content.bounds.size : defaultSize
        guard let room = bounds ?? connection.largestOutput else { return wanted }
        return Size(width: min(wanted.width, room.width), height: min(wanted.height, room.height))
    }

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

    /// Acks the configure and answers it with a commit, as xdg-shell asks: a compositor that
    /// waits for the commit of an acked configure before showing the window's new state (sway's
    /// transactions) would otherwise show it only when it gives up waiting. A new size is
    /// committed with the frame drawn for it; the same size (a state changed, or nothing) with
    /// the buffer already shown (with presentation feedback if none has come yet: a window that
    /// waited for its transaction had its first frame's feedback discarded).
    func xdgSurfaceConfigure(serial: UInt32) {
        xdg_surface_ack_configure(xdgSurface, serial)
        let size = pendingSize ?? chosenSize()
        let resized = size != content.bounds.size
        content.resize(to: size)
        updateDecorations()
        configured = true
        wantsFrame = true
        let committed = framesCommitted
        renderIfPossible(immediately: true)
        if framesCommitted == committed, committed > 0, !resized {
            askForPresentationFeedback(frameTime: nil, replacingOutstanding: true)
            wl_surface_commit(surface)
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

    /// Whether the newest commit's frame callback is in flight (for tests of the pacing rule).
    public var isWaitingForFrame: Bool { frameCallback != nil }
}
