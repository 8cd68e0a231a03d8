import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// text-input-v3 with a real input method where the compositor has one (sway relays
/// input-method-v2; weston's rig plays one in our module): composing, committing, deleting, and
/// the focus moving between fields and away from the window and back.
@MainActor
@Suite(.serialized) struct TextInputConformanceTests {
    /// What the input method saw of the focused text input, once the compositor has passed on
    /// everything our app sent.
    func imState(_ desk: Desk) throws -> TextInputSnapshot? {
        try desk.rig.seat.roundtrip()
        return desk.rig.textInput
    }

    @Test(arguments: Compositor.allCases) func theInputMethodComposesCommitsAndDeletes(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, needs: [.inputMethod, .textInputState])
        let field = try desk.focusField(1)
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method to be active")
        try desk.play { $0.preedit("ab", at: 0) }
        #expect(field.editing.preedit == "ab")
        #expect(field.text == "")
        try desk.play { $0.commitText("abc", at: 0) }
        #expect(field.editing.preedit == "")
        #expect(field.text == "abc")
        try desk.play { $0.deleteSurrounding(before: 1, after: 0, at: 0) }
        #expect(field.text == "ab")
        try desk.app.pump(until: { (try? imState(desk))?.surroundingText == "ab" }, "the input method to hear of 'ab'")
    }

    /// Moving the focus to another field ends the old session before the new one begins: the
    /// input method is deactivated and activated again (reset for the new field), and the field
    /// that lost the focus drops the preedit it was showing. Before the fix the client sent
    /// `enable` while enabled: no reset, and the old field kept its underlined preedit.
    @Test(arguments: Compositor.allCases) func movingBetweenFieldsResetsTheInputMethod(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, needs: [.inputMethod, .textInputState])
        let first = try desk.focusField(1)
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method to be active")
        try desk.play { $0.preedit("xy", at: 0) }
        #expect(first.editing.preedit == "xy")
        let before = desk.rig.textInputHistory.count
        _ = try desk.focusField(2)
        #expect(first.editing.preedit == "", "the field that lost the focus still shows its preedit")
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method active for field 2")
        // The compositor saw the session end (disabled) before the new one began.
        let after = desk.rig.textInputHistory.dropFirst(before).map(\.enabled)
        #expect(after.first == false && after.last == true, "text input states after the move: \(after)")
        if let wlroots = desk.rig as? any WlrootsRig {
            #expect(
                wlroots.control.activations.suffix(2) == [false, true], "activations: \(wlroots.control.activations)")
        }
    }

    /// The window loses the keyboard to another window and gets it back when that one closes:
    /// the input method comes
    /// back for the focused field (on phones, the on-screen keyboard shows again), and while
    /// away the field shows neither ring nor caret. Before the fix the client only sent
    /// `enable` again on enter; sway still counted it enabled and never activated the input
    /// method.
    @Test(arguments: Compositor.allCases) func theInputMethodComesBackWithTheWindowsFocus(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, needs: [.inputMethod, .textInputState, .focusReturns])
        let field = try desk.focusField(1)
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method to be active")
        #expect(field.showsFocus)
        var other: WaylandApp? = try WaylandApp(
            content: Window(size: Size(width: 200, height: 100)), title: "other", socket: desk.rig.socketPath,
            appID: "other")
        try other?.settle()
        try desk.app.pump(until: { !desk.window.isKeyWindow }, "the other window to take the keyboard")
        #expect(field.isFocused && !field.showsFocus, "a window without the keyboard still shows its caret and ring")
        let activations = (desk.rig as? any WlrootsRig)?.control.activations.count ?? 0
        other = nil
        try desk.app.pump(until: { desk.window.isKeyWindow }, "the keyboard to come back")
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method active again")
        #expect(field.showsFocus)
        if let wlroots = desk.rig as? any WlrootsRig {
            #expect(wlroots.control.activations.count > activations && wlroots.control.activations.last == true)
        }
        // And it still types.
        try desk.play { $0.commitText("ok", at: 0) }
        #expect(field.text == "ok")
    }

    /// Text typed on the keyboard (not through the input method) changes the surrounding text
    /// for another reason, and the client says so: `set_text_change_cause(other)`.
    @Test(arguments: Compositor.allCases) func keysTypedAreAChangeOfAnotherCause(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, needs: [.keyboard, .inputMethod, .textInputState])
        guard let wlroots = desk.rig as? any WlrootsRig else {
            try Desk.skip(
                "the change cause is not reported by \(c)'s rig: only a real input method (sway's, phoc's) hears it")
        }
        _ = try desk.focusField(1)
        try desk.app.pump(until: { (try? imState(desk))?.enabled == true }, "the input method to be active")
        try desk.play { $0.text("z", at: 0) }
        try desk.app.pump(until: { (try? imState(desk))?.surroundingText == "z" }, "the input method to hear of 'z'")
        #expect(wlroots.control.changeCauses.contains(1), "causes heard: \(wlroots.control.changeCauses)")
    }

    /// A phone's on-screen keyboard (squeekboard on phoc) shows for a focused field, shows for
    /// the next field after the focus moves (the input method was reset, not left as it was),
    /// hides when no field has the focus and shows again for the next one, hides while another
    /// window has the keyboard and shows again when the focus comes back. phoc makes the window
    /// shorter while the keyboard is up, and squeekboard says whether it shows (`Visible` on
    /// the session bus). Before the fix for the focus coming back it never showed again.
    @Test(arguments: Compositor.allCases) func theScreenKeyboardShowsForEveryFocusedField(_ c: Compositor) throws {
        let desk = try Desk(c, scene: .keyboard, width: 360, height: 720, scale: 2, needs: [.screenKeyboard])
        let phoc = try #require(desk.rig as? PhocRig)
        // squeekboard can show for a moment as the session starts (the window shorter while it
        // does): the full height is the one with it hidden, no field focused.
        try desk.app.pump(
            until: { (try? phoc.screenKeyboardVisible()) == false }, "the screen keyboard to be hidden at the start")
        try desk.settle()
        let full = desk.window.bounds.height
        func keyboardUp() -> Bool { desk.window.bounds.height < full && (try? phoc.screenKeyboardVisible()) == true }
        _ = try desk.focusField(1)
        try desk.app.pump(until: keyboardUp, "the screen keyboard to show for field 1")
        let up = desk.window.bounds.height
        _ = try desk.focusField(2)
        try desk.settle()
        try desk.app.pump(until: keyboardUp, "the screen keyboard to show for field 2")
        #expect(desk.window.bounds.height == up)
        desk.window.focus(nil, byTouch: false)
        try desk.app.pump(until: { !keyboardUp() }, "the screen keyboard to hide with no field focused")
        _ = try desk.focusField(3)
        try desk.app.pump(until: keyboardUp, "the screen keyboard to show again for field 3")
        // Another window takes the keyboard (it has no field: squeekboard hides), then closes.
        var other: WaylandApp? = try WaylandApp(
            content: Window(size: Size(width: 200, height: 100)), title: "other", socket: desk.rig.socketPath,
            appID: "other")
        try other?.settle()
        try desk.app.pump(until: { !desk.window.isKeyWindow }, "the other window to take the keyboard")
        try desk.app.pump(
            until: { (try? phoc.screenKeyboardVisible()) == false }, "the screen keyboard to hide for the other window")
        other = nil
        try desk.app.pump(until: { desk.window.isKeyWindow }, "the keyboard to come back")
        try desk.app.pump(until: keyboardUp, "the screen keyboard to show again when the focus comes back")
    }
}
