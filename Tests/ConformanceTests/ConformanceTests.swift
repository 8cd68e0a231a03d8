import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

/// The same scenarios under every compositor the rigs know (weston with our module, sway), each
/// run where it is installed and cancelled, with the reason, where it is not or where the
/// compositor cannot do what the scenario needs.
@MainActor
@Suite(.serialized) struct ConformanceTests {
    /// The first configure sizes the window to the output (kiosk-shell and sway's tiling both
    /// do), and the compositor shows exactly the pixels the offscreen composite draws.
    @Test(arguments: Compositor.allCases) func theFirstFrameIsTheOffscreenComposite(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, needs: [.capture])
        #expect(desk.window.bounds.size == Size(width: 400, height: 300))
        let shown = try desk.rig.capture()
        let expected = try Offscreen.render(desk.window)
        let d = Desk.differences(shown, expected)
        #expect(d.count == 0, "\(d)")

    }

    /// Two wheel clicks over the list move it two of the spec's steps (the viewport's height to
    /// the ⅔ power each), whether they arrive as value120 (weston) or as discrete steps (sway's
    /// wl_seat 7), and the compositor then shows what the offscreen composite draws.
    @Test(arguments: Compositor.allCases) func wheelClicksMoveBySpecSteps(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, needs: [.pointer, .axisSources, .capture])
        let list = try desk.scrollView
        try desk.play { $0.wheel(clicks: 2, over: Point(x: 200, y: 150), at: 0) }
        let step = WheelAnimation.step(viewport: 300, value120: 120)
        #expect(abs(list.contentOffset.y - 2 * step) < 0.5, "the wheel moved the list to \(list.contentOffset.y)")
        try desk.rig.parkPointer()
        try desk.settle()
        let d = Desk.differences(try desk.rig.capture(), try Offscreen.render(desk.window))
        #expect(d.count == 0, "\(d)")
    }

    /// Where the compositor gives presentation feedback, the window learns when its frames were
    /// shown (the time it predicts the next frame from) and at what refresh. Where it does not
    /// (KWin 5.27 has no wp_presentation; wlroots 0.15's headless outputs leave feedback
    /// pending), the window paces by frame callbacks alone: the list still pages
    /// (`pageDownAndHome`).
    @Test(arguments: Compositor.allCases) func framesArePresentedWithFeedbackWhereOffered(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, needs: [.keyboard, .presentationFeedback])
        let list = try desk.scrollView
        try desk.play { $0.key("Page_Down", at: 0) }
        #expect(list.contentOffset.y > 0)
        #expect(desk.app.window.offersPresentationFeedback)
        try desk.app.pump(until: { desk.app.window.lastPresentation != nil }, "a presentation feedback")
        let shown = try #require(desk.app.window.lastPresentation)
        #expect(shown.time <= Deadline.now && shown.time > Deadline.now - 30, "presented at \(shown.time)")
        #expect(shown.refresh > 0.004 && shown.refresh < 0.05, "a refresh of \(shown.refresh) s")
    }

    /// Page Down moves a page (the viewport less 40 px), Home goes back to the top.
    @Test(arguments: Compositor.allCases) func pageDownAndHome(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, needs: [.keyboard])
        let list = try desk.scrollView
        try desk.play { $0.key("Page_Down", at: 0) }
        // The list's own height: 300, less the title bar where the window draws its own (mutter).
        #expect(abs(list.contentOffset.y - (list.bounds.height - ScrollView.pageOverlap)) < 0.5)
        try desk.play { $0.key("Home", at: 0) }
        #expect(list.contentOffset.y == 0)
    }

    /// A finger flick on the touchscreen flings the list on after the lift, and it comes to
    /// rest on pixels the offscreen composite draws.
    @Test(arguments: Compositor.allCases) func aTouchFlickFlings(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, needs: [.touch, .capture])
        let list = try desk.scrollView
        try desk.play { $0.flick(from: Point(x: 200, y: 250), by: Point(x: 0, y: -150), at: 0) }
        #expect(list.contentOffset.y > 300, "the flick carried the list only to \(list.contentOffset.y)")
        let d = Desk.differences(try desk.rig.capture(), try Offscreen.render(desk.window))
        #expect(d.count == 0, "\(d)")
    }

    /// A kiosk: fullscreen as asked, no cursor over it (the pointer on it, and nothing drawn
    /// but the app), and the screen kept awake by one idle inhibitor the compositor counts,
    /// where the compositor offers inhibitors and says how many it holds.
    @Test(arguments: Compositor.allCases) func aKioskIsFullscreenWithoutACursorAndKeepsTheScreenAwake(
        _ c: Compositor
    ) throws {
        let desk = try Desk(c, scene: .list, needs: [.pointer, .capture, .cursorFreeCaptures], fullscreen: true)
        desk.app.window.hidesCursor = true
        desk.app.window.inhibitsIdle = true
        try desk.settle()
        #expect(desk.app.window.isFullscreen)
        if let why = desk.rig.missing(.idleInhibitorCount) {
            FileHandle.standardError.write(Data("conformance: the kiosk's idle inhibitor not counted: \(why)\n".utf8))
        } else {
            #expect(desk.app.window.isInhibitingIdle)
            try desk.app.pump(
                until: { (try? desk.rig.idleInhibitors()) == 1 }, "the compositor to count one inhibitor")
        }
        try desk.play { $0.pointer(to: Point(x: 200, y: 150), at: 0) }
        let d = Desk.differences(try desk.rig.capture(), try Offscreen.render(desk.window))
        #expect(d.count == 0, "with the pointer over the kiosk: \(d)")
    }

    /// At output scale 2 the window draws at twice the pixels, and the compositor shows exactly
    /// the offscreen composite at scale 2.
    @Test(arguments: Compositor.allCases) func scaleTwoShowsTheOffscreenCompositeAtScaleTwo(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .list, scale: 2, needs: [.capture])
        try desk.app.pump(until: { desk.app.window.bufferSize?.width == 800 }, "buffers at scale 2")
        #expect(desk.window.scale == 2)
        try desk.settle()
        let shown = try desk.rig.capture()
        #expect(shown.width == 800 && shown.height == 600)
        let d = Desk.differences(shown, try Offscreen.render(desk.window))
        #expect(d.count == 0, "\(d)")
    }

    /// At KWin's fractional scale of 1.5 the compositor prefers 180/120 (wp_fractional_scale_v1),
    /// the window draws its buffers at 1.5 times its logical size and maps them back with a
    /// viewport, and the output shows exactly the offscreen composite at 1.5.
    @Test(arguments: Compositor.allCases) func aFractionalScaleShowsTheOffscreenCompositeAtThatScale(
        _ c: Compositor
    ) throws {
        let desk = try Desk(c, scene: .list, scale: 1.5, needs: [.fractionalScale, .capture])
        try desk.app.pump(until: { desk.app.window.fractionalScale == 1.5 }, "the preferred scale 180/120")
        try desk.app.pump(until: { desk.app.window.bufferSize?.width == 600 }, "buffers at scale 1.5")
        try desk.settle()
        let shown = try desk.rig.capture()
        #expect(shown.width == 600 && shown.height == 450)
        let d = Desk.differences(shown, try Offscreen.render(desk.window))
        #expect(d.count == 0, "\(d)")
    }

    /// A window that would be taller than the room the compositor gives (a 390×844 phone layout
    /// on a 720 px tall output) takes its first size within configure_bounds, title bar on
    /// screen. Before the fix it took its own size, and KWin placed its title 62 px above the
    /// output. Where the compositor sizes every window itself (weston's kiosk-shell, sway's
    /// tiling) the window is the output's size either way.
    @Test(arguments: Compositor.allCases) func theFirstSizeFitsTheCompositorsBounds(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, width: 800, height: 720, windowSize: Size(width: 390, height: 844))
        let first = try #require(desk.app.window.firstFrameSize)
        #expect(first.width <= 800 && first.height <= 720, "the first frame was \(first) on an 800×720 output")
        let size = desk.window.bounds.size
        #expect(size.width <= 800 && size.height <= 720, "the window is \(size) on an 800×720 output")
    }

    /// A client started in any rig finds a runtime directory of that rig in XDG_RUNTIME_DIR,
    /// beside the socket's absolute path: GTK4 opens no display without one (GTK4's list, the
    /// bench's peer, exited at once in sway and mutter before the rigs said it).
    @Test(arguments: Compositor.allCases) func clientsAreGivenTheRigsRuntimeDirectory(_ c: Compositor) throws {
        try Desk.cancelUnlessAvailable(c, needs: [])
        let rig = try c.start(width: 320, height: 240)
        defer { rig.stop() }
        let env = rig.clientEnvironment
        let dir = try #require(env["XDG_RUNTIME_DIR"], "no XDG_RUNTIME_DIR for \(c)'s clients")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) && isDirectory.boolValue)
        let socket = try #require(env["WAYLAND_DISPLAY"])
        let path = socket.hasPrefix("/") ? socket : dir + "/" + socket
        #expect(FileManager.default.fileExists(atPath: path), "\(c)'s socket \(path)")
    }
}
