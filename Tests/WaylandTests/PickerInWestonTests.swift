import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// The form scene's time picker (a `TimePicker` on a 24-hour clock) in a real window on headless weston: a real wl_touch flick
/// turns the hours wheel, which comes to rest on an hour (the row exactly in the band, the
/// row's title in the label above), weston showing what the window composites offscreen, drum
/// and all; real wheel clicks turn the minutes a minute each.
@MainActor
@Suite(.serialized) struct PickerInWestonTests {
    @Test func aFlingRestsOnAnHourAndWheelClicksStepTheMinutes() throws {
        let (rig, app, window) = try startScene(.form)
        let form = try #require(window.view(named: "main") as? ScrollView)
        let timePicker = try #require(window.view(named: "starts at") as? TimePicker)
        let picker = timePicker.picker
        form.scrollRectToVisible(picker.convert(picker.bounds, to: form), animated: false)
        try app.settle()
        let label = try #require(timePicker.superview?.subviews.compactMap { $0 as? Label }.first)
        #expect(label.text == "Starts at 22:00")
        let wheels = picker.subviews.compactMap { $0 as? ScrollView }
        #expect(wheels.count == 2)
        let hours = wheels[0]
        let box = hours.convert(hours.bounds, to: nil)
        #expect(box.minY >= 0 && box.maxY <= 600, "the wheel at \(box)")

        // Down: earlier hours come into the band.
        try flick(rig, app, from: Point(x: box.midX, y: box.minY + 40), step: Point(x: 0, y: 25), moves: 4)
        try app.pump(
            until: { app.isAtRest && !hours.isDecelerating && !hours.isScrollAnimating }, timeout: 15,
            "the hours to come to rest")
        let hour = picker.selectedRow(inComponent: 0)
        #expect(hour < 20, "the flick turned the hours only to \(hour)")
        // On the hour's row exactly: offset = row·32 − (216 − 32) / 2.
        #expect(hours.contentOffset.y == Double(hour) * 32 - 92)
        #expect(label.text == "Starts at \(hour < 10 ? "0" : "")\(hour):00")
        #expect(timePicker.time == TimeOfDay(hour: hour, minute: 0))
        let shown = try offscreenMismatches(rig, app, width: 390, height: 600)
        #expect(shown.count == 0, "\(shown.count) pixels differ, within \(shown.box)")

        let minutes = wheels[1].convert(wheels[1].bounds, to: nil)
        try WestonTarget(rig: rig, app: app).send(from: 1500) {
            $0.wheel(clicks: 3, over: Point(x: minutes.midX, y: minutes.midY), at: 0)
        }
        try app.pump(
            until: { app.isAtRest && picker.selectedRow(inComponent: 1) == 3 && !wheels[1].isScrollAnimating },
            timeout: 15, "three clicks to turn the minutes")
        #expect(wheels[1].contentOffset.y == 3 * 32 - 92)
        #expect(label.text.hasSuffix(":03"), "\(label.text)")
    }
}
