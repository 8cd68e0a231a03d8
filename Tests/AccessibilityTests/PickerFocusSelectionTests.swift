import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews
import Testing

extension AtSpiBridgeTests {
    /// Tab from a wheel's picked row to the next wheel's: neither row's selection changed, and
    /// a reader is told of neither (it had heard `selected 0` on "Medium", which its state set
    /// still said was selected); a pick then is heard, once for each row.
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
        let events = try heard(["object:state-changed:selected"], count: 2, window, served) {
            #expect(window.moveFocus() === picker.viewForRow(0, forComponent: 1))
            picker.selectRow(2, inComponent: 0, animated: false)
        }
        let said = events.map { "\($0["name"] as? String ?? "?") \($0["detail1"] as? Int ?? -1)" }
        #expect(said == ["Medium 0", "Large 1"], "\(events)")
        #expect(picker.selectedRow(inComponent: 0) == 2)
    }
}
