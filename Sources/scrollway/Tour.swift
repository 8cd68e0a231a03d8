import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// The built-in tour `scrollway demo --headless` plays in its own weston: each step a scene, its
/// settings and a script, ending in screenshots that become one contact sheet.
enum Tour {
    struct Step {
        let title: String
        var scene: ScrollwayDemoScenes.Scene = .list
        let settings: [String: String]
        let script: String
    }

    /// A touch drag from (x0, y0) to (x1, y1) over `ms`, in 16 ms motions, then lifting after
    /// `hold` ms.
    static func drag(
        from y0: Double, to y1: Double, x x0: Double = 200, toX x1: Double = 200, at t0: Double, ms: Double,
        hold: Double = 0
    ) -> String {
        let steps = max(1, Int(ms / 16))
        var lines = [
            "{\"t\": \(t0), \"type\": \"touch.down\", \"id\": 0, \"x\": \(x0), \"y\": \(y0)}",
            "{\"t\": \(t0), \"type\": \"touch.frame\"}",
        ]
        for i in 1...steps {
            let t = t0 + Double(i) * ms / Double(steps)
            let f = Double(i) / Double(steps)
            let x = x0 + (x1 - x0) * f
            let y = y0 + (y1 - y0) * f
            lines.append("{\"t\": \(t), \"type\": \"touch.motion\", \"id\": 0, \"x\": \(x), \"y\": \(y)}")
            lines.append("{\"t\": \(t), \"type\": \"touch.frame\"}")
        }
        lines.append("{\"t\": \(t0 + ms + hold), \"type\": \"touch.up\", \"id\": 0}")
        return lines.joined(separator: "\n")
    }

    /// Script parts merged into one script in time order (a shot taken while a drag goes on),
    /// events of equal times in the order given.
    static func merged(_ parts: [String]) -> String {
        func time(_ line: Substring) -> Double {
            guard let colon = line.firstIndex(of: ":"), let comma = line[colon...].firstIndex(of: ","),
                let t = Double(line[line.index(after: colon)..<comma].trimmingCharacters(in: .whitespaces))
            else { preconditionFailure("a tour line without a leading time: \(line)") }
            return t
        }
        let lines = parts.flatMap { $0.split(separator: "\n") }
        return lines.enumerated().sorted { (time($0.element), $0.offset) < (time($1.element), $1.offset) }
            .map { String($0.element) }.joined(separator: "\n")
    }

    /// A finger down and up again 60 ms later (two of them 150 ms apart: a double tap).
    static func tap(x: Double, y: Double, at t: Double) -> String {
        [
            "{\"t\": \(t), \"type\": \"touch.down\", \"id\": 0, \"x\": \(x), \"y\": \(y)}",
            "{\"t\": \(t), \"type\": \"touch.frame\"}", "{\"t\": \(t + 60), \"type\": \"touch.up\", \"id\": 0}",
            "{\"t\": \(t + 60), \"type\": \"touch.frame\"}",
        ].joined(separator: "\n")
    }

    static func shot(_ name: String, at t: Double) -> String {
        "{\"t\": \(t), \"type\": \"screenshot\", \"name\": \"\(name)\"}"
    }

    /// A key pressed and released 30 ms later.
    static func key(_ name: String, at t: Double) -> String {
        key(name, "pressed", at: t) + "\n" + key(name, "released", at: t + 30)
    }

    static func key(_ name: String, _ state: String, at t: Double) -> String {
        "{\"t\": \(t), \"type\": \"key\", \"key\": \"\(name)\", \"state\": \"\(state)\"}"
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
        // The scenes of huge content and insets, each with its own gesture.
        Step(
            title: "6-pages", scene: .paging, settings: [:],
            script: [
                drag(from: 400, to: 400, x: 300, toX: 180, at: 100, ms: 32), shot("6-page-turning", at: 190),
                shot("6-page-2", at: 1500),
            ].joined(separator: "\n")),
        Step(
            title: "7-map", scene: .zoom, settings: [:],
            script: [
                tap(x: 195, y: 422, at: 100), tap(x: 195, y: 422, at: 250), shot("7-map-zoomed-out", at: 1300),
                drag(from: 700, to: 400, x: 300, toX: 150, at: 1400, ms: 64), shot("7-map-flung", at: 4000),
            ].joined(separator: "\n")),
        Step(
            title: "8-nested", scene: .nested, settings: [:],
            script: merged([
                drag(from: 730, to: 394, at: 100, ms: 224, hold: 60), shot("8-nested-hand-off", at: 324),
            ])),
        Step(
            title: "9-refresh", scene: .refresh, settings: [:],
            script: [drag(from: 100, to: 330, at: 100, ms: 300, hold: 200), shot("9-refreshing", at: 1000)]
                .joined(separator: "\n")),
    ]

    /// Plays every step in its own rig; returns the screenshots in order.
    static func play(size: Size) throws -> [(String, Canvas)] {
        let parser = ScriptParser(file: "<tour>", isKeysym: { _ in true })
        var shots: [(String, Canvas)] = []
        for step in steps {
            let window = step.scene.makeWindow(size: size)
            let main = window.view(named: "main") as! ScrollView
            try main.setValues(step.settings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            let script = try parser.parse(step.script)
            // In the order the script takes them.
            try WestonPlayer(window: window, settle: 500, trace: .discard).play(script.source) { name, canvas in
                shots.append((name, canvas))
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
