import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

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
