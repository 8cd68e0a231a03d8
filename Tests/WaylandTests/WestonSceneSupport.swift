import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness

@MainActor
/// A demo scene in a real window on a fresh headless weston of the given size, mapped and at
/// rest (whatever it shows first has arrived).
func startScene(
    _ scene: Scene, width: Int = 390, height: Int = 600
) throws
    -> (rig: WestonRig, app: WaylandApp, window: Window)
{
    let rig = try WestonRig(width: width, height: height)
    let window = scene.makeWindow(size: Size(width: Double(width), height: Double(height)))
    let app = try WaylandApp(content: window, title: "Scrollway \(scene.name)", socket: rig.socketPath)
    try app.settle()
    return (rig, app, window)
}

@MainActor
/// A flick with real wl_touch events: down at `from`, `moves` motions of `step` 16 ms apart
/// (the app pumped between them, as a compositor paces them), lifted right after the last.
func flick(
    _ rig: WestonRig, _ app: WaylandApp, from: Point, step: Point, moves: Int = 5, time: UInt32 = 1000
)
    throws
{
    func paced(_ ms: UInt32) throws { try rig.pacer.wait(until: ms) { try app.step(maxWait: $0) } }
    try paced(time)
    rig.input.touchDown(id: 0, x: from.x, y: from.y, time: time)
    rig.input.touchFrame()
    try rig.input.roundtrip()
    try app.catchUp()
    for i in 1...moves {
        let p = from + step * Double(i)
        try paced(time + UInt32(i * 16))
        rig.input.touchMotion(id: 0, x: p.x, y: p.y, time: time + UInt32(i * 16))
        rig.input.touchFrame()
        try rig.input.roundtrip()
        try app.catchUp()
    }
    try paced(time + UInt32(moves * 16 + 16))
    rig.input.touchUp(id: 0, time: time + UInt32(moves * 16 + 16))
    rig.input.touchFrame()
    try rig.input.roundtrip()
}

@MainActor
/// A real tap at `p` at compositor time `time`: touch down, up 40 ms later, the app handling
/// both (paced: the app runs until the time comes, as a compositor delivers it).
func tap(_ rig: WestonRig, _ app: WaylandApp, at p: Point, time: UInt32) throws {
    try rig.pacer.wait(until: time) { try app.step(maxWait: $0) }
    rig.input.touchDown(id: 0, x: p.x, y: p.y, time: time)
    rig.input.touchFrame()
    rig.input.touchUp(id: 0, time: time + 40)
    try rig.input.roundtrip()
    try app.catchUp()
}

@MainActor
/// Steps the app until what the test module last recorded of its text input satisfies
/// `condition`.
func waitForTextInput(
    _ rig: WestonRig, _ app: WaylandApp, _ what: String, _ condition: (TextInputSnapshot) -> Bool
) throws {
    try app.pump(
        until: {
            try rig.input.roundtrip()
            return rig.input.textInput.map(condition) ?? false
        }, what)
}

@MainActor
/// The input method (the test module) sends one done: what `set` asks of it, then done.
func sendInputMethod(_ rig: WestonRig, _ app: WaylandApp, _ set: (TestInputClient) -> Void) throws {
    set(rig.input)
    rig.input.textInputDone()
    try rig.input.roundtrip()
    try app.settle()
}
