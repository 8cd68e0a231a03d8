import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A segmented control as UIKit's UISegmentedControl: a tap chooses the segment it lifts on, a
/// finger on the selected segment drags the pill, a cancel leaves the choice; momentary and
/// disabled segments; keys; segments inserted and removed keep the choice; a reader meets radio
/// buttons in a group; a drag along it from the selected segment is not a pager's.
///
/// The control below is 304 × 32 at (20, 300) in the content: inside its 2 px inset, three
/// segments 100 px wide, their centres at x 72, 172 and 272 (window), on y 316.
@MainActor
@Suite struct SegmentedControlTests {
    static let centres = [72.0, 172, 272]
    static let y = 316.0

    func make(_ rig: ScrollBench = ScrollBench()) -> (ScrollBench, SegmentedControl) {
        let control = SegmentedControl(items: ["Light", "Dark", "Auto"])
        control.frame = Rect(x: 20, y: 300, width: 304, height: 32)
        control.accessibilityLabel = "Theme"
        rig.content.addSubview(control)
        rig.window.layoutIfNeeded()
        return (rig, control)
    }

    func tap(_ rig: ScrollBench, _ x: Double) {
        rig.send(from: rig.time + 0.1) { $0.tap(at: Point(x: x, y: Self.y), at: 0, id: 1) }
        rig.settle()
    }

    /// The pill's rect in the control, once settled.
    func pill(_ control: SegmentedControl) -> Rect? {
        control.subviews.first { $0.isUserInteractionEnabled == false && !$0.isHidden }?.frame
    }

    @Test func aTapChoosesTheSegmentItLiftsOnAndThePillSlidesThere() {
        let (rig, control) = make()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && pill(control) == nil)
        tap(rig, Self.centres[0])
        #expect(control.selectedSegmentIndex == 0 && heard == [0])
        #expect(pill(control) == Rect(x: 2, y: 2, width: 100, height: 28))
        tap(rig, Self.centres[2])
        #expect(control.selectedSegmentIndex == 2 && heard == [0, 2])
        #expect(pill(control) == Rect(x: 202, y: 2, width: 100, height: 28))
        // The same segment again: no change, nothing heard.
        tap(rig, Self.centres[2])
        #expect(heard == [0, 2])
        // In code: nothing heard, the pill there at once.
        control.selectedSegmentIndex = 1
        #expect(heard == [0, 2] && pill(control) == Rect(x: 102, y: 2, width: 100, height: 28))
        #expect(control.rectForSegment(at: 1) == Rect(x: 102, y: 2, width: 100, height: 28))
    }

    @Test func aPressFollowsTheFingerAndLiftingFarAwayChoosesNothing() {
        let (rig, control) = make()
        control.selectedSegmentIndex = 0
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        // Held past the scroll view's delay on segment 2, moved onto segment 1: it is chosen.
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[2], y: Self.y)), at: 0)
        rig.advance(to: 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: Self.centres[1], y: Self.y + 4)), at: 0.25)
        rig.send(.touchUp(id: 1), at: 0.3)
        rig.settle()
        #expect(control.selectedSegmentIndex == 1 && heard == [1])
        // Held on segment 2 and taken 60 px below: nothing chosen.
        let t = rig.time + 0.1
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[2], y: Self.y)), at: t)
        rig.advance(to: t + 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: Self.centres[2], y: Self.y + 60)), at: t + 0.25)
        rig.send(.touchUp(id: 1), at: t + 0.3)
        rig.settle()
        #expect(control.selectedSegmentIndex == 1 && heard == [1])
    }

    @Test func aFingerOnTheSelectedSegmentDragsThePillAndACancelLeavesTheChoice() {
        let (rig, control) = make()
        control.selectedSegmentIndex = 0
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[0], y: Self.y)), at: 0)
        rig.advance(to: 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: Self.centres[2], y: Self.y)), at: 0.25)
        rig.advance(to: 0.7)
        // The pill is over segment 2; the choice waits for the lift.
        #expect(pill(control) == Rect(x: 202, y: 2, width: 100, height: 28))
        #expect(control.selectedSegmentIndex == 0 && heard.isEmpty)
        rig.send(.touchCancel, at: 0.75)
        rig.settle()
        #expect(control.selectedSegmentIndex == 0 && heard.isEmpty)
        #expect(pill(control) == Rect(x: 2, y: 2, width: 100, height: 28))
        // Again, let go on segment 1.
        let t = rig.time + 0.1
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[0], y: Self.y)), at: t)
        rig.advance(to: t + 0.2)
        rig.send(.touchMotion(id: 1, position: Point(x: Self.centres[1], y: Self.y)), at: t + 0.25)
        rig.send(.touchUp(id: 1), at: t + 0.3)
        rig.settle()
        #expect(control.selectedSegmentIndex == 1 && heard == [1])
    }

    @Test func momentaryAndDisabledSegments() {
        let (rig, control) = make()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        control.setEnabled(false, forSegmentAt: 1)
        tap(rig, Self.centres[1])
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && heard.isEmpty)
        #expect(!control.isEnabledForSegment(at: 1) && control.isEnabledForSegment(at: 0))
        control.isMomentary = true
        tap(rig, Self.centres[2])
        tap(rig, Self.centres[2])
        // Each tap fires; nothing is shown chosen.
        #expect(heard == [2, 2] && pill(control) == nil)
    }

    @Test func keysChooseTheNextEnabledSegmentMirroredRightToLeft() {
        let (rig, control) = make()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        control.setEnabled(false, forSegmentAt: 1)
        control.becomeFocused()
        func press(_ key: Key) {
            rig.send(.key(key, pressed: true, modifiers: []), at: rig.time + 0.01)
            rig.send(.key(key, pressed: false, modifiers: []), at: rig.time + 0.03)
        }
        press(.right)  // from none: the first
        press(.right)  // past the disabled one
        press(.right)  // at the end: nothing
        #expect(heard == [0, 2])
        press(.home)
        #expect(heard == [0, 2, 0])
        rig.window.userInterfaceLayoutDirection = .rightToLeft
        rig.settle()
        // Right to left, segment 0 stands at the right; Left goes on to segment 2.
        #expect(control.rectForSegment(at: 0) == Rect(x: 202, y: 2, width: 100, height: 28))
        press(.left)
        #expect(heard == [0, 2, 0, 2])
        rig.settle()
        #expect(pill(control) == Rect(x: 2, y: 2, width: 100, height: 28))
    }

    @Test func segmentsInsertedAndRemovedKeepTheChoice() {
        let (rig, control) = make()
        defer { withExtendedLifetime(rig) {} }
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "System", at: 0)
        #expect(control.numberOfSegments == 4 && control.selectedSegmentIndex == 2)
        #expect(control.titleForSegment(at: 2) == "Dark")
        control.removeSegment(at: 3)
        #expect(control.selectedSegmentIndex == 2)
        control.removeSegment(at: 2)
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment)
        control.setTitle("Night", forSegmentAt: 1)
        #expect(control.titleForSegment(at: 1) == "Night" && control.titleForSegment(at: 5) == nil)
        control.removeAllSegments()
        #expect(control.numberOfSegments == 0)
    }

    @Test func aReaderMeetsRadioButtonsInANamedGroup() throws {
        let (rig, control) = make()
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        control.selectedSegmentIndex = 1
        let tree = rig.window.accessibilityTree()
        let group = try #require(tree.all.first { $0.view === control })
        #expect(group.role == .group && group.label == "Theme")
        #expect(group.children.map(\.role) == [.radioButton, .radioButton, .radioButton])
        #expect(group.children.map(\.label) == ["Light", "Dark", "Auto"])
        #expect(group.children.map { $0.states.contains(.checked) } == [false, true, false])
        #expect(group.children.map { $0.position?.index } == [1, 2, 3])
        #expect(group.children[2].view.accessibilityActivate())
        #expect(control.selectedSegmentIndex == 2 && heard == [2])
        // A disabled segment is read as not enabled, nor can it be chosen.
        control.setEnabled(false, forSegmentAt: 0)
        let disabled = try #require(rig.window.accessibilityTree().all.first { $0.view === control })
        #expect(disabled.children.map { $0.states.contains(.enabled) } == [false, true, true])
        #expect(!disabled.children[0].view.accessibilityActivate() && control.selectedSegmentIndex == 2)
    }

    /// In a pager, a drag along the control from the selected segment drags the pill at once;
    /// from another segment it turns the page.
    @Test func inAPagerTheSelectedSegmentKeepsItsDrag() {
        let rig = ScrollBench(content: Size(width: 390 * 3, height: 844))
        rig.scroll.isPagingEnabled = true
        let (_, control) = make(rig)
        control.selectedSegmentIndex = 0
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[0], y: Self.y)), at: 0)
        for i in 1...10 {
            rig.send(
                .touchMotion(id: 1, position: Point(x: Self.centres[0] + 20 * Double(i), y: Self.y)),
                at: 0.01 * Double(i))
        }
        rig.send(.touchUp(id: 1), at: 0.11)
        rig.settle()
        #expect(heard == [2] && rig.scroll.contentOffset.x == 0)
        // From segment 1, not the selected one, leftwards: a flick that turns the page.
        rig.send(.touchDown(id: 1, position: Point(x: Self.centres[1], y: Self.y)), at: 1)
        for i in 1...10 {
            rig.send(
                .touchMotion(id: 1, position: Point(x: Self.centres[1] - 15 * Double(i), y: Self.y)),
                at: 1 + 0.01 * Double(i))
        }
        rig.send(.touchUp(id: 1), at: 1.11)
        rig.settle()
        #expect(rig.scroll.contentOffset.x == 390 && heard == [2])
    }
}
