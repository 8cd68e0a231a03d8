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
/// shown and at rest.
@MainActor func startKiosk() throws -> (rig: WestonRig, app: WaylandApp, kiosk: PhotoKiosk) {
    var skipped: [String] = []
    let photos = try PhotoFolder.load(samplesFolder) { skipped.append($0) }
    guard skipped.isEmpty else { throw TestFailure(skipped.joined(separator: "\n")) }
    let rig = try WestonRig(width: Int(screen.width), height: Int(screen.height))
    let kiosk = PhotoKiosk(photos: photos, size: screen)
    let app = try kiosk.open(socket: rig.socketPath)
    try app.settle()
    return (rig, app, kiosk)
}

/// Real wl_touch events, paced in real time as a compositor delivers them, with the app's
/// loop turning meanwhile.
@MainActor struct Fingers {
    let rig: WestonRig
    let app: WaylandApp?
    var time: UInt32 = 1000

    init(_ rig: WestonRig, _ app: WaylandApp?) {
        self.rig = rig
        self.app = app
        rig.pacer.begin(at: Double(time))
    }

    /// Waits until `time + ms` is due, then sends `events` stamped with it, in one touch frame.
    mutating func at(_ ms: UInt32, _ events: (TestInputClient, UInt32) -> Void) throws {
        time += ms
        try rig.pacer.wait(until: time) { wait in
            if let app { try app.step(maxWait: wait) } else { Thread.sleep(forTimeInterval: wait) }
        }
        events(rig.input, time)
        rig.input.touchFrame()
        try rig.input.roundtrip()
        try app?.catchUp()
    }

    /// One finger down at `from`, `moves` motions of `step` 16 ms apart, lifted.
    mutating func swipe(from: Point, step: Point, moves: Int = 6) throws {
        try at(0) { $0.touchDown(id: 0, x: from.x, y: from.y, time: $1) }
        for i in 1...moves {
            let p = from + step * Double(i)
            try at(16) { $0.touchMotion(id: 0, x: p.x, y: p.y, time: $1) }
        }
        try at(16) { $0.touchUp(id: 0, time: $1) }
    }

    /// `count` fingers down together around `center` (60 px apart) and lifted 80 ms later.
    mutating func tap(fingers count: Int = 1, at center: Point) throws {
        try at(0) { input, t in
            for i in 0..<count {
                let x = center.x + (Double(i) - Double(count - 1) / 2) * 60
                input.touchDown(id: Int32(i), x: x, y: center.y, time: t)
            }
        }
        try at(80) { input, t in for i in 0..<count { input.touchUp(id: Int32(i), time: t) } }
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

/// Waits, checking `condition` every 20 ms, for at most `timeout` seconds.
func wait(for what: String, timeout: Double = 10, until condition: () throws -> Bool) throws {
    let end = Date().addingTimeInterval(timeout)
    while try !condition() {
        guard Date() < end else { throw TestFailure("timed out waiting for \(what)") }
        Thread.sleep(forTimeInterval: 0.02)
    }
}

/// What a test helper gives up on.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
