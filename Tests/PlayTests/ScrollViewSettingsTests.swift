import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScrolling
import Testing

/// `--set name=value`'s parser (the command line's, in ScrollwayCLI): what `play --set` and the
/// tour's steps apply to a scene's scroll view.
@MainActor
@Suite struct ScrollViewSettingsTests {
    /// Settings are checked whole: what only the whole can show (min > max zoom) is refused,
    /// and lengths past a billion pixels are refused where they are given.
    @Test func settingsOutsideTheirRangeAreRefused() throws {
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(throws: ScrollView.SettingError.self) { try s.setValues([("contentOffset", "1e308,1e308")]) }
        #expect(throws: ScrollView.SettingError.self) { try s.setValues([("contentSize", "1e16,1e16")]) }
        #expect(throws: ScrollView.SettingError.self) { try s.setValues([("contentInset", "1e16,0,0,0")]) }
        #expect(throws: ScrollView.SettingError.self) { try s.setValues([("maximumZoomScale", "1e300")]) }
        do {
            try s.setValues([("minimumZoomScale", "10"), ("maximumZoomScale", "1")])
            Issue.record("minimum 10 above maximum 1 was accepted")
        } catch let e as ScrollView.SettingError {
            #expect(
                e.description
                    == "--set maximumZoomScale: minimumZoomScale (10.0) is greater than maximumZoomScale (1.0)")
        }
        try s.setValues([("maximumZoomScale", "20"), ("minimumZoomScale", "10")])
        #expect(s.minimumZoomScale == 10 && s.maximumZoomScale == 20)
    }
}
