import Foundation
import PhotoKioskApp
import Scrollway
import ScrollwayWestonHarness

/// The kiosk's output size in the tests: the samples' 3:2, so a photo fills the screen at
/// 0.625× (the sun's 120 px radius shows as 75 px).
let screen = Size(width: 600, height: 400)
let fitted = screen.width / SamplePhotos.size.width

/// The sample photos, written once into this test process's own temporary folder.
@MainActor let samplesFolder: String = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photokiosk-tests-\(getpid())").path
    _ = try? SamplePhotos.write(to: dir)
    atexit { try? FileManager.default.removeItem(atPath: samplesFolderPath(pid: getpid())) }
    return dir
}()

func samplesFolderPath(pid: Int32) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("photokiosk-tests-\(pid)").path
}

/// The kiosk on the sample photos in a fresh headless weston (kiosk-shell, as on a real kiosk),
/// shown and at rest (the thumbnails in view made: their requests are background work the app
/// settles for), its photos decoded by `decoder`.
@MainActor func startKiosk(
    showingSheet: Bool = false, decoder: PhotoDecoder = PhotoDecoder()
) throws -> (rig: WestonRig, app: WaylandApp, kiosk: PhotoKiosk) {
    let photos = try PhotoFolder.load(samplesFolder)
    let rig = try WestonRig(width: Int(screen.width), height: Int(screen.height))
    let kiosk = PhotoKiosk(photos: photos, size: screen, decoder: decoder)
    var skipped: [String] = []
    kiosk.reportsSkipped = { skipped.append($0) }
    let app = try kiosk.open(socket: rig.socketPath)
    try app.settle()
    guard skipped.isEmpty, photos.allSatisfy({ $0.thumbnail != nil }) else {
        throw TestFailure("the samples' thumbnails: \(skipped.joined(separator: "\n"))")
    }
    // The kiosk starts on its contact sheet; most tests are about the first photo's page.
    if !showingSheet {
        kiosk.showPhoto(0)
        try app.settle()
    }
    return (rig, app, kiosk)
}

/// Gestures laid out with `ScriptBuilder` and played through Scrollway's replay layer as real
/// wl_touch and wl_pointer events, paced in real time as a compositor delivers them, with the
/// app's loop turning meanwhile (`WestonTarget`), or into a kiosk running as its own process
/// (`WestonSeatInjector`).
@MainActor struct Fingers {
    let target: WestonTarget?
    let seat: WestonSeatInjector
    /// The script time (ms) of the last event played.
    var time = 1000.0

    init(_ rig: WestonRig, _ app: WaylandApp?) {
        target = app.map { WestonTarget(rig: rig, app: $0) }
        seat = WestonSeatInjector(rig: rig)
    }

    /// Plays the gesture `build` lays out, its times in ms from `ms` after the last event.
    mutating func play(after ms: Double, _ build: (inout ScriptBuilder) -> Void) throws {
        let start = time + ms
        time = try target?.send(from: start, build) ?? seat.send(from: start, build)
    }

    /// One finger down at `from`, `moves` motions of `step` 16 ms apart, lifted 16 ms after the last.
    mutating func swipe(from: Point, step: Point, moves: Int = 6, after ms: Double = 0) throws {
        try play(after: ms) { b in
            b.touch(
                from: from, at: 0, moves: (1...moves).map { (t: Double(16 * $0), to: from + step * Double($0)) },
                liftAt: Double(16 * moves + 16))
        }
    }

    /// `count` fingers down together around `center` (60 px apart, in one touch frame) and lifted
    /// 80 ms later.
    mutating func tap(fingers count: Int = 1, at center: Point, after ms: Double = 0) throws {
        try play(after: ms) { b in
            for i in 0..<count {
                let x = center.x + (Double(i) - Double(count - 1) / 2) * 60
                b.add(.touchDown(id: i, x: x, y: center.y), at: 0)
            }
            b.add(.touchFrame, at: 0)
            for i in 0..<count { b.add(.touchUp(id: i), at: 80) }
            b.add(.touchFrame, at: 80)
        }
    }

    /// A double tap at `point`: two taps, the second 120 ms after the first is lifted.
    mutating func doubleTap(at point: Point, after ms: Double = 0) throws {
        try tap(at: point, after: ms)
        try tap(at: point, after: 120)
    }
}

extension Canvas {
    /// Whether the pixel at (x, y) is `color`, within 3/255 a channel (scaling rounds).
    func shows(_ color: Color, x: Int, y: Int) -> Bool {
        let c = self.color(x: x, y: y)
        return abs(c.red - color.red) <= 3.0 / 255 && abs(c.green - color.green) <= 3.0 / 255
            && abs(c.blue - color.blue) <= 3.0 / 255
    }

    /// How many pixels right of the centre the sun's `color` reaches: its radius on screen.
    func sunRadius(_ color: Color) -> Int {
        let (x, y) = (width / 2, height / 2)
        var r = 0
        while x + r + 1 < width, shows(color, x: x + r + 1, y: y) { r += 1 }
        return r
    }
}

/// Waits, checking `condition` every 20 ms, for at most `timeout` seconds (on the monotonic
/// clock, as every wait of Scrollway's).
func wait(for what: String, timeout: Double = 10, until condition: () throws -> Bool) throws {
    let end = Deadline(in: timeout)
    while try !condition() {
        guard !end.hasPassed else { throw TestFailure("timed out waiting for \(what)") }
        Thread.sleep(forTimeInterval: 0.02)
    }
}

/// What a test helper gives up on.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
