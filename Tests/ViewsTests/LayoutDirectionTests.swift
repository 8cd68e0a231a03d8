import Scrollway
import Testing

/// Right-to-left layout (UIKit's `userInterfaceLayoutDirection` and `semanticContentAttribute`):
/// constraints written with leading and trailing anchors lay the screen out mirrored, their
/// constants running from the right; left, right, centres and sizes stay where they are.
@MainActor
@Suite struct LayoutDirectionTests {
    typealias Box = StackViewTests.Box

    /// A 400×300 window reading `direction`, holding a row: `a` 16 from the leading edge, `b`
    /// 8 after it, `c` at the window's centre plus 10 towards the trailing side, `d` pinned by
    /// its left edge.
    func screen(_ direction: UserInterfaceLayoutDirection) -> (Window, [Box]) {
        let window = Window(size: Size(width: 400, height: 300))
        window.userInterfaceLayoutDirection = direction
        let boxes = [Box(100, 20), Box(50, 20), Box(30, 20), Box(40, 20)]
        for b in boxes {
            b.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(b)
        }
        let (a, b, c, d) = (boxes[0], boxes[1], boxes[2], boxes[3])
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 16),
            b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
            c.leadingAnchor.constraint(equalTo: window.centerXAnchor, constant: 10),
            d.leftAnchor.constraint(equalTo: window.leftAnchor, constant: 5),
        ])
        for box in boxes { box.topAnchor.constraint(equalTo: window.topAnchor).isActive = true }
        window.layoutIfNeeded()
        return (window, boxes)
    }

    @Test func leadingAndTrailingMirrorRightToLeft() {
        let (ltr, l) = screen(.leftToRight)
        #expect(l.map(\.frame.minX) == [16, 124, 210, 5])
        let (rtl, r) = screen(.rightToLeft)
        // a: its right edge 16 from the window's; b 8 to its left; c's right edge 10 left of
        // the centre; d, pinned by its left edge, where it was.
        #expect(r.map(\.frame.maxX) == [384, 276, 190, 45])
        #expect(r.map(\.effectiveUserInterfaceLayoutDirection) == Array(repeating: .rightToLeft, count: 4))
        #expect(ltr.unsatisfiableLayouts.isEmpty && rtl.unsatisfiableLayouts.isEmpty)
    }

    /// An inequality between leading and trailing edges keeps its sense in the mirror: "b at
    /// least 8 after a", b drawn weakly back to the leading edge, stops 8 short of a either
    /// way (right to left it had overlapped a, its `>=` taken on the left-hand edges as is);
    /// the same for `<=` written the other way round.
    @Test func inequalitiesOnLeadingAndTrailingPointTheOtherWayInTheMirror() {
        for direction in [UserInterfaceLayoutDirection.leftToRight, .rightToLeft] {
            let window = Window(size: Size(width: 400, height: 300))
            window.userInterfaceLayoutDirection = direction
            let (a, b, c) = (Box(50, 20), Box(50, 20), Box(50, 20))
            for v in [a, b, c] {
                v.translatesAutoresizingMaskIntoConstraints = false
                window.addSubview(v)
                v.topAnchor.constraint(equalTo: window.topAnchor).isActive = true
            }
            let pullB = b.leadingAnchor.constraint(equalTo: window.leadingAnchor)
            pullB.priority = .defaultLow
            let pullC = c.trailingAnchor.constraint(equalTo: window.trailingAnchor)
            pullC.priority = .defaultLow
            LayoutConstraint.activate([
                a.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
                b.leadingAnchor.constraint(greaterThanOrEqualTo: a.trailingAnchor, constant: 8), pullB,
                // c's trailing edge at least 100 px in from the window's: pulled to it, c stops there.
                c.trailingAnchor.constraint(lessThanOrEqualTo: window.trailingAnchor, constant: -100), pullC,
            ])
            window.layoutIfNeeded()
            if direction == .leftToRight {
                #expect(a.frame.minX == 10 && b.frame.minX == 68 && c.frame.maxX == 300)
            } else {
                #expect(a.frame.maxX == 390 && b.frame.maxX == 332 && c.frame.minX == 100)
            }
            #expect(window.unsatisfiableLayouts.isEmpty)
        }
    }

    /// The direction changed on a laid-out window mirrors it at the next layout, and back; a
    /// constant changed meanwhile (an animated inset) runs from the right too.
    @Test func aWindowTurnedRightToLeftLaysOutAgain() throws {
        let (window, boxes) = screen(.leftToRight)
        window.userInterfaceLayoutDirection = .rightToLeft
        window.layoutIfNeeded()
        #expect(boxes.map(\.frame.maxX) == [384, 276, 190, 45])
        let inset = try #require(
            window.installedConstraints.first { $0.firstAttribute == .leading && $0.constant == 16 })
        inset.constant = 30
        window.layoutIfNeeded()
        #expect(boxes[0].frame.maxX == 370 && boxes[1].frame.maxX == 262)
        window.userInterfaceLayoutDirection = .leftToRight
        window.layoutIfNeeded()
        #expect(boxes.map(\.frame.minX) == [30, 138, 210, 5])
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    /// A subtree that says its direction keeps it under a window that reads the other way
    /// (a media bar stays left to right in a Hebrew app), and changing what it says lays it
    /// out again.
    @Test func aSubtreeKeepsTheDirectionItSays() {
        let window = Window(size: Size(width: 400, height: 300))
        window.userInterfaceLayoutDirection = .rightToLeft
        let bar = View(frame: Rect(x: 0, y: 0, width: 200, height: 50))
        bar.semanticContentAttribute = .playback
        window.addSubview(bar)
        let play = Box(40, 40)
        play.translatesAutoresizingMaskIntoConstraints = false
        bar.addSubview(play)
        LayoutConstraint.activate([
            play.leadingAnchor.constraint(equalTo: bar.leadingAnchor, constant: 4),
            play.topAnchor.constraint(equalTo: bar.topAnchor),
        ])
        window.layoutIfNeeded()
        #expect(play.effectiveUserInterfaceLayoutDirection == .leftToRight)
        #expect(play.frame.minX == 4)
        bar.semanticContentAttribute = .unspecified
        window.layoutIfNeeded()
        #expect(play.effectiveUserInterfaceLayoutDirection == .rightToLeft)
        #expect(play.frame.maxX == 196)
        bar.semanticContentAttribute = .forceLeftToRight
        window.layoutIfNeeded()
        #expect(play.frame.minX == 4)
    }

    /// A row of a stack view runs from the right in a right-to-left window, as UIStackView's
    /// does: its first arranged view is the rightmost.
    @Test func aStackRowRunsFromTheRight() {
        let window = Window(size: Size(width: 400, height: 300))
        window.userInterfaceLayoutDirection = .rightToLeft
        let stack = StackView(axis: .horizontal, spacing: 10, alignment: .center)
        stack.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(stack)
        let boxes = [Box(40, 30), Box(60, 50), Box(80, 20)]
        for b in boxes { stack.addArrangedSubview(b) }
        LayoutConstraint.activate([
            stack.trailingAnchor.constraint(equalTo: window.trailingAnchor, constant: -20),
            stack.topAnchor.constraint(equalTo: window.topAnchor),
        ])
        window.layoutIfNeeded()
        // 40 + 10 + 60 + 10 + 80 = 200 wide, its left edge 20 from the window's left; the
        // boxes, in its coordinates, from its right edge leftwards.
        #expect(stack.frame.minX == 20 && stack.frame.width == 200)
        #expect(boxes.map(\.frame.minX) == [160, 90, 0])
        #expect(window.unsatisfiableLayouts.isEmpty)
    }

    final class Panel: View {
        var marginChanges = 0
        override func layoutMarginsDidChange() {
            super.layoutMarginsDidChange()
            marginChanges += 1
        }
    }

    /// A view's layout margins (UIKit's: 8 on every side by default) and the guide inside them:
    /// content pinned to the guide keeps the margins, follows a change of them, and in a
    /// right-to-left window takes the leading margin at the right; `layoutMargins` reads and
    /// writes them by left and right.
    @Test func contentPinnedToTheMarginsGuideKeepsTheMargins() {
        for direction in [UserInterfaceLayoutDirection.leftToRight, .rightToLeft] {
            let rtl = direction == .rightToLeft
            let window = Window(size: Size(width: 400, height: 300))
            window.userInterfaceLayoutDirection = direction
            let panel = Panel(frame: Rect(x: 50, y: 40, width: 300, height: 200))
            window.addSubview(panel)
            let content = View()
            content.translatesAutoresizingMaskIntoConstraints = false
            panel.addSubview(content)
            let g = panel.layoutMarginsGuide
            LayoutConstraint.activate([
                content.leadingAnchor.constraint(equalTo: g.leadingAnchor),
                content.trailingAnchor.constraint(equalTo: g.trailingAnchor),
                content.topAnchor.constraint(equalTo: g.topAnchor),
                content.bottomAnchor.constraint(equalTo: g.bottomAnchor),
            ])
            window.layoutIfNeeded()
            #expect(content.frame == Rect(x: 8, y: 8, width: 284, height: 184), "\(direction)")
            #expect(g.layoutFrame == content.frame)
            panel.directionalLayoutMargins = DirectionalEdgeInsets(top: 4, leading: 20, bottom: 6, trailing: 10)
            window.layoutIfNeeded()
            #expect(panel.marginChanges == 1)
            #expect(content.frame == Rect(x: rtl ? 10 : 20, y: 4, width: 270, height: 190), "\(direction)")
            #expect(
                panel.layoutMargins == EdgeInsets(top: 4, left: rtl ? 10 : 20, bottom: 6, right: rtl ? 20 : 10))
            panel.layoutMargins = EdgeInsets(top: 0, left: 30, bottom: 0, right: 0)
            window.layoutIfNeeded()
            #expect(panel.directionalLayoutMargins.leading == (rtl ? 0 : 30))
            #expect(content.frame == Rect(x: 30, y: 0, width: 270, height: 200), "\(direction)")
            #expect(window.unsatisfiableLayouts.isEmpty)
        }
    }
}
