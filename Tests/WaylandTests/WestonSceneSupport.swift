import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayReplay
import ScrollwayScripts
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
/// A flick with real wl_touch events through the replay layer: down at `from`, `moves` motions of
/// `step` 16 ms apart (the app stepped until each is due, as a compositor paces them), lifted
/// 16 ms after the last.
func flick(
    _ rig: WestonRig, _ app: WaylandApp, from: Point, step: Point, moves: Int = 5, time: UInt32 = 1000
)
    throws
{
    try WestonTarget(rig: rig, app: app).send(from: Double(time)) { b in
        b.touch(
            from: from, at: 0, moves: (1...moves).map { (t: Double($0 * 16), to: from + step * Double($0)) },
            liftAt: Double(moves * 16 + 16))
    }
}

@MainActor
/// A real tap at `p` at compositor time `time`: touch down, up 40 ms later, paced as a
/// compositor delivers them, the app handling each.
func tap(_ rig: WestonRig, _ app: WaylandApp, at p: Point, time: UInt32) throws {
    try WestonTarget(rig: rig, app: app).send(from: Double(time)) { $0.tap(at: p, at: 0, hold: 40) }
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
/// The input method (played by the test module) sends one update, a script's input-method event
/// (`preedit`, `commitText`, `deleteSurrounding`), with its done, through the replay layer; the
/// app then settles.
func sendInputMethod(_ rig: WestonRig, _ app: WaylandApp, _ update: ScriptEvent.Kind) throws {
    try WestonTarget(rig: rig, app: app).inject(ScriptEvent(t: 0, update))
    try app.settle()
}

@MainActor
/// What weston shows of the app's window against the offscreen composite of the same window,
/// every pixel of every other column: how many differ and the box they lie in. The pointer is
/// parked off the window first (its cursor is the compositor's, not the app's).
func offscreenMismatches(
    _ rig: WestonRig, _ app: WaylandApp, width: Int, height: Int
) throws -> (
    count: Int, box: Rect
) {
    try rig.parkPointer()
    try app.settle()
    let shown = try rig.capture()
    let expected = try Offscreen.render(app.window.content)
    var count = 0
    var box = Rect.zero
    for y in 0..<height {
        for x in stride(from: 0, to: width, by: 2) where shown.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
            count += 1
            box = box.union(Rect(x: Double(x), y: Double(y), width: 1, height: 1))
        }
    }
    return (count, box)
}
