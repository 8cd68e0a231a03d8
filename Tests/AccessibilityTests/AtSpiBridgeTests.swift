import Foundation
import ScrollwayAtSpi
import ScrollwayDBus
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// A window served on the accessibility bus by `AtSpiBridge` and read by libatspi, the library
/// Orca reads apps with (issue 37): the application on the desktop, its window as a frame, the
/// elements with their roles, names, states and extents, and a button that `DoAction` fires.
@MainActor
@Suite struct AtSpiBridgeTests {
    /// `window` served on `bus`'s accessibility bus as the application "scrollway-test".
    static func serve(_ window: Window, on bus: AccessibilityBus) throws -> (DBusConnection, AtSpiBridge) {
        let connection = try DBusConnection(address: bus.accessibilityAddress)
        let bridge = AtSpiBridge(connection: connection, applicationName: "scrollway-test") { [window] }
        try bridge.register()
        return (connection, bridge)
    }

    /// The elements of the one window of the one application a reader finds on `bus`, read
    /// `depth` levels below the desktop (3: the window's own elements).
    static func windowElements(
        in bus: AccessibilityBus, depth: Int = 3, serve: @escaping () throws -> Void
    ) throws -> [[String: Any]] {
        let desktop = try AccessibilityBusTests.client(["tree", "--depth", String(depth)], in: bus, serve: serve)
        let app = try #require((desktop["children"] as? [[String: Any]])?.first)
        let frame = try #require((app["children"] as? [[String: Any]])?.first)
        return try #require(frame["children"] as? [[String: Any]], "\(frame)")
    }

    @Test func aScreenReaderFindsTheWindowReadsItsElementsAndPressesItsButton() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 400, height: 300))
        window.name = "Sign in"
        let title = Label(text: "Welcome back", frame: Rect(x: 20, y: 10, width: 200, height: 30))
        let field = TextField(placeholder: "Name", frame: Rect(x: 20, y: 50, width: 300, height: 44))
        let go = Button(title: "Go", frame: Rect(x: 20, y: 110, width: 80, height: 44))
        for v in [title, field, go] { window.addSubview(v) }
        field.becomeFocused()
        try window.prepareFrame()

        let (connection, bridge) = try Self.serve(window, on: bus)
        defer { bridge.unregister() }

        let desktop = try AccessibilityBusTests.client(
            ["tree", "--depth", "3"], in: bus, serve: { try connection.wait(timeout: 0.01) })
        let apps = try #require(desktop["children"] as? [[String: Any]])
        #expect(apps.count == 1, "\(apps)")
        let app = try #require(apps.first)
        #expect(app["name"] as? String == "scrollway-test" && app["role"] as? String == "application")
        let frames = try #require(app["children"] as? [[String: Any]])
        let frame = try #require(frames.first)
        #expect(frame["name"] as? String == "Sign in" && frame["role"] as? String == "frame", "\(frame)")
        #expect((frame["states"] as? [String])?.contains("active") == true, "\(frame)")
        let elements = try #require(frame["children"] as? [[String: Any]])
        #expect(elements.map { $0["role"] as? String } == ["label", "entry", "push button"], "\(elements)")
        #expect(elements.map { $0["name"] as? String } == ["Welcome back", "Name", "Go"])
        let entryStates = Set(elements[1]["states"] as? [String] ?? [])
        #expect(
            entryStates.isSuperset(of: [
                "editable", "enabled", "focusable", "focused", "sensitive", "showing", "single-line", "visible",
            ]),
            "\(entryStates)")
        #expect(elements[2]["extents"] as? [Int] == [20, 110, 80, 44])
        // Unnamed, the field is called by its placeholder, which is also its placeholder-text.
        #expect((elements[1]["attributes"] as? [String: String])?["placeholder-text"] == "Name", "\(elements[1])")
        #expect((elements[2]["interfaces"] as? [String])?.contains("Action") == true)

        let pressed = try AccessibilityBusTests.client(
            ["action", "Go"], in: bus, serve: { try connection.wait(timeout: 0.01) })
        #expect(pressed["actions"] as? [String] == ["click"] && pressed["done"] as? Bool == true, "\(pressed)")
        #expect(go.tapCount == 1)
    }

    /// Moving the focus sends `object:state-changed:focused`: off on the field that had it, on
    /// on the one that takes it, which a screen reader hears in that order (what Orca reads).
    @Test func aFocusMoveIsHeardAsStateChanges() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 400, height: 300))
        let first = TextField(placeholder: "First", frame: Rect(x: 20, y: 20, width: 300, height: 44))
        let second = TextField(placeholder: "Second", frame: Rect(x: 20, y: 80, width: 300, height: 44))
        window.addSubview(first)
        window.addSubview(second)
        first.becomeFocused()
        try window.prepareFrame()
        let (connection, bridge) = try Self.serve(window, on: bus)
        defer { bridge.unregister() }

        let listener = try AccessibilityBusTests.listen(
            ["object:state-changed:focused"], count: 2, in: bus, serve: { try connection.wait(timeout: 0.01) })
        second.becomeFocused()
        let events = try listener.finish { try connection.wait(timeout: 0.01) }
        #expect(events.map { $0["name"] as? String } == ["First", "Second"], "\(events)")
        #expect(events.map { $0["detail1"] as? Int } == [0, 1], "\(events)")
        #expect(
            events.allSatisfy {
                $0["type"] as? String == "object:state-changed:focused" && $0["role"] as? String == "entry"
            })
    }

    /// A window with a focused "Name" field holding `text`.
    func focusedNameField(_ text: String = "") -> (Window, TextField) {
        let window = Window(size: Size(width: 400, height: 300))
        let field = TextField(placeholder: "Name", frame: Rect(x: 20, y: 20, width: 300, height: 44))
        window.addSubview(field)
        field.text = text
        field.becomeFocused()
        return (window, field)
    }

    /// The events of `types` a reader hears (`count` of them) when `change` is made and the
    /// next frame prepared.
    func heard(
        _ types: [String], count: Int, _ window: Window, _ served: ServedWindow, after change: () -> Void
    ) throws -> [[String: Any]] {
        let listener = try AccessibilityBusTests.listen(types, count: count, in: served.bus, serve: served.serve)
        change()
        try window.prepareFrame()
        return try listener.finish(serve: served.serve)
    }

    /// A field's text through `Text` and `EditableText`: a reader sets it, inserts into it and
    /// moves its caret, and reads back the text, the caret and the count in code points (é
    /// typed as e and a combining accent is two); what the field did is heard as
    /// `object:text-changed` and `object:text-caret-moved` after the frame.
    @Test func aFieldsTextIsReadEditedAndFollowed() throws {
        let (window, field) = focusedNameField()
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let edited = try AccessibilityBusTests.client(
            ["text", "Name", "--set", "Ada", "--insert", "3", " Love", "--caret", "1"], in: bus, serve: serve)
        #expect(field.text == "Ada Love" && field.caret == 1, "\(field.text) \(field.caret)")
        #expect(edited["text"] as? String == "Ada Love" && edited["caret"] as? Int == 1 && edited["count"] as? Int == 8)
        field.text = "Rene\u{301}"
        field.editing.moveCaret(to: 4)  // after the é: 4 characters, 5 code points
        try window.prepareFrame()
        let accented = try AccessibilityBusTests.client(["text", "Name"], in: bus, serve: serve)
        #expect(accented["count"] as? Int == 5 && accented["caret"] as? Int == 5, "\(accented)")

        let events = try heard(["object:text-changed:insert", "object:text-caret-moved"], count: 2, window, served) {
            field.editing.replaceSelection(with: "!")
        }
        #expect(
            events.map { $0["type"] as? String } == ["object:text-changed:insert", "object:text-caret-moved"],
            "\(events)")
        #expect(events.first?["detail1"] as? Int == 5 && events.first?["data"] as? String == "!", "\(events)")
        #expect(events.last?["detail1"] as? Int == 6, "\(events)")
    }

    /// A text replaced by a canonically equivalent one (é as one code point, then as e and a
    /// combining acute) is a change in code points, the reader's offsets: it is heard. Compared
    /// as `String`s they were equal, and nothing was told.
    @Test func aCanonicallyEquivalentTextIsAChange() throws {
        let (window, field) = focusedNameField("Caf\u{E9}")
        try window.prepareFrame()
        let served = try ServedWindow(window)
        defer { served.stop() }
        try window.prepareFrame()
        let events = try heard(["object:text-changed"], count: 2, window, served) { field.text = "Cafe\u{301}" }
        #expect(field.text.unicodeScalars.count == 5)
        #expect(
            events.map { $0["type"] as? String } == ["object:text-changed:delete", "object:text-changed:insert"],
            "\(events)")
        #expect(events.first?["detail1"] as? Int == 3 && events.first?["data"] as? String == "\u{E9}", "\(events)")
        #expect(events.last?["detail2"] as? Int == 2, "\(events)")
    }

    /// A reader's edit of a field that does not have the focus is heard too: it had changed
    /// the text with no `text-changed` (only the focused field's changes were told), so a
    /// reader's copy of the text went stale.
    @Test func aReadersEditOfAnUnfocusedFieldIsHeard() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let first = TextField(placeholder: "First", frame: Rect(x: 20, y: 20, width: 300, height: 44))
        let second = TextField(placeholder: "Second", frame: Rect(x: 20, y: 80, width: 300, height: 44))
        second.text = "Ada"
        window.addSubview(first)
        window.addSubview(second)
        first.becomeFocused()
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)
        let listener = try AccessibilityBusTests.listen(["object:text-changed"], count: 1, in: bus, serve: serve)
        _ = try AccessibilityBusTests.client(["text", "Second", "--set", "Ada Lovelace"], in: bus, serve: serve)
        #expect(second.text == "Ada Lovelace" && first.isFocused)
        let events = try listener.finish(serve: serve)
        #expect(events.map { $0["type"] as? String } == ["object:text-changed:insert"], "\(events)")
        #expect(events.first?["data"] as? String == " Lovelace" && events.first?["detail1"] as? Int == 3, "\(events)")
        #expect(events.first?["name"] as? String == "Second", "\(events)")
    }

    /// What Orca asks of a field as the caret moves, through libatspi: the word, sentence and
    /// line at, before and after an offset (it had answered one character for each, and Orca
    /// read "d" for the word "world"), the text's attributes (Orca raised an exception on
    /// every caret move without them, and said nothing), and a selection a reader sets.
    @Test func aReaderReadsAFieldByWordSentenceAndLineAndSelectsInIt() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let field = TextField(placeholder: "Note", frame: Rect(x: 20, y: 20, width: 360, height: 44))
        field.text = "Hello brave world. Don't stop!"
        window.addSubview(field)
        field.becomeFocused()
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let read = try AccessibilityBusTests.client(
            ["text", "Note", "--select", "6", "11", "--pieces", "16"], in: bus, serve: serve)
        func triples(_ key: String) -> [String: [AnyHashable]] {
            ((read[key] as? [String: [Any]]) ?? [:]).mapValues { $0.compactMap { $0 as? AnyHashable } }
        }
        let at = triples("at")
        #expect(at["char"] == ["d", 16, 17], "\(read)")
        #expect(at["word-start"] == ["world. ", 12, 19])
        #expect(at["word-end"] == [" world", 11, 17])
        #expect(at["sentence-start"] == ["Hello brave world. ", 0, 19])
        #expect(at["line-start"] == ["Hello brave world. Don't stop!", 0, 30])
        #expect(triples("before")["word-start"] == ["brave ", 6, 12])
        #expect(triples("after")["word-start"] == ["Don't ", 19, 25])
        #expect(triples("after")["sentence-start"] == ["Don't stop!", 19, 30])
        let strings = triples("string")
        #expect(strings["word"] == ["world. ", 12, 19], "\(read)")
        #expect(strings["sentence"] == ["Hello brave world. ", 0, 19], "\(read)")
        #expect(strings["paragraph"] == ["Hello brave world. Don't stop!", 0, 30])
        let defaults = read["defaults"] as? [String: String] ?? [:]
        #expect(defaults["family-name"]?.isEmpty == false && defaults["weight"] == "400", "\(read)")
        #expect((read["run"] as? [Any])?.dropFirst().compactMap { $0 as? Int } == [0, 30], "\(read)")

        #expect(read["selected"] as? Bool == true && field.editing.selection == 6..<11, "\(read)")
        #expect(read["selections"] as? [[Int]] == [[6, 11]], "\(read)")

        // Where "d" and the word at it ("world. ") are drawn, in the window: on the field's
        // line, from the "w" to past the "d". A point in either half of "d" is offset 16.
        let d = try #require(read["characterExtents"] as? [Int], "\(read)")
        let world = try #require(read["wordExtents"] as? [Int], "\(read)")
        let shown = try #require(field.characterRect(at: 16).map { field.convert($0, to: nil) })
        #expect(
            d
                == [shown.minX, shown.minY, shown.width, shown.height].map {
                    Int(clamping: $0, rounding: .toNearestOrAwayFromZero)
                }, "\(d) \(shown)")
        #expect(d[0] > 20 && d[1] >= 20 && d[1] + d[3] <= 64 && d[2] > 3, "\(d)")
        #expect(world[0] < d[0] && world[0] + world[2] > d[0] + d[2] && world[1] == d[1], "\(world) \(d)")
        for x in [d[0] + 1, d[0] + d[2] - 1] {
            let point = try AccessibilityBusTests.client(
                ["text", "Note", "--offset-at", "\(x)", "\(d[1] + d[3] / 2)"], in: bus, serve: serve)
            #expect(point["offsetAt"] as? Int == 16, "at x \(x): \(point)")
        }
    }

    /// A switch through libatspi: a toggle button named by its label, checkable and checked
    /// while on; a reader's click turns it, and `object:state-changed:checked` says so (the
    /// form's switches had been push buttons titled "On", with no state a reader could tell).
    @Test func aSwitchIsACheckableToggleButtonThatAReaderTurns() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let toggle = Switch(isOn: true, frame: Rect(x: 20, y: 20, width: 59, height: 44))
        toggle.accessibilityLabel = "Show my photo"
        window.addSubview(toggle)
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let element = try #require(try Self.windowElements(in: bus, serve: serve).first)
        #expect(element["role"] as? String == "toggle button" && element["name"] as? String == "Show my photo")
        #expect(Set(element["states"] as? [String] ?? []).isSuperset(of: ["checkable", "checked"]), "\(element)")

        let listener = try AccessibilityBusTests.listen(
            ["object:state-changed:checked"], count: 1, in: bus, serve: serve)
        let clicked = try AccessibilityBusTests.client(["action", "Show my photo"], in: bus, serve: serve)
        #expect(clicked["actions"] as? [String] == ["click"] && clicked["done"] as? Bool == true, "\(clicked)")
        #expect(!toggle.isOn)
        let events = try listener.finish(serve: serve)
        #expect(
            events.first?["detail1"] as? Int == 0 && events.first?["role"] as? String == "toggle button", "\(events)")
    }

    /// A slider, a stepper, a progress view and a page control through libatspi's Value: each
    /// (the stepper a spin button, the progress view a progress bar, the others sliders) has
    /// the Value interface, read as its number, range, step and words; a reader's number sets
    /// it (brought into its range, heard by the app as the user's change; a progress bar
    /// refuses), and the change is heard as `object:property-change:accessible-value`.
    @Test func aSliderAStepperAndAPageControlAreReadAndSetThroughTheirValue() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let slider = Slider(value: 0.25, frame: Rect(x: 20, y: 20, width: 300, height: 44))
        slider.accessibilityLabel = "Volume"
        let pages = PageControl(numberOfPages: 6, frame: Rect(x: 0, y: 200, width: 400, height: 26))
        pages.accessibilityLabel = "Photos"
        let copies = Stepper(value: 2, frame: Rect(x: 20, y: 100, width: 94, height: 32))
        copies.accessibilityLabel = "Copies"
        copies.maximumValue = 20
        let download = ProgressView(frame: Rect(x: 20, y: 160, width: 300, height: 4))
        download.accessibilityLabel = "Download"
        download.progress = 0.4
        for v in [slider, copies, download, pages] { window.addSubview(v) }
        var heard: [Double] = []
        slider.onValueChanged = { heard.append($0) }
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let elements = try Self.windowElements(in: bus, serve: serve)
        #expect(
            elements.map { $0["role"] as? String } == ["slider", "spin button", "progress bar", "slider"], "\(elements)"
        )
        #expect(elements.allSatisfy { ($0["interfaces"] as? [String])?.contains("Value") == true }, "\(elements)")

        let read = try AccessibilityBusTests.client(["value", "Volume"], in: bus, serve: serve)
        #expect(read["minimum"] as? Double == 0 && read["maximum"] as? Double == 1, "\(read)")
        #expect(read["increment"] as? Double == 0.1 && read["current"] as? Double == 0.25, "\(read)")
        #expect(read["text"] as? String == "25%", "\(read)")

        let listener = try AccessibilityBusTests.listen(
            ["object:property-change:accessible-value"], count: 1, in: bus, serve: serve)
        let set = try AccessibilityBusTests.client(["value", "Volume", "--set", "0.75"], in: bus, serve: serve)
        #expect(set["set"] as? Bool == true && set["current"] as? Double == 0.75 && set["text"] as? String == "75%")
        #expect(slider.value == 0.75 && heard == [0.75])
        let events = try listener.finish(serve: serve)
        #expect(
            events.first?["role"] as? String == "slider" && events.first?["name"] as? String == "Volume", "\(events)")
        // Beyond its range: brought to its end.
        let beyond = try AccessibilityBusTests.client(["value", "Volume", "--set", "3"], in: bus, serve: serve)
        #expect(beyond["current"] as? Double == 1 && slider.value == 1 && heard == [0.75, 1])

        let page = try AccessibilityBusTests.client(["value", "Photos", "--set", "4"], in: bus, serve: serve)
        #expect(page["minimum"] as? Double == 1 && page["maximum"] as? Double == 6 && page["increment"] as? Double == 1)
        #expect(page["current"] as? Double == 4 && page["text"] as? String == "Page 4 of 6", "\(page)")
        #expect(pages.currentPage == 3)

        var stepped: [Double] = []
        copies.onValueChanged = { stepped.append($0) }
        let count = try AccessibilityBusTests.client(["value", "Copies", "--set", "7"], in: bus, serve: serve)
        #expect(count["minimum"] as? Double == 0 && count["maximum"] as? Double == 20, "\(count)")
        #expect(count["increment"] as? Double == 1 && count["current"] as? Double == 7, "\(count)")
        #expect(count["text"] as? String == "7" && copies.value == 7 && stepped == [7], "\(count)")

        // A progress bar is read, not set: the reader's number is answered and left (an error
        // answer aborted the reader in libatspi), and so is a disabled stepper's.
        let progress = try AccessibilityBusTests.client(["value", "Download", "--set", "0.9"], in: bus, serve: serve)
        #expect(progress["current"] as? Double == 0.4, "\(progress)")
        #expect(progress["text"] as? String == "40%" && download.progress == 0.4, "\(progress)")
        copies.isEnabled = false
        let refused = try AccessibilityBusTests.client(["value", "Copies", "--set", "3"], in: bus, serve: serve)
        #expect(refused["current"] as? Double == 7 && copies.value == 7 && stepped == [7], "\(refused)")
    }

    /// A segmented control through libatspi: a panel named by its label holding one radio
    /// button a segment, the selected one checked, each "n of 3" in its set; clicking one
    /// chooses it, heard by the app and as a checked state changing.
    @Test func aSegmentedControlIsAGroupOfRadioButtonsAReaderClicks() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let control = SegmentedControl(
            items: ["Light", "Dark", "Auto"], frame: Rect(x: 20, y: 20, width: 304, height: 32))
        control.accessibilityLabel = "Theme"
        control.selectedSegmentIndex = 0
        window.addSubview(control)
        var heard: [Int] = []
        control.onValueChanged = { heard.append($0) }
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let group = try #require(try Self.windowElements(in: bus, depth: 4, serve: serve).first)
        #expect(group["role"] as? String == "panel" && group["name"] as? String == "Theme", "\(group)")
        let segments = try #require(group["children"] as? [[String: Any]])
        #expect(segments.map { $0["role"] as? String } == Array(repeating: "radio button", count: 3), "\(segments)")
        #expect(segments.map { $0["name"] as? String } == ["Light", "Dark", "Auto"])
        #expect(segments.map { ($0["states"] as? [String])?.contains("checked") } == [true, false, false])
        #expect(segments.map { ($0["attributes"] as? [String: String])?["posinset"] } == ["1", "2", "3"])

        let listener = try AccessibilityBusTests.listen(
            ["object:state-changed:checked"], count: 2, in: bus, serve: serve)
        let clicked = try AccessibilityBusTests.client(["action", "Auto"], in: bus, serve: serve)
        #expect(clicked["actions"] as? [String] == ["click"] && clicked["done"] as? Bool == true, "\(clicked)")
        #expect(control.selectedSegmentIndex == 2 && heard == [2])
        let events = try listener.finish(serve: serve)
        #expect(events.map { $0["name"] as? String } == ["Light", "Auto"], "\(events)")
        #expect(events.map { $0["detail1"] as? Int } == [0, 1], "\(events)")
    }

    /// A disabled button through libatspi: neither enabled nor sensitive, and its click does
    /// nothing; enabling it is heard as both states coming on, and its click fires it.
    @Test func aDisabledButtonIsReadAsNotEnabledAndCannotBeClicked() throws {
        let window = Window(size: Size(width: 400, height: 300))
        let button = Button(title: "Send", frame: Rect(x: 20, y: 20, width: 120, height: 44))
        button.isEnabled = false
        window.addSubview(button)
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let element = try #require(try Self.windowElements(in: bus, serve: serve).first)
        let states = Set(element["states"] as? [String] ?? [])
        #expect(
            states.isDisjoint(with: ["enabled", "sensitive", "focusable"]) && states.contains("showing"), "\(states)")
        let refused = try AccessibilityBusTests.client(["action", "Send"], in: bus, serve: serve)
        #expect(refused["done"] as? Bool == false && button.tapCount == 0, "\(refused)")

        let listener = try AccessibilityBusTests.listen(
            ["object:state-changed:enabled", "object:state-changed:sensitive"], count: 2, in: bus, serve: serve)
        button.isEnabled = true
        let events = try listener.finish(serve: serve)
        #expect(
            events.map { $0["detail1"] as? Int } == [1, 1] && events.allSatisfy { $0["name"] as? String == "Send" })
        let clicked = try AccessibilityBusTests.client(["action", "Send"], in: bus, serve: serve)
        #expect(clicked["done"] as? Bool == true && button.tapCount == 1, "\(clicked)")
    }

    /// `Component` in each coordinate type and at a point, through libatspi: a button in a
    /// scroll view 40 px down the window is at (16, 80) in the window and (16, 40) in its
    /// parent (it had answered window coordinates for both), and the point over it finds it
    /// from the frame (GetAccessibleAtPoint had been unknown).
    @Test func extentsInEachCoordinateTypeAndTheElementAtAPoint() throws {
        let window = Window(size: Size(width: 400, height: 300))
        window.accessibilityLabel = "Points"
        let scroll = View(frame: Rect(x: 0, y: 40, width: 400, height: 200))
        scroll.accessibilityLabel = "Panel"
        scroll.accessibilityRole = .group
        let go = Button(title: "Go", frame: Rect(x: 16, y: 40, width: 80, height: 44))
        scroll.addSubview(go)
        window.addSubview(scroll)
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let button = try AccessibilityBusTests.client(["component", "Go"], in: bus, serve: serve)
        #expect(button["window"] as? [Int] == [16, 80, 80, 44], "\(button)")
        #expect(button["parent"] as? [Int] == [16, 40, 80, 44], "\(button)")
        let frame = try AccessibilityBusTests.client(
            ["component", "Points", "--at", "20", "90"], in: bus, serve: serve)
        #expect(frame["at"] as? String == "Go" && frame["contains"] as? Bool == true, "\(frame)")
        let beside = try AccessibilityBusTests.client(
            ["component", "Points", "--at", "300", "100"], in: bus, serve: serve)
        #expect(beside["at"] as? String == "Panel", "\(beside)")
        let outside = try AccessibilityBusTests.client(
            ["component", "Points", "--at", "300", "280"], in: bus, serve: serve)
        #expect(outside["at"] is NSNull, "\(outside)")
    }

    /// A registry that dies and comes back finds the application again: the bridge embeds
    /// itself when the registry's name gets a new owner, as at-spi2-core's own bridge does. It
    /// had stayed off the desktop (0 applications) until the app was restarted.
    @Test func theApplicationIsFoundAgainAfterTheRegistryRestarts() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 200, height: 100))
        window.accessibilityLabel = "Survivor"
        let (connection, bridge) = try Self.serve(window, on: bus)
        defer { bridge.unregister() }
        let serve = { try connection.wait(timeout: 0.01) }
        func applications() throws -> [String] {
            let desktop = try AccessibilityBusTests.client(["tree", "--depth", "1"], in: bus, serve: serve)
            return (desktop["children"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        let first = try applications()
        #expect(first == ["scrollway-test"], "\(first)")

        // This bus's registry (others run beside it in parallel tests), by its name's owner.
        let probe = try DBusConnection(address: bus.accessibilityAddress)
        let owner = try #require(
            try probe.call(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetNameOwner", arguments: [.string("org.a11y.atspi.Registry")]
            ).first?.stringValue)
        let pid = try #require(
            try probe.call(
                "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", arguments: [.string(owner)]
            ).first)
        guard case .uint32(let registry) = pid else {
            Issue.record("no process id for the registry: \(pid)")
            return
        }
        #expect(kill(pid_t(bitPattern: registry), SIGKILL) == 0)

        // The next client's call starts a registry again (D-Bus activation); the bridge hears
        // the name's new owner and embeds itself, while this loop serves it.
        var seen: [String] = []
        for _ in 0..<50 where seen != ["scrollway-test"] {
            seen = try applications()
            for _ in 0..<10 { try serve() }
        }
        #expect(seen == ["scrollway-test"])
    }

    /// `ScrollTo` on a row below the window (in the list's margin, not showing) scrolls the list
    /// until the whole row is in sight; the list's rows come in order, top to bottom.
    @Test func scrollToBringsARowIntoSight() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Scene.list.makeWindow(size: Size(width: 390, height: 844))
        try window.prepareFrame()
        let list = try #require(window.accessibilityTree().all.first { $0.role == .list })
        let rows = list.children.filter { $0.role == .listItem }
        #expect(rows.map(\.frame.minY) == rows.map(\.frame.minY).sorted())
        let below = try #require(rows.last { !$0.states.contains(.showing) }, "no row below the window")
        let (connection, bridge) = try Self.serve(window, on: bus)
        defer { bridge.unregister() }

        let answer = try AccessibilityBusTests.client(
            ["scroll-to", below.label], in: bus, serve: { try connection.wait(timeout: 0.01) })
        #expect(answer["scrolled"] as? Bool == true, "\(answer)")
        let shown = below.view.convert(below.view.bounds, to: nil)
        #expect(shown.minY >= 0 && shown.maxY <= 844, "\(shown)")
    }

    /// A photo picker's grid (a collection with `allowsMultipleSelection`) says it takes
    /// several, and a reader counts and names its selected items in order, the focused one
    /// among them (a reader's `SelectChild` moves the focus). An item the app selects is heard
    /// as `state-changed:selected` on it; a reader's `ClearSelection` drops the focus and says
    /// it could not drop the app's selection.
    @Test func aGridThatTakesSeveralSaysWhichAreSelected() throws {
        let window = Window(size: Size(width: 400, height: 600))
        let grid = PhotoGrid.make(in: window, count: 40)
        grid.allowsMultipleSelection = true
        grid.selectItem(at: ItemPath(item: 1))
        grid.selectItem(at: ItemPath(item: 3))
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let read = try AccessibilityBusTests.client(["select", "role:list"], in: bus, serve: serve)
        #expect(read["count"] as? Int == 2 && read["all"] as? [String] == ["Photo 2", "Photo 4"], "\(read)")
        #expect((read["states"] as? [String])?.contains("multiselectable") == true, "\(read)")

        let events = try heard(["object:state-changed:selected"], count: 1, window, served) {
            grid.selectItem(at: ItemPath(item: 6))
        }
        #expect(events.first?["name"] as? String == "Photo 7" && events.first?["detail1"] as? Int == 1, "\(events)")

        let children = try #require(grid.accessibilityNode(in: window)).children
        let ninth = try #require(children.firstIndex { $0.label == "Photo 9" })
        let focused = try AccessibilityBusTests.client(["select", "role:list", "\(ninth)"], in: bus, serve: serve)
        #expect(focused["done"] as? Bool == true, "\(focused)")
        #expect(focused["all"] as? [String] == ["Photo 2", "Photo 4", "Photo 7", "Photo 9"], "\(focused)")
        #expect(grid.selectedItems == [1, 3, 6].map { ItemPath(item: $0) })

        let cleared = try AccessibilityBusTests.client(["select", "role:list", "--clear"], in: bus, serve: serve)
        #expect(cleared["done"] as? Bool == false && cleared["count"] as? Int == 3, "\(cleared)")
        #expect(window.focusedView == nil)
        // With the focus the only selection, clearing it clears all (it had answered false).
        grid.selectItem(at: nil)
        let again = try AccessibilityBusTests.client(["select", "role:list", "\(ninth)"], in: bus, serve: serve)
        #expect(again["count"] as? Int == 1, "\(again)")
        let all = try AccessibilityBusTests.client(["select", "role:list", "--clear"], in: bus, serve: serve)
        #expect(all["done"] as? Bool == true && all["count"] as? Int == 0, "\(all)")
        #expect(window.focusedView == nil)
    }

    /// A picker's wheels through libatspi: each a list named by the data source whose rows in
    /// view are its children, the picked one the list's selection; a reader's `SelectChild`
    /// picks a row (the wheel turns to it, the app hears the pick), heard as
    /// `state-changed:selected` on the rows.
    @Test func aPickersWheelsAreListsWhoseSelectionIsThePick() throws {
        final class Sizes: PickerViewDataSource {
            static let names = ["Small", "Medium", "Large", "Extra large", "Huge"]
            func numberOfComponents(in picker: PickerView) -> Int { 2 }
            func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int {
                component == 0 ? Self.names.count : 9
            }
            func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
                component == 0 ? Self.names[row] : "\(row + 1) copies"
            }
            func picker(_ picker: PickerView, accessibilityLabelForComponent component: Int) -> String? {
                component == 0 ? "Size" : "Copies"
            }
        }
        let window = Window(size: Size(width: 400, height: 300))
        let picker = PickerView(frame: Rect(x: 0, y: 40, width: 400, height: 216))
        let sizes = Sizes()
        picker.dataSource = sizes
        picker.selectRow(1, inComponent: 0, animated: false)
        var picks: [String] = []
        picker.onSelectRow = { picks.append("\($0)@\($1)") }
        window.addSubview(picker)
        try window.prepareFrame()
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)

        let read = try AccessibilityBusTests.client(["select", "Size"], in: bus, serve: serve)
        #expect(read["count"] as? Int == 1 && read["selected"] as? String == "Medium", "\(read)")
        let wheel = try #require(
            try Self.windowElements(in: bus, depth: 4, serve: serve).first { $0["name"] as? String == "Size" })
        #expect(wheel["role"] as? String == "list", "\(wheel)")
        let rows = try #require(wheel["children"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == Sizes.names, "\(rows)")
        #expect(rows.allSatisfy { $0["role"] as? String == "list item" }, "\(rows)")

        let events = try heard(["object:state-changed:selected"], count: 2, window, served) {
            let chose = try? AccessibilityBusTests.client(["select", "Size", "3"], in: bus, serve: serve)
            #expect(
                chose?["done"] as? Bool == true && chose?["selected"] as? String == "Extra large", "\(chose ?? [:])")
        }
        let said = events.map { "\($0["name"] as? String ?? "?") \($0["detail1"] as? Int ?? -1)" }
        #expect(Set(said) == ["Medium 0", "Extra large 1"], "\(events)")
        #expect(picker.selectedRow(inComponent: 0) == 3 && picks == ["3@0"])

        // A wheel always picks a row: a reader cannot clear it, nor deselect the pick.
        window.focus(picker.viewForRow(3, forComponent: 0), byTouch: false)
        let cleared = try AccessibilityBusTests.client(["select", "Size", "--clear"], in: bus, serve: serve)
        #expect(cleared["done"] as? Bool == false && cleared["selected"] as? String == "Extra large", "\(cleared)")
        #expect(picker.selectedRow(inComponent: 0) == 3 && window.focusedView === picker.viewForRow(3, forComponent: 0))
    }

    /// The window losing and getting the keyboard is heard as `window:deactivate` and
    /// `window:activate` from its frame, named by its title.
    @Test func theWindowsActivationIsHeard() throws {
        let window = Window(size: Size(width: 200, height: 100))
        window.accessibilityLabel = "Notes"
        let served = try ServedWindow(window)
        defer { served.stop() }
        let (bus, serve) = (served.bus, served.serve)
        let listener = try AccessibilityBusTests.listen(
            ["window:activate", "window:deactivate"], count: 2, in: bus, serve: serve)
        window.isKeyWindow = false
        window.isKeyWindow = true
        let events = try listener.finish(serve: serve)
        #expect(events.map { $0["type"] as? String } == ["window:deactivate", "window:activate"], "\(events)")
        #expect(events.allSatisfy { $0["name"] as? String == "Notes" && $0["role"] as? String == "frame" }, "\(events)")
    }
}

/// A window served on an accessibility bus of its own, as the bridge tests read it: its frame
/// prepared, the bridge registered; `stop()` ends both.
@MainActor
final class ServedWindow {
    let bus: AccessibilityBus
    let connection: DBusConnection
    let bridge: AtSpiBridge

    init(_ window: Window) throws {
        bus = try AccessibilityBus()
        do {
            try window.prepareFrame()
            (connection, bridge) = try AtSpiBridgeTests.serve(window, on: bus)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// Answers the bus's calls for up to 10 ms: what a test runs while a client waits.
    func serve() throws { try connection.wait(timeout: 0.01) }

    func stop() {
        bridge.unregister()
        bus.stop()
    }
}
