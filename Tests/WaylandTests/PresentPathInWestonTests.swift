import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// The fast present path (scrolled pixels moved by buffer offset, only the exposed strips
/// painted) and the general one (every changed pixel composited again) in a real headless
/// weston at phone, desktop and 4K sizes: a fling through every buffer ends on exactly the
/// pixels of a full offscreen composite, with the sticky header and the indicator in view, and
/// so does a pull to refresh, with the refresh control in view.
@MainActor
@Suite(.serialized) struct PresentPathInWestonTests {
    @Test(arguments: [(390, 844), (1920, 1080), (3840, 2160)], [PresentMode.fast, .general])
    func aFlingEndsOnTheOffscreenPixels(size: (Int, Int), mode: PresentMode) throws {
        let (width, height) = size
        let (rig, window, app) = try launch(.list, width: width, height: height, mode: mode)
        var plans: [String: Int] = [:]
        var recentred = 0
        var recentredFromNewest = 0
        var recentredRepainted = 0
        app.window.onCommit = { plan, times in
            plans[plan.kind, default: 0] += 1
            if times.recentred { recentred += 1 }
            if times.recentred && plan.kind == "copy" { recentredFromNewest += 1 }
            if times.recentred && plan.kind == "repaint" { recentredRepainted += 1 }
        }
        let main = try #require(window.view(named: "main") as? ScrollView)
        let y0 = Double(height) * 0.8
        let y1 = Double(height) * 0.3
        try touchDrag(
            rig, app, x: Double(width) / 2, ys: (0...5).map { y0 + (y1 - y0) * Double($0) / 5 }, every: 12,
            liftAfter: 12)
        try pump(app, until: { main.isDecelerating }, timeout: 5)
        // During the fling: ten frames on, the app stops; weston shows its last commit, which
        // must be what a full composite of the window's state gives.
        let during = app.window.framesCommitted + 10
        try pump(app, until: { app.window.framesCommitted >= during }, timeout: 10)
        #expect(main.isDecelerating)
        // A commit made while dispatching waits for the next turn's flush: send it now.
        try app.connection.flush()
        try expectShows(window, rig, width, height, "\(mode) mid-fling at \(width)×\(height)")
        // Until the fling and the indicator's fade are over.
        try pump(
            app,
            until: { !app.window.content.hasActiveAnimations && app.window.content.nextTimerDeadline == nil },
            timeout: 30)
        #expect(main.contentOffset.y > Double(height))
        #expect(app.window.framesCommitted > 20)
        // A buffer two frames old moves by offset and copies the older strip from the newest.
        expectMoves(plans, mode, atLeast: 11)
        if mode == .fast {
            // More than a screen of travel takes each buffer past an end of its ring (half a
            // screen of travel) at least once, and the statistics name every such frame.
            #expect(recentred >= 1)
            #expect(recentred == app.window.bufferRecentres)
            // Weston holds the buffer it shows until the next commit, so the buffer drawn is two
            // frames old and the other holds the frame before: a recentring copies from it, or
            // composites the frame again where that moves fewer bytes (`Window.repaintWork`).
            #expect(recentredRepainted + recentredFromNewest == recentred, "plans: \(plans)")
            if width * height * 4 >= ShmBuffer.streamingFillFrameBytes {
                // The list's rows are opaque backgrounds, which a buffer this large fills with
                // streaming stores, and small text images: composited again. (A recentring whose
                // damage is the whole window, after a stall, has nothing to copy or weigh.)
                #expect(recentredRepainted >= 1, "plans: \(plans)")
            } else {
                // A composite's fills read each line in: never fewer bytes than the copy.
                #expect(recentredRepainted == 0, "plans: \(plans)")
            }
        } else {
            #expect(recentred == 0)
        }
        expectShowsAtRest(window, rig, app, width, height, "\(mode) at rest at \(width)×\(height); plans \(plans)")
        rig.stop()
    }

    /// The refresh control in view on both paths: a pull past its trigger starts a refresh, the
    /// content springs back to rest under the spinning control (scrolled by whole pixels: moves
    /// on the fast path, the spinner repainted), and after its second of loading five rows
    /// arrive at the top and the control leaves. Mid-spring and at rest weston shows exactly a
    /// full offscreen composite.
    @Test(arguments: [(390, 844), (1920, 1080), (3840, 2160)], [PresentMode.fast, .general])
    func aPullToRefreshShowsTheOffscreenPixels(size: (Int, Int), mode: PresentMode) throws {
        let (width, height) = size
        let (rig, window, app) = try launch(.refresh, width: width, height: height, mode: mode)
        var plans: [String: Int] = [:]
        app.window.onCommit = { plan, _ in plans[plan.kind, default: 0] += 1 }
        let main = try #require(window.view(named: "main") as? ScrollView)
        // At 3840×2160 the feed (30 rows of 64 px) is shorter than the window: bounce anyway,
        // as an app with a short feed and a refresh control does.
        main.alwaysBounceVertical = true
        let control = try #require(main.refreshControl)
        let y0 = Double(height) * 0.3
        try touchDrag(rig, app, x: Double(width) / 2, ys: (0...10).map { y0 + 40 * Double($0) }, every: 16)
        try pump(app, until: { control.isRefreshing }, timeout: 5)
        try WestonTarget(rig: rig, app: app).send(from: 1176) { b in
            b.add(.touchUp(id: 0), at: 0)
            b.add(.touchFrame, at: 0)
        }
        // Springing back from the pull to rest under the control, which spins.
        let during = app.window.framesCommitted + 5
        try pump(app, until: { app.window.framesCommitted >= during }, timeout: 10)
        #expect(control.isRefreshing)
        // Not at rest yet (at −adjustedContentInset.top, the control's height).
        #expect(main.contentOffset.y < -RefreshControl.height - 1)
        try app.connection.flush()
        try expectShows(window, rig, width, height, "\(mode) mid-spring at \(width)×\(height)")
        // The rows arrive, the control ends and the content springs to the top.
        try pump(
            app,
            until: { !app.window.content.hasActiveAnimations && app.window.content.nextTimerDeadline == nil },
            timeout: 30)
        #expect(!control.isRefreshing)
        #expect(main.contentSize.height == Double(Feed.initialRows + Feed.rowsPerRefresh) * Feed.rowHeight)
        expectMoves(plans, mode, atLeast: 1)
        expectShowsAtRest(window, rig, app, width, height, "\(mode) at rest at \(width)×\(height); plans \(plans)")
        rig.stop()
    }

    /// Input that comes after a frame's commit, before the compositor repainted it, is drawn at
    /// once into a frame that replaces it, once a repaint: weston shows the replacement, both
    /// commits' callbacks are answered, and the frames after it, whose buffers catch up by age
    /// past a frame that was never shown, end on exactly the window's pixels.
    ///
    /// The input is handed in where the seat's devices hand theirs (`WaylandInput.deliver`), and
    /// the loop's draw is called without reading the socket, so weston's `done` cannot come in
    /// between: which input lands after a commit is otherwise a race with the repaint.
    @Test(arguments: [PresentMode.fast, .general])
    func inputAfterACommitReplacesTheFrameNotYetRepainted(mode: PresentMode) throws {
        let (width, height) = (390, 844)
        let (rig, window, app) = try launch(.list, width: width, height: height, mode: mode)
        // Three times in full runs on a loaded machine weston closed the connection partway (the
        // test ended on "Broken pipe": a replacement refused, and `expectShows`, then parking the
        // pointer at each capture, filled the unread socket); an early end shows weston's log.
        var finished = false
        defer { if !finished { print("weston's log, the test having ended early:\n\(rig.process.log)") } }
        let main = try #require(window.view(named: "main") as? ScrollView)
        let input = try #require(app.connection.input)
        func touch(_ kind: InputEvent.Kind, at ms: UInt32) {
            let t = input.time(ms)
            input.deliver([InputEvent(time: t, kind), InputEvent(time: t, .touchFrame)])
        }
        // The first input after a commit finds both buffers held (weston keeps the one it
        // shows until it repaints): it waits for the next frame, and the window makes a third
        // buffer once idle, never inside a frame.
        input.newGesture()
        touch(.touchDown(id: 0, position: Point(x: 195, y: 500)), at: 500)
        try app.settle()
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 460)), at: 516)
        app.window.renderIfPossible(immediately: true)
        #expect(app.window.frameCallback != nil && app.window.bufferCount == 2)
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 420)), at: 532)
        app.window.renderIfPossible()
        #expect(app.window.framesReplaced == 0 && app.window.bufferCount == 2)
        touch(.touchUp(id: 0), at: 600)
        try app.settle(timeout: 30)
        #expect(app.window.bufferCount == 3)
        input.newGesture()
        touch(.touchDown(id: 0, position: Point(x: 195, y: 700)), at: 1000)
        try app.settle()
        // Until the repaint after weston's last has passed: weston idles until a commit, the
        // window expects no repaint, and a replacement always can make it. Had the last repaint
        // been recent, a slow spell (a debug build's draw on a loaded machine) could bring the
        // replacement within `replaceLead` of the next and none would be drawn: which input
        // comes too late is the scheduler's own tests' matter, a race here.
        let scheduler = { app.window.scheduler }
        try app.pump(
            until: { scheduler().lastRepaint.map { Deadline.now > $0 + scheduler().period } ?? true },
            "the repaint after weston's last to pass")
        // The drag's first frame, committed now; its repaint is not read yet.
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 640)), at: 1016)
        #expect(main.isDragging)
        app.window.renderIfPossible(immediately: true)
        #expect(app.window.frameCallback != nil)
        let committed = app.window.framesCommitted
        let replaced = app.window.framesReplaced
        let first = main.contentOffset.y
        // The finger moves on before that repaint: drawn and committed at once.
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 580)), at: 1032)
        app.window.renderIfPossible()
        #expect(app.window.framesReplaced == replaced + 1)
        #expect(app.window.framesCommitted == committed + 1)
        #expect(main.contentOffset.y == first + 60)
        try app.connection.flush()
        try expectShows(window, rig, width, height, "\(mode): the replacement")
        // Once a repaint: a move after the replacement waits for the repaint's `done`.
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 520)), at: 1048)
        app.window.renderIfPossible()
        #expect(app.window.framesReplaced == replaced + 1)
        #expect(app.window.framesCommitted == committed + 1)
        // Both callbacks come, and the move after is drawn in the next frame.
        try app.pump(until: { app.window.framesCommitted == committed + 2 }, "the frame after the replacement")
        try app.pump(until: { !app.window.isWaitingForFrame }, "both commits' callbacks and the next one's")
        #expect(app.window.replacedCallback == nil)
        // A fling from there, through buffers that caught up past the replaced frame.
        touch(.touchMotion(id: 0, position: Point(x: 195, y: 420)), at: 1064)
        touch(.touchUp(id: 0), at: 1070)
        try pump(
            app,
            until: { !app.window.content.hasActiveAnimations && app.window.content.nextTimerDeadline == nil },
            timeout: 30)
        #expect(main.contentOffset.y > first + 300)
        expectShowsAtRest(window, rig, app, width, height, "\(mode): at rest after a replacement")
        finished = true
        rig.stop()
    }

    /// A frame is never drawn for a time before the input it shows. An input's time is the
    /// compositor's stamp on the window's clock, and a stamp a little ahead of the moment it is
    /// read (whole milliseconds, delivery's jitter; up to `InputClock.maxLead`) had the frame
    /// predicted from that moment dated before it: the drag's first frame behind its finger,
    /// and a trace going back in time (docs/decisions.md, Latency 0.15.35). Such a frame is off
    /// the presentation grid and not counted as aimed.
    @Test func aFrameIsNeverDrawnForATimeBeforeTheInputItShows() throws {
        let (rig, window, app) = try launch(.list, width: 390, height: 844, mode: .fast)
        defer { rig.stop() }
        let main = try #require(window.view(named: "main") as? ScrollView)
        let input = try #require(app.connection.input)
        input.newGesture()
        let down = input.time(1000)
        input.deliver([
            InputEvent(time: down, .touchDown(id: 0, position: Point(x: 195, y: 600))),
            InputEvent(time: down, .touchFrame),
        ])
        try app.settle()
        // A motion stamped 45 ms after the moment it is read (within `maxLead`).
        let ahead = Deadline.now - down + 0.045
        let t = input.time(1000 + UInt32(clamping: ahead * 1000, rounding: .up))
        input.deliver([
            InputEvent(time: t, .touchMotion(id: 0, position: Point(x: 195, y: 500))), InputEvent(time: t, .touchFrame),
        ])
        #expect(main.isDragging)
        app.window.renderIfPossible(immediately: true)
        let drawnFor = try #require(app.window.committedFrameTime)
        #expect(drawnFor >= t, "the frame drawn for \(drawnFor), the input it shows at \(t)")
        #expect(app.window.scheduler.lastFrameTime == drawnFor)
        #expect(!app.window.feedbacks.contains { $0.frameTime == drawnFor }, "an off-grid frame taught the lag")
    }

    /// A replacement committed after the compositor repainted the frame it replaces is shown
    /// only at the repaint after, with that frame's time: the miss is noted once, and with an
    /// animation running (a key's scroll, a second key retargeting it) the frame aimed at that
    /// next repaint is drawn over it for its own time, so the animation does not hold a frame.
    ///
    /// The first frame is committed and weston's capture waited for (it has repainted, and its
    /// `done` is on its way, unread); the second key is then drawn into a replacement. The
    /// socket is read until the first frame's `done` has come; if the replacement's came in
    /// the same reading (a slow spell, or weston, idle after the first repaint, repainting it
    /// at once), it was shown in time, and the try is made again. Else the loop's draw is
    /// called, without reading again, at the time the window says it aims the next frame at
    /// (`scheduledDraw`, what the loop's timer would wake for).
    @Test func aReplacementTooLateForItsRepaintIsDrawnOverForTheNext() throws {
        let (width, height) = (390, 844)
        let (rig, window, app) = try launch(.list, width: width, height: height, mode: .fast)
        let input = try #require(app.connection.input)
        func down(at ms: UInt32) { pressDown(input, at: ms) }
        input.newGesture()
        // A first key's replacement finds both buffers held; the third is made while idle.
        try twoKeys(app, input, at: 500)
        #expect(app.window.bufferCount == 3)
        var ms: UInt32 = 1000
        var tries = 0
        while app.window.replacementsShownLate == 0 && tries < 5 {
            tries += 1
            try app.settle()
            down(at: ms)
            #expect(window.hasActiveAnimations)
            app.window.renderIfPossible(immediately: true)
            try app.connection.flush()
            try expectShows(window, rig, width, height, "the key's first frame")
            let replacedTime = try #require(app.window.committedFrameTime)
            let replaced = app.window.framesReplaced
            let committed = app.window.framesCommitted
            down(at: ms + 40)
            let replacedAt = Deadline.now
            app.window.renderIfPossible()
            ms += 2000
            // On a loaded machine the key can come too close to the repaint the window expects
            // for a replacement to make it (`FrameScheduler.replacementCanMakeIt`): none is
            // drawn, and the try is made again.
            guard app.window.framesReplaced == replaced + 1 else { continue }
            // For the replaced frame's time, unless that had passed (as the capture was waited
            // for): then for a later one (`FrameScheduler.replacementTime`).
            let replacementTime = try #require(app.window.committedFrameTime)
            // (Between `replacedAt` and the replacement's own reading of the clock, either.)
            #expect(replacementTime == replacedTime || (replacementTime > replacedAt && replacedTime < Deadline.now))
            try app.pump(until: { app.window.replacedCallback == nil }, "the first frame's done")
            app.window.renderIfPossible()
            if app.window.replacementsShownLate == 1 {
                if let at = app.window.scheduledDraw {
                    let ahead = at - Deadline.now
                    #expect(ahead < 2 * app.connection.refreshInterval, "aimed \(ahead) s ahead")
                    // Until the draw over it happens (the loop's draw, called without reading
                    // the socket again); at most a second.
                    let deadline = Deadline(in: 1)
                    while app.window.lateReplacementsDrawnOver == 0 && !deadline.hasPassed {
                        app.window.renderIfPossible()
                    }
                }
                #expect(app.window.framesCommitted == committed + 2)
                // Drawn over the late replacement, for the repaint after: not the time it held
                // (here frames older still, as the capture was waited for).
                #expect(app.window.lateReplacementsDrawnOver == 1)
                #expect(app.window.framesReplaced == replaced + 1)
                let later = (app.window.committedFrameTime ?? 0) - replacedTime
                #expect(later > 0.5 * app.connection.refreshInterval, "\(later) s later")
            }
        }
        #expect(app.window.replacementsShownLate == 1, "no replacement missed its repaint in \(tries) tries")
        try expectShowsOnceStill(window, rig, app, width, height, "at rest after a late replacement")
        rig.stop()
    }

    /// The third buffer, made for frames that replace one not yet repainted, is given back once
    /// no frame has needed it for `spareBufferKeep` seconds and the window is idle: a buffer the
    /// compositor is not reading goes (the pool refuses any other), the window keeps showing
    /// its pixels through the frames after, and the next key that finds both buffers held has
    /// the third made again. Kept as long as the keep lasts.
    @Test func theThirdBufferIsGivenBackAtRestAndMadeAgain() throws {
        let (width, height) = (390, 844)
        let (rig, window, app) = try launch(.list, width: width, height: height, mode: .fast)
        let input = try #require(app.connection.input)
        input.newGesture()
        app.window.spareBufferKeep = .infinity
        try twoKeysUntilAThirdBuffer(app, input, at: 500)
        #expect(app.window.bufferCount == 3)
        try app.settle()
        #expect(app.window.bufferCount == 3 && app.window.sparesReturned == 0)
        // Due at once: the next idle turn gives it back.
        app.window.spareBufferKeep = 0
        try app.pump(until: { app.window.bufferCount == 2 }, "the third buffer given back")
        #expect(app.window.sparesReturned == 1)
        let main = try #require(window.view(named: "main") as? ScrollView)
        let before = main.contentOffset.y
        app.window.spareBufferKeep = .infinity
        try twoKeysUntilAThirdBuffer(app, input, at: 2000)
        #expect(app.window.bufferCount == 3)
        #expect(main.contentOffset.y > before)
        try expectShowsOnceStill(window, rig, app, width, height, "at rest, the third buffer made again")
        #expect(app.window.sparesReturned == 1)
        // At rest with a keep that has not run out, the loop's timer is armed for it (the
        // window would otherwise sleep until the next event with the buffer held).
        app.window.spareBufferKeep = 60
        try app.step(maxWait: 0)
        let returnTime = try #require(app.window.spareReturnTime)
        #expect(app.armedDeadline == returnTime)
        #expect(app.window.bufferCount == 3)
        rig.stop()
    }

    /// A third buffer whose ring is not faulted in yet takes no replacement: the input waits for
    /// the next frame instead of a frame faulting its pages in (what cost a client held to a
    /// CPU share its frames). The spare is made as the idle work makes it, and no loop turn
    /// runs until the keys are drawn (a turn would fault it in); the window draws the first key
    /// into the free first buffer and, with both first buffers held, leaves the second key to
    /// the next frame. Faulted in, the spare is ready, and the window ends on its pixels.
    @Test func aThirdBufferNotFaultedInTakesNoReplacement() throws {
        let (width, height) = (390, 844)
        let (rig, window, app) = try launch(.list, width: width, height: height, mode: .fast)
        let input = try #require(app.connection.input)
        input.newGesture()
        try app.settle()
        let pool = try #require(app.window.pool)
        #expect(pool.buffers.count == 2 && pool.hasReadyBuffer)
        pool.wantsSpare = true
        _ = pool.prefaultNext(piece: 4096, now: app.window.content.now)
        #expect(pool.buffers.count == 3)
        let spare = pool.buffers[2]
        #expect(spare.isThird && !spare.prefaulted && !spare.isReady && spare.frame == nil)
        // At rest weston holds the buffer it shows: the other first buffer is free, and is
        // handed out before the spare.
        #expect(pool.nextFree !== spare && pool.nextFree?.isReady == true)
        // Even holding a newer frame than the free first buffer (as a spare made at once by a
        // frame that found both held would), it comes after it.
        spare.frame = Int.max
        #expect(pool.nextFree !== spare)
        spare.frame = nil

        let replaced = app.window.framesReplaced
        let committed = app.window.framesCommitted
        pressDown(input, at: 500)
        app.window.renderIfPossible(immediately: true)
        #expect(app.window.framesCommitted == committed + 1)
        #expect(app.window.isWaitingForFrame)
        // Both first buffers held (the one shown, the one just committed; no release read):
        // only the spare is free, and it is not ready.
        #expect(pool.buffers.filter { !$0.isBusy }.map { $0 === spare } == [true])
        #expect(!pool.hasReadyBuffer)
        pressDown(input, at: 540)
        app.window.renderIfPossible()
        #expect(app.window.framesReplaced == replaced, "a replacement drawn into an unready spare")
        #expect(app.window.framesCommitted == committed + 1)
        #expect(spare.frame == nil && !spare.isBusy)

        // Faulted in, it is ready for the next replacement.
        while !spare.prefaulted { spare.prefault(piece: .max) }  // to the ring's end, then from its start
        #expect(spare.prefaulted && spare.isReady && pool.hasReadyBuffer)
        try expectShowsOnceStill(window, rig, app, width, height, "at rest after the keys")
        #expect(pool.buffers.count == 3)
        rig.stop()
    }

    /// Without a CPU quota the rings are faulted in after the first frame a piece a turn of the
    /// loop, so that input landing then waits for one piece, not a ring (a ring at 1920×1080 is
    /// twelve pieces): no turn faults in more than `ShmBuffer.prefaultPieceBytes`, and the
    /// rings end whole.
    @Test func ringsAreFaultedInAPieceATurn() throws {
        let (width, height) = (1920, 1080)
        let rig = try WestonRig(width: width, height: height)
        let window = Scene.list.makeWindow(size: Size(width: Double(width), height: Double(height)))
        let app = try WaylandApp(content: window, title: "Scrollway test", socket: rig.socketPath)
        #expect(window.backgroundBudget == nil, "the test process runs under a CPU quota")
        try app.pump(until: { app.window.framesCommitted > 0 }, "the first frame")
        let pool = try #require(app.window.pool)
        func faulted() -> Int { pool.buffers.reduce(0) { $0 + $1.prefaultedBytes } }
        let whole = pool.buffers.count * ShmBuffer.ringBytes(frameBytes: width * height * 4, offsetScrolling: true)
        var pieces = 0
        let deadline = Deadline(in: 30)
        while pool.buffers.contains(where: { !$0.prefaulted }) && !deadline.hasPassed {
            let before = faulted()
            try app.step(maxWait: 0.05)
            let added = faulted() - before
            #expect(added <= ShmBuffer.prefaultPieceBytes, "one turn faulted in \(added) bytes")
            if added > 0 { pieces += 1 }
        }
        #expect(faulted() == whole)
        #expect(pieces >= whole / ShmBuffer.prefaultPieceBytes)
        rig.stop()
    }

    /// Steps until nothing animates, no timer waits and the last frame's callback has come,
    /// then expects the output to show `window`'s full composite.
    func expectShowsOnceStill(
        _ window: Window, _ rig: WestonRig, _ app: WaylandApp, _ width: Int, _ height: Int, _ what: String
    ) throws {
        try pump(
            app,
            until: { !app.window.content.hasActiveAnimations && app.window.content.nextTimerDeadline == nil },
            timeout: 30)
        try app.pump(until: { !app.window.isWaitingForFrame }, "the last frame's callback")
        expectShowsAtRest(window, rig, app, width, height, what)
    }

    /// A Down key pressed and released at `ms`, handed in where the seat's devices hand theirs
    /// (`WaylandInput.deliver`).
    func pressDown(_ input: WaylandInput, at ms: UInt32) {
        let t = input.time(ms)
        let key = Key(keysymName: "Down")
        input.deliver([
            InputEvent(time: t, .key(key, pressed: true, modifiers: [])),
            InputEvent(time: t, .key(key, pressed: false, modifiers: [])),
        ])
    }

    /// Two Down keys at rest, the second while the first's frame waits for its repaint: it
    /// finds both buffers held (weston keeps the one it shows until it repaints), and the
    /// third is made while the window is idle. Returns once the window rests again.
    /// `twoKeys` again (a few times at most) until the window needed a third buffer: weston
    /// may repaint between the two keys, on a loaded machine, and give back the buffer the
    /// second would have found held, so that two were enough (a full run once saw it).
    func twoKeysUntilAThirdBuffer(_ app: WaylandApp, _ input: WaylandInput, at ms: UInt32) throws {
        for attempt in 0..<5 where app.window.bufferCount < 3 {
            try twoKeys(app, input, at: ms + UInt32(attempt) * 300)
        }
    }

    func twoKeys(_ app: WaylandApp, _ input: WaylandInput, at ms: UInt32) throws {
        try app.settle()
        pressDown(input, at: ms)
        app.window.renderIfPossible(immediately: true)
        pressDown(input, at: ms + 40)
        app.window.renderIfPossible()
        try app.settle(timeout: 30)
    }

    /// A finger put down at (`x`, `ys[0]`) at time 1000 ms and moved through the rest of `ys`,
    /// one move every `every` ms, paced in real time through the replay layer; lifted
    /// `liftAfter` ms after the last move, or left down when nil.
    func touchDrag(
        _ rig: WestonRig, _ app: WaylandApp, x: Double, ys: [Double], every: Int, liftAfter: Double? = nil
    ) throws {
        try WestonTarget(rig: rig, app: app).send(from: 1000) { b in
            b.drag(
                from: Point(x: x, y: ys[0]), through: ys.dropFirst().map { Point(x: x, y: $0) }, at: 0,
                step: Double(every), liftAfter: liftAfter)
        }
    }

    /// The fast path moved scrolled pixels (by offset, and copying the older strip) in at least
    /// `count` frames; the general path never moves them.
    func expectMoves(_ plans: [String: Int], _ mode: PresentMode, atLeast count: Int) {
        if mode == .fast {
            #expect((plans["offset"] ?? 0) + (plans["offset+copy"] ?? 0) >= count, "plans: \(plans)")
        } else {
            #expect(
                ["offset", "in-place", "offset+copy", "in-place+copy"].allSatisfy { plans[$0] == nil },
                "plans: \(plans)")
        }
    }

    /// `scene` in a new headless weston of `width`×`height`, presented in `mode`, mapped and on
    /// the output, with the cursor the pointer's enter asked for shown (the captures hide it).
    func launch(_ scene: Scene, width: Int, height: Int, mode: PresentMode) throws -> (WestonRig, Window, WaylandApp) {
        let rig = try WestonRig(width: width, height: height)
        let window = scene.makeWindow(size: Size(width: Double(width), height: Double(height)))
        let app = try WaylandApp(content: window, title: "Scrollway test", socket: rig.socketPath)
        app.window.presentMode = mode
        // Mapped and on the output (a touch on no surface is dropped).
        try pump(
            app,
            until: {
                guard let c = try? rig.capture() else { return false }
                return c.pixel(x: width / 2, y: height / 2) != 0xFF00_0000
            }, timeout: 10)
        // The cursor the pointer's enter asked for is shown at once from a theme's file, or once
        // the window is idle from libwayland-cursor's own; the captures hide it (as `scrollway
        // rig` does), which takes the shown one down.
        try pump(app, until: { app.connection.input.pointer?.cursorPending != true }, timeout: 10)
        return (rig, window, app)
    }

    /// Whether the output comes to show `window`'s full composite while the app goes on
    /// stepping (at rest it may, while weston catches up: nothing moves).
    func expectShowsAtRest(
        _ window: Window, _ rig: WestonRig, _ app: WaylandApp, _ width: Int, _ height: Int, _ what: String
    ) {
        var mismatches = -1
        do {
            try rig.parkPointer()
            let expected = try Canvas(size: window.bounds.size, scale: window.scale)
            window.composite(into: expected)
            try pump(
                app,
                until: {
                    guard let shown = try? rig.capture() else { return false }
                    mismatches = sampledMismatches(shown, expected, width, height)
                    return mismatches == 0
                }, timeout: 5)
        } catch {
            Issue.record("\(what): \(error)")
        }
        #expect(mismatches == 0, "\(what): \(mismatches) sampled pixels differ")
    }

    /// Whether the output shows `window`'s full composite, waiting (without stepping the app:
    /// its state must stay the one composited) for weston's repaint of the last commit.
    func expectShows(_ window: Window, _ rig: WestonRig, _ width: Int, _ height: Int, _ what: String) throws {
        let expected = try Canvas(size: window.bounds.size, scale: window.scale)
        window.composite(into: expected)
        var mismatches = 0
        let deadline = Date().addingTimeInterval(5)
        // As `scrollway rig` does before a screenshot: no cursor in the picture. Once: the app
        // is not stepped, so it cannot show its cursor again, and each parking sends it a leave
        // and, at the capture's repaint, an enter, which it does not read: a few hundred of
        // them filled its socket and weston closed the connection ("Broken pipe").
        try rig.parkPointer()
        repeat {
            mismatches = sampledMismatches(try rig.capture(), expected, width, height)
        } while mismatches > 0 && Date() < deadline
        #expect(mismatches == 0, "\(what): \(mismatches) sampled pixels differ")
    }

    /// The pixels that differ between `shown` and `expected`, sampled every other pixel each way.
    func sampledMismatches(_ shown: Canvas, _ expected: Canvas, _ width: Int, _ height: Int) -> Int {
        var mismatches = 0
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) where shown.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                mismatches += 1
            }
        }
        return mismatches
    }

    /// Pumps the app until `condition` holds, failing after `timeout` seconds.
    func pump(_ app: WaylandApp, until condition: () -> Bool, timeout: Double) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                Issue.record("condition not met within \(timeout) s")
                return
            }
            // Handles whatever arrives within 20 ms, then looks again.
            try app.step(maxWait: 0.02)
        }
    }
}
