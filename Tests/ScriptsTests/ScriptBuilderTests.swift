import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScripts
import Testing

/// The typed script builder: what it writes parses back to the same events, in time order.
@Suite struct ScriptBuilderTests {
    @Test func aDragIsSixteenMillisecondStepsWithFramesAndALift() {
        var b = ScriptBuilder()
        b.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 400), at: 100, ms: 64, hold: 10)
        let e = b.script.events
        #expect(e.count == 2 + 4 * 2 + 2)
        #expect(e[0] == ScriptEvent(t: 100, .touchDown(id: 0, x: 200, y: 700)))
        #expect(e[2] == ScriptEvent(t: 116, .touchMotion(id: 0, x: 200, y: 625)))
        #expect(e[8] == ScriptEvent(t: 164, .touchMotion(id: 0, x: 200, y: 400)))
        #expect(e[10] == ScriptEvent(t: 174, .touchUp(id: 0)))
    }

    @Test func aDragTakesTheWholeStepsOfItsStepThatFit() {
        var b = ScriptBuilder()
        b.drag(from: Point(x: 0, y: 100), to: Point(x: 0, y: 0), at: 0, ms: 60, id: 1, lift: false, step: 8)
        let moves = b.script.events.filter { $0.kind.typeName == "touch.motion" }
        // 60 / 8 = 7.5: seven moves, evenly spread, the last at the end.
        #expect(moves.count == 7)
        #expect(moves.last == ScriptEvent(t: 60, .touchMotion(id: 1, x: 0, y: 0)))
        #expect(!b.script.events.contains { $0.kind.typeName == "touch.up" })
    }

    @Test func aFlickLiftsOneStepAfterItsLastMove() {
        var b = ScriptBuilder()
        b.flick(from: Point(x: 200, y: 780), by: Point(x: 0, y: -600), at: 100, id: 1)
        let e = b.script.events.filter { $0.kind != .touchFrame }
        #expect(e.first == ScriptEvent(t: 100, .touchDown(id: 1, x: 200, y: 780)))
        #expect(e.dropFirst().prefix(5).map(\.t) == [110, 120, 130, 140, 150])
        #expect(e[5] == ScriptEvent(t: 150, .touchMotion(id: 1, x: 200, y: 180)))
        #expect(e.last == ScriptEvent(t: 160, .touchUp(id: 1)))
    }

    @Test func aDragThroughPointsVisitsEachInTurn() {
        var b = ScriptBuilder()
        let points = [Point(x: 10, y: 0), Point(x: 10, y: 10), Point(x: 0, y: 10)]
        b.drag(from: .zero, through: points, at: 5, step: 20, liftAfter: 7)
        let e = b.script.events.filter { $0.kind != .touchFrame }
        #expect(e.map(\.t) == [5, 25, 45, 65, 72])
        #expect(e[3] == ScriptEvent(t: 65, .touchMotion(id: 0, x: 0, y: 10)))
        #expect(e.last?.kind == .touchUp(id: 0))
        var held = ScriptBuilder()
        held.drag(from: .zero, through: points, at: 0)
        #expect(held.script.events.last == ScriptEvent(t: 48, .touchFrame))
        // A finger already down goes on: moves only, no touch.down.
        var on = ScriptBuilder()
        on.move(id: 2, through: points, after: 100, step: 5)
        #expect(on.script.events.filter { $0.kind != .touchFrame }.map(\.t) == [105, 110, 115])
        #expect(on.script.events.first?.kind == .touchMotion(id: 2, x: 10, y: 0))
    }

    @Test func aPinchGoesToItsScaleInStepsAndEnds() {
        var b = ScriptBuilder()
        b.pinch(over: Point(x: 10, y: 20), to: 2, at: 100, ms: 40, step: 10)
        let e = b.script.events
        #expect(e.prefix(3).map(\.kind) == [.pointerMotion(x: 10, y: 20), .pointerFrame, .pinchBegin])
        #expect(
            e.dropFirst(3).prefix(4).map(\.kind) == [1.25, 1.5, 1.75, 2].map { .pinchUpdate(scale: $0, dx: 0, dy: 0) })
        #expect(e.last == ScriptEvent(t: 156, .pinchEnd(cancelled: false)))
        var open = ScriptBuilder()
        open.pinch(over: .zero, to: 0.5, at: 0, ms: 16, endAfter: nil)
        #expect(open.script.events.last == ScriptEvent(t: 16, .pinchUpdate(scale: 0.5, dx: 0, dy: 0)))
    }

    @Test func partsMergeInTimeOrderAndEqualTimesKeepTheirOrder() {
        var b = ScriptBuilder()
        b.drag(from: Point(x: 0, y: 300), to: Point(x: 0, y: 100), at: 0, ms: 64)
        b.screenshot("mid", at: 32)
        b.key("End", at: 64, hold: 30)
        let e = b.script.events
        #expect(e.map(\.t) == e.map(\.t).sorted())
        #expect(e.firstIndex { $0.kind == .screenshot(name: "mid") } == 6)  // after the 32 ms motion and its frame
        let at64 = e.filter { $0.t == 64 }.map(\.kind.typeName)
        #expect(at64 == ["touch.motion", "touch.frame", "touch.up", "touch.frame", "key"])
        #expect(b.end == 94)
    }

    @Test func whatItBuildsIsAValidScriptThatReadsBackTheSame() throws {
        var b = ScriptBuilder()
        b.tap(at: Point(x: 195, y: 422), at: 100)
        b.tap(at: Point(x: 195, y: 422), at: 250)
        b.wheel(clicks: -3, over: Point(x: 10.5, y: 20), at: 400)
        b.key("Page_Down", at: 600)
        b.text("héllo, \"wörld\"", at: b.end + 100)
        b.preedit("wö", at: 800)
        b.preedit("wö", cursor: 1...3, at: 801)
        b.preedit("x", cursor: .some(nil), at: 802)
        b.commitText("wörld", at: 803)
        b.deleteSurrounding(before: 2, after: 0, at: 804)
        b.screenshot("done", at: 1000)
        let script = b.script
        let text = ScriptWriter.text(script)
        let parsed = try ScriptParser(file: "built.jsonl", isKeysym: { _ in true }).parse(text)
        #expect(parsed.events.map(\.kind) == script.events.map(\.kind))
        #expect(parsed.events.map(\.t) == script.events.map(\.t))
        // The text came 100 ms after the key's release, and reads back the same.
        #expect(script.events.contains { $0.t == 730 && $0.kind == .text("héllo, \"wörld\"") })
        // Input-method lines: the default preedit cursor is at the end (3 bytes), and a hidden
        // one is written as [-1, -1].
        #expect(parsed.events.map(\.kind).contains(.preedit("wö", cursor: 3...3)))
        #expect(parsed.events.map(\.kind).contains(.preedit("x", cursor: nil)))
        #expect(text.contains("\"type\": \"preedit\", \"text\": \"x\", \"cursor\": [-1, -1]"))
        #expect(parsed.events.map(\.kind).contains(.deleteSurrounding(before: 2, after: 0)))
    }
}

/// The one mapping from script events to input events.
@Suite struct ScriptInputTests {
    @Test func keysCarryTheModifiersTheScriptHoldsDown() {
        var input = ScriptInput()
        #expect(
            input.inputKind(for: .key("Shift_L", pressed: true))
                == .key(.other("Shift_L"), pressed: true, modifiers: .shift))
        #expect(input.inputKind(for: .key("End", pressed: true)) == .key(.end, pressed: true, modifiers: .shift))
        _ = input.inputKind(for: .key("Shift_L", pressed: false))
        #expect(input.inputKind(for: .key("End", pressed: false)) == .key(.end, pressed: false, modifiers: []))
        #expect(input.modifiers == [])
    }

    /// A key press types what the keymap says (`keyText`, given the modifiers held), as
    /// Wayland's xkb sends a pressed key's text with it; a text line's control characters go in
    /// as the keys a keyboard types them with, as a compositor's keymap does.
    @Test func keyPressesTypeTheirTextAndTextItsKeys() {
        var input = ScriptInput { name, modifiers in
            switch name {
            case "a": return .init(text: modifiers.contains(.shift) ? "A" : "a")
            case "ISO_Left_Tab": return .init(shift: true)
            default: return .init()
            }
        }
        #expect(
            input.inputKinds(for: .key("a", pressed: true)) == [
                .key(.other("a"), pressed: true, modifiers: []), .text("a"),
            ])
        #expect(input.inputKinds(for: .key("a", pressed: false)) == [.key(.other("a"), pressed: false, modifiers: [])])
        _ = input.inputKinds(for: .key("Shift_L", pressed: true))
        #expect(input.inputKinds(for: .key("a", pressed: true)).last == .text("A"))
        #expect(input.inputKinds(for: .key("End", pressed: true)) == [.key(.end, pressed: true, modifiers: .shift)])
        _ = input.inputKinds(for: .key("Shift_L", pressed: false))
        #expect(
            input.inputKinds(for: .text("ab\tc\r\nd\u{8}")) == [
                .text("ab"), .key(.tab, pressed: true, modifiers: []), .key(.tab, pressed: false, modifiers: []),
                .text("c"), .key(.enter, pressed: true, modifiers: []), .key(.enter, pressed: false, modifiers: []),
                .key(.enter, pressed: true, modifiers: []), .key(.enter, pressed: false, modifiers: []), .text("d"),
                .key(.backspace, pressed: true, modifiers: []), .key(.backspace, pressed: false, modifiers: []),
            ])
        #expect(input.inputKinds(for: .text("")) == [])
        // A key whose keysym is on the shifted level is pressed with Shift, as a rig presses it.
        #expect(
            input.inputKinds(for: .key("ISO_Left_Tab", pressed: true)) == [.key(.tab, pressed: true, modifiers: .shift)]
        )
        // Without a keymap, a key press types nothing.
        var plain = ScriptInput()
        #expect(plain.inputKinds(for: .key("a", pressed: true)) == [.key(.other("a"), pressed: true, modifiers: [])])
    }

    @Test func windowEventsAreNotInput() {
        var input = ScriptInput()
        for kind: ScriptEvent.Kind in [
            .windowResize(width: 10, height: 10), .screenshot(name: "a"), .keyboardShow, .keyboardHide,
        ] {
            #expect(input.inputKind(for: kind) == nil)
        }
        #expect(input.inputKind(for: .touchDown(id: 2, x: 1, y: 3)) == .touchDown(id: 2, position: Point(x: 1, y: 3)))
        #expect(input.inputKind(for: .pinchBegin) == .pinchBegin(fingers: 2))
    }
}
