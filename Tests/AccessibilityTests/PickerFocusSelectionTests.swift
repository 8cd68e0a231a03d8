import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

extension AtSpiBridgeTests {
    /// Tab from a wheel's picked row to the next wheel's: the row left stays picked, and a
    /// reader is not told it was deselected (it had heard `selected 0` on "Medium", which its
    /// state set still says is selected).
    @Test func aPickedRowTheFocusLeavesIsNotHeardDeselected() throws {
        final class Sizes: PickerViewDataSource {
            static let names = ["Small", "Medium", "Large"]
            func numberOfComponents(in picker: PickerView) -> Int { 2 }
            func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int { 3 }
            func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
                component == 0 ? Self.names[row] : "\(row + 1) copies"
            }
        }
        let window = Window(size: Size(width: 400, height: 300))
        let picker = PickerView(frame: Rect(x: 0, y: 40, width: 400, height: 216))
        let sizes = Sizes()
        picker.dataSource = sizes
        picker.selectRow(1, inComponent: 0, animated: false)
        window.addSubview(picker)
        try window.prepareFrame()
        window.focus(picker.viewForRow(1, forComponent: 0), byTouch: false)
        let served = try ServedWindow(window)
        defer { served.stop() }
        let events = try heard(["object:state-changed:selected"], count: 1, window, served) {
            #expect(window.moveFocus() === picker.viewForRow(0, forComponent: 1))
        }
        let said = events.map { "\($0["name"] as? String ?? "?") \($0["detail1"] as? Int ?? -1)" }
        #expect(said == ["1 copies 1"], "\(events)")
        #expect(picker.selectedRow(inComponent: 0) == 1)
    }
}
