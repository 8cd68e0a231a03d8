import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayRigs
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import ScrollwayWayland
import ScrollwayWestonHarness
import Testing

/// One conformance scenario's set-up on one compositor: its rig headless, a demo scene in a real
/// window, mapped and at rest, and a replay target to play gestures into it. A compositor that
/// is not installed, or lacks what the scenario needs, cancels the test with the reason (and, if
/// it is missing, the command that installs it) instead of passing silently.
@MainActor final class Desk {
    let rig: any CompositorRig
    let window: Window
    let app: WaylandApp
    let target: CompositorTarget
    /// Script time (ms) of the last event played.
    var time = 1000.0

    init(
        _ compositor: Compositor, scene: Scene, width: Int = 400, height: Int = 300, scale: Double = 1,
        windowSize: Size? = nil, needs: [RigFeature] = [], fullscreen: Bool = false,
        configure: (Window) -> Void = { _ in }
    ) throws {
        try Self.cancelUnlessAvailable(compositor, needs: needs)
        rig = try compositor.start(
            width: width, height: height, scale: scale, screenKeyboard: needs.contains(.screenKeyboard))
        window = scene.makeWindow(size: windowSize ?? Size(width: Double(width), height: Double(height)))
        configure(window)
        app = try WaylandApp(
            content: window, title: "Scrollway \(scene.name)", socket: rig.socketPath, fullscreen: fullscreen)
        target = CompositorTarget(rig: rig, app: app)
        try app.settle()
        try rig.parkPointer()
        try settle()
    }

    /// Cancels the running test, saying why, when `compositor` is not installed (and what
    /// installs it) or lacks one of `needs`.
    /// The reason is also written to standard error, so `swift test`'s output names every
    /// compositor it skipped and what installs it.
    static func cancelUnlessAvailable(_ compositor: Compositor, needs: [RigFeature]) throws {
        let test = Test.current?.name ?? "a conformance test"
        guard compositor.isInstalled else {
            let why = "\(compositor) is not installed: \(compositor.installCommand) (or Scripts/install-deps.sh)"
            FileHandle.standardError.write(Data("conformance: \(test) skipped under \(compositor): \(why)\n".utf8))
            try Test.cancel(Comment(rawValue: why))
        }
        for feature in needs {
            if let why = compositor.missing(feature) {
                FileHandle.standardError.write(Data("conformance: \(test) skipped: \(why)\n".utf8))
                try Test.cancel(Comment(rawValue: why))
            }
        }
    }

    /// Cancels the running test because `why`, said on standard error too.
    static func skip(_ why: String) throws -> Never {
        let test = Test.current?.name ?? "a conformance test"
        FileHandle.standardError.write(Data("conformance: \(test) skipped: \(why)\n".utf8))
        try Test.cancel(Comment(rawValue: why))
    }

    /// Settles the app and makes sure the compositor has handled everything it sent (the
    /// acked configure's commit among it: sway shows a window's new state only then) and the app
    /// has got all the input played (under mutter a roundtrip does not prove it:
    /// `CompositorTarget.awaitDelivery`).
    func settle() throws {
        try app.settle()
        try target.awaitDelivery()
        try app.settle()
    }

    deinit { MainActor.assumeIsolated { rig.stop() } }

    /// Plays what `build` lays out, its times from `ms` after the last event, and lets the app
    /// come to rest.
    func play(after ms: Double = 100, _ build: (inout ScriptBuilder) -> Void) throws {
        time = try target.send(from: time + ms, build)
        try settle()
    }

    /// The window's main scroll view.
    var scrollView: ScrollView {
        get throws { try #require(window.view(named: "main") as? ScrollView, "the scene has no main scroll view") }
    }

    /// Where `shown` differs from `expected` (every pixel compared): how many pixels, and the
    /// first few with both values, for the failure's message.
    static func differences(_ shown: Canvas, _ expected: Canvas) -> Differences {
        guard shown.width == expected.width, shown.height == expected.height else {
            return Differences(
                count: Int.max, first: [],
                sizes: "\(shown.width)×\(shown.height) shown, \(expected.width)×\(expected.height) expected")
        }
        var d = Differences(count: 0, first: [], sizes: "")
        for y in 0..<shown.height {
            for x in 0..<shown.width where shown.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
                d.count += 1
                if d.first.count < 4 { d.first.append((x, y, shown.pixel(x: x, y: y), expected.pixel(x: x, y: y))) }
            }
        }
        return d
    }

    struct Differences: CustomStringConvertible {
        var count: Int
        var first: [(x: Int, y: Int, shown: UInt32, expected: UInt32)]
        var sizes: String
        var description: String {
            if !sizes.isEmpty { return sizes }
            let where_ = first.map {
                "(\($0.x), \($0.y)): \(String($0.shown, radix: 16)) not \(String($0.expected, radix: 16))"
            }
            return "\(count) pixels differ, first at " + where_.joined(separator: ", ")
        }
    }
}

extension Desk {
    /// A key (an xkb keysym name of the rig's us keymap) pressed at script time `ms` and released
    /// `held` ms later, stamped with `stamp` instead of its script time (virtual and on-screen
    /// keyboards stamp theirs with 0), the app's loop turning meanwhile.
    func key(_ name: String, at ms: Double, held: Double = 50, stamp: UInt32) throws {
        let stroke = try #require(rig.keys.stroke(forKeysymNamed: name), "no key types \(name)")
        for (t, pressed) in [(ms, true), (ms + held, false)] {
            try target.perform(at: t) {
                rig.seat.key(stroke.evdev, pressed: pressed, time: stamp)
                try rig.seat.roundtrip()
                try app.catchUp()
            }
        }
        time = ms + held
    }

    /// The keyboard scene's field `n`, focused as a tap on it would (not by touch: no in-app
    /// keyboard is asked for).
    func focusField(_ n: Int) throws -> TextField {
        let field = try #require(window.view(named: "field\(n)") as? TextField, "no field\(n)")
        window.focus(field, byTouch: false)
        try settle()
        return field
    }
}
