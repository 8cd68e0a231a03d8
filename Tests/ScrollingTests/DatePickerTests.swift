import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A date picker, 320 × 216, in a window on the offscreen frame driver; what the app heard.
typealias DatePickerRig = WheelsRig<DatePicker>

extension WheelsRig where Picker == DatePicker {
    convenience init(_ date: CalendarDay, configure: (DatePicker) -> Void = { _ in }) {
        let picker = DatePicker(date: date, frame: Rect(x: 0, y: 0, width: 320, height: 216))
        self.init(picker, wheels: picker.picker, configure: configure)
        picker.onDateChanged = { [unowned self] in changes.append("\($0)") }
    }
}

@MainActor
@Suite struct DatePickerTests {
    @Test func monthsHaveTheirGregorianLengths() {
        #expect(
            (1...12).map { CalendarDay.daysInMonth($0, of: 2023) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CalendarDay.daysInMonth(2, of: 2024) == 29 && CalendarDay.daysInMonth(2, of: 2000) == 29)
        #expect(CalendarDay.daysInMonth(2, of: 1900) == 28 && CalendarDay.daysInMonth(2, of: 2100) == 28)
        #expect(CalendarDay.daysInMonth(13, of: 2023) == 0)
        #expect(
            !CalendarDay(year: 2023, month: 2, day: 29).isValid && CalendarDay(year: 2024, month: 2, day: 29).isValid)
        #expect(CalendarDay(year: 2026, month: 3, day: 7).description == "2026-03-07")
        #expect(CalendarDay(year: 2026, month: 3, day: 7) < CalendarDay(year: 2026, month: 3, day: 8))
        #expect(CalendarDay(year: 2025, month: 12, day: 31) < CalendarDay(year: 2026, month: 1, day: 1))
    }

    @Test func theWheelsShowTheDate() throws {
        let rig = DatePickerRig(CalendarDay(year: 2026, month: 12, day: 7))
        #expect(rig.rows == [11, 6, 126])
        #expect(rig.wheels.numberOfRows(inComponent: 1) == 31)
        #expect(rig.wheels.numberOfRows(inComponent: 2) == 201)
        let names = rig.window.accessibilityTree().all.filter { $0.role == .list }.map(\.label)
        #expect(names == ["Month", "Day", "Year"])
        // Renamed wheels keep their rows (and the focus on the picked one).
        rig.window.focus(rig.wheels.viewForRow(6, forComponent: 1), byTouch: false)
        let focused = try #require(rig.window.focusedView)
        rig.picker.wheelNames = ["Mois", "Jour", "Année"]
        let renamed = rig.window.accessibilityTree().all.filter { $0.role == .list }.map(\.label)
        #expect(renamed == ["Mois", "Jour", "Année"])
        #expect(rig.window.focusedView === focused)
    }

    /// Turning from the 31st to a shorter month brings the day to that month's last, and the
    /// day wheel to that many rows; a leap day turned to a common year becomes the 28th.
    @Test func aDayPastTheMonthsEndComesToItsLast() {
        let rig = DatePickerRig(CalendarDay(year: 2024, month: 1, day: 31))
        rig.click(1, on: 0)
        #expect(rig.picker.date == CalendarDay(year: 2024, month: 2, day: 29))
        #expect(rig.wheels.numberOfRows(inComponent: 1) == 29)
        #expect(rig.rows == [1, 28, 124])
        rig.click(-1, on: 2)
        #expect(rig.picker.date == CalendarDay(year: 2023, month: 2, day: 28))
        #expect(rig.wheels.numberOfRows(inComponent: 1) == 28 && rig.rows == [1, 27, 123])
        rig.click(1, on: 0)
        #expect(rig.picker.date == CalendarDay(year: 2023, month: 3, day: 28))
        #expect(rig.wheels.numberOfRows(inComponent: 1) == 31)
        #expect(rig.changes == ["2024-02-29", "2023-02-28", "2023-03-28"])
    }

    /// Past the latest day the wheels turn back to it; the years wheel spans the limits' years.
    @Test func aDayBeyondTheLimitsTurnsBackToTheNearest() {
        let rig = DatePickerRig(CalendarDay(year: 2026, month: 6, day: 15)) {
            $0.minimumDate = CalendarDay(year: 2020, month: 3, day: 1)
            $0.maximumDate = CalendarDay(year: 2026, month: 12, day: 7)
        }
        #expect(rig.wheels.numberOfRows(inComponent: 2) == 7)
        #expect(rig.rows == [5, 14, 6])
        rig.click(6, on: 0)
        #expect(rig.picker.date == CalendarDay(year: 2026, month: 12, day: 7))
        #expect(rig.rows == [11, 6, 6])
        rig.click(-6, on: 2)
        #expect(rig.picker.date == CalendarDay(year: 2020, month: 12, day: 7))
        rig.click(-11, on: 0)
        #expect(rig.picker.date == CalendarDay(year: 2020, month: 3, day: 1))
        #expect(rig.rows == [2, 0, 0])
        // Each click picks a row at once, and is heard; past the limits, the nearest day.
        let months = (7...11).map { "2026-\($0 < 10 ? "0" : "")\($0)-15" } + ["2026-12-07"]
        let years = (2020...2025).reversed().map { "\($0)-12-07" }
        let back = (3...11).reversed().map { "2020-\($0 < 10 ? "0" : "")\($0)-07" } + ["2020-03-01"]
        #expect(rig.changes == months + years + back)
    }

    /// A fling on the years comes to rest on a year, and the app hears the one day it names.
    @Test func aFlingOnTheYearsPicksOneDay() {
        let rig = DatePickerRig(CalendarDay(year: 2026, month: 12, day: 7))
        let years = rig.wheels.subviews.compactMap { $0 as? ScrollView }[2]
        let x = years.convert(Point(x: years.bounds.midX, y: 0), to: nil).x
        rig.driver.send { $0.flick(from: Point(x: x, y: 60), by: Point(x: 0, y: 90), at: 0) }
        rig.driver.settle()
        let year = rig.picker.date.year
        #expect(year < 2020 && year >= 1900)
        #expect(rig.rows == [11, 6, year - 1900])
        #expect(years.contentOffset.y == Double(year - 1900) * 32 - 92)
        #expect(rig.changes == ["\(year)-12-07"])
    }

    @Test func setDateTurnsTheWheelsWithoutTellingTheApp() {
        let rig = DatePickerRig(CalendarDay(year: 2026, month: 12, day: 7))
        rig.picker.setDate(CalendarDay(year: 2000, month: 2, day: 30), animated: true)
        rig.driver.settle()
        #expect(rig.picker.date == CalendarDay(year: 2000, month: 2, day: 29))
        #expect(rig.rows == [1, 28, 100])
        rig.picker.setDate(CalendarDay(year: 1800, month: 0, day: 0), animated: false)
        #expect(rig.picker.date == CalendarDay(year: 1900, month: 1, day: 1) && rig.rows == [0, 0, 0])
        #expect(rig.changes.isEmpty)
    }
}

@MainActor
@Suite struct DatePickerGlideTests {
    /// A glide on one wheel goes on while another wheel picks a row: the day the glide stops
    /// on is heard, not lost to the year wheel pulled back to its pick.
    @Test func aGlidingWheelIsNotPulledBackByAnotherWheelsPick() throws {
        let rig = DatePickerRig(CalendarDay(year: 2026, month: 12, day: 7))
        let years = rig.wheels.subviews.compactMap { $0 as? ScrollView }[2]
        let x = years.convert(Point(x: years.bounds.midX, y: 0), to: nil).x
        rig.driver.send { $0.flick(from: Point(x: x, y: 60), by: Point(x: 0, y: 90), at: 0) }
        rig.driver.advance(by: 0.1)
        #expect(years.isDecelerating)
        rig.click(1, on: 1)
        let year = rig.picker.date.year
        #expect(year < 2020, "the year's glide was pulled back: \(rig.picker.date)")
        #expect(rig.picker.date.day == 8 && rig.rows == [11, 7, year - 1900])
        #expect(rig.changes == ["2026-12-08", "\(year)-12-08"])
    }
}
