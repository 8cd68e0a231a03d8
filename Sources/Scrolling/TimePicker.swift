import Logging
import ScrollwayGeometry
import ScrollwayViews

/// A time of day: an hour (0–23) and a minute (0–59). No day and no time zone: an alarm's
/// time, the start of quiet hours.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int

    public init(hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// The time `minutes` after midnight, within the day (a negative count or one past the
    /// day's last minute comes to the day's first or last).
    public init(minutesSinceMidnight minutes: Int) {
        let m = min(max(minutes, 0), Self.minutesInDay - 1)
        self.init(hour: m / 60, minute: m % 60)
    }

    public static let minutesInDay = 24 * 60

    /// Minutes since midnight.
    public var minutesSinceMidnight: Int { hour * 60 + minute }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutesSinceMidnight < b.minutesSinceMidnight }

    /// On a 24-hour clock, two digits each: 07:05.
    public var description: String { "\(Self.twoDigits(hour)):\(Self.twoDigits(minute))" }

    static func twoDigits(_ n: Int) -> String { n >= 0 && n < 10 ? "0\(n)" : "\(n)" }
}

/// A time of day picked on wheels (UIDatePicker's `.time` mode in its wheels style), on a
/// `PickerView`: hours, minutes and AM or PM on a 12-hour clock (12, 1, ... 11), or hours 00 to
/// 23 and minutes on a 24-hour one (`uses24HourClock`). The minutes wheel steps by
/// `minuteInterval`. A time outside `minimumTime`...`maximumTime` turns the wheels back to the
/// nearest one allowed, as UIKit's do; the wheels do not wrap round, so turning the hours past
/// 11 does not turn AM to PM. `onTimeChanged` hears the user's changes, not `setTime`'s.
public final class TimePicker: View, PickerViewDataSource {
    /// The picked time: always one the wheels show (a multiple of `minuteInterval` minutes),
    /// within the limits.
    public private(set) var time: TimeOfDay
    /// Hours 00 to 23 and no AM or PM wheel (UIKit follows the locale; this is set by the app).
    public var uses24HourClock = false {
        didSet {
            guard uses24HourClock != oldValue else { return }
            picker.reloadAllComponents()
            showTime(animated: false)
        }
    }
    /// The minutes wheel's step (UIDatePicker's `minuteInterval`): 1 to 30, dividing 60. Another
    /// value is refused (logged; the last stays). The time comes down to a multiple of it.
    public var minuteInterval = 1 {
        didSet {
            guard minuteInterval != oldValue else { return }
            guard (1...30).contains(minuteInterval), 60 % minuteInterval == 0 else {
                log.error("TimePicker.minuteInterval: \(minuteInterval) is not 1 to 30 dividing 60; kept \(oldValue)")
                minuteInterval = oldValue
                return
            }
            picker.reloadComponent(Self.minuteWheel)
            setTime(time, animated: false)
        }
    }
    /// The earliest and the latest time that can be picked (UIDatePicker's minimum and
    /// maximum dates' times).
    public var minimumTime = TimeOfDay(hour: 0, minute: 0) { didSet { setTime(time, animated: false) } }
    public var maximumTime = TimeOfDay(hour: 23, minute: 59) { didSet { setTime(time, animated: false) } }
    /// Called with the new time when the user changes it.
    public var onTimeChanged: ((TimeOfDay) -> Void)?
    /// What the AM and PM rows say (two of them; another count is refused).
    public var amPMSymbols = ["AM", "PM"] {
        didSet {
            if amPMSymbols.count != 2 { amPMSymbols = oldValue }
            if !uses24HourClock { picker.reloadComponent(Self.halfWheel) }
        }
    }
    /// What a screen reader calls the hours, minutes and AM or PM wheels (three; another count
    /// is refused).
    public var wheelNames = ["Hours", "Minutes", "AM or PM"] {
        didSet {
            if wheelNames.count != 3 { wheelNames = oldValue }
            picker.componentLabelsChanged()
        }
    }

    /// The wheels.
    public let picker = PickerView()

    static let hourWheel = 0
    static let minuteWheel = 1
    static let halfWheel = 2
    private let log = Logger(label: "scrollway.timepicker")

    public init(time: TimeOfDay, frame: Rect = .zero) {
        self.time = time
        super.init(frame: frame)
        self.time = clamped(time)
        picker.dataSource = self
        picker.onSelectRow = { [unowned self] _, _ in wheelsTurned() }
        addSubview(picker)
        showTime(animated: false)
    }

    /// Picks `time` (down to a multiple of `minuteInterval`, within the limits) and turns the
    /// wheels to it; `onTimeChanged` is not called.
    public func setTime(_ time: TimeOfDay, animated: Bool) {
        self.time = clamped(time)
        showTime(animated: animated)
    }

    /// `time` as one the wheels show within the limits: its minute down to the interval's
    /// multiple, then the nearest allowed (the limits themselves brought in to multiples: the
    /// least at or after the minimum, the greatest at or before the maximum). A minimum past
    /// the day's last multiple (23:58 by fives) gives that last one (23:55), which the wheels
    /// show.
    func clamped(_ time: TimeOfDay) -> TimeOfDay {
        let step = minuteInterval
        var m = min(max(time.minutesSinceMidnight, 0), TimeOfDay.minutesInDay - 1)
        m -= m % step
        let last = (TimeOfDay.minutesInDay - 1) / step * step
        let low = (minimumTime.minutesSinceMidnight + step - 1) / step * step
        let high = max(low, maximumTime.minutesSinceMidnight / step * step)
        return TimeOfDay(minutesSinceMidnight: min(max(m, low), high, last))
    }

    /// The wheels show `time`; only a wheel whose pick is another row turns.
    private func showTime(animated: Bool) {
        var rows = [
            (Self.hourWheel, uses24HourClock ? time.hour : time.hour % 12),
            (Self.minuteWheel, time.minute / minuteInterval),
        ]
        if !uses24HourClock { rows.append((Self.halfWheel, time.hour >= 12 ? 1 : 0)) }
        picker.selectRowsNotPicked(rows, animated: animated)
    }

    /// The user turned a wheel to a row: the time the wheels now name, one beyond the limits
    /// turned back to the nearest allowed.
    private func wheelsTurned() {
        let hourRow = max(0, picker.selectedRow(inComponent: Self.hourWheel))
        let hour = uses24HourClock ? hourRow : hourRow + (picker.selectedRow(inComponent: Self.halfWheel) == 1 ? 12 : 0)
        let minute = max(0, picker.selectedRow(inComponent: Self.minuteWheel)) * minuteInterval
        let new = clamped(TimeOfDay(hour: hour, minute: minute))
        guard new != time else { return showTime(animated: true) }
        time = new
        showTime(animated: true)
        onTimeChanged?(new)
    }

    // MARK: Wheels

    public func numberOfComponents(in picker: PickerView) -> Int { uses24HourClock ? 2 : 3 }

    public func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int {
        switch component {
        case Self.hourWheel: return uses24HourClock ? 24 : 12
        case Self.minuteWheel: return 60 / minuteInterval
        default: return 2
        }
    }

    public func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
        switch component {
        case Self.hourWheel: return uses24HourClock ? TimeOfDay.twoDigits(row) : "\(row == 0 ? 12 : row)"
        case Self.minuteWheel: return TimeOfDay.twoDigits(row * minuteInterval)
        default: return amPMSymbols[min(max(row, 0), 1)]
        }
    }

    public func picker(_ picker: PickerView, widthForComponent component: Int) -> Double { 72 }

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

    /// A group (named by the app's label) holding the wheels' lists.
    public override var accessibilityDefaults: AccessibilityDefaults { AccessibilityDefaults(role: .group) }
}
