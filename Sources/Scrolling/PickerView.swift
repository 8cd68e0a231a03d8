import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// Supplies a picker's wheels and their rows (UIPickerViewDataSource's role, with the titles
/// UIPickerViewDelegate gives).
@MainActor
public protocol PickerViewDataSource: AnyObject {
    /// How many wheels the picker shows side by side.
    func numberOfComponents(in picker: PickerView) -> Int
    func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int
    /// What row `row` of wheel `component` says (and what a screen reader reads for it).
    func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String
    /// How wide wheel `component` is; 0 (the default) shares the width the wheels with a
    /// width of their own leave equally among those without.
    func picker(_ picker: PickerView, widthForComponent component: Int) -> Double
    /// What a screen reader calls wheel `component` ("Month"); nil (the default): nothing.
    func picker(_ picker: PickerView, accessibilityLabelForComponent component: Int) -> String?
    /// A view to show row `row` with in place of its title (a colour's swatch, a flag), laid
    /// out 3 points inside the row; `view` is the one the row showed before it was reused
    /// for this one (nil at first), to configure again rather than make anew. nil (the
    /// default): the title. The title still names the row for a screen reader.
    func picker(_ picker: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?) -> View?
}

extension PickerViewDataSource {
    public func picker(_ picker: PickerView, widthForComponent component: Int) -> Double { 0 }
    public func picker(_ picker: PickerView, accessibilityLabelForComponent component: Int) -> String? { nil }
    public func picker(
        _ picker: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?
    ) -> View? { nil }
}

/// Wheels of rows to pick from, side by side (UIPickerView's role): each wheel turns under a
/// finger, a touchpad, a mouse wheel or the keys, and always comes to rest with a row in the
/// band across its middle, the row picked. A drag's release is aimed at the row nearest where
/// its deceleration would end (`ScrollView.restingOffset`), so a fling glides to a row rather
/// than stopping between two and being pulled back; a wheel click, an arrow key or a tap on
/// a row picks the next one, or that row, at once, and the wheel turns to it.
///
/// Each wheel is a scroll view whose offset is its rows' positions: row r is picked at offset
/// `r·rowHeight − inset`, the inset `(height − rowHeight) / 2` above and below letting the
/// first and the last reach the middle. Its rows are drawn on a drum seen side on
/// (`PickerWheelProjection`): a row whose middle is `d` from the wheel's along the drum shows
/// `R·sin(d/R)` from it, `cos(d/R)` as high, fainter towards the drum's edge, where `R` is
/// half the wheel's height.
///
/// `onSelectRow` hears the user pick a row (when the wheel comes to rest on a row other than
/// the one picked, or at once for a key, a wheel click or a tap), never `selectRow`'s picks,
/// as UIKit's delegate does not. A screen reader sees each wheel as a list whose picked row
/// is selected; the keyboard's focus rests on the picked row, and Up and Down pick the rows
/// beside it.
public final class PickerView: View {
    /// UIPickerView's height; a picker is as wide as its place gives it.
    public static let standardHeight = 216.0
    /// The room between wheels.
    public static let componentSpacing = 8.0

    public weak var dataSource: PickerViewDataSource? { didSet { reloadAllComponents() } }
    /// Called with the row and the wheel when the user picks a row.
    public var onSelectRow: ((_ row: Int, _ component: Int) -> Void)?
    /// Each row's height, and the band's across the middle.
    public var rowHeight = 32.0 {
        didSet {
            if !(rowHeight > 0 && rowHeight.isFinite) { rowHeight = 32 }
            guard rowHeight != oldValue else { return }
            wheels.forEach { $0.rowHeightChanged() }
            setNeedsLayout()
        }
    }
    /// The rows' font (nil: the system's at 20 points).
    public var font: Font? { didSet { wheels.forEach { $0.redrawRows() } } }
    public var textColor: Color = .black { didSet { wheels.forEach { $0.redrawRows() } } }
    /// The band behind the picked rows (nil: none).
    public var selectionBandColor: Color? = Color(rgb: 118, 118, 128).withAlpha(0.12) {
        didSet { band.color = selectionBandColor }
    }

    static let standardFont = try? Font.system(size: 20)

    private var wheels: [PickerWheel] = []
    private let band = PickerSelectionBand()

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        band.color = selectionBandColor
        band.isUserInteractionEnabled = false
        addSubview(band)
    }

    /// How many wheels it shows (as the data source last said).
    public var numberOfComponents: Int { wheels.count }

    /// How many rows wheel `component` has (as the data source last said); 0 for a wheel it
    /// does not have.
    public func numberOfRows(inComponent component: Int) -> Int {
        wheels.indices.contains(component) ? wheels[component].rowCount : 0
    }

    /// The row picked in wheel `component`: −1 when the wheel has no rows or there is no such
    /// wheel (UIKit's).
    public func selectedRow(inComponent component: Int) -> Int {
        wheels.indices.contains(component) ? wheels[component].selectedRow : -1
    }

    /// Picks each listed row in its wheel, leaving alone a wheel that already picks it: a glide
    /// the user gave it goes on, to be heard where it stops, rather than being pulled back to
    /// its pick as another wheel's row is picked (the date and time pickers' wheels).
    func selectRowsNotPicked(_ rows: [(component: Int, row: Int)], animated: Bool) {
        for (component, row) in rows where selectedRow(inComponent: component) != row {
            selectRow(row, inComponent: component, animated: animated)
        }
    }

    /// Picks `row` in wheel `component` and turns the wheel to it, springing there when
    /// `animated`; `onSelectRow` is not called. A row or a wheel it does not have is ignored.
    public func selectRow(_ row: Int, inComponent component: Int, animated: Bool) {
        guard wheels.indices.contains(component) else { return }
        wheels[component].pick(row, byUser: false, animated: animated)
    }

    /// Reads the wheels and every row again; each wheel keeps its pick, or its last row when
    /// it has fewer now.
    public func reloadAllComponents() {
        let count = dataSource.map { max(0, $0.numberOfComponents(in: self)) } ?? 0
        while wheels.count > count { wheels.removeLast().removeFromSuperview() }
        while wheels.count < count {
            let wheel = PickerWheel(picker: self, component: wheels.count)
            wheels.append(wheel)
            addSubview(wheel)
        }
        for wheel in wheels { wheel.reload() }
        setNeedsLayout()
    }

    /// Reads wheel `component`'s rows again, keeping its pick (or its last row when it has
    /// fewer now).
    public func reloadComponent(_ component: Int) {
        guard wheels.indices.contains(component) else { return }
        wheels[component].reload()
        setNeedsLayout()
    }

    /// The data source's names for the wheels changed: a reader hears each wheel's new name;
    /// no row is read again.
    public func componentLabelsChanged() {
        for wheel in wheels { window?.postAccessibilityNotification(.labelChanged(wheel)) }
    }

    /// The wheel that shows `component` (tests, and a reader's view of it).
    func wheel(_ component: Int) -> PickerWheel? { wheels.indices.contains(component) ? wheels[component] : nil }

    /// The row of `component` that shows `row`, while it is shown (the app's view for it, if
    /// it gave one, is inside it): the view that takes the focus and a reader reads.
    public func viewForRow(_ row: Int, forComponent component: Int) -> View? {
        wheel(component)?.rowView(row)
    }

    func userPicked(_ row: Int, in component: Int) { onSelectRow?(row, component) }

    // MARK: Layout

    public override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: Self.standardHeight) }

    /// The widths the data source gives the wheels, in their order; 0 for a wheel that takes
    /// a share (the data source's 0, or a width that is no width: negative, not a number).
    private func askedWidths() -> [Double] {
        wheels.map { wheel in
            let w = dataSource?.picker(self, widthForComponent: wheel.component) ?? 0
            return w > 0 && w.isFinite ? w : 0
        }
    }

    public override func sizeThatFits(_ size: Size) -> Size {
        let own = askedWidths().reduce(0, +)
        let spacing = Double(max(0, wheels.count - 1)) * Self.componentSpacing
        let needs = own + spacing + 16
        let width = size.width > 0 && size.width.isFinite ? max(size.width, needs) : max(needs, 320)
        return Size(width: width, height: Self.standardHeight)
    }

    /// The wheels' x and width, in the wheels' order, laid out from the leading edge: the
    /// widths the data source gives (0: a share of what is left), the whole run centred.
    func wheelSpans(width: Double) -> [(x: Double, width: Double)] {
        let n = wheels.count
        guard n > 0 else { return [] }
        let inner = max(0, width - 16 - Double(n - 1) * Self.componentSpacing)
        let asked = askedWidths()
        let free = asked.count(where: { $0 == 0 })
        let share = free > 0 ? max(0, inner - asked.reduce(0, +)) / Double(free) : 0
        let widths = asked.map { $0 > 0 ? $0 : share }
        let total = widths.reduce(0, +) + Double(n - 1) * Self.componentSpacing
        var x = max(8, (width - total) / 2)
        var spans: [(x: Double, width: Double)] = []
        for w in widths {
            spans.append((x, w))
            x += w + Self.componentSpacing
        }
        return spans
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        for (wheel, span) in zip(wheels, wheelSpans(width: bounds.width)) {
            let x = rtl ? bounds.width - span.x - span.width : span.x
            wheel.frame = Rect(x: x, y: 0, width: span.width, height: bounds.height)
        }
        band.frame = Rect(x: 8, y: (bounds.height - rowHeight) / 2, width: max(0, bounds.width - 16), height: rowHeight)
    }

    public override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        setNeedsLayout()
    }

    // MARK: Accessibility

    /// A group (named by the app's label) whose elements are the wheels' lists.
    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .group) }
}

/// The rounded band across the middle, behind the picked rows.
final class PickerSelectionBand: View {
    var color: Color? { didSet { if color != oldValue { setNeedsDisplay() } } }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        guard let color else { return }
        canvas.fillRoundedRect(bounds, radius: min(8, bounds.height / 2), color: color)
    }
}
