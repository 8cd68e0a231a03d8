import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// A day of the proleptic Gregorian calendar: a year, a month (1–12) and a day of the month.
/// No time of day and no time zone: what a birthday or a due date is.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether `year` has a 29 February: every fourth year, but not every hundredth, but
    /// every four hundredth (1900 has none, 2000 has one).
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// How many days `month` (1–12) of `year` has; 0 for a month that is not one.
    public static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// Whether it names a day there is (30 February does not).
    public var isValid: Bool { day >= 1 && day <= Self.daysInMonth(month, of: year) }

    public static func < (a: CalendarDay, b: CalendarDay) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// ISO 8601's form: 2026-12-07.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n.magnitude)
            return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}

/// A day picked on three wheels, month, day and year (UIDatePicker's `.date` mode in its
/// wheels style), on a `PickerView`. The day wheel has as many rows as the picked month has
/// days: turning to a shorter month (or from a leap year) brings a day past its end back to
/// its last. A day outside `minimumDate`...`maximumDate` turns the wheels back to the nearest
/// one allowed, as UIKit's do. `onDateChanged` hears the user's changes, not `setDate`'s.
public final class DatePicker: View, PickerViewDataSource {
    /// The picked day (always a valid one within the limits).
    public private(set) var date: CalendarDay
    /// The earliest and the latest day that can be picked; the years wheel spans their years.
    public var minimumDate = CalendarDay(year: 1900, month: 1, day: 1) { didSet { limitsChanged() } }
    public var maximumDate = CalendarDay(year: 2100, month: 12, day: 31) { didSet { limitsChanged() } }
    /// Called with the new day when the user changes it.
    public var onDateChanged: ((CalendarDay) -> Void)?
    /// The months' names in English, January first.
    public static let englishMonthSymbols = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    /// The months' names, January first (twelve of them; another count is refused).
    public var monthSymbols = DatePicker.englishMonthSymbols {
        didSet {
            if monthSymbols.count != 12 { monthSymbols = oldValue }
            picker.reloadComponent(Self.monthWheel)
        }
    }
    /// What a screen reader calls the month, day and year wheels (three; another count is
    /// refused).
    public var wheelNames = ["Month", "Day", "Year"] {
        didSet {
            if wheelNames.count != 3 { wheelNames = oldValue }
            picker.componentLabelsChanged()
        }
    }

    /// The wheels.
    public let picker = PickerView()

    static let monthWheel = 0
    static let dayWheel = 1
    static let yearWheel = 2

    public init(date: CalendarDay, frame: Rect = .zero) {
        self.date = date
        super.init(frame: frame)
        self.date = clamped(date)
        picker.dataSource = self
        picker.onSelectRow = { [unowned self] _, _ in wheelsTurned() }
        addSubview(picker)
        showDate(animated: false)
    }

    /// Picks `day` (brought within the limits, and to its month's last day if past it) and
    /// turns the wheels to it; `onDateChanged` is not called.
    public func setDate(_ day: CalendarDay, animated: Bool) {
        let new = clamped(day)
        let monthLength = CalendarDay.daysInMonth(date.month, of: date.year)
        date = new
        if CalendarDay.daysInMonth(new.month, of: new.year) != monthLength { picker.reloadComponent(Self.dayWheel) }
        showDate(animated: animated)
    }

    /// `day` as a valid day within the limits: a month out of 1...12 and a day past its
    /// month's end come to the nearest that is.
    func clamped(_ day: CalendarDay) -> CalendarDay {
        var d = day
        d.month = min(max(d.month, 1), 12)
        d.day = min(max(d.day, 1), CalendarDay.daysInMonth(d.month, of: d.year))
        let low = minimumDate
        let high = max(maximumDate, low)
        return min(max(d, low), high)
    }

    private func limitsChanged() {
        picker.reloadAllComponents()
        setDate(date, animated: false)
    }

    /// The wheels show `date`; only a wheel whose pick is another row turns.
    private func showDate(animated: Bool) {
        picker.selectRowsNotPicked(
            [
                (Self.monthWheel, date.month - 1), (Self.dayWheel, date.day - 1),
                (Self.yearWheel, date.year - minimumDate.year),
            ], animated: animated)
    }

    /// The user turned a wheel to a row: the day the wheels now name, a day past its month's
    /// end brought to its last, a day beyond the limits turned back to the nearest allowed.
    private func wheelsTurned() {
        let month = picker.selectedRow(inComponent: Self.monthWheel) + 1
        let year = minimumDate.year + max(0, picker.selectedRow(inComponent: Self.yearWheel))
        let day = picker.selectedRow(inComponent: Self.dayWheel) + 1
        let new = clamped(CalendarDay(year: year, month: month, day: day))
        guard new != date else { return showDate(animated: true) }
        setDate(new, animated: true)
        onDateChanged?(new)
    }

    // MARK: Wheels

    public func numberOfComponents(in picker: PickerView) -> Int { 3 }

    public func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int {
        switch component {
        case Self.monthWheel: return 12
        case Self.dayWheel: return CalendarDay.daysInMonth(date.month, of: date.year)
        default: return max(1, max(maximumDate, minimumDate).year - minimumDate.year + 1)
        }
    }

    public func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
        switch component {
        case Self.monthWheel: return monthSymbols[min(max(row, 0), 11)]
        case Self.dayWheel: return "\(row + 1)"
        default: return "\(minimumDate.year + row)"
        }
    }

    public func picker(_ picker: PickerView, widthForComponent component: Int) -> Double {
        switch component {
        case Self.monthWheel: return 0
        case Self.dayWheel: return 56
        default: return 84
        }
    }

    public func picker(_ picker: PickerView, accessibilityLabelForComponent component: Int) -> String? {
        wheelNames[min(max(component, 0), 2)]
    }

    // MARK: Layout

    public override var intrinsicContentSize: Size { picker.intrinsicContentSize }

    public override func sizeThatFits(_ size: Size) -> Size { picker.sizeThatFits(size) }

    public override func layoutSubviews() {
        super.layoutSubviews()
        picker.frame = bounds
    }

    /// A group (named by the app's label) holding the three wheels' lists.
    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .group) }
}
