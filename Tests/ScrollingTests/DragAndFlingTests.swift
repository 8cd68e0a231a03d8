import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct DragAndFlingTests {
    @Test func dragMovesByTheDistanceLessTheSlop() {
        let rig = ScrollBench()
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 400), duration: 0.3, lift: false)
        #expect(rig.scroll.contentOffset.y == 190)
        #expect(rig.scroll.isDragging && rig.scroll.phase == .dragging)
    }

    /// Fingers resting on a touchpad stop a paging view's turn between pages, as a touch does;
    /// as they lift it settles on the nearest page, as after a touch (it had stayed between).
    @Test func aTouchpadHoldThatStopsAPageTurnSettlesOnAPageAsItLifts() {
        let rig = ScrollBench(content: Size(width: 390, height: 844 * 8))
        rig.scroll.isPagingEnabled = true
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 500), duration: 0.08)
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        rig.advance(by: 0.05)
        #expect(rig.scroll.isDecelerating)
        rig.send(.holdBegin(fingers: 2))
        #expect(!rig.scroll.isDecelerating)
        let stopped = rig.scroll.contentOffset.y
        #expect(stopped.truncatingRemainder(dividingBy: 844) != 0, "stopped on a page at \(stopped)")
        rig.send(.holdEnd(cancelled: false), at: rig.time + 0.2)
        rig.settle()
        let page = (stopped / 844).rounded()
        #expect(rig.scroll.contentOffset.y == page * 844)
    }

    /// Release position and velocity, from the willEndDragging record.
    func release(_ rig: ScrollBench) -> (offset: Double, velocity: Double)? {
        for e in rig.events {
            if case .willEndDragging(let v, _) = e { return (0, v.y * 1000) }
        }
        return nil
    }

    @Test(arguments: [60.0, 120.0, 144.0])
    func aFlingRestsAtX0PlusV0OverKOnADevicePixel(hz: Double) {
        let rig = ScrollBench(hz: hz)
        var releaseOffset = 0.0
        rig.scroll.eventObserver = { s, e in
            rig.events.append(e)
            if case .didEndDragging = e { releaseOffset = s.contentOffset.y }
        }
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
        let v = release(rig)!.velocity
        #expect(v > 1000)
        rig.settle()
        let expected = releaseOffset + v / DecelerationRate.normal.k
        #expect(abs(rig.scroll.contentOffset.y - expected) <= 0.5)
        #expect(rig.scroll.contentOffset.y == rig.scroll.contentOffset.y.rounded())
        #expect(rig.callbacks.last == .didEndDecelerating)
    }

    /// A finger that lands on a glide stops it where the last frame drawn put it: under a
    /// compositor that frame is drawn for its predicted presentation, ahead of the touch, and
    /// stopping at the touch's own time moved the offset back (a caught fling jumped back on
    /// screen by its speed times that lead). Offscreen, frames are never ahead of the clock.
    @Test func aTouchStopsAGlideWhereTheFrameAheadOfItPutItNeverBack() {
        let rig = ScrollBench()
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
        rig.advance(to: 0.3)
        #expect(rig.scroll.isDecelerating)
        // A compositor platform's frame, drawn at 0.3 for its presentation at 0.33.
        _ = try? rig.window.prepareFrame(time: 0.33)
        let shown = rig.scroll.contentOffset.y
        rig.window.handle(InputEvent(time: 0.305, .touchDown(id: 2, position: Point(x: 200, y: 400))))
        #expect(!rig.scroll.isDecelerating)
        #expect(rig.scroll.contentOffset.y == shown)
        _ = try? rig.window.prepareFrame(time: 0.35)
        #expect(rig.scroll.contentOffset.y == shown)
        // Offscreen, where the frame at 0.3 is the last: stopped at the touch's time, further on.
        let offscreen = ScrollBench()
        offscreen.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
        offscreen.advance(to: 0.3)
        let before = offscreen.scroll.contentOffset.y
        offscreen.send(.touchDown(id: 2, position: Point(x: 200, y: 400)), at: 0.305)
        #expect(offscreen.scroll.contentOffset.y > before && offscreen.scroll.contentOffset.y < shown)
    }

    /// Whether a touch stops a glide or taps through it is decided by the glide's speed at the
    /// touch's own time, as offscreen, not at the frame drawn ahead of it: a glide at 256 px/s
    /// when the finger lands (over `TouchArbiter.stopSpeed`) stops, though by the frame 20 ms
    /// ahead it is under 250 px/s.
    @Test func aTouchOnAGlideIsAStopOrATapByTheSpeedAtItsOwnTime() throws {
        let rig = ScrollBench()
        let button = Button(title: "all", frame: Rect(x: 0, y: 0, width: 390, height: 12000))
        rig.content.addSubview(button)
        var release: (t: Double, v: Double)?
        rig.scroll.eventObserver = { s, e in
            if case .willEndDragging(let v, _) = e { release = (s.window?.now ?? 0, v.y * 1000) }
        }
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
        let (t0, v0) = try #require(release)
        // v(t) = v0·e^(−k(t − t0)): the finger lands where it is 256 px/s.
        let k = DecelerationRate.normal.k
        let touch = t0 + Double.log(v0 / 256) / k
        rig.advance(to: touch - 0.03)
        #expect(rig.scroll.isDecelerating)
        // A compositor's frame, drawn for 20 ms after the touch, where the glide is slower.
        _ = try rig.window.prepareFrame(time: touch + 0.02)
        #expect(v0 * Double.exp(-k * (touch + 0.02 - t0)) < TouchArbiter.stopSpeed)
        rig.window.handle(InputEvent(time: touch, .touchDown(id: 2, position: Point(x: 200, y: 400))))
        rig.window.handle(InputEvent(time: touch + 0.05, .touchUp(id: 2)))
        #expect(button.tapCount == 0, "the touch that stopped the glide tapped the content")
        #expect(!rig.scroll.isDecelerating)
    }

    /// A list measures the rows a fling brings in, so its content's length changes in most of
    /// the fling's frames. Where the glide still rests inside the new range it goes on as it
    /// was, frame for frame; where the new end cuts it short, it re-aims there.
    @Test(arguments: [(40.0, 12000.0), (-25.0, 9000.0), (-2000.0, 9000.0), (-400.0, 2000.0)])
    func aFlingGoesOnAsItWasWhileTheContentGrowsOrShrinksBehindItsRest(step: Double, floor: Double) {
        func run(changing: Bool) -> (offsets: [Double], callbacks: [ScrollEvent]) {
            let rig = ScrollBench(content: Size(width: 390, height: 12000))
            if changing {
                rig.driver.afterFrame = { drawn in
                    if drawn { rig.offsets.append(rig.scroll.contentOffset) }
                    guard rig.scroll.isDecelerating else { return }
                    let h = max(floor, rig.scroll.contentSize.height + step)
                    rig.scroll.contentSize = Size(width: 390, height: h)
                }
            }
            rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.12)
            rig.settle()
            return (rig.offsets.map(\.y), rig.callbacks)
        }
        let plain = run(changing: false)
        let changed = run(changing: true)
        let rest = plain.offsets.last!
        #expect(rest > 1500 && rest < 2100)
        #expect(changed.callbacks.filter { $0 == .didEndDecelerating }.count == 1)
        if floor - 844 >= rest {
            // The range kept the rest inside it: the same glide.
            #expect(changed.offsets.count == plain.offsets.count)
            #expect(zip(changed.offsets, plain.offsets).allSatisfy { abs($0 - $1) < 1e-6 })
            #expect(changed.callbacks == plain.callbacks)
        } else {
            // The end came in front of the rest: it meets the new end as an edge (overshooting it
            // by at most 0.15·d) and rests there, instead of gliding on to its old rest.
            #expect(changed.offsets.last == floor - 844)
            #expect(changed.offsets.max()! <= floor - 844 + 0.15 * 844)
        }
    }

    @Test func theRestingPixelIsTheSameAt60_120And144Hz() {
        let rests = [60.0, 120.0, 144.0].map { hz -> Double in
            let rig = ScrollBench(hz: hz)
            rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 380), duration: 0.1)
            rig.settle()
            return rig.scroll.contentOffset.y
        }
        #expect(rests[0] == rests[1] && rests[1] == rests[2])
    }

    @Test func aFlingLandsOnDevicePixelsAtScale2() {
        let rig = ScrollBench(hz: 60, scale: 2)
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 470), duration: 0.1)
        rig.settle()
        let y2 = rig.scroll.contentOffset.y * 2
        #expect(y2 == y2.rounded())
    }

    @Test(arguments: [30.0, 120.0, 400.0])
    func rubberBandShowsTheSpecsDisplacement(overscroll o: Double) {
        let rig = ScrollBench()
        // Drag down from the top: 10 px slop, then o px past the edge.
        rig.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 110 + o), duration: 0.3, lift: false)
        let d = 844.0
        let b = d * (1 - 1 / (0.55 * o / d + 1))
        #expect(abs(rig.scroll.contentOffset.y - -b) < 0.5)
        // Released still: it springs back and settles exactly on the edge.
        rig.send(.touchUp(id: 1), at: rig.time + 0.1)
        #expect(rig.scroll.phase == .bouncing)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 0)
        #expect(
            rig.callbacks.suffix(3) == [
                .didEndDragging(willDecelerate: true), .willBeginDecelerating, .didEndDecelerating,
            ])
    }

    /// Released inside the range, fast enough to hit the edge while decelerating.
    @Test func aFlingIntoTheEdgeOvershootsAtMost15PercentAndReturns() {
        let rig = ScrollBench()
        let max = rig.scroll.verticalRange.upperBound
        rig.scroll.contentOffset = Point(x: 0, y: max - 1500)
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 350), duration: 0.05)
        #expect(rig.scroll.contentOffset.y < max)
        #expect(rig.scroll.phase == .decelerating)
        rig.offsets.removeAll()
        rig.settle()
        let peak = rig.offsets.map { $0.y - max }.max()!
        #expect(peak > 20)
        #expect(peak <= 0.15 * 844 + 1e-6)
        #expect(rig.scroll.contentOffset.y == max)
    }

    /// Released already past the edge and still throwing outwards: the same cap holds.
    @Test func aThrowPastTheEdgeIsCappedToo() {
        let rig = ScrollBench()
        let max = rig.scroll.verticalRange.upperBound
        rig.scroll.contentOffset = Point(x: 0, y: max - 100)
        rig.drag(from: Point(x: 200, y: 800), to: Point(x: 200, y: 300), duration: 0.06)
        let released = rig.scroll.contentOffset.y - max
        #expect(released > 0)
        rig.offsets.removeAll()
        rig.settle()
        let peak = rig.offsets.map { $0.y - max }.max()!
        #expect(peak <= released + 0.15 * 844 + 1e-6)
        #expect(rig.scroll.contentOffset.y == max)
    }

    @Test func withoutBouncesNothingPassesTheEdge() {
        let rig = ScrollBench()
        rig.scroll.bounces = false
        rig.drag(from: Point(x: 200, y: 100), to: Point(x: 200, y: 400), duration: 0.2, lift: false)
        #expect(rig.scroll.contentOffset.y == 0)
        rig.send(.touchUp(id: 1))
        rig.drag(from: Point(x: 200, y: 800), to: Point(x: 200, y: 100), duration: 0.05)
        rig.settle()
        #expect(rig.offsets.allSatisfy { $0.y >= 0 && $0.y <= rig.scroll.verticalRange.upperBound })
    }

    @Test func directionalLockHoldsTheMajorAxis() {
        let rig = ScrollBench(content: Size(width: 3000, height: 12000))
        rig.scroll.isDirectionalLockEnabled = true
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 230, y: 300), duration: 0.3, lift: false)
        #expect(rig.scroll.contentOffset.x == 0)
        #expect(rig.scroll.contentOffset.y > 250)
        rig.send(.touchUp(id: 1))
        rig.settle()
        let free = ScrollBench(content: Size(width: 3000, height: 12000))
        free.drag(from: Point(x: 200, y: 600), to: Point(x: 150, y: 300), duration: 0.3, lift: false)
        #expect(free.scroll.contentOffset.x > 40)
    }

    /// Two or three fingers swiped together and lifted together (a few ms apart) fling as one
    /// finger does, from their centroid's velocity: the first finger up started the velocity
    /// afresh, and the content stopped where the fingers left it.
    @Test func aSwipeOfSeveralFingersFlingsAsOneFingerDoes() {
        func swipe(fingers: Int) -> (rest: Double, velocity: Double) {
            let rig = ScrollBench()
            let d = RecordingDelegate()
            rig.scroll.delegate = d
            for f in 0..<fingers {
                rig.send(.touchDown(id: f, position: Point(x: 100 + 60 * Double(f), y: 700)), at: 1)
            }
            for i in 1...10 {
                for f in 0..<fingers {
                    let p = Point(x: 100 + 60 * Double(f), y: 700 - 30 * Double(i))
                    rig.send(.touchMotion(id: f, position: p), at: 1 + 0.01 * Double(i))
                }
            }
            for f in 0..<fingers { rig.send(.touchUp(id: f), at: 1.1 + 0.004 * Double(f)) }
            rig.settle()
            return (rig.scroll.contentOffset.y, d.lastReleaseVelocity?.y ?? 0)
        }
        let one = swipe(fingers: 1)
        #expect(one.rest > 600, "one finger flung only to \(one.rest)")
        for n in [2, 3] {
            let many = swipe(fingers: n)
            #expect(abs(many.velocity - one.velocity) < 1e-6, "\(n) fingers: \(many.velocity) against \(one.velocity)")
            #expect(abs(many.rest - one.rest) < 1, "\(n) fingers rested at \(many.rest) against \(one.rest)")
        }
    }

    /// A thumb resting on the content while another finger swipes, lifted just after that
    /// finger, throws nothing: the drag's release is the last finger's own motion, and the
    /// thumb did not move. The centroid's recent motion, which the swipe made, had thrown the
    /// content on at half the swipe's speed. Whichever finger landed first, the same.
    @Test func aThumbRestingWhileAnotherFingerSwipesThrowsNothing() {
        for thumbFirst in [true, false] {
            let rig = ScrollBench()
            let d = RecordingDelegate()
            rig.scroll.delegate = d
            let thumb = thumbFirst ? 0 : 1
            let finger = 1 - thumb
            rig.send(.touchDown(id: 0, position: Point(x: thumbFirst ? 60 : 200, y: 700)), at: 1)
            rig.send(.touchDown(id: 1, position: Point(x: thumbFirst ? 200 : 60, y: 700)), at: 1.005)
            for i in 1...10 {
                rig.send(
                    .touchMotion(id: finger, position: Point(x: 200, y: 700 - 30 * Double(i))), at: 1 + 0.01 * Double(i)
                )
            }
            // The swipe moved the centroid 150 px, so the content 150 px less the slop.
            let lifted = rig.scroll.contentOffset.y
            #expect(abs(lifted - 140) < 1e-9, "thumb first \(thumbFirst): the content moved \(lifted)")
            rig.send(.touchUp(id: finger), at: 1.1)
            rig.send(.touchUp(id: thumb), at: 1.12)
            rig.settle()
            #expect(
                d.lastReleaseVelocity == .zero,
                "thumb first \(thumbFirst): thrown at \(String(describing: d.lastReleaseVelocity))")
            #expect(
                rig.scroll.contentOffset.y == lifted,
                "thumb first \(thumbFirst): rested at \(rig.scroll.contentOffset.y)")
        }
    }

    /// Two fingers swiping, one lifting early while the other swipes on more slowly: the
    /// release is the slower finger's own speed, not the centroid's, which the faster one moved.
    @Test func theLastFingerOfASwipeThrowsItsOwnSpeed() {
        func release(lifting early: Bool) -> Double {
            let rig = ScrollBench()
            let d = RecordingDelegate()
            rig.scroll.delegate = d
            rig.send(.touchDown(id: 0, position: Point(x: 100, y: 700)), at: 1)
            if early { rig.send(.touchDown(id: 1, position: Point(x: 200, y: 700)), at: 1) }
            for i in 1...10 {
                // The first finger slow (10 px a step), the second fast (40 px) until it lifts.
                rig.send(
                    .touchMotion(id: 0, position: Point(x: 100, y: 700 - 10 * Double(i))), at: 1 + 0.01 * Double(i))
                if early, i <= 5 {
                    rig.send(
                        .touchMotion(id: 1, position: Point(x: 200, y: 700 - 40 * Double(i))), at: 1 + 0.01 * Double(i))
                }
                if early, i == 5 { rig.send(.touchUp(id: 1), at: 1.052) }
            }
            rig.send(.touchUp(id: 0), at: 1.1)
            return d.lastReleaseVelocity?.y ?? .nan
        }
        let alone = release(lifting: false)
        #expect(abs(alone - 1) < 1e-9, "one finger at 10 px a step threw \(alone) px/ms")
        let after = release(lifting: true)
        #expect(abs(after - alone) < 1e-9, "the finger left threw \(after) px/ms, alone \(alone)")
    }

    @Test func delegateRetargetingLandsExactlyThere() {
        let rig = ScrollBench()
        let d = RecordingDelegate()
        d.retarget = { _ in Point(x: 0, y: 1234) }
        rig.scroll.delegate = d
        rig.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), duration: 0.1)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 1234)
    }
}

@MainActor
@Suite struct PagingTests {
    /// A key pressed and released over `rig`, and (unless told not to) the motion it starts run
    /// to rest.
    func press(_ key: Key, _ mods: Modifiers = [], in rig: ScrollBench, settling: Bool = true) {
        rig.send(.key(key, pressed: true, modifiers: mods))
        rig.send(.key(key, pressed: false, modifiers: mods))
        if settling { rig.settle() }
    }

    @Test func pagingLandsOnPagesAndMovesAtMostOnePage() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390 * 10, height: 844))
        rig.scroll.isPagingEnabled = true
        // A slow, short drag: back to page 0.
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 200, y: 400), duration: 0.5)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 0)
        // A flick: page 1.
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 250, y: 400), duration: 0.05)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 390)
        // A violent fling from page 1: page 2, never further.
        rig.drag(from: Point(x: 380, y: 400), to: Point(x: 10, y: 400), duration: 0.04)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 780)
        #expect(rig.callbacks.last == .didEndDecelerating)
    }

    /// A wheel and keys turn a pager's pages, so it rests on one: a detent a page (a
    /// high-resolution wheel's parts adding up to one), the arrows a page, Page Down and Space
    /// a page and Home and End the first and last in a pager that scrolls only sideways. A
    /// detent stepped ⅔ of the viewport's power and an arrow 40 px, and left it between pages.
    @Test func aWheelAndKeysTurnAPagersPages() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390 * 10, height: 844))
        let pager = rig.scroll
        pager.isPagingEnabled = true
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        func wheel(_ value120: Double) {
            rig.send(.axis(.horizontal, value: value120 / 12, source: .wheel, value120: value120))
        }
        // A detent (a tilt, or Shift with the wheel) turns a page.
        wheel(120)
        rig.settle()
        #expect(pager.contentOffset.x == 390)
        // Three quarters of a detent turn nothing; the fourth quarter turns a page.
        for _ in 0..<3 { wheel(30) }
        rig.settle()
        #expect(pager.contentOffset.x == 390)
        wheel(30)
        rig.settle()
        #expect(pager.contentOffset.x == 780)
        // Two detents at once, and back one.
        wheel(120)
        wheel(120)
        rig.settle()
        #expect(pager.contentOffset.x == 1560)
        wheel(-120)
        rig.settle()
        #expect(pager.contentOffset.x == 1170)
        press(.right, in: rig)
        #expect(pager.contentOffset.x == 1560)
        press(.left, in: rig, settling: false)
        press(.left, in: rig)
        #expect(pager.contentOffset.x == 780)
        press(.pageDown, in: rig)
        #expect(pager.contentOffset.x == 1170)
        press(.space, .shift, in: rig)
        #expect(pager.contentOffset.x == 780)
        press(.end, in: rig)
        #expect(pager.contentOffset.x == 390 * 9)
        press(.home, in: rig)
        #expect(pager.contentOffset.x == 0)
        // Up and Down are not a sideways pager's.
        press(.down, in: rig)
        #expect(pager.contentOffset == .zero)
    }

    /// A short last page is a page: from it, Left goes to the page before (its offset, 1.4
    /// pages, had rounded to page 1, so Left skipped to page 0), and Right stays.
    @Test func aShortLastPageIsAPageForTheKeys() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390 * 2.4, height: 844))
        let pager = rig.scroll
        pager.isPagingEnabled = true
        rig.send(.pointerMotion(position: Point(x: 200, y: 400)))
        press(.end, in: rig)
        #expect(abs(pager.contentOffset.x - 390 * 1.4) < 1e-9)
        press(.right, in: rig)
        #expect(abs(pager.contentOffset.x - 390 * 1.4) < 1e-9)
        press(.left, in: rig)
        #expect(pager.contentOffset.x == 390)
        press(.right, in: rig)
        #expect(abs(pager.contentOffset.x - 390 * 1.4) < 1e-9)
        // A tap there leaves it there: the nearest page to an offset at the range's end is the
        // short last page (a touch settled it back onto the page before).
        rig.send(.touchDown(id: 1, position: Point(x: 200, y: 400)), at: rig.time + 0.1)
        rig.send(.touchUp(id: 1), at: rig.time + 0.05)
        rig.settle()
        #expect(abs(pager.contentOffset.x - 390 * 1.4) < 1e-9)
    }

    /// A sideways pager (a carousel) inside a vertically scrolling view leaves the page keys to
    /// that view, as before pagers turned pages by keys; the arrows along it are still its own.
    @Test func pageKeysOverACarouselScrollTheViewAroundIt() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390, height: 12000))
        let pager = ScrollView(frame: Rect(x: 0, y: 100, width: 390, height: 300))
        pager.contentSize = Size(width: 390 * 5, height: 300)
        pager.addSubview(View(frame: Rect(x: 0, y: 0, width: 390 * 5, height: 300)))
        pager.isPagingEnabled = true
        rig.content.addSubview(pager)
        rig.settle()
        rig.send(.pointerMotion(position: Point(x: 200, y: 250)))
        press(.pageDown, in: rig)
        #expect(rig.scroll.contentOffset.y == 844 - ScrollView.pageOverlap)
        #expect(pager.contentOffset.x == 0)
        press(.end, in: rig)
        #expect(rig.scroll.contentOffset.y == rig.scroll.verticalRange.upperBound && pager.contentOffset.x == 0)
    }

    /// A pager of `pages` 390 px pages at `offset`, flicked left by 200 px in 32 ms, and the
    /// count of frames drawn until the release.
    func flickedPager(pages: Int, from offset: Double) -> (ScrollBench, Int) {
        let rig = ScrollBench(
            viewport: Size(width: 390, height: 844), content: Size(width: 390 * Double(pages), height: 844))
        rig.scroll.isPagingEnabled = true
        rig.scroll.contentOffset = Point(x: offset, y: 0)
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), duration: 0.032)
        return (rig, rig.offsets.count)
    }

    /// A flick onto the next page leaves at the release velocity and slows onto the page
    /// without passing it (UIKit's paging shows none of the page after). The ω = 14 spring
    /// thrown at the release velocity passed the page by 40 px and came back.
    @Test func aFlickSlowsOntoThePageWithoutPassingIt() {
        let (rig, released) = flickedPager(pages: 10, from: 390)
        rig.settle()
        let after = rig.offsets[released...].map(\.x)
        #expect(rig.scroll.contentOffset.x == 780)
        #expect(after.allSatisfy { $0 <= 780 }, "went to \(after.max() ?? 0)")
        // Every frame moves on towards the page until it rests there: no turn, no stop.
        let moving = after.prefix { $0 != 780 }
        let steps = zip(moving, moving.dropFirst()).map { $1 - $0 }
        #expect(moving.count > 5 && steps.allSatisfy { $0 > 0 }, "\(steps)")
    }

    /// A flick out at the last page, released past the end, heads back at once: the spring
    /// thrown further out was held where it started (moves stay inside the range widened to
    /// their start) and stood still for 13 frames before it turned.
    @Test func aFlickOutAtTheLastPageHeadsBackWithoutStopping() {
        let (rig, released) = flickedPager(pages: 6, from: 1950)
        #expect(rig.scroll.contentOffset.x > 1950)
        rig.settle()
        let moving = rig.offsets[released...].map(\.x).prefix { $0 != 1950 }
        let steps = zip(moving, moving.dropFirst()).map { $1 - $0 }
        #expect(moving.count > 5 && steps.allSatisfy { $0 < 0 }, "\(steps)")
        #expect(rig.scroll.contentOffset.x == 1950)
    }

    /// A target within half a device pixel of the release is landed on exactly (the spring was
    /// already settled, and only a fling's rest was put in place: it rested 0.3 px off), and a
    /// target that is not a number leaves the page the release chose (a NaN rest never settled).
    @Test func aTargetAHairAwayIsLandedOnAndANaNOneIsNone() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390 * 6, height: 844))
        rig.scroll.isPagingEnabled = true
        let d = RecordingDelegate()
        var aimed = Point.zero
        d.retarget = { _ in
            aimed = Point(x: rig.scroll.contentOffset.x + 0.3, y: 0)
            return aimed
        }
        rig.scroll.delegate = d
        rig.retainedDelegate = d
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 250, y: 400), duration: 0.1)
        rig.settle()
        #expect(rig.scroll.contentOffset == aimed && !rig.scroll.isDecelerating, "\(rig.scroll.contentOffset) \(aimed)")
        d.retarget = { _ in Point(x: .nan, y: 0) }
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), duration: 0.032)
        rig.settle()
        #expect(!rig.scroll.isDecelerating && rig.scroll.contentOffset.x.truncatingRemainder(dividingBy: 390) == 0)
    }

    /// A delegate's target for a paging release is a page offset like any other: one outside
    /// the range rests at the range's end (it rested outside it).
    @Test func aDelegatesTargetOutsideTheRangeRestsInsideIt() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 390 * 6, height: 844))
        rig.scroll.isPagingEnabled = true
        let d = RecordingDelegate()
        d.retarget = { _ in Point(x: 5000, y: 0) }
        rig.scroll.delegate = d
        rig.retainedDelegate = d
        rig.drag(from: Point(x: 300, y: 400), to: Point(x: 100, y: 400), duration: 0.032)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 1950)
    }
}

@MainActor
@Suite struct SeveralFingersTests {
    @Test func fingersPanTogetherByTheirCentroidWithoutJumps() {
        let rig = ScrollBench()
        rig.drag(from: Point(x: 200, y: 600), to: Point(x: 200, y: 500), duration: 0.2, lift: false)
        #expect(rig.scroll.contentOffset.y == 90)
        // A second finger lands far away: nothing moves.
        rig.send(.touchDown(id: 2, position: Point(x: 100, y: 300)), at: rig.time + 0.01)
        #expect(rig.scroll.contentOffset.y == 90)
        // Both move up 100: the centroid moves 100.
        rig.send(.touchMotion(id: 1, position: Point(x: 200, y: 400)), at: rig.time + 0.02)
        rig.send(.touchMotion(id: 2, position: Point(x: 100, y: 200)), at: rig.time + 0.001)
        #expect(rig.scroll.contentOffset.y == 190)
        // The first finger lifts: nothing jumps; the second carries on alone.
        rig.send(.touchUp(id: 1), at: rig.time + 0.01)
        #expect(rig.scroll.contentOffset.y == 190)
        rig.send(.touchMotion(id: 2, position: Point(x: 100, y: 150)), at: rig.time + 0.1)
        #expect(rig.scroll.contentOffset.y == 240)
        rig.send(.touchUp(id: 2), at: rig.time + 0.2)
        rig.settle()
        #expect(rig.scroll.contentOffset.y == 240)
        #expect(rig.callbacks.filter { $0 == .willBeginDragging }.count == 1)
    }
}
