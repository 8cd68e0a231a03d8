import ScrollwayDemoScenes
import ScrollwayGeometry
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
        for scalar in "Hello, World".unicodeScalars {
            let stroke = try #require(rig.keys.stroke(for: scalar))
            time += 30
            try rig.pacer.wait(until: time) { try app.step(maxWait: $0) }
            if stroke.shift { rig.input.key(KeyCodes.leftShift, pressed: true, time: time) }
            rig.input.key(stroke.evdev, pressed: true, time: time)
            rig.input.key(stroke.evdev, pressed: false, time: time + 5)
            if stroke.shift { rig.input.key(KeyCodes.leftShift, pressed: false, time: time + 5) }
            try rig.input.roundtrip()
            try app.catchUp()
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

        func press(_ name: String) throws {
            let stroke = try #require(rig.keys.stroke(forKeysymNamed: name), "no key \(name)")
            time += 60
            try rig.pacer.wait(until: time) { try app.step(maxWait: $0) }
            rig.input.key(stroke.evdev, pressed: true, time: time)
            rig.input.key(stroke.evdev, pressed: false, time: time + 5)
            try rig.input.roundtrip()
            try app.catchUp()
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
