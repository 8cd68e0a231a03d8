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
/// in the form's date picker, the year.
/// One at a time: each starts an Orca, whose start on a loaded two-core machine took long
/// enough, three at once, for a key to reach it before it listened.
@MainActor
@Suite(.serialized) struct OrcaTests {
    /// A scene in weston with the window active and Orca started on its bus, reading it.
    @MainActor final class Session {
        let scene: AccessibilityInWestonTests.ListSceneInWeston
        let orca: ScreenReader
        var rig: WestonRig { scene.rig }
        var window: Window { scene.window }
        var app: WaylandApp { scene.app }

        init(_ which: Scene = .list) throws {
            scene = try AccessibilityInWestonTests.ListSceneInWeston(which)
            do {
                try scene.app.pump(until: { [window = scene.window] in window.isKeyWindow }, "the keyboard")
                orca = try ScreenReader(bus: scene.bus)
            } catch {
                scene.stop()
                throw error
            }
            do {
                // Orca's start (Python loading its modules) is the slowest step on a loaded
                // machine: a full test run beside a build took over a minute once. It says
                // "Screen reader on" before it reads which element has the focus: a key sent
                // before it listens moves a focus it then takes as its first, silently (the
                // year picker's test waited two minutes for words that never came).
                try spoken("Orca to start", timeout: 180) { [orca] in
                    $0.contains { $0.contains("Screen reader on") } && orca.isListening
                }
            } catch {
                stop()
                throw error
            }
        }

        func stop() {
            orca.stop()
            scene.stop()
        }

        /// How many utterances Orca has made: what it says next is what comes after.
        var said: Int { orca.spoken.count }

        /// Runs the app until what speech-dispatcher was given (one utterance a line, a row's
        /// lines joined by spaces) meets `condition`, for at most `timeout` seconds (a safety
        /// net: a passing run waits a second or two); on failure, says what Orca said.
        func spoken(_ what: String, timeout: Double = 120, _ condition: @escaping ([String]) -> Bool) throws {
            do {
                try app.pump(until: { [orca] in condition(orca.spoken) }, timeout: timeout, what)
            } catch {
                Issue.record("\(error)\nOrca said: \(orca.speechOutput)\nspeech file: \(orca.spoken)\n\(orca.log)")
                throw error
            }
        }

        /// A real key stroke of `name` with `modifier` (an evdev code) held around it.
        func press(_ name: String, holding modifier: UInt32, at time: UInt32) throws {
            let key = try #require(rig.keys.stroke(forKeysymNamed: name))
            rig.input.key(modifier, pressed: true, time: time)
            rig.input.key(key.evdev, pressed: true, time: time + 1)
            rig.input.key(key.evdev, pressed: false, time: time + 50)
            rig.input.key(modifier, pressed: false, time: time + 60)
            try rig.input.roundtrip()
        }
    }

    @Test func orcaSpeaksTheFocusedRowAfterTabAndPageDown() throws {
        let s = try Session()
        defer { s.stop() }
        let list = try #require(s.window.view(named: "main") as? ListView)
        // An utterance that says row `row`: its first line, then the rest or the full stop.
        func says(_ row: Int) -> (String) -> Bool {
            let first = ListRows.text(row).split(separator: "\n").first.map(String.init) ?? ""
            return { $0 == first + "." || $0.hasPrefix(first + " ") }
        }
        let before = s.said
        try s.rig.pressKey(named: "Tab", at: 1000)
        try s.spoken("Orca to say the first row") { $0.dropFirst(before).contains(where: says(0)) }
        let afterTab = s.said
        try s.rig.pressKey(named: "Page_Down", at: 2000)
        try s.app.pump(
            until: { (s.window.focusedView as? ListCell).flatMap { list.row(for: $0) } ?? 0 > 1 }, "the focus to move")
        let cell = try #require(s.window.focusedView as? ListCell)
        let row = try #require(list.row(for: cell))
        #expect(row > 5, "Page Down moved the focus to row \(row + 1) only")
        try s.spoken("Orca to say row \(row + 1)") { $0.dropFirst(afterTab).contains(where: says(row)) }
    }

    /// Orca reads the word the caret lands on when Ctrl+Left moves it in a field: it had
    /// thrown on every caret move there (no text attributes to check the word's spelling
    /// with) and said nothing, and read "d" for the word "world".
    @Test func orcaSaysTheWordCtrlLeftMovesTo() throws {
        let s = try Session(.keyboard)
        defer { s.stop() }
        let field = try #require(s.window.view(named: "field1") as? TextField)
        field.text = "hello brave world"
        let focused = s.said
        try s.rig.pressKey(named: "Tab", at: 1000)
        try s.app.pump(until: { field.isFocused }, "the field to take the focus")
        try s.spoken("Orca to say the field") { $0.dropFirst(focused).contains { $0.contains("Field 1") } }
        let before = s.said
        try s.press("Left", holding: KeyCodes.leftControl, at: 2000)
        try s.app.pump(until: { field.caret == 12 }, "Ctrl+Left to move the caret to \"world\"")
        try s.spoken("Orca to say \"world\"") { $0.dropFirst(before).contains { $0.contains("world") } }
        #expect(!s.orca.log.contains("Traceback"), "Orca raised: \(s.orca.log)")
    }

    /// Orca reads a picker's wheel as a list whose rows take the focus: the form's date of
    /// birth's years as Shift+Tab focuses their picked row (the last stop), and the next year
    /// as Down picks it.
    @Test func orcaSaysTheYearAPickerTurnsTo() throws {
        let s = try Session(.form)
        defer { s.stop() }
        let picker = try #require(s.window.view(named: "date of birth") as? DatePicker)
        let before = s.said
        try s.press("Tab", holding: KeyCodes.leftShift, at: 1000)
        try s.app.pump(
            until: { s.window.focusedView === picker.picker.viewForRow(90, forComponent: 2) },
            "the year's row to take the focus")
        try s.spoken("Orca to say the years") { $0.dropFirst(before).contains { $0.contains("Year") } }
        let focused = s.said
        try s.rig.pressKey(named: "Down", at: 2000)
        try s.app.pump(until: { picker.date.year == 1991 }, "Down to pick the next year")
        try s.spoken("Orca to say the year") { $0.dropFirst(focused).contains { $0.hasPrefix("1991") } }
        #expect(!s.orca.log.contains("Traceback"), "Orca raised: \(s.orca.log)")
    }

    /// Orca reads an outline's folder as expanded or collapsed: the files scene's Documents as
    /// the focus comes to it, then "collapsed" as Left closes it and "expanded" as Right opens
    /// it again.
    @Test func orcaSaysAFolderOpensAndCloses() throws {
        let s = try Session(.files)
        defer { s.stop() }
        let source = try #require(
            s.window.retainedObjects.compactMap { $0 as? ListDiffableDataSource<String, String> }.first)
        func open() -> Bool { source.snapshot(for: FileTree.disk).isExpanded("/Documents") }
        func focused() -> String? { (s.window.focusedView as? ListCell)?.textLabel.text }
        try s.rig.pressKey(named: "Tab", at: 1000)
        try s.app.pump(until: { focused() == "Home" }, "the first place to take the focus")
        var time: UInt32 = 2000
        for _ in 0..<4 {
            try s.rig.pressKey(named: "Down", at: time)
            time += 200
        }
        try s.app.pump(until: { focused() == "Documents" }, "the focus to reach Documents")
        // The row's name and its state, as one utterance or two.
        try s.spoken("Orca to say Documents, expanded") { said in
            guard let name = said.lastIndex(where: { $0.hasPrefix("Documents") }) else { return false }
            return said[name...].contains { $0.contains("expanded") }
        }
        let before = s.said
        try s.rig.pressKey(named: "Left", at: time)
        try s.app.pump(until: { !open() }, "Left to close Documents")
        try s.spoken("Orca to say collapsed") { $0.dropFirst(before).contains { $0.contains("collapsed") } }
        let closed = s.said
        try s.rig.pressKey(named: "Right", at: time + 200)
        try s.app.pump(until: { open() }, "Right to open Documents")
        try s.spoken("Orca to say expanded") { $0.dropFirst(closed).contains { $0.contains("expanded") } }
        #expect(!s.orca.log.contains("Traceback"), "Orca raised: \(s.orca.log)")
    }

    /// Orca reads the paging scene's page control, a slider, by its value: the page number as
    /// Tab focuses it, and the next page's as Right turns to it (Orca 43 says the Value's
    /// number, not its words).
    @Test func orcaSaysThePageAPageControlTurnsTo() throws {
        let s = try Session(.paging)
        defer { s.stop() }
        let control = try #require(s.window.view(named: "pageIndicator") as? PageControl)
        let pager = try #require(s.window.view(named: "main") as? ScrollView)
        let before = s.said
        try s.rig.pressKey(named: "Tab", at: 1000)
        try s.app.pump(until: { control.isFocused }, "the page control to take the focus")
        try s.spoken("Orca to say the page control") { $0.dropFirst(before).contains("Pages slider 1.") }
        let focused = s.said
        try s.rig.pressKey(named: "Right", at: 2000)
        try s.app.pump(until: { control.currentPage == 1 && pager.contentOffset.x == 390 }, "the page to turn")
        try s.spoken("Orca to say the page") { $0.dropFirst(focused).contains("2") }
        #expect(!s.orca.log.contains("Traceback"), "Orca raised: \(s.orca.log)")
    }
}
