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

/// Real wl_touch events, paced in real time as a compositor delivers them, with the app's
/// loop turning meanwhile.
@MainActor struct Fingers {
    let rig: WestonRig
    let app: WaylandApp
    var time: UInt32 = 1000

    init(_ rig: WestonRig, _ app: WaylandApp) {
        self.rig = rig
        self.app = app
        rig.pacer.begin(at: Double(time))
    }

    /// Waits until `time + ms` is due, then sends `events` stamped with it, in one touch frame.
    mutating func at(_ ms: UInt32, _ events: (TestInputClient, UInt32) -> Void) throws {
        time += ms
        try rig.pacer.wait(until: time) { try app.step(maxWait: $0) }
        events(rig.input, time)
        rig.input.touchFrame()
        try rig.input.roundtrip()
        try app.catchUp()
    }

    /// A finger down at `p` and lifted 80 ms later, 200 ms after the last event.
    mutating func tap(_ p: Point) throws {
        try at(200) { $0.touchDown(id: 0, x: p.x, y: p.y, time: $1) }
        try at(80) { $0.touchUp(id: 0, time: $1) }
    }

    /// A finger down at `from`, `moves` motions of `step` 16 ms apart, lifted.
    mutating func drag(from: Point, step: Point, moves: Int) throws {
        try at(200) { $0.touchDown(id: 0, x: from.x, y: from.y, time: $1) }
        for i in 1...moves {
            let p = from + step * Double(i)
            try at(16) { $0.touchMotion(id: 0, x: p.x, y: p.y, time: $1) }
        }
        try at(16) { $0.touchUp(id: 0, time: $1) }
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
