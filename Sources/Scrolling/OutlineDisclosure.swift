import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayViews

/// A row's place in an outline (`ListCell.outlineDisclosure`): a parent's row shows a chevron
/// (UIKit's `.outlineDisclosure` accessory), pointing to the trailing side while it is
/// collapsed and down while it is expanded; a leaf's keeps the chevron's room, so that its text
/// lines up with its siblings'.
public enum OutlineDisclosure: Hashable, Sendable {
    case leaf, collapsed, expanded
}

/// The chevron of an outline's parent row. A tap on it opens or closes the row (its hit area
/// runs the row's height, and from the row's margin before the chevron to the text after it: a
/// finger's width, 44 px); it turns a quarter of a circle between its two directions in
/// `turnDuration`, on the window's frames.
final class OutlineDisclosureControl: PressableControl, FrameAnimation {
    /// UIKit's outline chevron turns in about this long.
    static let turnDuration = 0.25
    /// The chevron's size: the slot a row keeps for it, and the gap to the text after it.
    static let slotWidth = 24.0
    static let gap = 4.0
    /// How far the hit area reaches before the slot (over the row's margin or its parent's
    /// indentation, where nothing else is); after it, it reaches to the text.
    static let reach = 16.0

    var color = Color.tint { didSet { setNeedsDisplay() } }
    /// What a tap does (the row asks its list to open or close it).
    var onPress: (() -> Void)?
    /// 0: pointing to the trailing side (collapsed); 1: down (expanded).
    private(set) var turn = 0.0 { didSet { if turn != oldValue { setNeedsDisplay() } } }
    private var turnFrom = 0.0
    private var turnTo = 0.0
    private var turnStart: Double?

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        canBecomeFocused = false
    }

    /// Points the chevron for `expanded`, turning there when `animated` in a window.
    func show(expanded: Bool, animated: Bool) {
        let goal = expanded ? 1.0 : 0.0
        guard goal != turnTo || turn != goal else { return }
        turnTo = goal
        guard animated, let window else {
            turn = goal
            turnStart = nil
            return
        }
        turnFrom = turn
        turnStart = nil
        window.addAnimation(self)
    }

    func advance(to time: Double) -> Bool {
        guard turn != turnTo else { return false }
        if turnStart == nil { turnStart = time }
        let p = min(1, (time - (turnStart ?? time)) / Self.turnDuration)
        turn = turnFrom + (turnTo - turnFrom) * TimingCurve.easeInOut.progress(at: p)
        if p >= 1 { turn = turnTo }
        return turn != turnTo
    }

    /// A turn under way when the row leaves the window ends where it was going.
    override func didMoveToWindow() {
        super.didMoveToWindow()
        if window == nil { turn = turnTo }
    }

    override var drawsContent: Bool { true }

    /// Two strokes meeting at the tip: the direction is the trailing side turned toward down
    /// by a quarter circle × `turn` (mirrored right to left).
    override func draw(in canvas: Canvas) {
        let angle = Double.pi / 2 * turn
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let u = Point(x: (rtl ? -1 : 1) * cosine(angle), y: sine(angle))
        let v = Point(x: -u.y, y: u.x)
        let c = Point(x: bounds.midX, y: bounds.midY)
        let r = 4.0
        let tip = Point(x: c.x + u.x * r * 0.75, y: c.y + u.y * r * 0.75)
        for side in [-1.0, 1.0] {
            let end = Point(x: tip.x - (u.x - side * v.x) * r * 1.25, y: tip.y - (u.y - side * v.y) * r * 1.25)
            canvas.strokeLine(
                from: end, to: tip, lineWidth: 2, color: drawn(isHighlighted ? color.withAlpha(0.5) : color))
        }
    }

    override func pressDidComplete() { onPress?() }
}

extension ListCell {
    /// How far the row's content starts in from its leading margin: its level's indentation,
    /// and the chevron's slot when it is in an outline.
    var outlineIndent: Double {
        let level = Double(max(0, indentationLevel)) * indentationWidth
        return outlineDisclosure == nil
            ? level : level + OutlineDisclosureControl.slotWidth + OutlineDisclosureControl.gap
    }

    /// Left and Right on a focused outline row, Right meaning "open" (the leading side's
    /// opposite, so mirrored right to left): a collapsed parent opens and an open one gives
    /// the focus to its first child; an open parent closes, and any other row gives the focus
    /// to its parent (as GTK's and the Finder's outlines do).
    func outlineKey(_ key: Key) {
        guard let list = superview as? ListView, let row = list.row(for: self), let disclosure = outlineDisclosure
        else { return }
        let opens = (key == .right) != (effectiveUserInterfaceLayoutDirection == .rightToLeft)
        switch (opens, disclosure) {
        case (true, .collapsed): _ = list.dataSource?.list(list, setRow: row, expanded: true)
        case (true, .expanded): list.moveFocus(from: self, by: .down)
        case (false, .expanded): _ = list.dataSource?.list(list, setRow: row, expanded: false)
        case (false, _): if let parent = list.dataSource?.list(list, parentOfRow: row) { list.focusRow(parent) }
        default: break
        }
    }
}
