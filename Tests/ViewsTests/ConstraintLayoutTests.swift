import Scrollway
import Testing

@testable import ScrollwayViews

/// Constraint layout on views: anchors, hand-set frames, intrinsic sizes with hugging and
/// compression resistance, edits that re-solve, conflicts named, and what removal cuts. Every
/// expected frame is worked out by hand from the constraints.
@MainActor
@Suite struct ConstraintLayoutTests {
    /// A window 400×300 with a plain container at (50,40) 300×200, set by hand.
    func scene() -> (Window, View) {
        let window = Window(size: Size(width: 400, height: 300))
        let container = View(frame: Rect(x: 50, y: 40, width: 300, height: 200))
        container.name = "container"
        window.addSubview(container)
        return (window, container)
    }

    func managed(_ name: String, in parent: View) -> View {
        let v = View()
        v.name = name
        v.translatesAutoresizingMaskIntoConstraints = false
        parent.addSubview(v)
        return v
    }

    @Test func anchorsPlaceAViewInsideAHandSetContainer() {
        let (window, container) = scene()
        let box = managed("box", in: container)
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 10),
            box.trailingAnchor.constraint(equalTo: container.trailingAnchor, constant: -30),
            box.topAnchor.constraint(equalTo: container.topAnchor, constant: 5),
            box.heightAnchor.constraint(equalTo: box.widthAnchor, multiplier: 0.5),
        ])
        window.layoutIfNeeded()
        // width = 300 − 10 − 30 = 260, height = 130; in the container's coordinates.
        #expect(box.frame == Rect(x: 10, y: 5, width: 260, height: 130))
        #expect(!box.hasAmbiguousLayout)
        #expect(window.unsatisfiableLayouts.isEmpty)
        // The container's frame, set by hand, moves the box with it on the next layout.
        container.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        window.layoutIfNeeded()
        #expect(box.frame == Rect(x: 10, y: 5, width: 160, height: 80))
    }

    @Test func viewsInDifferentContainersMeetInTheirCommonAncestorsCoordinates() {
        let (window, container) = scene()
        let inner = managed("inner", in: container)
        let outside = managed("outside", in: window)
        LayoutConstraint.activate([
            inner.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 20),
            inner.topAnchor.constraint(equalTo: container.topAnchor, constant: 10),
            inner.widthAnchor.constraint(equalToConstant: 100),
            inner.heightAnchor.constraint(equalToConstant: 50),
            // Just below `inner`, as the window sees it: y = 40 + 10 + 50 + 4 = 104.
            outside.topAnchor.constraint(equalTo: inner.bottomAnchor, constant: 4),
            outside.centerXAnchor.constraint(equalTo: inner.centerXAnchor),
            outside.widthAnchor.constraint(equalToConstant: 40),
            outside.heightAnchor.constraint(equalToConstant: 10),
        ])
        window.layoutIfNeeded()
        #expect(inner.frame == Rect(x: 20, y: 10, width: 100, height: 50))
        // centre x in the window = 50 + 20 + 50 = 120, so its left is 100.
        #expect(outside.frame == Rect(x: 100, y: 104, width: 40, height: 10))
    }

    @Test func aConstantChangeResolvesAndAnInactiveConstraintLetsGo() {
        let (window, container) = scene()
        let box = managed("box", in: container)
        let width = box.widthAnchor.constraint(equalToConstant: 100)
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            box.topAnchor.constraint(equalTo: container.topAnchor),
            width, box.heightAnchor.constraint(equalToConstant: 20),
        ])
        window.layoutIfNeeded()
        #expect(box.frame.width == 100)
        width.constant = 180
        window.layoutIfNeeded()
        #expect(box.frame.width == 180)
        // A weaker wish takes over when the required one goes.
        let wish = box.widthAnchor.constraint(equalToConstant: 70).withPriority(.defaultLow)
        wish.isActive = true
        window.layoutIfNeeded()
        #expect(box.frame.width == 180)
        #expect(window.brokenLayoutConstraints.map { $0 === wish } == [true])
        width.isActive = false
        window.layoutIfNeeded()
        #expect(box.frame.width == 70)
        #expect(window.brokenLayoutConstraints.isEmpty)
    }

    @Test func intrinsicSizeHugsAndResistsByPriority() {
        let (window, container) = scene()
        let button = Button(title: "Save")
        button.name = "save"
        button.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(button)
        let natural = button.intrinsicContentSize
        #expect(natural.height == 44 && natural.width > 0)
        // Only a position: the size is the intrinsic one.
        LayoutConstraint.activate([
            button.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 8),
            button.topAnchor.constraint(equalTo: container.topAnchor, constant: 8),
        ])
        window.layoutIfNeeded()
        #expect(button.frame == Rect(x: 8, y: 8, width: natural.width, height: 44))
        // A wish for 400 at 500 beats hugging (250) and loses to compression resistance when it
        // asks for less than the intrinsic width.
        let wide = button.widthAnchor.constraint(equalToConstant: natural.width + 100).withPriority(500)
        wide.isActive = true
        window.layoutIfNeeded()
        #expect(button.frame.width == natural.width + 100)
        wide.constant = natural.width - 20
        window.layoutIfNeeded()
        #expect(button.frame.width == natural.width)
        // Compression resistance lowered below the wish: the wish wins.
        button.setContentCompressionResistancePriority(400, for: .horizontal)
        window.layoutIfNeeded()
        #expect(button.frame.width == natural.width - 20)
        // A longer title grows it again once the wish is gone.
        wide.isActive = false
        button.title = "Save everything"
        window.layoutIfNeeded()
        #expect(button.frame.width == button.intrinsicContentSize.width)
        #expect(button.frame.width > natural.width)
    }

    /// A constant moved in place (a few pivots) against one moved where a required rival does
    /// not let it go: that one is refused and named, as a new constraint would be, and moved
    /// back within reach it holds again. An inequality's constant moves in place too.
    @Test func aConstantMovedBeyondARequiredRivalIsRefusedAndNamedUntilItComesBack() {
        let (window, box, width, most) = box(
            ("width", { $0.widthAnchor.constraint(equalToConstant: 100) }),
            ("at most", { $0.widthAnchor.constraint(lessThanOrEqualToConstant: 150) }))
        width.constant = 140
        window.layoutIfNeeded()
        #expect(box.frame.width == 140)
        #expect(window.unsatisfiableLayouts.isEmpty)
        width.constant = 200
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.map(\.constraint).map { $0 === width } == [true])
        #expect(
            window.unsatisfiableLayouts.first?.description
                == "unable to satisfy width: box.width == 200; it conflicts with: at most: box.width <= 150")
        width.constant = 120
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        #expect(box.frame.width == 120)
        // The bound moves below the width: now the bound is the one refused.
        most.constant = 110
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.map(\.constraint).map { $0 === most } == [true])
        #expect(box.frame.width == 120)
        most.constant = 130
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        width.constant = 125
        window.layoutIfNeeded()
        #expect(box.frame.width == 125)
    }

    /// A box at the container's top left, 10 high, with two width constraints, each named,
    /// laid out once.
    func box(
        _ first: (name: String, make: (View) -> LayoutConstraint),
        _ second: (name: String, make: (View) -> LayoutConstraint)
    ) -> (Window, View, LayoutConstraint, LayoutConstraint) {
        let (window, container) = scene()
        let box = managed("box", in: container)
        let (a, b) = (first.make(box), second.make(box))
        a.identifier = first.name
        b.identifier = second.name
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            box.topAnchor.constraint(equalTo: container.topAnchor),
            box.heightAnchor.constraint(equalToConstant: 10), a, b,
        ])
        window.layoutIfNeeded()
        return (window, box, a, b)
    }

    /// A constraint whose constant or multiplier is not a finite number is refused and listed
    /// with the conflicts, where an app's test looks (it was logged and left out, unlisted);
    /// and a refusal that stays the same is logged once, however many layout passes try it
    /// again (a conflict was logged at every pass, every frame of a live resize).
    @Test func aNonFiniteConstraintIsListedAndARefusalIsLoggedOnce() throws {
        let (window, box, width, _) = box(
            ("width", { $0.widthAnchor.constraint(equalToConstant: 100) }),
            ("at most", { $0.widthAnchor.constraint(lessThanOrEqualToConstant: 150) }))
        let engine = try #require(window.layoutEngineIfCreated)
        let container = try #require(box.superview)
        let nan = box.heightAnchor.constraint(equalToConstant: .nan)
        let infinite = box.widthAnchor.constraint(equalTo: container.widthAnchor, multiplier: .infinity)
        LayoutConstraint.activate([nan, infinite])
        window.layoutIfNeeded()
        let refused = window.unsatisfiableLayouts
        #expect(refused.count == 2)
        #expect(refused.contains { $0.constraint === nan && $0.problem != nil && $0.conflicts.isEmpty })
        #expect(refused.contains { $0.constraint === infinite && $0.problem != nil })
        #expect(box.frame == Rect(x: 0, y: 0, width: 100, height: 10))
        width.constant = 200
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.count == 3)
        let logged = engine.refusalsLogged
        #expect(logged == 3)
        for i in 1...10 {
            container.frame = Rect(x: 50, y: 40, width: 300 - Double(i), height: 200)
            window.layoutIfNeeded()
        }
        #expect(engine.refusalsLogged == logged)
        #expect(window.unsatisfiableLayouts.count == 3)
    }

    /// A conflict with a hand-set frame (an engine constraint, made anew at every resize) is
    /// the same refusal at every step of a live resize: logged once.
    @Test func aConflictWithAResizedFrameIsLoggedOnce() throws {
        let (window, container) = scene()
        let box = managed("box", in: container)
        let narrow = container.widthAnchor.constraint(equalToConstant: 10)
        LayoutConstraint.activate([box.widthAnchor.constraint(equalTo: container.widthAnchor), narrow])
        window.layoutIfNeeded()
        let engine = try #require(window.layoutEngineIfCreated)
        #expect(window.unsatisfiableLayouts.map(\.constraint).map { $0 === narrow } == [true])
        let logged = engine.refusalsLogged
        for i in 1...10 {
            container.frame = Rect(x: 50, y: 40, width: 300 - Double(i), height: 200)
            window.layoutIfNeeded()
        }
        #expect(engine.refusalsLogged == logged)
        #expect(window.unsatisfiableLayouts.count == 1)
    }

    @Test func aRequiredConflictIsRefusedAndNamedAndTakenBackWhenItsRivalGoes() {
        let (window, box, a, b) = box(
            ("fixed", { $0.widthAnchor.constraint(equalToConstant: 100) }),
            ("at least", { $0.widthAnchor.constraint(greaterThanOrEqualToConstant: 150) }))
        #expect(box.frame.width == 100)
        let refused = window.unsatisfiableLayouts
        #expect(refused.count == 1)
        #expect(refused.first?.constraint === b)
        #expect(refused.first?.conflictingConstraints.map { $0 === a } == [true])
        #expect(
            refused.first?.description
                == "unable to satisfy at least: box.width >= 150; it conflicts with: fixed: box.width == 100")
        a.isActive = false
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        #expect(box.frame.width == 150)
    }

    @Test func aHandSetFrameConflictNamesTheFrame() {
        let (window, container) = scene()
        let c = container.widthAnchor.constraint(equalToConstant: 10)
        let box = managed("box", in: container)
        LayoutConstraint.activate([box.widthAnchor.constraint(equalTo: container.widthAnchor), c])
        window.layoutIfNeeded()
        #expect(
            window.unsatisfiableLayouts.first?.conflicts == [
                "container.width (frame set by hand): container.width == 300"
            ])
        #expect(container.frame.width == 300)
    }

    @Test func removingAViewCutsItsTiesAndKeepsItsOwn() {
        let (window, container) = scene()
        let box = managed("box", in: container)
        let inside = managed("inside", in: box)
        let tie = box.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 3)
        let own = inside.widthAnchor.constraint(equalTo: box.widthAnchor, multiplier: 0.5)
        LayoutConstraint.activate([tie, own])
        #expect(tie.installedOn === container)
        #expect(own.installedOn === box)
        window.layoutIfNeeded()
        box.removeFromSuperview()
        #expect(!tie.isActive)
        #expect(own.isActive)
        // Back in a window, its own constraint is solved again.
        container.addSubview(box)
        LayoutConstraint.activate([
            box.widthAnchor.constraint(equalToConstant: 80), box.heightAnchor.constraint(equalToConstant: 8),
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            box.topAnchor.constraint(equalTo: container.topAnchor),
            inside.heightAnchor.constraint(equalToConstant: 4),
            inside.leadingAnchor.constraint(equalTo: box.leadingAnchor),
            inside.topAnchor.constraint(equalTo: box.topAnchor),
        ])
        window.layoutIfNeeded()
        #expect(inside.frame == Rect(x: 0, y: 0, width: 40, height: 4))
    }

    @Test func aRefusedConstraintIsTakenOnceTheFrameItMetIsNoLongerSetByHand() {
        let (window, container) = scene()
        let box = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        box.name = "box"
        container.addSubview(box)
        let lead = box.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 16)
        LayoutConstraint.activate([
            lead, box.topAnchor.constraint(equalTo: container.topAnchor),
            box.widthAnchor.constraint(equalToConstant: 50), box.heightAnchor.constraint(equalToConstant: 50),
        ])
        window.layoutIfNeeded()
        // The box's frame is set by hand (x = 0): the constraint that says 16 is refused.
        #expect(window.unsatisfiableLayouts.map(\.constraint).contains { $0 === lead })
        #expect(box.frame.minX == 0)
        box.translatesAutoresizingMaskIntoConstraints = false
        window.layoutIfNeeded()
        #expect(window.unsatisfiableLayouts.isEmpty)
        #expect(box.frame == Rect(x: 16, y: 0, width: 50, height: 50))
    }

    @Test func aWindowWhoseConstraintsAreGoneStillLaysOutByHand() {
        final class Counting: View {
            var layouts = 0
            override func layoutSubviews() { layouts += 1 }
        }
        let (window, container) = scene()
        let box = managed("box", in: container)
        LayoutConstraint.activate(box.constraints(pinningEdgesTo: container))
        let counting = Counting(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(counting)
        window.layoutIfNeeded()
        box.removeFromSuperview()
        window.layoutIfNeeded()
        let before = counting.layouts
        counting.setNeedsLayout()
        window.layoutIfNeeded()
        #expect(counting.layouts == before + 1)
    }

    @Test func aViewPinnedToItsWindowDoesNotKeepTheWindowAlive() {
        weak var gone: Window?
        do {
            let window = Window(size: Size(width: 100, height: 100))
            let box = managed("box", in: window)
            LayoutConstraint.activate(box.constraints(pinningEdgesTo: window))
            window.layoutIfNeeded()
            #expect(box.frame == Rect(x: 0, y: 0, width: 100, height: 100))
            gone = window
        }
        #expect(gone == nil)
    }

    @Test func anUnplacedViewIsAmbiguous() {
        let (window, container) = scene()
        let box = managed("box", in: container)
        LayoutConstraint.activate([box.widthAnchor.constraint(equalToConstant: 10)])
        window.layoutIfNeeded()
        #expect(box.hasAmbiguousLayout)
        LayoutConstraint.activate([
            box.heightAnchor.constraint(equalToConstant: 10),
            box.leadingAnchor.constraint(equalTo: container.leadingAnchor),
            box.topAnchor.constraint(equalTo: container.topAnchor),
        ])
        window.layoutIfNeeded()
        #expect(!box.hasAmbiguousLayout)
    }

    @Test func aWrappingLabelFitsACellWidth() throws {
        let cell = View(frame: Rect(x: 0, y: 0, width: 200, height: 10))
        let label = Label(text: String(repeating: "Scrolling lists wrap their longer lines. ", count: 4))
        label.numberOfLines = 0
        label.translatesAutoresizingMaskIntoConstraints = false
        cell.addSubview(label)
        LayoutConstraint.activate(
            label.constraints(pinningEdgesTo: cell, insets: EdgeInsets(top: 10, left: 12, bottom: 10, right: 12)))
        let narrow = cell.systemLayoutSizeFitting(
            Size(width: 200, height: 0), horizontalFittingPriority: .required)
        let wide = cell.systemLayoutSizeFitting(Size(width: 400, height: 0), horizontalFittingPriority: .required)
        let font = try #require(Font.standard)
        func height(_ width: Double) -> Double {
            font.layout(label.text, maxWidth: width, maxLines: 0, scale: 1).size.height.rounded(.up)
        }
        #expect(narrow == Size(width: 200, height: 20 + height(176)))
        #expect(wide == Size(width: 400, height: 20 + height(376)))
        #expect(narrow.height > wide.height)
        // The cell's own frame is untouched.
        #expect(cell.frame.size == Size(width: 200, height: 10))
    }

    /// A window moved to an output of another scale: text is measured in device pixels, so its
    /// labels and buttons take the sizes they have at that scale, the frames a window made at
    /// that scale gives them, and no label is cut short (at 1.25 a label sized at 1 lost its
    /// last letters to an ellipsis).
    @Test(arguments: [1.25, 1.5, 3.0])
    func aNewScaleSizesTextAtThatScale(scale: Double) throws {
        let texts = ["Notifications", "Wi-Fi and Bluetooth", "The quick brown fox jumps"]
        func make(_ scale: Double) -> (Window, [Label], Button) {
            let window = Window(size: Size(width: 400, height: 300), scale: scale)
            var labels: [Label] = []
            for (i, text) in texts.enumerated() {
                let label = Label(text: text)
                label.translatesAutoresizingMaskIntoConstraints = false
                window.addSubview(label)
                LayoutConstraint.activate([
                    label.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
                    label.topAnchor.constraint(equalTo: window.topAnchor, constant: 10 + Double(i) * 30),
                ])
                labels.append(label)
            }
            let button = Button(title: "Save changes")
            button.translatesAutoresizingMaskIntoConstraints = false
            window.addSubview(button)
            LayoutConstraint.activate([
                button.leadingAnchor.constraint(equalTo: window.leadingAnchor, constant: 10),
                button.topAnchor.constraint(equalTo: window.topAnchor, constant: 120),
            ])
            return (window, labels, button)
        }
        let (moved, labels, button) = make(1)
        moved.layoutIfNeeded()
        moved.scale = scale
        moved.layoutIfNeeded()
        let (fresh, freshLabels, freshButton) = make(scale)
        fresh.layoutIfNeeded()
        for (label, expected) in zip(labels, freshLabels) {
            #expect(label.frame == expected.frame, "\(label.text) at \(scale)")
            #expect(label.textLayout(scale: scale)?.lines.map(\.text) == [label.text], "\(label.text) at \(scale)")
        }
        #expect(button.frame == freshButton.frame)
    }
}
