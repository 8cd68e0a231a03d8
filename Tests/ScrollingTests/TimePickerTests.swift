import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A time picker, 320 × 216, in a window on the offscreen frame driver; what the app heard.
typealias TimePickerRig = WheelsRig<TimePicker>

extension WheelsRig where Picker == TimePicker {
    convenience init(_ time: TimeOfDay, configure: (TimePicker) -> Void = { _ in }) {
        let picker = TimePicker(time: time, frame: Rect(x: 0, y: 0, width: 320, height: 216))
        self.init(picker, wheels: picker.picker, configure: configure)
        picker.onTimeChanged = { [unowned self] in changes.append("\($0)") }
    }

    func titles(_ component: Int) -> [String] {
        (0..<wheels.numberOfRows(inComponent: component)).map {
            picker.picker(wheels, titleForRow: $0, forComponent: component)
        }
    }
}

@MainActor
@Suite struct TimePickerTests {
    @Test func aTimeOfDayCountsMinutesFromMidnight() {
        let t = TimeOfDay(hour: 7, minute: 5)
        #expect(t.description == "07:05" && t.minutesSinceMidnight == 425)
        #expect(TimeOfDay(minutesSinceMidnight: 1_439) == TimeOfDay(hour: 23, minute: 59))
        #expect(TimeOfDay(minutesSinceMidnight: 5_000) == TimeOfDay(hour: 23, minute: 59))
        #expect(TimeOfDay(minutesSinceMidnight: -3) == TimeOfDay(hour: 0, minute: 0))
        #expect(TimeOfDay(hour: 9, minute: 59) < TimeOfDay(hour: 10, minute: 0))
    }

    /// 12-hour wheels: 12, 1 ... 11, the minutes, and AM or PM; 24-hour: 00 to 23 and no third
    /// wheel. A reader hears each wheel by its name.
    @Test func theWheelsShowTheTimeOnEitherClock() {
        let rig = TimePickerRig(TimeOfDay(hour: 22, minute: 5))
        #expect(rig.rows == [10, 5, 1])
        #expect(rig.titles(0) == ["12"] + (1...11).map(String.init))
        #expect(rig.titles(1).prefix(3) == ["00", "01", "02"] && rig.titles(1).count == 60)
        #expect(rig.titles(2) == ["AM", "PM"])
        var names = rig.window.accessibilityTree().all.filter { $0.role == .list }.map(\.label)
        #expect(names == ["Hours", "Minutes", "AM or PM"])
        rig.picker.uses24HourClock = true
        #expect(rig.wheels.numberOfComponents == 2 && rig.rows == [22, 5])
        #expect(rig.titles(0).first == "00" && rig.titles(0).last == "23")
        names = rig.window.accessibilityTree().all.filter { $0.role == .list }.map(\.label)
        #expect(names == ["Hours", "Minutes"])
        // Midnight and noon on a 12-hour clock.
        rig.picker.uses24HourClock = false
        rig.picker.setTime(TimeOfDay(hour: 0, minute: 30), animated: false)
        #expect(rig.rows == [0, 30, 0])
        rig.picker.setTime(TimeOfDay(hour: 12, minute: 0), animated: false)
        #expect(rig.rows == [0, 0, 1] && rig.changes.isEmpty)
    }

    /// Wheel clicks pick at once and the app hears the time; the hours do not carry into AM
    /// or PM (the wheels do not wrap), the AM or PM wheel moves twelve hours.
    @Test func turningAWheelPicksATimeTheAppHears() {
        let rig = TimePickerRig(TimeOfDay(hour: 10, minute: 58))
        rig.click(1, on: 1)
        rig.click(1, on: 0)
        #expect(rig.picker.time == TimeOfDay(hour: 11, minute: 59) && rig.rows == [11, 59, 0])
        rig.click(1, on: 0)  // past 11: the wheel's end, nothing changes
        #expect(rig.picker.time == TimeOfDay(hour: 11, minute: 59))
        rig.click(1, on: 2)
        #expect(rig.picker.time == TimeOfDay(hour: 23, minute: 59) && rig.rows == [11, 59, 1])
        rig.click(-11, on: 0)
        #expect(rig.picker.time == TimeOfDay(hour: 12, minute: 59))
        // Each click picks a row, and the app hears each: 22:59, 21:59 ... 12:59.
        #expect(rig.changes.prefix(4) == ["10:59", "11:59", "23:59", "22:59"])
        #expect(rig.changes.count == 14 && rig.changes.last == "12:59")
    }

    /// A minute interval steps the minutes wheel and brings the time down to a multiple; one
    /// that does not divide the hour is refused.
    @Test func aMinuteIntervalStepsTheMinutes() {
        let rig = TimePickerRig(TimeOfDay(hour: 22, minute: 44)) { $0.uses24HourClock = true }
        rig.picker.minuteInterval = 15
        #expect(rig.picker.time == TimeOfDay(hour: 22, minute: 30) && rig.rows == [22, 2])
        #expect(rig.titles(1) == ["00", "15", "30", "45"])
        rig.click(1, on: 1)
        #expect(rig.picker.time == TimeOfDay(hour: 22, minute: 45) && rig.changes == ["22:45"])
        rig.picker.minuteInterval = 7
        rig.picker.minuteInterval = 0
        #expect(rig.picker.minuteInterval == 15 && rig.titles(1).count == 4)
        rig.picker.setTime(TimeOfDay(hour: 8, minute: 14), animated: false)
        #expect(rig.picker.time == TimeOfDay(hour: 8, minute: 0))
    }

    /// A time beyond the limits turns the wheels back to the nearest allowed: the app hears
    /// only a time that changed, and the limits come in to the interval's multiples.
    @Test func timesBeyondTheLimitsAreTurnedBack() {
        let rig = TimePickerRig(TimeOfDay(hour: 20, minute: 0)) {
            $0.minimumTime = TimeOfDay(hour: 9, minute: 10)
            $0.maximumTime = TimeOfDay(hour: 17, minute: 40)
            $0.minuteInterval = 15
        }
        #expect(rig.picker.time == TimeOfDay(hour: 17, minute: 30) && rig.rows == [5, 2, 1])
        rig.click(1, on: 0)  // 18:30
        #expect(rig.picker.time == TimeOfDay(hour: 17, minute: 30) && rig.rows == [5, 2, 1])
        #expect(rig.changes.isEmpty)
        rig.click(-1, on: 2)  // 05:30
        #expect(rig.picker.time == TimeOfDay(hour: 9, minute: 15) && rig.rows == [9, 1, 0])
        #expect(rig.changes == ["09:15"])
        rig.picker.setTime(TimeOfDay(hour: 0, minute: 0), animated: false)
        #expect(rig.picker.time == TimeOfDay(hour: 9, minute: 15))
        // Limits that cross keep the earlier.
        rig.picker.maximumTime = TimeOfDay(hour: 8, minute: 0)
        #expect(rig.picker.time == TimeOfDay(hour: 9, minute: 15))
    }

    /// A minimum past the day's last multiple of the interval (23:58 by fives): the time is
    /// still one the wheels show, the day's last they have, not 23:59 under a wheel at 55.
    @Test func aMinimumPastTheDaysLastStepGivesATimeTheWheelsShow() {
        let rig = TimePickerRig(TimeOfDay(hour: 12, minute: 0)) {
            $0.uses24HourClock = true
            $0.minuteInterval = 5
            $0.minimumTime = TimeOfDay(hour: 23, minute: 58)
        }
        #expect(rig.picker.time == TimeOfDay(hour: 23, minute: 55) && rig.rows == [23, 11])
    }
}
