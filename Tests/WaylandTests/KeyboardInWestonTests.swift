import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

@MainActor
@Suite(.serialized) struct KeyboardInWestonTests {
    @Test func helloWorldByTapsOnTheOnScreenKeyboardAndByPhysicalKeys() throws {
        let rig = try WestonRig(width: 390, height: 844)
        let window = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
        let app = try WaylandApp(content: window, title: "keyboard", socket: rig.socketPath)
        try app.settle()
        let field1 = try #require(window.view(named: "field1") as? TextField)
        let field2 = try #require(window.view(named: "field2") as? TextField)
        let keyboard = try #require(window.view(named: "keyboard") as? OnScreenKeyboard)
        // The rig's compositor offers text-input-v3 (the test module does), so the scene's
        // `systemWhenAvailable` would leave typing to a system keyboard: a kiosk's in-app one here.
        keyboard.policy = .touchOnly
        var time: UInt32 = 1000

        func tap(_ p: Point) throws {
            time += 120
            try WaylandTests.tap(rig, app, at: p, time: time)
        }

        // A real touch on the field focuses it and brings the keyboard up.
        try tap(field1.convert(field1.bounds, to: nil).center)
        #expect(field1.isFocused)
        try app.pump(until: { keyboard.visibleFraction == 1 && app.isAtRest }, "the keyboard to slide in")
        #expect(keyboard.visibleFraction == 1)

        func key(_ title: String) throws {
            try tap(try #require(keyboard.keyFrame(for: title), "no key \(title)").center)
        }
        for ch in "Hello, World" {
            for title in try #require(OnScreenKeyboard.keyTitles(typing: ch)) { try key(title) }
        }
        #expect(field1.text == "Hello, World")

        // Physical keys: wl_keyboard events through the compositor's keymap and xkbcommon.
        try tap(field2.convert(field2.bounds, to: nil).center)
        #expect(field2.isFocused)
        // Each character its own key stroke (Shift around it where the keymap needs it), 30 ms
        // apart: the replay layer's `text` types them with the rig's us keymap.
        let target = WestonTarget(rig: rig, app: app)
        for ch in "Hello, World" {
            time += 30
            try target.send(from: Double(time)) { $0.text(String(ch), at: 0) }
        }
        try app.settle()
        #expect(field2.text == "Hello, World")
    }

    /// The keymap is compiled after the first frame, when the window is first idle; keys that
    /// come before then compile it first, and type what they should, Shift and all.
    @Test func keysBeforeTheKeymapIsCompiledCompileItFirst() throws {
        let rig = try WestonRig(width: 390, height: 844)
        let window = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
        let app = try WaylandApp(content: window, title: "keyboard", socket: rig.socketPath)
        let field2 = try #require(window.view(named: "field2") as? TextField)
        #expect(app.window.framesCommitted >= 1)
        #expect(app.connection.input.keymapPending, "the keymap was compiled before the first frame")
        // The keyboard's focus (enter, and the modifier state after it) read without a turn of
        // the loop, which would find the window idle and compile the keymap.
        let focused = Deadline(in: 10)
        while app.connection.input.keyboard?.hasFocus != true, !focused.hasPassed { try app.connection.roundtrip() }
        #expect(app.connection.input.keyboard?.hasFocus == true)
        #expect(app.connection.input.keymapPending)
        window.focus(field2, byTouch: false)
        let target = WestonTarget(rig: rig, app: app)
        var time: UInt32 = 1000
        for ch in "Hi!" {
            time += 30
            try target.send(from: Double(time)) { $0.text(String(ch), at: 0) }
        }
        try app.settle()
        #expect(field2.text == "Hi!")
        #expect(!app.connection.input.keymapPending)
    }

    /// With no key, the keymap is compiled once the window is idle.
    @Test func theKeymapIsCompiledOnceTheWindowIsIdle() throws {
        let rig = try WestonRig(width: 390, height: 844)
        let window = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
        let app = try WaylandApp(content: window, title: "keyboard", socket: rig.socketPath)
        #expect(app.connection.input.keymapPending)
        try app.settle()
        #expect(!app.connection.input.keymapPending)
    }

    /// Tab and Space as real wl_keyboard keys: Tab twice focuses the second field (not by
    /// touch: the on-screen keyboard stays down), and Space types one space there without
    /// paging the form.
    @Test func tabMovesFocusAndSpaceTypesWithoutScrolling() throws {
        let rig = try WestonRig(width: 390, height: 844)
        let window = Scene.keyboard.makeWindow(size: Size(width: 390, height: 844))
        let app = try WaylandApp(content: window, title: "keyboard", socket: rig.socketPath)
        try app.settle()
        let field2 = try #require(window.view(named: "field2") as? TextField)
        let form = try #require(window.view(named: "main") as? ScrollView)
        let keyboard = try #require(window.view(named: "keyboard") as? OnScreenKeyboard)
        var time: UInt32 = 1000

        let target = WestonTarget(rig: rig, app: app)
        func press(_ name: String) throws {
            time += 60
            try target.send(from: Double(time)) { $0.key(name, at: 0, hold: 5) }
        }

        try press("Tab")
        try press("Tab")
        #expect(field2.isFocused)
        #expect(!window.focusedByTouch)
        try press("space")
        try app.settle()
        #expect(field2.text == " ")
        #expect(form.contentOffset.y == 0)
        #expect(keyboard.visibleFraction == 0)
    }
}
