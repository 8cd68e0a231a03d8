import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

/// A seeded fuzzer for the event stream: 10⁴ random but valid scripts per run, spread over
/// every scene (CI's optimized fuzzing step; a debug `swift test` plays the first fiftieth of
/// the same seeds' scripts, `FuzzBudget`), played offscreen through the same player
/// `scrollway play` uses. Each frame and each delegate call is checked against the engine's
/// invariants:
/// - offsets and zoom scales are finite, and an offset is never beyond the rubber band (the
///   shown overscroll is always less than the viewport: `(1 − 1/(x·c/d + 1))·d < d`);
/// - delegate calls come in their pairs (dragging and zooming never nest or end unbegun;
///   `willEndDragging` only while dragging; a deceleration never ends unbegun, though input
///   may interrupt it silently, as in UIKit);
/// - once nothing moves at the end, each scroll view is idle, inside its range, with no drag
///   or zoom open;
/// - the on-screen keyboard, while up, stands across the window's bottom at its current size.
/// A failure names its seed and script index and saves the script for `scrollway play`;
/// `SCROLLWAY_FUZZ_SEED` replays a run (each scene's seed is it plus the scene's index).
@MainActor
@Suite struct ScriptStreamFuzzTests {
    /// Scripts per scene: 9 scenes × 1,112 ≥ 10⁴ per full run. A debug build runs a fiftieth
    /// (22 a scene): its windows cost many times an optimized build's (the form scene's
    /// constraints most), and this suite holds the main actor, which every view test waits for.
    static let scriptsPerScene = FuzzBudget.cases(1_112, quickDivisor: 50)
    static let size = Size(width: 320, height: 480)

    /// One test per scene, so a failure names its scene (they run one after another: the suite
    /// holds the main actor).
    @Test(arguments: Scene.all.map(\.name))
    func randomValidScriptsKeepTheEngineInvariants(sceneName: String) throws {
        let scene = try #require(Scene.named(sceneName))
        let base = ProcessInfo.processInfo.environment["SCROLLWAY_FUZZ_SEED"].flatMap(UInt64.init) ?? 0xF1_1A6
        let seed = base &+ UInt64(Scene.all.firstIndex { $0.name == sceneName }!)
        var rng = SeededRandom(state: seed)
        var events = 0
        var frames = 0
        for index in 0..<Self.scriptsPerScene {
            let window = scene.makeWindow(size: Self.size)
            let script = Self.randomScript(for: scene, window: window, &rng)
            events += script.events.count
            let checker = InvariantChecker(window: window)
            let player = try HeadlessPlayer(
                window: window,
                options: .init(
                    refresh: [60, 120, 144].randomElement(using: &rng)!, settle: 1500, trace: .discard, pixels: false))
            try player.play(script)
            frames += player.framesStepped
            checker.finish(quiet: !window.hasActiveAnimations && window.nextTimerDeadline == nil)
            if let problem = checker.problem {
                // Saved as a script (kept after the run: it is the failure's evidence), to replay
                // with `scrollway play FILE --scene NAME --size 320x480`.
                let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "scrollway-fuzz-\(seed)-\(index)-\(scene.name).jsonl")
                try? ScriptWriter.text(script).write(to: file, atomically: true, encoding: .utf8)
                Issue.record(
                    Comment(
                        rawValue: "seed \(seed) script \(index) (scene \(scene.name)): \(problem)\n"
                            + "replay: scrollway play \(file.path) --scene \(scene.name) --size 320x480 --trace -"))
                return
            }
        }
        #expect(
            events > Self.scriptsPerScene * 10 && frames > Self.scriptsPerScene * 20,
            "events \(events), frames \(frames)")
    }

    /// Three to six gestures with pauses between them, each valid by construction (fingers
    /// lifted, pinches ended, keys released).
    static func randomScript(for scene: Scene, window: Window, _ rng: inout SeededRandom) -> GestureScript {
        var e: [ScriptEvent] = []
        var t = 0.0
        func add(_ kind: ScriptEvent.Kind) { e.append(ScriptEvent(t: t, kind)) }
        func point() -> (Double, Double) {
            (
                Double.random(in: 4...(size.width - 4), using: &rng),
                Double.random(in: 4...(size.height - 4), using: &rng)
            )
        }
        let hasKeyboard = window.firstView(of: OnScreenKeyboard.self) != nil
        for _ in 0..<Int.random(in: 3...6, using: &rng) {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1, 2:
                // A drag or a fling, sometimes with a second finger.
                var (x, y) = point()
                let (dx, dy) = (Double.random(in: -300...300, using: &rng), Double.random(in: -600...600, using: &rng))
                let steps = Int.random(in: 2...10, using: &rng)
                add(.touchDown(id: 0, x: x, y: y))
                add(.touchFrame)
                let second = Int.random(in: 0..<5, using: &rng) == 0
                if second {
                    add(.touchDown(id: 1, x: x + 30, y: y + 30))
                    add(.touchFrame)
                }
                for _ in 0..<steps {
                    t += Double.random(in: 4...24, using: &rng)
                    x = min(max(x + dx / Double(steps), -50), size.width + 50)
                    y = min(max(y + dy / Double(steps), -50), size.height + 50)
                    add(.touchMotion(id: 0, x: x, y: y))
                    add(.touchFrame)
                }
                t += Double.random(in: 0...40, using: &rng)
                if Int.random(in: 0..<12, using: &rng) == 0 {
                    add(.touchCancel)
                } else {
                    add(.touchUp(id: 0))
                    if second { add(.touchUp(id: 1)) }
                    add(.touchFrame)
                }
            case 3:
                // A tap (held past the 150 ms delay or not).
                let (x, y) = point()
                add(.touchDown(id: 0, x: x, y: y))
                add(.touchFrame)
                t += Double.random(in: 20...300, using: &rng)
                add(.touchUp(id: 0))
                add(.touchFrame)
            case 4:
                // Wheel clicks or a touchpad swipe.
                let (x, y) = point()
                add(.pointerMotion(x: x, y: y))
                add(.pointerFrame)
                let finger = Bool.random(using: &rng)
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    t += Double.random(in: 8...30, using: &rng)
                    let axis: ScrollwayGestures.Axis = Int.random(in: 0..<4, using: &rng) == 0 ? .horizontal : .vertical
                    if finger {
                        add(
                            .pointerAxis(
                                axis, value: Double.random(in: -60...60, using: &rng), source: .finger, value120: nil))
                    } else {
                        let clicks = Double([-1, 1, 1, 2].randomElement(using: &rng)!)
                        add(.pointerAxis(axis, value: 15 * clicks, source: .wheel, value120: 120 * clicks))
                    }
                    add(.pointerFrame)
                }
                if finger {
                    add(.pointerAxisStop(.vertical))
                    add(.pointerAxisStop(.horizontal))
                    add(.pointerFrame)
                }
            case 5:
                // A touchpad pinch.
                add(.pinchBegin)
                var scale = 1.0
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    t += Double.random(in: 8...20, using: &rng)
                    scale *= Double.random(in: 0.8...1.3, using: &rng)
                    add(.pinchUpdate(scale: scale, dx: Double.random(in: -5...5, using: &rng), dy: 0))
                }
                t += 10
                add(.pinchEnd(cancelled: Int.random(in: 0..<6, using: &rng) == 0))
            case 6:
                let key = ["Page_Down", "Page_Up", "space", "Home", "End", "Up", "Down"].randomElement(using: &rng)!
                add(.key(key, pressed: true))
                t += Double.random(in: 10...80, using: &rng)
                add(.key(key, pressed: false))
            case 7:
                // A mouse drag (scrolls only where mouse drag is allowed) or a click, the pointer
                // sometimes leaving the window on the way.
                var (x, y) = point()
                add(.pointerMotion(x: x, y: y))
                add(.pointerButton(.left, pressed: true))
                add(.pointerFrame)
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    t += Double.random(in: 8...20, using: &rng)
                    y += Double.random(in: -80...80, using: &rng)
                    x += Double.random(in: -20...20, using: &rng)
                    add(.pointerMotion(x: x, y: y))
                    add(.pointerFrame)
                }
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    // The pointer taken away mid-drag (a grab of the compositor's), then back.
                    add(.pointerLeave)
                    add(.pointerFrame)
                    t += Double.random(in: 8...200, using: &rng)
                    add(.pointerMotion(x: x, y: y + Double.random(in: -80...80, using: &rng)))
                    add(.pointerFrame)
                }
                add(.pointerButton(.left, pressed: false))
                add(.pointerFrame)
            case 8:
                if hasKeyboard {
                    add(Bool.random(using: &rng) ? .keyboardShow : .keyboardHide)
                    if Bool.random(using: &rng) { add(.text("scroll")) }
                } else {
                    add(.touchCancel)
                }
            default:
                add(
                    .windowResize(
                        width: Double.random(in: 200...400, using: &rng).rounded(),
                        height: Double.random(in: 240...600, using: &rng).rounded()))
            }
            t += [0, 5, 30, 120, 600].randomElement(using: &rng)!
        }
        return GestureScript(events: e)
    }
}

@MainActor
/// Watches every named scroll view of a window for the invariants above.
final class InvariantChecker: WindowObserver, ScrollEventObserver {
    private(set) var problem: String?
    private var views: [(name: String, view: ScrollView)] = []
    private var dragging: Set<String> = []
    private var decelerating: Set<String> = []
    private var zooming: Set<String> = []
    /// Per view, the largest viewport since its offset was last in range.
    private var viewports: [String: Size] = [:]

    /// The window's on-screen keyboard, if its scene has one.
    private let keyboard: OnScreenKeyboard?

    init(window: Window) {
        keyboard = window.firstView(of: OnScreenKeyboard.self)
        var stack: [View] = [window]
        while let v = stack.popLast() {
            if let s = v as? ScrollView, let name = s.name { views.append((name, s)) }
            stack += v.subviews
        }
        for (_, s) in views { s.addEventObserver(self) }
        window.addObserver(self)
    }

    func scrollView(_ scrollView: ScrollView, didSend event: ScrollEvent) {
        guard let name = views.first(where: { $0.view === scrollView })?.name else { return }
        check(event, of: name)
    }

    func window(_ window: Window, didPrepareFrameAt time: Double) {
        for (name, s) in views { checkState(s, name, at: time) }
        // The on-screen keyboard stands across the window's bottom at whatever size the window
        // has now, risen by its visible fraction (it once stayed where a resize found it).
        if let k = keyboard, k.visibleFraction > 0 {
            let (f, w) = (k.frame, window.bounds)
            let top = w.height - k.visibleFraction * OnScreenKeyboard.height
            if abs(f.minY - top) > 0.01 || f.minX != 0 || abs(f.width - w.width) > 0.01 {
                fail("keyboard at \(time): frame \(f) in a window \(w.size), its top due at \(top)")
            }
        }
    }

    private func fail(_ message: String) { if problem == nil { problem = message } }

    private func check(_ event: ScrollEvent, of name: String) {
        func open(_ set: inout Set<String>, _ what: String) {
            if !set.insert(name).inserted { fail("\(name): \(what) began twice without ending") }
        }
        func close(_ set: inout Set<String>, _ what: String) {
            if set.remove(name) == nil { fail("\(name): \(what) ended without beginning") }
        }
        switch event {
        case .willBeginDragging: open(&dragging, "dragging")
        case .willEndDragging: if !dragging.contains(name) { fail("\(name): willEndDragging while not dragging") }
        case .didEndDragging: close(&dragging, "dragging")
        // UIKit ends a deceleration that new input interrupts (a touch, a key, a click) without
        // didEndDecelerating: a new one may begin over it; an end still needs a beginning.
        case .willBeginDecelerating: decelerating.insert(name)
        case .didEndDecelerating: close(&decelerating, "decelerating")
        case .willBeginZooming: open(&zooming, "zooming")
        case .didEndZooming: close(&zooming, "zooming")
        default: break
        }
    }

    private func checkState(_ s: ScrollView, _ name: String, at time: Double) {
        let o = s.contentOffset
        guard o.x.isFinite, o.y.isFinite, s.zoomScale.isFinite, s.zoomScale > 0 else {
            return fail("\(name) at \(time): offset \(o), zoom \(s.zoomScale) not finite")
        }
        let h = s.horizontalRange
        let v = s.verticalRange
        // An overscroll is made within the viewport it was made in: a window shrunk under a
        // bounce (a script's window.resize) leaves it for the spring to bring back, so the
        // largest viewport since the offset was last in range is the measure.
        let inRange = h.contains(o.x) && v.contains(o.y)
        let made = inRange ? s.bounds.size : (viewports[name] ?? s.bounds.size)
        let viewport = Size(width: max(made.width, s.bounds.width), height: max(made.height, s.bounds.height))
        viewports[name] = inRange ? s.bounds.size : viewport
        let inside =
            o.x > h.lowerBound - viewport.width && o.x < h.upperBound + viewport.width
            && o.y > v.lowerBound - viewport.height && o.y < v.upperBound + viewport.height
        if !inside {
            fail("\(name) at \(time): offset \(o) beyond the rubber band of \(h) × \(v) (phase \(s.phase))")
        }
    }

    /// At the end: nothing open, and at rest inside the range when nothing moves any more.
    func finish(quiet: Bool) {
        guard quiet else { return }
        for (name, s) in views {
            if s.phase != .idle { fail("\(name): phase \(s.phase) with nothing moving") }
            for (set, what) in [(dragging, "dragging"), (zooming, "zooming")]
            where set.contains(name) {
                fail("\(name): \(what) is still open at rest")
            }
            let o = s.contentOffset
            let h = s.horizontalRange
            let v = s.verticalRange
            let pixel = 1 / s.window!.scale
            if o.x < h.lowerBound - pixel || o.x > h.upperBound + pixel || o.y < v.lowerBound - pixel
                || o.y > v.upperBound + pixel
            {
                fail("\(name): rests at \(o) outside its range \(h) × \(v)")
            }
        }
    }
}
