import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// Orca 43 itself, headless, reading scenes in weston (issue 37), its speech written to a file
/// by speech-dispatcher: in the list, after Tab the first row and after Page Down the row the
/// focus moved to; in a field, the word Ctrl+Left moves the caret to; in the pager, the page;
/// in the form's picker, the minute.
/// One at a time: each starts an Orca, whose start on a loaded two-core machine took long
/// enough, three at once, for a key to reach it before it listened.
@MainActor
@Suite(.serialized) struct OrcaTests {
    /// Runs `app` until what speech-dispatcher was given (one utterance a line, a row's lines
    /// joined by spaces) meets `condition`, for at most a minute; on failure, says what Orca said.
    static func wait(
        for orca: ScreenReader, in app: WaylandApp, _ what: String, _ condition: @escaping ([String]) -> Bool
    ) throws {
        do {
            try app.pump(until: { condition(orca.spoken) }, timeout: 60, what)
        } catch {
            Issue.record("\(error)\nOrca said: \(orca.speechOutput)\nspeech file: \(orca.spoken)\n\(orca.log)")
            throw error
        }
    }

    @Test func orcaSpeaksTheFocusedRowAfterTabAndPageDown() throws {
        let scene = try AccessibilityInWestonTests.ListSceneInWeston()
        defer { scene.stop() }
        let (bus, rig, window, app) = (scene.bus, scene.rig, scene.window, scene.app)
        try app.pump(until: { window.isKeyWindow }, "the keyboard")
        let orca = try ScreenReader(bus: bus)
        defer { orca.stop() }
        func spoken(_ what: String, _ condition: @escaping ([String]) -> Bool) throws {
            try Self.wait(for: orca, in: app, what, condition)
        }
        try spoken("Orca to start") { $0.contains { $0.contains("Screen reader on") } }
        let list = try #require(window.view(named: "main") as? ListView)
        // An utterance that says row `row`: its first line, then the rest or the full stop.
        func says(_ row: Int) -> (String) -> Bool {
            let first = ListRows.text(row).split(separator: "\n").first.map(String.init) ?? ""
            return { $0 == first + "." || $0.hasPrefix(first + " ") }
        }
        let before = orca.spoken.count
        try rig.pressKey(named: "Tab", at: 1000)
        try spoken("Orca to say the first row") { $0.dropFirst(before).contains(where: says(0)) }
        let afterTab = orca.spoken.count
        try rig.pressKey(named: "Page_Down", at: 2000)
        try app.pump(
            until: { (window.focusedView as? ListCell).flatMap { list.row(for: $0) } ?? 0 > 1 }, "the focus to move")
        let cell = try #require(window.focusedView as? ListCell)
        let row = try #require(list.row(for: cell))
        #expect(row > 5, "Page Down moved the focus to row \(row + 1) only")
        try spoken("Orca to say row \(row + 1)") { $0.dropFirst(afterTab).contains(where: says(row)) }
    }

    /// Orca reads the word the caret lands on when Ctrl+Left moves it in a field: it had
    /// thrown on every caret move there (no text attributes to check the word's spelling
    /// with) and said nothing, and read "d" for the word "world".
    @Test func orcaSaysTheWordCtrlLeftMovesTo() throws {
        let scene = try AccessibilityInWestonTests.ListSceneInWeston(.keyboard)
        defer { scene.stop() }
        let (bus, rig, window, app) = (scene.bus, scene.rig, scene.window, scene.app)
        try app.pump(until: { window.isKeyWindow }, "the keyboard")
        let field = try #require(window.view(named: "field1") as? TextField)
        field.text = "hello brave world"
        let orca = try ScreenReader(bus: bus)
        defer { orca.stop() }
        func spoken(_ what: String, _ condition: @escaping ([String]) -> Bool) throws {
            try Self.wait(for: orca, in: app, what, condition)
        }
        try spoken("Orca to start") { $0.contains { $0.contains("Screen reader on") } }
        let focused = orca.spoken.count
        try rig.pressKey(named: "Tab", at: 1000)
        try app.pump(until: { field.isFocused }, "the field to take the focus")
        try spoken("Orca to say the field") { $0.dropFirst(focused).contains { $0.contains("Field 1") } }
        let before = orca.spoken.count
        let left = try #require(rig.keys.stroke(forKeysymNamed: "Left"))
        rig.input.key(KeyCodes.leftControl, pressed: true, time: 2000)
        rig.input.key(left.evdev, pressed: true, time: 2001)
        rig.input.key(left.evdev, pressed: false, time: 2050)
        rig.input.key(KeyCodes.leftControl, pressed: false, time: 2060)
        try rig.input.roundtrip()
        try app.pump(until: { field.caret == 12 }, "Ctrl+Left to move the caret to \"world\"")
        try spoken("Orca to say \"world\"") { $0.dropFirst(before).contains { $0.contains("world") } }
        #expect(!orca.log.contains("Traceback"), "Orca raised: \(orca.log)")
    }

    /// Orca reads a picker's wheel as a list whose rows take the focus: the form's minutes as
    /// Shift+Tab focuses their picked row (the last stop), and the next minute as Down picks it.
    @Test func orcaSaysTheMinuteAPickerTurnsTo() throws {
        let scene = try AccessibilityInWestonTests.ListSceneInWeston(.form)
        defer { scene.stop() }
        let (bus, rig, window, app) = (scene.bus, scene.rig, scene.window, scene.app)
        try app.pump(until: { window.isKeyWindow }, "the keyboard")
        let picker = try #require(window.view(named: "starts at") as? PickerView)
        let orca = try ScreenReader(bus: bus)
        defer { orca.stop() }
        func spoken(_ what: String, _ condition: @escaping ([String]) -> Bool) throws {
            try Self.wait(for: orca, in: app, what, condition)
        }
        try spoken("Orca to start") { $0.contains { $0.contains("Screen reader on") } }
        let before = orca.spoken.count
        let tab = try #require(rig.keys.stroke(forKeysymNamed: "Tab"))
        rig.input.key(KeyCodes.leftShift, pressed: true, time: 1000)
        rig.input.key(tab.evdev, pressed: true, time: 1001)
        rig.input.key(tab.evdev, pressed: false, time: 1050)
        rig.input.key(KeyCodes.leftShift, pressed: false, time: 1060)
        try rig.input.roundtrip()
        try app.pump(
            until: { window.focusedView === picker.viewForRow(0, forComponent: 1) },
            "the minutes' row to take the focus")
        try spoken("Orca to say the minutes") { $0.dropFirst(before).contains { $0.contains("Minutes") } }
        let focused = orca.spoken.count
        try rig.pressKey(named: "Down", at: 2000)
        try app.pump(until: { picker.selectedRow(inComponent: 1) == 1 }, "Down to pick the next minute")
        try spoken("Orca to say the minute") { $0.dropFirst(focused).contains { $0.hasPrefix("01") } }
        #expect(!orca.log.contains("Traceback"), "Orca raised: \(orca.log)")
    }

    /// Orca reads the paging scene's page control, a slider, by its value: the page number as
    /// Tab focuses it, and the next page's as Right turns to it (Orca 43 says the Value's
    /// number, not its words).
    @Test func orcaSaysThePageAPageControlTurnsTo() throws {
        let scene = try AccessibilityInWestonTests.ListSceneInWeston(.paging)
        defer { scene.stop() }
        let (bus, rig, window, app) = (scene.bus, scene.rig, scene.window, scene.app)
        try app.pump(until: { window.isKeyWindow }, "the keyboard")
        let control = try #require(window.view(named: "pageIndicator") as? PageControl)
        let pager = try #require(window.view(named: "main") as? ScrollView)
        let orca = try ScreenReader(bus: bus)
        defer { orca.stop() }
        func spoken(_ what: String, _ condition: @escaping ([String]) -> Bool) throws {
            try Self.wait(for: orca, in: app, what, condition)
        }
        try spoken("Orca to start") { $0.contains { $0.contains("Screen reader on") } }
        let before = orca.spoken.count
        try rig.pressKey(named: "Tab", at: 1000)
        try app.pump(until: { control.isFocused }, "the page control to take the focus")
        try spoken("Orca to say the page control") { $0.dropFirst(before).contains("Pages slider 1.") }
        let focused = orca.spoken.count
        try rig.pressKey(named: "Right", at: 2000)
        try app.pump(until: { control.currentPage == 1 && pager.contentOffset.x == 390 }, "the page to turn")
        try spoken("Orca to say the page") { $0.dropFirst(focused).contains("2") }
        #expect(!orca.log.contains("Traceback"), "Orca raised: \(orca.log)")
    }
}
