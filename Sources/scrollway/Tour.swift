import DemoScenes
import Foundation
import Geometry
import Raster
import Scripts
import Scrolling
import Views

/// The built-in tour `scrollway demo --headless` plays in its own weston: each step a scene, its
/// settings and a script, ending in screenshots that become one contact sheet.
enum Tour {
    struct Step {
        let title: String
        let settings: [String: String]
        let script: String
    }

    /// A touch drag from y0 to y1 over `ms`, in 16 ms motions, then lifting after `hold` ms.
    static func drag(from y0: Double, to y1: Double, at t0: Double, ms: Double, hold: Double = 0) -> String {
        let steps = max(1, Int(ms / 16))
        var lines = [
            "{\"t\": \(t0), \"type\": \"touch.down\", \"id\": 0, \"x\": 200, \"y\": \(y0)}",
            "{\"t\": \(t0), \"type\": \"touch.frame\"}",
        ]
        for i in 1...steps {
            let t = t0 + Double(i) * ms / Double(steps)
            let y = y0 + (y1 - y0) * Double(i) / Double(steps)
            lines.append("{\"t\": \(t), \"type\": \"touch.motion\", \"id\": 0, \"x\": 200, \"y\": \(y)}")
            lines.append("{\"t\": \(t), \"type\": \"touch.frame\"}")
        }
        lines.append("{\"t\": \(t0 + ms + hold), \"type\": \"touch.up\", \"id\": 0}")
        return lines.joined(separator: "\n")
    }

    static func shot(_ name: String, at t: Double) -> String {
        "{\"t\": \(t), \"type\": \"screenshot\", \"name\": \"\(name)\"}"
    }

    static func key(_ name: String, at t: Double) -> String {
        "{\"t\": \(t), \"type\": \"key\", \"key\": \"\(name)\", \"state\": \"pressed\"}\n{\"t\": \(t + 30), \"type\": \"key\", \"key\": \"\(name)\", \"state\": \"released\"}"
    }

    static let steps: [Step] = [
        Step(
            title: "1-drag", settings: [:],
            script: [
                shot("1-start", at: 0), drag(from: 700, to: 400, at: 100, ms: 600, hold: 200),
                shot("1-dragged", at: 1000),
            ]
            .joined(separator: "\n")),
        Step(
            title: "2-fling", settings: [:],
            script: [drag(from: 750, to: 350, at: 100, ms: 80), shot("2-flinging", at: 400), shot("2-rest", at: 4800)]
                .joined(separator: "\n")),
        Step(
            title: "3-bounce", settings: [:],
            script: [
                drag(from: 200, to: 500, at: 100, ms: 400, hold: 100).replacingOccurrences(
                    of: "{\"t\": 600.0, \"type\": \"touch.up\", \"id\": 0}",
                    with: shot("3-rubber-band", at: 590)
                        + "\n{\"t\": 600.0, \"type\": \"touch.up\", \"id\": 0}"),
                shot("3-bounced-back", at: 1600),
            ].joined(separator: "\n")),
        Step(
            title: "4-keyboard", settings: [:],
            script: [
                key("Page_Down", at: 100), shot("4-page-down", at: 1000), key("End", at: 1100), shot("4-end", at: 2200),
            ]
            .joined(separator: "\n")),
        Step(
            title: "5-paging", settings: ["pagingEnabled": "true"],
            script: [drag(from: 700, to: 550, at: 100, ms: 60), shot("5-next-page", at: 1500)].joined(separator: "\n")),
    ]

    /// Plays every step in its own rig; returns the screenshots in order.
    static func play(size: Size) throws -> [(String, Canvas)] {
        let parser = ScriptParser(file: "<tour>", isKeysym: { _ in true })
        var shots: [(String, Canvas)] = []
        for step in steps {
            let window = DemoScenes.Scene.list.makeWindow(size: size)
            let main = window.view(named: "main") as! ScrollView
            for (k, v) in step.settings { try main.setValue(v, forSetting: k) }
            let script = try parser.parse(step.script)
            let (_, canvases) = try WestonPlayer(window: window, settle: 500).play(script)
            // In the order the script takes them.
            for e in script.events {
                if case .screenshot(let name) = e.kind, let c = canvases[name] { shots.append((name, c)) }
            }
        }
        return shots
    }

    /// Thumbnails at half size with their names, four to a row.
    static func contactSheet(_ shots: [(String, Canvas)]) throws -> Canvas {
        guard let first = shots.first?.1 else { return try Canvas(width: 1, height: 1) }
        let tw = Double(first.width) / 2
        let th = Double(first.height) / 2
        let caption = 24.0
        let gap = 12.0
        let columns = min(4, shots.count)
        let rows = (shots.count + columns - 1) / columns
        let sheet = try Canvas(
            size: Size(width: gap + Double(columns) * (tw + gap), height: gap + Double(rows) * (th + caption + gap)))
        sheet.clear(Color(rgb: 48, 48, 52))
        let font = Font.standard
        for (i, (name, shot)) in shots.enumerated() {
            let x = gap + Double(i % columns) * (tw + gap)
            let y = gap + Double(i / columns) * (th + caption + gap)
            sheet.draw(shot, in: Rect(x: x, y: y + caption, width: tw, height: th))
            if let font {
                sheet.drawText(
                    name, font: font, in: Rect(x: x, y: y, width: tw, height: caption), color: .white, maxLines: 1)
            }
        }
        return sheet
    }
}
