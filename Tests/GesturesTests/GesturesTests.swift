import ScrollwayGeometry
import ScrollwayGestures
import Testing

@Suite struct PanTrackerTests {
    @Test func dragStartsWhereTheSlopWasCrossed() {
        var p = PanTracker(at: Point(x: 100, y: 100), time: 0)
        do {
            let r = p.move(to: Point(x: 100, y: 106), time: 0.01)
            #expect(!r)
        }
        #expect(p.translation == .zero)
        do {
            let r = p.move(to: Point(x: 100, y: 115), time: 0.02)
            #expect(r)
        }
        #expect(p.dragOrigin == Point(x: 100, y: 110))
        // 5 px past the crossing point: the content moves 5, not 15.
        #expect(p.translation == Point(x: 0, y: 5))
        p.move(to: Point(x: 100, y: 160), time: 0.03)
        #expect(p.translation == Point(x: 0, y: 50))
        // The slop is radial: 8,8 is 11.3 px away.
        var q = PanTracker(at: .zero, time: 0)
        do {
            let r = q.move(to: Point(x: 8, y: 8), time: 0.01)
            #expect(r)
        }
    }

    @Test func directionalLockIsDecidedOnceAtSlopCrossing() {
        var p = PanTracker(at: .zero, time: 0, directionalLock: true)
        p.move(to: Point(x: 4, y: 11), time: 0.01)  // |4| < 0.5·|11|: vertical
        #expect(p.lock == .vertical)
        p.move(to: Point(x: 80, y: 30), time: 0.02)  // later sideways motion is ignored
        #expect(p.translation.x == 0)
        #expect(p.lock == .vertical)

        var diagonal = PanTracker(at: .zero, time: 0, directionalLock: true)
        diagonal.move(to: Point(x: 8, y: 9), time: 0.01)  // 8 ≥ 0.5·9: free
        #expect(diagonal.lock == .none)

        var free = PanTracker(at: .zero, time: 0, directionalLock: false)
        free.move(to: Point(x: 1, y: 20), time: 0.01)
        #expect(free.lock == .none)
    }

    @Test func releaseVelocityFromTheSamples() {
        var p = PanTracker(at: Point(x: 0, y: 500), time: 0)
        for i in 1...6 { p.move(to: Point(x: 0, y: 500 - 25 * Double(i)), time: Double(i) / 60) }
        #expect(abs(p.velocity(at: 6.0 / 60).y - -1500) < 1e-6)
    }
}

@Suite struct TouchArbiterTests {
    @Test func slopBeforeTheDelayGoesToTheScrollViewOnly() {
        var a = TouchArbiter(time: 0)
        #expect(a.initialActions.isEmpty && a.deadline == 0.150)
        do {
            let r = a.moved(crossedSlop: false)
            #expect(r.isEmpty)
        }
        do {
            let r = a.moved(crossedSlop: true)
            #expect(r == [.beginScrolling])
        }
        do {
            let r = a.timerFired(time: 0.2)
            #expect(r.isEmpty)
        }
        do {
            let r = a.lifted()
            #expect(r.isEmpty)
        }
    }

    /// A held touch whose pan failed cannot scroll: the content has it at once, no timer is
    /// left, and its moves and end are the content's. Only a held touch is given over.
    @Test func aHeldTouchWhosePanFailedGoesToTheContentAtOnce() {
        var a = TouchArbiter(time: 0)
        #expect(a.panFailed() == [.beginContent])
        #expect(a.state == .content && a.deadline == nil)
        #expect(a.panFailed().isEmpty)
        #expect(a.moved(crossedSlop: false) == [.moveContent])
        #expect(a.lifted() == [.endContent])
        var stop = TouchArbiter(time: 0, stoppedSpeed: 900)
        #expect(stop.panFailed().isEmpty && stop.state == .stopOnly)
    }

    @Test func afterTheDelayContentGetsItAndIsCancelledByAScroll() {
        var a = TouchArbiter(time: 1)
        do {
            let r = a.timerFired(time: 1.149)
            #expect(r.isEmpty)
        }
        do {
            let r = a.timerFired(time: 1.150)
            #expect(r == [.beginContent])
        }
        do {
            let r = a.moved(crossedSlop: false)
            #expect(r == [.moveContent])
        }
        do {
            let r = a.moved(crossedSlop: true)
            #expect(r == [.cancelContent, .beginScrolling])
        }
        do {
            let r = a.lifted()
            #expect(r.isEmpty)
        }
    }

    @Test func noCancelWhenNotAllowed() {
        var a = TouchArbiter(time: 0, canCancelContentTouches: false)
        _ = a.timerFired(time: 0.15)
        do {
            let r = a.moved(crossedSlop: true)
            #expect(r == [.moveContent])
        }
        do {
            let r = a.lifted()
            #expect(r == [.endContent])
        }
        var b = TouchArbiter(time: 0)
        _ = b.timerFired(time: 0.15)
        do {
            let r = b.moved(crossedSlop: true, contentAllowsCancel: false)
            #expect(r == [.moveContent])
        }
    }

    @Test func aQuickTapReachesContentOnLift() {
        var a = TouchArbiter(time: 0)
        do {
            let r = a.lifted()
            #expect(r == [.beginContent, .endContent])
        }
    }

    @Test func withoutDelayContentBeginsAtOnce() {
        let a = TouchArbiter(time: 0, delaysContentTouches: false)
        #expect(a.initialActions == [.beginContent])
        #expect(a.deadline == nil)
    }

    @Test func stoppingAFastDecelerationIsNeverATap() {
        var fast = TouchArbiter(time: 0, stoppedSpeed: 600)
        #expect(fast.state == .stopOnly)
        do {
            let r = fast.timerFired(time: 1)
            #expect(r.isEmpty)
        }
        do {
            let r = fast.lifted()
            #expect(r.isEmpty)
        }
        var slow = TouchArbiter(time: 0, stoppedSpeed: 100)
        do {
            let r = slow.lifted()
            #expect(r == [.beginContent, .endContent])
        }
    }
}

@Suite struct PinchTrackerTests {
    @Test func scaleAndCentre() {
        var p = PinchTracker(Point(x: 100, y: 100), Point(x: 200, y: 100))!
        p.update(Point(x: 50, y: 100), Point(x: 250, y: 100))
        #expect(p.scale == 2)
        #expect(p.center == Point(x: 150, y: 100))
        #expect(PinchTracker(.zero, .zero) == nil)
    }
}

@Suite struct KeyNameTests {
    @Test func keysymNames() {
        #expect(Key(keysymName: "Page_Down") == .pageDown)
        #expect(Key(keysymName: "Next") == .pageDown)
        #expect(Key(keysymName: "End") == .end)
        #expect(Key(keysymName: "a") == .other("a"))
    }
}
