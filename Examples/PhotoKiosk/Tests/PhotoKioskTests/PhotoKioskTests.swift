import Foundation
import PhotoKioskApp
import Scrollway
import ScrollwayWestonHarness
import Testing

/// The kiosk in a headless weston with kiosk-shell, driven by real touches and a real mouse
/// through the rig, judged by what the compositor shows.
@MainActor
@Suite(.serialized) struct PhotoKioskTests {
    let suns = SamplePhotos.sunColors
    let middle = Point(x: screen.width / 2, y: screen.height / 2)

    @Test func aSwipeTurnsToTheNextPhoto() throws {
        let (rig, app, kiosk) = try startKiosk()
        #expect(try rig.capture().shows(suns[0], x: 300, y: 200), "the first photo's sun is not in the middle")
        var fingers = Fingers(rig, app)
        try fingers.swipe(from: Point(x: 450, y: 200), step: Point(x: -40, y: 0))
        try app.settle()
        #expect(kiosk.pager.currentPage == 1)
        #expect(kiosk.pager.contentOffset == Point(x: screen.width, y: 0))
        #expect(try rig.capture().shows(suns[1], x: 300, y: 200), "the second photo's sun is not in the middle")
    }

    /// On the compositor too, a page shows its thumbnail while its photo is decoded, and the
    /// photo once it is.
    @Test func theThumbnailShowsOnScreenUntilThePhotoIsDecoded() throws {
        let test = TestDecoder(gated: true)
        let (rig, app, kiosk) = try startKiosk(showingSheet: true, decoder: test.decoder())
        kiosk.showPhoto(0)
        try test.waitForADecodeToStart()
        try app.pump(until: { try rig.capture().shows(suns[0], x: 300, y: 200) }, "the thumbnail on screen")
        #expect(!kiosk.pager.pages[0].showsFullPhoto)
        test.release(2)  // the page's photo and its neighbour's
        try app.settle()
        #expect(kiosk.pager.pages[0].showsFullPhoto)
        #expect(try rig.capture().shows(TestDecoder.photoColor, x: 300, y: 200), "the decoded photo is not on screen")
    }

    @Test func aThumbnailOpensItsPhotoAndAllPhotosGoesBackToTheSheet() throws {
        let (rig, app, kiosk) = try startKiosk(showingSheet: true)
        #expect(kiosk.isShowingSheet)
        // The second thumbnail, tapped in its middle with a real finger.
        let frame = kiosk.sheet.convert(kiosk.sheet.frameForItem(at: ItemPath(item: 1)), to: nil)
        var fingers = Fingers(rig, app)
        try fingers.play(after: 0) { $0.tap(at: Point(x: frame.midX, y: frame.midY), at: 0, hold: 40) }
        try app.settle()
        #expect(!kiosk.isShowingSheet)
        #expect(kiosk.pager.currentPage == 1)
        #expect(try rig.capture().shows(suns[1], x: 300, y: 200), "the second photo's sun is not in the middle")
        // "All photos": the sheet again, with the photo that showed selected.
        let button = kiosk.allPhotosButton.frame
        try fingers.play(after: 100) { $0.tap(at: Point(x: button.midX, y: button.midY), at: 0, hold: 40) }
        try app.settle()
        #expect(kiosk.isShowingSheet)
        #expect(kiosk.sheet.selectedItem == ItemPath(item: 1))
    }

    @Test func aMouseDragTurnsThePageToo() throws {
        let (rig, app, kiosk) = try startKiosk()
        var hand = Fingers(rig, app)
        try hand.play(after: 0) { b in
            b.pointer(to: Point(x: 450, y: 200), at: 0)
            b.button(.left, pressed: true, at: 20)
            for i in 1...6 { b.pointer(to: Point(x: 450 - 40 * Double(i), y: 200), at: 20 + Double(16 * i)) }
            b.button(.left, pressed: false, at: 132)
        }
        try app.settle()
        #expect(kiosk.pager.currentPage == 1)
        #expect(try rig.capture().shows(suns[1], x: 300, y: 200))
    }

    @Test func aDoubleTapZoomsToTwiceAndBack() throws {
        let (rig, app, kiosk) = try startKiosk()
        let page = kiosk.pager.pages[0]
        let fittedRadius = Int(SamplePhotos.sunRadius * fitted)
        #expect(abs(try rig.capture().sunRadius(suns[0]) - fittedRadius) <= 3)
        var fingers = Fingers(rig, app)
        try fingers.doubleTap(at: middle)
        try app.settle()
        #expect(abs(page.zoomScale - 2) < 1e-6)
        // Zoomed about the tap, the middle of the screen: the sun is twice as wide there.
        #expect(abs(try rig.capture().sunRadius(suns[0]) - 2 * fittedRadius) <= 3)
        try fingers.doubleTap(at: middle, after: 600)
        try app.settle()
        #expect(abs(page.zoomScale - 1) < 1e-6)
        #expect(abs(try rig.capture().sunRadius(suns[0]) - fittedRadius) <= 3)
    }

    @Test func aZoomedPhotoPansToItsEdgeThenThePageTurnsAndTheLastPhotoIsWholeAgain() throws {
        let (rig, app, kiosk) = try startKiosk()
        let page = kiosk.pager.pages[0]
        var fingers = Fingers(rig, app)
        try fingers.doubleTap(at: middle)
        try app.settle()
        #expect(abs(page.zoomScale - 2) < 1e-6)
        // 2× about the middle: the photo is 1200 px wide, shown from 300 (its right edge at 600).
        #expect(abs(page.contentOffset.x - screen.width / 2) < 0.01)
        try fingers.swipe(from: Point(x: 500, y: 200), step: Point(x: -30, y: 0), moves: 4, after: 600)
        try app.settle()
        #expect(kiosk.pager.currentPage == 0, "the page turned before the photo reached its edge")
        #expect(page.contentOffset.x > screen.width / 2)
        try fingers.swipe(from: Point(x: 500, y: 200), step: Point(x: -50, y: 0), moves: 6, after: 600)
        try app.settle()
        #expect(kiosk.pager.currentPage == 1)
        #expect(page.zoomScale == 1, "the photo left behind is still zoomed")
        #expect(try rig.capture().shows(suns[1], x: 300, y: 200))
    }

    @Test func twoFingersPinchThePhotoLarger() throws {
        let (rig, app, kiosk) = try startKiosk()
        var fingers = Fingers(rig, app)
        // 50 px from the middle to 150: three times as far apart.
        try fingers.play(after: 0) { b in
            twoFingers(
                &b, from: Point(x: 250, y: 200), Point(x: 350, y: 200),
                through: (1...5).map { i in
                    let d = 50 + 20 * Double(i)
                    return (Point(x: 300 - d, y: 200), Point(x: 300 + d, y: 200))
                })
        }
        try app.settle()
        let scale = kiosk.pager.pages[0].zoomScale
        #expect(abs(scale - 3) < 0.05, "zoomed to \(scale)")
        #expect(kiosk.pager.currentPage == 0, "the pinch turned the page")
        let radius = Double(try rig.capture().sunRadius(suns[0]))
        #expect(abs(radius - SamplePhotos.sunRadius * fitted * scale) <= 3)
    }

    /// Two fingers swiped together across a photo at its fitted size turn the page, as one
    /// finger does: they landed on a zoomable page, which took them as a pinch and rubber-banded.
    @Test func aTwoFingerSwipeTurnsToTheNextPhoto() throws {
        let (rig, app, kiosk) = try startKiosk()
        var fingers = Fingers(rig, app)
        try fingers.play(after: 0) { b in
            twoFingers(
                &b, from: Point(x: 450, y: 150), Point(x: 450, y: 250),
                through: (1...6).map { i in
                    (Point(x: 450 - 40 * Double(i), y: 150), Point(x: 450 - 40 * Double(i), y: 250))
                })
        }
        try app.settle()
        #expect(kiosk.pager.currentPage == 1)
        #expect(kiosk.pager.pages[0].zoomScale == 1)
        #expect(try rig.capture().shows(suns[1], x: 300, y: 200), "the second photo's sun is not in the middle")
    }

    /// Two fingers down at `first` and `second` together, moved through `moves` one step every
    /// 16 ms, both in each touch frame as a real two-finger gesture's are, and lifted together
    /// 16 ms after the last.
    func twoFingers(_ b: inout ScriptBuilder, from first: Point, _ second: Point, through moves: [(Point, Point)]) {
        b.add(.touchDown(id: 0, x: first.x, y: first.y), at: 0)
        b.add(.touchDown(id: 1, x: second.x, y: second.y), at: 0)
        b.add(.touchFrame, at: 0)
        for (i, (a, c)) in moves.enumerated() {
            let t = Double(16 * (i + 1))
            b.add(.touchMotion(id: 0, x: a.x, y: a.y), at: t)
            b.add(.touchMotion(id: 1, x: c.x, y: c.y), at: t)
            b.add(.touchFrame, at: t)
        }
        let lift = Double(16 * (moves.count + 1))
        b.add(.touchUp(id: 0), at: lift)
        b.add(.touchUp(id: 1), at: lift)
        b.add(.touchFrame, at: lift)
    }

    @Test func theKioskIsFullscreenWithoutACursorAndKeepsTheScreenAwake() throws {
        let (rig, app, _) = try startKiosk()
        try rig.input.roundtrip()
        #expect(app.window.isFullscreen)
        #expect(app.window.hidesCursor)
        #expect(app.window.isInhibitingIdle)
        // The compositor's side: one zwp_idle_inhibitor_v1 exists.
        #expect(rig.input.idleInhibitors == 1)
    }

    @Test func aThreeFingerTapEndsTheAppAndFewerFingersDoNot() throws {
        let (rig, app, kiosk) = try startKiosk()
        var fingers = Fingers(rig, app)
        try fingers.tap(fingers: 2, at: middle)
        try app.settle()
        #expect(!app.isStopRequested, "a two-finger tap ended the app")
        try fingers.tap(fingers: 3, at: middle, after: 500)
        try app.pump(until: { app.isStopRequested }, "the exit gesture")
        try app.run()  // returns at once: the loop has been asked to stop
        #expect(kiosk.pager.currentPage == 0)
    }
}

/// The built executable, as kiosk-shell or cage starts it: it shows the photos, and leaves
/// with status 0 on the exit gesture and on SIGTERM.
@MainActor
@Suite(.serialized) struct PhotoKioskExecutableTests {
    /// PhotoKiosk, built next to this test bundle (and the rig's module).
    func executable() throws -> String {
        let dir = URL(fileURLWithPath: try WestonRig.modulePath()).deletingLastPathComponent()
        let exe = dir.appendingPathComponent("PhotoKiosk").path
        guard FileManager.default.isExecutableFile(atPath: exe) else {
            throw TestFailure("PhotoKiosk is not built at \(exe)")
        }
        return exe
    }

    /// The executable on the samples in a fresh rig, once its contact sheet is on screen: the
    /// first thumbnail's sun in the middle of the first cell (16 + 180/2, 16 + 120/2).
    func launch() throws -> (rig: WestonRig, process: Process) {
        let rig = try WestonRig(width: Int(screen.width), height: Int(screen.height))
        let process = try rig.process.launchClient(try executable(), arguments: [samplesFolder], to: .standardError)
        try wait(for: "the contact sheet") {
            guard process.isRunning else { throw TestFailure("PhotoKiosk exited at start") }
            return try rig.capture().shows(SamplePhotos.sunColors[0], x: 106, y: 76)
        }
        return (rig, process)
    }

    @Test func theExitGestureEndsTheProcess() throws {
        let (rig, process) = try launch()
        var fingers = Fingers(rig, nil)
        try fingers.tap(fingers: 3, at: Point(x: 300, y: 200))
        try wait(for: "PhotoKiosk to exit") { !process.isRunning }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test func sigtermEndsTheProcessCleanly() throws {
        let (_, process) = try launch()
        process.terminate()
        try wait(for: "PhotoKiosk to exit") { !process.isRunning }
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
