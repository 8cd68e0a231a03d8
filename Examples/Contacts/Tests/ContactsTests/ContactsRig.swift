import ContactsApp
import Scrollway
import ScrollwayWestonHarness

/// A phone-sized output.
let screenSize = Size(width: 390, height: 844)

/// The address book in a fresh headless weston, shown and at rest.
@MainActor func startContacts() throws -> (rig: WestonRig, app: WaylandApp, screen: ContactsScreen) {
    let rig = try WestonRig(width: Int(screenSize.width), height: Int(screenSize.height))
    let window = Window(size: screenSize)
    let screen = ContactsScreen(book: AddressBook())
    screen.install(in: window)
    let app = try WaylandApp(content: window, title: "Contacts", socket: rig.socketPath)
    try app.settle()
    try rig.parkPointer()  // no cursor in the captures
    try app.settle()
    return (rig, app, screen)
}

/// Gestures laid out with `ScriptBuilder` and played through Scrollway's replay layer
/// (`WestonTarget`) as real wl_touch and wl_keyboard events, paced in real time as a compositor
/// delivers them, with the app's loop turning meanwhile.
@MainActor struct Fingers {
    let target: WestonTarget
    /// The script time (ms) of the last event played.
    var time = 1000.0

    init(_ rig: WestonRig, _ app: WaylandApp) { target = WestonTarget(rig: rig, app: app) }

    /// Plays the gesture `build` lays out, its times in ms from `ms` after the last event.
    mutating func play(after ms: Double, _ build: (inout ScriptBuilder) -> Void) throws {
        time = try target.send(from: time + ms, build)
    }

    /// A finger down at `p` and lifted 80 ms later, 200 ms after the last event.
    mutating func tap(_ p: Point) throws {
        try play(after: 200) { $0.tap(at: p, at: 0, hold: 80) }
    }

    /// A finger down at `from`, `moves` motions of `step` 16 ms apart, lifted 16 ms after the
    /// last; 200 ms after the last event.
    mutating func drag(from: Point, step: Point, moves: Int) throws {
        try play(after: 200) { b in
            b.touch(
                from: from, at: 0, moves: (1...moves).map { (t: Double(16 * $0), to: from + step * Double($0)) },
                liftAt: Double(16 * moves + 16))
        }
    }

    /// A key (an xkb keysym name) pressed and released, 200 ms after the last event.
    mutating func key(_ name: String) throws {
        try play(after: 200) { $0.key(name, at: 0) }
    }
}

extension Canvas {
    /// Whether the pixel at (x, y) is `color` (flat fills come through the compositor exactly).
    func shows(_ color: Color, x: Int, y: Int) -> Bool { pixel(x: x, y: y) == color.premultipliedARGB }

    /// How many pixels of `rect` are darker than mid-grey: text drawn there.
    func darkPixels(in rect: Rect) -> Int {
        var n = 0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) where color(x: x, y: y).green < 0.5 { n += 1 }
        }
        return n
    }
}

extension View {
    /// The view's rect in window coordinates.
    var windowFrame: Rect { convert(bounds, to: nil) }
}
