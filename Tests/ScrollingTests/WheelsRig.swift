import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// A picker of wheels (a date or a time picker), 320 × 216, in a window on the offscreen
/// frame driver; `changes` is what the app heard, as each kind's initializer hooks it up.
@MainActor
final class WheelsRig<Picker: View> {
    let window = Window(size: Size(width: 320, height: 216))
    let picker: Picker
    let wheels: PickerView
    let driver: FrameDriver
    var changes: [String] = []

    init(_ picker: Picker, wheels: PickerView, configure: (Picker) -> Void) {
        self.picker = picker
        self.wheels = wheels
        configure(picker)
        window.addSubview(picker)
        driver = FrameDriver(window: window)
    }

    /// Each wheel's picked row.
    var rows: [Int] { (0..<wheels.numberOfComponents).map(wheels.selectedRow(inComponent:)) }

    /// Clicks of the wheel over `component`'s middle (negative: back), then rest.
    func click(_ clicks: Int, on component: Int) {
        let wheel = wheels.subviews.compactMap { $0 as? ScrollView }[component]
        let middle = wheel.convert(Point(x: wheel.bounds.midX, y: wheel.bounds.midY), to: nil)
        driver.send { $0.wheel(clicks: clicks, over: middle, at: 0) }
        driver.settle()
    }
}
