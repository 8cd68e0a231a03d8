import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews

/// The built-in tour `scrollway demo --headless` plays in its own weston: each step a scene, its
/// settings and a script, ending in screenshots that become one contact sheet.
@MainActor
enum Tour {
    struct Step {
        let title: String
        var scene: ScrollwayDemoScenes.Scene = .list
        let settings: [String: String]
        let script: GestureScript
    }

    /// A step's script, built in code.
    static func script(_ build: (inout ScriptBuilder) -> Void) -> GestureScript {
        var b = ScriptBuilder()
        build(&b)
        return b.script
    }

    /// A vertical touch drag at x = 200 (or from x to toX), as the tour's steps use it.
    static func drag(
        _ b: inout ScriptBuilder, from y0: Double, to y1: Double, x x0: Double = 200, toX x1: Double = 200,
        at t: Double, ms: Double, hold: Double = 0
    ) {
        b.drag(from: Point(x: x0, y: y0), to: Point(x: x1, y: y1), at: t, ms: ms, hold: hold)
    }

    static let steps: [Step] = [
        Step(
            title: "1-drag", settings: [:],
            script: script {
                $0.screenshot("1-start", at: 0)
                drag(&$0, from: 700, to: 400, at: 100, ms: 600, hold: 200)
                $0.screenshot("1-dragged", at: 1000)
            }),
        Step(
            title: "2-fling", settings: [:],
            script: script {
                drag(&$0, from: 750, to: 350, at: 100, ms: 80)
                $0.screenshot("2-flinging", at: 400)
                $0.screenshot("2-rest", at: 4800)
            }),
        Step(
            title: "3-bounce", settings: [:],
            script: script {
                drag(&$0, from: 200, to: 500, at: 100, ms: 400, hold: 100)
                $0.screenshot("3-rubber-band", at: 590)  // pulled past the top, before the lift
                $0.screenshot("3-bounced-back", at: 1600)
            }),
        Step(
            title: "4-keyboard", settings: [:],
            script: script {
                $0.key("Page_Down", at: 100)
                $0.screenshot("4-page-down", at: 1000)
                $0.key("End", at: 1100)
                $0.screenshot("4-end", at: 2200)
            }),
        Step(
            title: "5-paging", settings: ["pagingEnabled": "true"],
            script: script {
                drag(&$0, from: 700, to: 550, at: 100, ms: 60)
                $0.screenshot("5-next-page", at: 1500)
            }),
        // The scenes of huge content and insets, each with its own gesture.
        Step(
            title: "6-pages", scene: .paging, settings: [:],
            script: script {
                drag(&$0, from: 400, to: 400, x: 300, toX: 180, at: 100, ms: 32)
                $0.screenshot("6-page-turning", at: 190)
                $0.screenshot("6-page-2", at: 1500)
            }),
        Step(
            title: "7-map", scene: .zoom, settings: [:],
            script: script {
                $0.tap(at: Point(x: 195, y: 422), at: 100)
                $0.tap(at: Point(x: 195, y: 422), at: 250)
                $0.screenshot("7-map-zoomed-out", at: 1300)
                drag(&$0, from: 700, to: 400, x: 300, toX: 150, at: 1400, ms: 64)
                $0.screenshot("7-map-flung", at: 4000)
            }),
        Step(
            title: "8-nested", scene: .nested, settings: [:],
            script: script {
                drag(&$0, from: 730, to: 394, at: 100, ms: 224, hold: 60)
                $0.screenshot("8-nested-hand-off", at: 324)  // while the drag goes on
            }),
        Step(
            title: "9-refresh", scene: .refresh, settings: [:],
            script: script {
                drag(&$0, from: 100, to: 330, at: 100, ms: 300, hold: 200)
                $0.screenshot("9-refreshing", at: 1000)
            }),
    ]

    /// Plays every step in its own rig; returns the screenshots in order.
    static func play(size: Size) throws -> [(String, Canvas)] {
        var shots: [(String, Canvas)] = []
        let progress = Progress("tour", total: Double(steps.count))
        defer { progress.finish() }
        for (i, step) in steps.enumerated() {
            progress.step(Double(i), "\(step.scene.name) (\(i + 1) of \(steps.count))")
            let window = step.scene.makeWindow(size: size)
            let main = window.view(named: "main") as! ScrollView
            try main.setValues(step.settings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            // In the order the script takes them.
            let target = try WestonTarget(window: window, title: "Scrollway play")
            defer { target.stop() }
            try target.play(step.script.source, settle: 500) { name, canvas in shots.append((name, canvas)) }
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
