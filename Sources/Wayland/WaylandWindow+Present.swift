import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import ScrollwayWaylandProtocols

// The present path: a frame drawn into a free buffer (brought up to date from the newest by its
// age, moved by offset where that costs least), committed with exact damage; and the idle work
// that faults buffer rings in.

extension WaylandWindow {
    /// Draws and commits a frame for `time`; a failure (a buffer that cannot be made or moved, a
    /// view that cannot be drawn) ends the connection with that error, said once. `replacing`: the
    /// frame replaces one the compositor has not repainted (`replaceFrame`), which the scheduler
    /// aimed; its cost and aim stay that frame's.
    ///
    /// Never for a time before the newest input it shows: an input's time is the compositor's
    /// stamp on the window's clock (`WaylandInput.time`), which whole milliseconds and delivery
    /// put up to `InputClock.maxLead` ahead of the moment it is read, and a frame predicted
    /// just after that moment was dated before it (its animations behind it, and a trace went
    /// back in time). A frame so moved is off the presentation grid: its presentation teaches
    /// the scheduler nothing (it is not reported as aimed).
    func render(at predicted: Double, replacing: Bool = false) {
        precondition(frameCallback == nil, "one frame callback in flight for the newest commit")
        let time = max(predicted, connection.input?.lastEventTime ?? predicted)
        if debugFrameDelay > 0 { usleep(UInt32(clamping: Int64(clamping: debugFrameDelay * 1e6, rounding: .up))) }
        let start = sw_monotonic_seconds()
        do {
            try drawFrame(at: time, aimed: time == predicted && scheduler.aims(now: start))
        } catch {
            connection.fail(error)
        }
        // Committed (a frame with nothing new commits nothing): what it cost, for the next aim.
        if frameCallback != nil {
            committedFrameTime = time
            scheduler.committed(frameFor: time)
            if !replacing { scheduler.drew(from: start, to: sw_monotonic_seconds()) }
        }
    }

    /// `aimed`: drawn for a repaint the compositor was expected to make (`FrameScheduler.aims`),
    /// so that its presentation, if reported, tells how well `time` was predicted.
    private func drawFrame(at time: Double, aimed: Bool) throws {
        let scale = renderScale
        let w = Int(clamping: content.bounds.width * scale, rounding: .up)
        let h = Int(clamping: content.bounds.height * scale, rounding: .up)
        if pool == nil || pool!.width != w || pool!.height != h || pool!.scale != scale {
            pool = nil
            pool = try BufferPool(
                shm: connection.shm!, width: w, height: h, scale: scale, offsetScrolling: presentMode == .fast)
            history.reset()
            content.scale = scale
            opaqueRegionSize = nil
        }
        guard let pool, let buffer = try pool.acquire(now: content.now) else {
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
            // The floor: draw nothing, show the other buffer, want the next frame at once. Its
            // steps took no time (the last drawn frame's times must not be reported again).
            lastPlan = .own(move: nil, byOffset: false, damage: PixelRegion())
            lastFrameTimes = FrameStepTimes()
            commit(
                buffer, damage: PixelRegion(PixelRect(x: 0, y: 0, width: w, height: h)), scale: scale,
                frameTime: aimed ? time : nil)
            wantsFrame = true
            return
        }
        // The steps are timed only for a listener (`--frame-stats`): each reading is a system call.
        let timed = onCommit != nil
        let started = timed ? FrameStepTimes.threadSeconds() : 0
        let update = try content.prepareFrameUpdate(time: time)
        // The window's animations stand at `time` now, whether the frame commits or not.
        scheduler.prepared(frameFor: time)
        // Nothing changed: commit nothing (an empty commit may never get a frame callback);
        // running animations are ticked by the event loop's timeout instead.
        if update.isEmpty && framesCommitted > 0 { return }
        let prepared = timed ? FrameStepTimes.threadSeconds() : 0
        let phaseClock = timed ? content.phaseClock : nil
        let presenting = phaseClock?() ?? 0
        let frame = history.record(update)
        let newest = pool.newest(other: buffer)
        let window = PixelRect(x: 0, y: 0, width: w, height: h)
        let plan = history.plan(
            held: buffer.frame, newest: newest?.frame, window: window,
            movesByOffset: presentMode == .fast && buffer.movesByOffset)
        let recentred: Bool
        (lastPlan, recentred) = try present(plan, into: buffer, from: newest, damage: update.damage)
        buffer.frame = frame
        let presented = timed ? FrameStepTimes.threadSeconds() : 0
        var phases = content.phases
        if let phaseClock {
            // What the composites did not take of the present step: moves and copies.
            phases.copy = max(0, phaseClock() - presenting - phases.plan - phases.paint)
        }
        lastFrameTimes = FrameStepTimes(
            prepare: prepared - started, present: presented - prepared, recentred: recentred, phases: phases)
        commit(buffer, damage: update.changed, scale: scale, frameTime: aimed ? time : nil)
    }

    /// Starts or stops timing the content's frame phases (`Window.phaseClock`), on the
    /// monotonic clock: a read costs no system call, where a thread CPU clock's does. A clock
    /// the app set itself is left in place, and not taken away.
    func timesPhases(_ on: Bool) {
        if on, content.phaseClock == nil {
            content.phaseClock = { sw_monotonic_seconds() }
            setsPhaseClock = true
        } else if !on, setsPhaseClock {
            content.phaseClock = nil
            setsPhaseClock = false
        }
    }

    /// Attaches `buffer`, names `damage` (device pixels), asks for the next frame callback (and
    /// presentation feedback when the last is old: `frameTime` is the time a frame aimed at a
    /// repaint was drawn for), and commits.
    private func commit(_ buffer: ShmBuffer, damage: PixelRegion, scale: Double, frameTime: Double?) {
        let scaling: SurfaceScaling
        if fractionalScale != nil, let viewporter = connection.viewporter {
            if viewport == nil { viewport = wp_viewporter_get_viewport(viewporter, surface) }
            scaling = SurfaceScaling(
                bufferScale: 1,
                destination: SurfaceScaling.Size(
                    width: Int32(clamping: content.bounds.width), height: Int32(clamping: content.bounds.height)))
        } else {
            scaling = SurfaceScaling(bufferScale: Int32(clamping: scale), destination: nil)
        }
        if scaling != surfaceScaling {
            if scaling.bufferScale != surfaceScaling?.bufferScale {
                wl_surface_set_buffer_scale(surface, scaling.bufferScale)
            }
            if let d = scaling.destination, d != surfaceScaling?.destination {
                wp_viewport_set_destination(viewport, d.width, d.height)
            }
            surfaceScaling = scaling
        }
        updateOpaqueRegion()
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        for r in damage.rects {
            wl_surface_damage_buffer(surface, Int32(r.x0), Int32(r.y0), Int32(r.width), Int32(r.height))
        }
        frameCallback = wl_surface_frame(surface)
        wl_callback_add_listener(frameCallback, Listeners.frame, Unmanaged.passUnretained(self).toOpaque())
        askForPresentationFeedback(frameTime: frameTime)
        wl_surface_commit(surface)
        inputSinceCommit = false
        buffer.isBusy = true
        if framesCommitted == 0 { firstFrameSize = content.bounds.size }
        framesCommitted += 1
        lastFrameTimes.idle = idleSinceCommit
        idleSinceCommit = 0
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
        wl_region_add(
            region, 0, 0, Int32(clamping: size.width, rounding: .up), Int32(clamping: size.height, rounding: .up))
        wl_surface_set_opaque_region(surface, region)
        wl_region_destroy(region)
    }

    /// Work worth doing while nothing animates, one piece per call (the event loop calls it
    /// when idle, paced under a CPU quota): faults in a piece of a buffer ring (at most
    /// `ShmBuffer.prefaultPieceBytes`), so scrolling into it later costs no page faults, or
    /// makes the spare buffer a replacement wanted (`BufferPool.wantsSpare`), or brings a free
    /// buffer up to the newest frame (`catchUp`). Returns whether more is left. The loop counts
    /// the turns that call it apart from the frames (`FrameStepTimes.idle`): it is done at rest,
    /// not in a frame.
    func idleWork() -> Bool {
        if spareReturnDue, pool?.returnSpare() == true {
            sparesReturned += 1
            Diagnostics.wayland.debug("the third buffer, not needed for \(spareBufferKeep) s, is given back")
        } else if pool?.needsPrefault ?? false {
            _ = pool?.prefaultNext(piece: ShmBuffer.prefaultPieceBytes, now: content.now)
        } else {
            catchUp()
        }
        return hasIdleWork
    }

    /// Whether idle work is left (the third buffer to give back, a buffer ring not faulted in
    /// yet, a spare to make, a free buffer behind the newest frame).
    var hasIdleWork: Bool { spareReturnDue || (pool?.needsPrefault ?? false) || catchUpTarget != nil }

    /// When the third buffer is to be given back (`spareBufferKeep` after a frame last needed
    /// it, while two buffers are free): the event loop wakes for it.
    var spareReturnTime: Double? { pool?.spareReturnTime(keep: spareBufferKeep) }

    private var spareReturnDue: Bool { spareReturnTime.map { content.now >= $0 } ?? false }

    /// The buffer the next frame will be drawn into (`BufferPool.nextFree`) when it holds an
    /// older frame than the newest (or none) and is worth bringing up to it
    /// (`FrameHistory.catchUpCopy`), the buffer holding the newest, and what to copy. Not for
    /// the benchmark floor, which draws nothing, nor while a frame is wanted (the views may no
    /// longer be what the newest frame shows). A buffer found not worth it is not weighed again
    /// until a frame is drawn.
    private var catchUpTarget: (behind: ShmBuffer, newest: ShmBuffer, copy: PixelRegion)? {
        guard presentMode != .flipOnly, framesCommitted > 0, !content.needsFrame, let pool else { return nil }
        let n = history.frameNumber
        var newest: ShmBuffer?
        for b in pool.buffers where b.frame == n && newest == nil { newest = b }
        guard let newest, let behind = pool.nextFree, behind.frame != n,
            catchUpDeclined.map({ $0 != (n, behind.frame) }) ?? true
        else { return nil }
        let window = PixelRect(x: 0, y: 0, width: behind.width, height: behind.height)
        guard
            let copy = history.catchUpCopy(
                held: behind.frame, window: window, movesByOffset: presentMode == .fast && behind.movesByOffset)
        else {
            catchUpDeclined = (n, behind.frame)
            return nil
        }
        return (behind, newest, copy)
    }

    /// Copies into a free buffer what changed since the frame it holds, from the buffer holding
    /// the newest, when that costs less than the buffer's own way up (see `catchUpTarget`): the
    /// next frame drawn into it is then that frame's own update (a move by offset and the
    /// exposed strip). The first frame of a fling after a rest otherwise copied the other
    /// buffer whole when the last frames before the rest had changed the whole window (tiles
    /// fading in), and the first after the start repainted the never drawn one.
    private func catchUp() {
        guard let (buffer, newest, copy) = catchUpTarget else { return }
        precondition(!buffer.isBusy, "never draw into a buffer the compositor may be reading")
        content.present(
            .copy(unshifted: copy.simplified(limit: 64), shifted: nil, damage: PixelRegion()), into: buffer.canvas,
            newest: newest.canvas)
        buffer.frame = newest.frame
        catchUps += 1
    }

    /// Buffers made for the window's present size: two, and a third once the compositor held
    /// both when a frame wanted one (a frame drawn then, or, made while idle, one that would
    /// have replaced a waiting frame), until it goes unneeded for `spareBufferKeep` seconds.
    public var bufferCount: Int { pool?.buffers.count ?? 0 }
}

/// A committed frame's main-thread CPU time by step, in seconds: `prepare` (animations, layout,
/// rasterizing, working out the update) and `present` (planning, moving, copying and
/// compositing into the buffer). The rest of a frame's time is the event loop's, and `idle`,
/// the idle work done since the commit before.
public struct FrameStepTimes: Sendable, Equatable {
    public var prepare = 0.0
    public var present = 0.0
    /// The frame's buffer reached an end of its ring and its rows were copied to the other end
    /// (`present` then holds about one frame copy more): what a fast fling's slowest frames are.
    public var recentred = false
    /// Main-thread time in idle work (buffer rings faulted in ahead, a spare buffer made, a
    /// cursor theme loaded, and the event loop's turns that did it) since the commit before:
    /// done once, while the window was at rest, and so not a cost of this frame.
    public var idle = 0.0
    /// The frame's steps by phase (`Window.phases`, on the monotonic clock): what in preparing
    /// and presenting took the time.
    public var phases = FramePhases()

    public init(
        prepare: Double = 0, present: Double = 0, recentred: Bool = false, idle: Double = 0,
        phases: FramePhases = FramePhases()
    ) {
        self.prepare = prepare
        self.present = present
        self.recentred = recentred
        self.idle = idle
        self.phases = phases
    }

    static func threadSeconds() -> Double { seconds(CLOCK_THREAD_CPUTIME_ID) }

    /// `clock`'s reading in seconds (CPU clocks for statistics, the monotonic clock for times).
    public static func seconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// What a commit sets of the surface's scaling: its buffer scale and, with fractional scaling,
/// its viewport's destination (logical size).
struct SurfaceScaling: Equatable {
    struct Size: Equatable {
        var width: Int32
        var height: Int32
    }
    var bufferScale: Int32
    var destination: Size?
}
