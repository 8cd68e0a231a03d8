import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// Supplies a list's rows (UITableViewDataSource's role).
@MainActor
public protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
    /// A configured cell for `row`; get one with `list.dequeueReusableCell(withIdentifier:)`.
    func list(_ list: ListView, cellForRow row: Int) -> ListCell
    /// Where sections begin: the first row of each, ascending, the first usually 0 (none:
    /// no sections, no headers). Each section gets a header above its first row; the headers of
    /// empty sections (starting where the next starts, or past the last row) stack above the
    /// next section's, or after the last row, as UITableView's do.
    func sectionStarts(in list: ListView) -> [Int]
    /// The title shown in a section's header.
    func list(_ list: ListView, titleForSection section: Int) -> String
    /// The text of a section's footer, shown below its last row while the footer's height
    /// (`heightForFooterInSection`, `sectionFooterHeight` by default) is more than 0
    /// (UITableView's `titleForFooterInSection`): a note on the section, a count. Empty by
    /// default.
    func list(_ list: ListView, titleForFooterInSection section: Int) -> String
    /// The height of a section's header (UITableViewDelegate's `heightForHeaderInSection`):
    /// `list.sectionHeaderHeight` by default; 0 leaves the section without one (a section
    /// that runs on from the one above, a first section that needs no title). Asked for every
    /// section with the sections: on `reloadData`, on every update, and on an empty
    /// `performBatchUpdates`, which is how a height changed in the app's model is shown.
    /// Negative or not finite: 0.
    func list(_ list: ListView, heightForHeaderInSection section: Int) -> Double
    /// The height of a section's footer (UITableViewDelegate's `heightForFooterInSection`), as
    /// the header's: `list.sectionFooterHeight` by default; 0: none (only the sections with a
    /// note to give have a footer).
    func list(_ list: ListView, heightForFooterInSection section: Int) -> Double
    /// A header is about to show section `section` (UITableViewDelegate's
    /// `willDisplayHeaderView`), its title set: a band of the app's own
    /// (`ListView.sectionHeaderFactory`) is configured for the section here. Called when a band
    /// takes the section, not at every frame it moves. Nothing by default.
    func list(_ list: ListView, willDisplayHeader header: ListSectionHeader, forSection section: Int)
    /// A footer is about to show section `section`, as `willDisplayHeader`.
    func list(_ list: ListView, willDisplayFooter footer: ListSectionFooter, forSection section: Int)
    /// Whether a long press may lift `row` to move it (`ListView.reordersRowsOnLongPress`);
    /// false by default (UITableViewDataSource's `canMoveRowAt`).
    func list(_ list: ListView, canMoveRow row: Int) -> Bool
    /// Where a row moved by hand from `source` (its index in the model) goes when the finger
    /// proposes `proposed` (UITableViewDelegate's `targetIndexPathForMoveFromRowAt`): the
    /// proposal by default; another row keeps it out of places it may not take (a pinned
    /// first row stays first when the answer is never 0).
    func list(_ list: ListView, targetRowForMoveFrom source: Int, toProposedRow proposed: Int) -> Int
    /// A row moved by hand was dropped: the model moves it from `source` to `destination`
    /// (its index after the move), and the list already shows it there.
    func list(_ list: ListView, moveRowAt source: Int, to destination: Int)
    /// The titles of the section index down the list's trailing edge ("A" to "Z" in an
    /// address book); empty, the default: no index. Read on `reloadData` and
    /// `reloadSectionIndexTitles`.
    func sectionIndexTitles(in list: ListView) -> [String]
    /// The section that index title `title`, at `index` among them, leads to. By default the
    /// section at the same place, for an index with a title per section.
    func list(_ list: ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int
    /// Opens (`expanded`) or closes the outline row `row`: its chevron was tapped, Right or
    /// Left pressed on it, or a reader asked. The data source updates the rows (a parent's
    /// children inserted below it or deleted) and the row's `outlineDisclosure`; false when
    /// nothing changed. False by default (no outline).
    func list(_ list: ListView, setRow row: Int, expanded: Bool) -> Bool
    /// The row of `row`'s parent in an outline (nil, the default: a top row, or no outline):
    /// Left on a row that is not open moves the focus there.
    func list(_ list: ListView, parentOfRow row: Int) -> Int?
    /// Where an outline's `row` stands among its siblings, from 1, and how many they are (a
    /// reader says "2 of 5" in a folder, as ARIA's tree items do); nil, the default: its
    /// place among all the list's rows.
    func list(_ list: ListView, siblingPositionOfRow row: Int) -> (index: Int, count: Int)?
    /// The control `row` shows while the list edits (UITableViewDelegate's
    /// `editingStyleForRowAt`): `.none`, the default, for none; `.delete` or `.insert` for a
    /// row the data source changes when asked (`list(_:commit:forRow:)`).
    func list(_ list: ListView, editingStyleForRow row: Int) -> RowEditingStyle
    /// The user asked for `row`'s change while the list edits (UITableViewDataSource's
    /// `commit editingStyle`): its Delete was tapped (or a reader's "Delete"), or its insert
    /// control. The data source changes its model and tells the list
    /// (`deleteRows(at:with:)`, `insertRows(at:with:)`). Nothing by default.
    func list(_ list: ListView, commit style: RowEditingStyle, forRow row: Int)
    /// The title of the button a delete control shows (UITableViewDelegate's
    /// `titleForDeleteConfirmationButtonForRowAt`), and of a reader's action: "Delete" by
    /// default.
    func list(_ list: ListView, titleForDeleteConfirmationButtonForRow row: Int) -> String
}

extension ListDataSource {
    public func sectionStarts(in list: ListView) -> [Int] { [] }
    public func list(_ list: ListView, titleForSection section: Int) -> String { "" }
    public func list(_ list: ListView, titleForFooterInSection section: Int) -> String { "" }
    public func list(_ list: ListView, heightForHeaderInSection section: Int) -> Double { list.sectionHeaderHeight }
    public func list(_ list: ListView, heightForFooterInSection section: Int) -> Double { list.sectionFooterHeight }
    public func list(_ list: ListView, willDisplayHeader header: ListSectionHeader, forSection section: Int) {}
    public func list(_ list: ListView, willDisplayFooter footer: ListSectionFooter, forSection section: Int) {}
    public func sectionIndexTitles(in list: ListView) -> [String] { [] }
    public func list(_ list: ListView, canMoveRow row: Int) -> Bool { false }
    public func list(_ list: ListView, targetRowForMoveFrom source: Int, toProposedRow proposed: Int) -> Int {
        proposed
    }
    public func list(_ list: ListView, moveRowAt source: Int, to destination: Int) {}
    public func list(_ list: ListView, sectionForSectionIndexTitle title: String, at index: Int) -> Int { index }
    public func list(_ list: ListView, setRow row: Int, expanded: Bool) -> Bool { false }
    public func list(_ list: ListView, parentOfRow row: Int) -> Int? { nil }
    public func list(_ list: ListView, siblingPositionOfRow row: Int) -> (index: Int, count: Int)? { nil }
    public func list(_ list: ListView, editingStyleForRow row: Int) -> RowEditingStyle { .none }
    public func list(_ list: ListView, commit style: RowEditingStyle, forRow row: Int) {}
    public func list(_ list: ListView, titleForDeleteConfirmationButtonForRow row: Int) -> String { "Delete" }
}

/// A section's header: a grey band with the section's title. In a list, while its section
/// fills the top it stays pinned there (UITableView's plain style), until the next section's
/// header pushes it up; a collection view's headers scroll with their items. Open: a subclass
/// with views of its own (a "See all" button) is made by a list's or a collection's
/// `sectionHeaderFactory`, and measured by its `sizeThatFits` for `automaticDimension`.
open class ListSectionHeader: View {
    public let textLabel = Label()
    /// The room beside the text, and above and below it in a band that fits it.
    static let padding = (side: 16.0, vertical: 8.0)

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = Color(rgb: 242, 242, 247)
        textLabel.font = try? Font.system(size: 13, bold: true)
        textLabel.textColor = Color(rgb: 110, 110, 118)
        textLabel.isUserInteractionEnabled = false
        addSubview(textLabel)
    }

    /// The text's lines centred in the band, at least a line's 18 high: as many lines as the
    /// band holds inside its padding (a band as high as `ListView.automaticDimension` made it
    /// holds them all, measured in the window at its scale), the last cut short with an
    /// ellipsis; one in a band too low for two.
    open override func layoutSubviews() {
        let width = max(0, bounds.width - 2 * Self.padding.side)
        let line = textLabel.font.map { $0.metrics(scale: window?.scale ?? 1).lineHeight } ?? 18
        let room = (bounds.height - 2 * Self.padding.vertical) / max(1, line)
        textLabel.numberOfLines = Int(clamping: room, rounding: .down, in: 1...1_000)
        let text = textLabel.sizeThatFits(Size(width: width, height: .infinity)).height
        let height = min(bounds.height, max(18, text))
        textLabel.frame = Rect(x: Self.padding.side, y: (bounds.height - height) / 2, width: width, height: height)
    }

    /// As high as the text wrapped at the width, with the padding above and below; none for no
    /// text (`ListView.automaticDimension`).
    open override func sizeThatFits(_ size: Size) -> Size {
        guard !textLabel.text.isEmpty else { return Size(width: size.width, height: 0) }
        let width = max(0, size.width - 2 * Self.padding.side)
        let lines = textLabel.numberOfLines
        defer { textLabel.numberOfLines = lines }
        textLabel.numberOfLines = 0
        let text = textLabel.sizeThatFits(Size(width: width, height: .infinity)).height
        return Size(width: size.width, height: max(18, text) + 2 * Self.padding.vertical)
    }
}

/// A section's footer: the header's grey band, its text in the regular weight. In a list,
/// while its section fills the bottom it stays pinned there (UITableView's plain style),
/// until its own header pushes it down.
open class ListSectionFooter: ListSectionHeader {
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        textLabel.font = try? Font.system(size: 13)
    }
}

/// A row's view. Reused: when its row scrolls away it waits in the list's pool for the next
/// row that needs one with its identifier.
open class ListCell: ReusableCell {
    public let textLabel = Label()
    public var normalColor: Color = .white { didSet { appearanceDidChange() } }
    public var highlightColor = Color(rgb: 210, 220, 235) { didSet { appearanceDidChange() } }
    /// Its row is selected (`ListView.selectedRows`): drawn in `selectedColor`.
    public internal(set) var isSelected = false {
        didSet {
            guard isSelected != oldValue else { return }
            appearanceDidChange()
        }
    }
    /// UIKit's default selection grey.
    public var selectedColor = Color(rgb: 209, 209, 214) { didSet { appearanceDidChange() } }
    /// Whether Space and Return select the row (the list has a selection callback).
    var selectsOnKeys = false

    /// How deep the row stands in an outline (UITableViewCell's `indentationLevel`): its
    /// content starts `indentationLevel × indentationWidth` further in. A diffable data source
    /// showing a section as an outline sets it from the item's level.
    public var indentationLevel = 0 { didSet { if indentationLevel != oldValue { setNeedsLayout() } } }
    /// The indentation of one level.
    public var indentationWidth = 20.0 { didSet { if indentationWidth != oldValue { setNeedsLayout() } } }
    /// The row's place in an outline (nil: it is in none): a parent shows a chevron that opens
    /// and closes it (by its list's data source, `ListDataSource.list(_:setRow:expanded:)`),
    /// as Right and Left do when it has the focus, and a reader hears whether it is expanded.
    /// Set by a diffable data source showing a section as an outline, the chevron turning
    /// when the row opens or closes; `setOutlineDisclosure(_:animated:)` for one's own.
    public var outlineDisclosure: OutlineDisclosure? {
        get { disclosure }
        set { setOutlineDisclosure(newValue, animated: false) }
    }
    private var disclosure: OutlineDisclosure?
    private var chevron: OutlineDisclosureControl?

    /// Whether its list is editing (UITableViewCell's `isEditing`; `ListView.setEditing`).
    public private(set) var isEditing = false
    /// Its editing control while editing (`ListDataSource.list(_:editingStyleForRow:)`).
    public private(set) var editingStyle = RowEditingStyle.none
    /// Whether it shows the grip that moves it while editing (its row may move).
    public private(set) var showsReorderControl = false
    /// Whether it shows a selection circle while editing (the list selects several rows then).
    public private(set) var showsSelectionControl = false
    var editingControl: RowEditingControl?
    var reorderGrip: RowReorderGrip?
    /// Counts editing changes: an animation's end hides the controls only if no later change
    /// came meanwhile (one that ended it early fades them its own way).
    private var editingChanges = 0

    /// Takes its list's editing state: the control for `style` at its leading edge and, with
    /// `reorder`, the grip at its trailing edge, its content moved in to make room. Animated
    /// (in a window), the content slides and the controls fade over `ListView.rowAnimationDuration`.
    func setEditing(_ editing: Bool, style: RowEditingStyle, reorder: Bool, selecting: Bool, animated: Bool) {
        let style = editing ? style : .none
        let reorder = editing && reorder
        let selecting = editing && selecting
        guard
            editing != isEditing || style != editingStyle || reorder != showsReorderControl
                || selecting != showsSelectionControl
        else { return }
        isEditing = editing
        editingStyle = style
        showsReorderControl = reorder
        showsSelectionControl = selecting
        if style != .none || selecting, editingControl == nil {
            let control = RowEditingControl()
            control.alpha = 0
            control.onPress = { [unowned self] in (superview as? ListView)?.editingControlTapped(in: self) }
            editingControl = control
            addSubview(control)
        }
        if reorder, reorderGrip == nil {
            let grip = RowReorderGrip()
            grip.alpha = 0
            reorderGrip = grip
            addSubview(grip)
        }
        if style != .none { editingControl?.style = style }
        editingControl?.selects = selecting
        let showsControl = style != .none || selecting
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // In their slots before anything moves: a control new to the row fades in where it
        // stands, not from the row's corner.
        placeEditingControls(index: (superview as? ListView)?.sectionIndexInset ?? 0, rtl: rtl)
        if showsControl { editingControl?.isHidden = false }
        if reorder { reorderGrip?.isHidden = false }
        setNeedsLayout()
        editingChanges += 1
        let change = editingChanges
        let show = { [self] in
            editingControl?.alpha = showsControl ? 1 : 0
            reorderGrip?.alpha = reorder ? 1 : 0
        }
        guard animated, window != nil else {
            show()
            editingControl?.isHidden = !showsControl
            reorderGrip?.isHidden = !reorder
            return
        }
        animate(withDuration: ListView.rowAnimationDuration) {
            layoutIfNeeded()
            show()
        } completion: { [weak self] _ in
            // Hidden once faded, unless a later change took over.
            guard let self, editingChanges == change else { return }
            if editingStyle == .none && !showsSelectionControl { editingControl?.isHidden = true }
            if !showsReorderControl { reorderGrip?.isHidden = true }
        }
    }

    /// Sets `outlineDisclosure`, the chevron turning between collapsed and expanded when
    /// `animated`; a reader following the row hears it open or close.
    public func setOutlineDisclosure(_ new: OutlineDisclosure?, animated: Bool) {
        let old = disclosure
        disclosure = new
        if (old == nil) != (new == nil) { setNeedsLayout() }
        if new == .collapsed || new == .expanded {
            let control: OutlineDisclosureControl
            if let chevron {
                control = chevron
            } else {
                control = OutlineDisclosureControl()
                control.onPress = { [unowned self] in
                    guard let list = superview as? ListView, let row = list.row(for: self) else { return }
                    _ = list.dataSource?.list(list, setRow: row, expanded: disclosure != .expanded)
                }
                chevron = control
                addSubview(control)
                setNeedsLayout()
            }
            control.isHidden = false
            control.show(expanded: new == .expanded, animated: animated && !(old != .collapsed && old != .expanded))
        } else {
            chevron?.isHidden = true
        }
        // The row itself changed (a cell given another row's place comes through nil): it
        // opened or closed, or it gained its first child or lost its last.
        if let old, let new, old != new {
            if (old == .leaf) != (new == .leaf) {
                window?.postAccessibilityNotification(.stateChanged(self, .expandable, new != .leaf))
            }
            if old == .expanded || new == .expanded {
                window?.postAccessibilityNotification(.stateChanged(self, .expanded, new == .expanded))
            }
        }
    }

    /// A row is one element, named by its text; a row whose `textLabel` is empty, by the labels
    /// of what the app put in it (not its swipe buttons, which are its actions).
    open override var accessibilityDefaults: AccessibilityDefaults {
        let label =
            textLabel.text.isEmpty ? accessibilityLabelOfContents(skipping: { $0 is RowActionButtons }) : textLabel.text
        return AccessibilityDefaults(role: .listItem, label: label, isElement: true)
    }

    /// Its row among all the list's rows, from 1 (a reader says "row 5,000 of 100,000"); in an
    /// outline, among its siblings.
    open override var accessibilityPosition: (index: Int, count: Int)? {
        guard let list = superview as? ListView, let row = list.row(for: self) else { return nil }
        if disclosure != nil, let place = list.dataSource?.list(list, siblingPositionOfRow: row) { return place }
        return (row + 1, list.rowCount)
    }

    public override init(reuseIdentifier: String) {
        super.init(reuseIdentifier: reuseIdentifier)
        backgroundColor = normalColor
        textLabel.numberOfLines = 0
        textLabel.isUserInteractionEnabled = false
        addSubview(textLabel)
    }

    open override func appearanceDidChange() {
        backgroundColor = isHighlighted ? highlightColor : isSelected ? selectedColor : normalColor
        // A selection circle shows the selection, its ring's inside the row's colour.
        if showsSelectionControl { editingControl?.setNeedsDisplay() }
    }

    /// A selected row says so to a screen reader, and an outline's parent whether it is open.
    open override var accessibilityExtraStates: AccessibilityStates {
        var states: AccessibilityStates = isSelected ? [.selected] : []
        if disclosure == .collapsed { states.insert(.expandable) }
        if disclosure == .expanded { states.formUnion([.expandable, .expanded]) }
        return states
    }

    /// An outline's row is one level deeper than its parent's; a reader counts from 1.
    open override var accessibilityLevel: Int? { disclosure == nil ? nil : max(0, indentationLevel) + 1 }

    /// A reader opens or closes an outline's parent row as its chevron does.
    open override func accessibilitySetExpanded(_ expanded: Bool) -> Bool {
        guard disclosure == .collapsed || disclosure == .expanded, let list = superview as? ListView,
            let row = list.row(for: self)
        else { return false }
        return list.dataSource?.list(list, setRow: row, expanded: expanded) ?? false
    }

    /// A cell given to another row is in no outline until its data source says so (an
    /// indentation the app gave a row outside any outline stays, as UIKit's does).
    open override func prepareForReuse() {
        super.prepareForReuse()
        guard disclosure != nil else { return }
        outlineDisclosure = nil
        indentationLevel = 0
    }

    /// The text stands 16 px in from each side, and short of the list's section index; an
    /// outline's row starts its indentation and its chevron's slot further in, and an editing
    /// row its content after its editing control's slot and short of its grip's.
    open override func layoutSubviews() {
        super.layoutSubviews()
        let index = (superview as? ListView)?.sectionIndexInset ?? 0
        let lead = editingLead
        let trail = editingTrail
        let indent = outlineIndent + lead
        // The direction walks up the ancestors: asked only when there is an index, an
        // indentation or an editing control to place.
        let rtl =
            (index > 0 || indent > 0 || trail > 0 || editingControl != nil || reorderGrip != nil)
            && effectiveUserInterfaceLayoutDirection == .rightToLeft
        textLabel.frame = Rect(
            x: 16 + (rtl ? index + trail : indent), y: 0, width: max(0, bounds.width - 32 - index - indent - trail),
            height: bounds.height)
        if editingControl != nil || reorderGrip != nil { placeEditingControls(index: index, rtl: rtl) }
        if let chevron, disclosure != nil {
            let slot = OutlineDisclosureControl.slotWidth
            let reach = OutlineDisclosureControl.reach
            let start = 16 + lead + Double(max(0, indentationLevel)) * indentationWidth - reach
            let width = reach + slot + OutlineDisclosureControl.gap
            chevron.frame = Rect(
                x: rtl ? bounds.width - start - width : start, y: 0, width: width, height: bounds.height)
        }
    }

    /// A focused row: Space and Return select it (pressed and released, so neither also pages
    /// or scrolls the list), when the list has a selection callback; the arrows, Page Up and
    /// Page Down, Home and End move the focus to another row (`ListView.moveFocus`). Tab is the window's: the
    /// next row in reading order has a cell (the list keeps a margin of them beyond the view),
    /// and the list scrolls each focused row into view, which gives the one after it a cell.
    open override func handleInput(_ event: InputEvent) -> Bool {
        guard isFocused, case .key(let key, let pressed, let modifiers) = event.kind,
            modifiers.isDisjoint(with: [.control, .alt, .logo])
        else { return false }
        switch key {
        case .space, .enter:
            guard selectsOnKeys else { return false }
            if pressed { onTap?() }
            return true
        case .left, .right:
            // An outline's row opens, closes, or passes the focus to its child or parent.
            guard disclosure != nil else { return false }
            if pressed { outlineKey(key) }
            return true
        case .up, .down, .pageUp, .pageDown, .home, .end:
            // The focus moves through the rows, as in a desktop list (and a screen reader says
            // each row it lands on); the list follows it.
            guard let list = superview as? ListView else { return false }
            if pressed { list.moveFocus(from: self, by: key) }
            return true
        default:
            return false
        }
    }

    /// The height this cell wants at `width` (its text wrapped short of a section index, its
    /// outline's indentation and its editing controls, with 10 px above and below).
    open override func sizeThatFits(_ size: Size) -> Size {
        let index = (superview as? ListView)?.sectionIndexInset ?? 0
        let room = size.width - 32 - index - outlineIndent - editingLead - editingTrail
        let text = textLabel.sizeThatFits(Size(width: max(0, room), height: .greatestFiniteMagnitude))
        return Size(width: size.width, height: max(44, text.height + 20))
    }
}
