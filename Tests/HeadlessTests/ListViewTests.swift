import DemoScenes
import Geometry
import Gestures
import Scrolling
import Testing
import Views

/// A scene driven on a manual 60 Hz clock.
final class SceneDriver {
    let window: Window
    var list: ListView { window.view(named: "main") as! ListView }
    var main: ScrollView { window.view(named: "main") as! ScrollView }
    var time = 0.0
    private var frame = 0

    /// Called after every frame the driver runs (tests check invariants there).
    var afterFrame: (() -> Void)?

    init(_ scene: Scene = .list) {
        window = scene.makeWindow()
        _ = try? window.prepareFrame(time: 0)
    }

    func run(until t: Double) {
        while Double(frame + 1) / 60 <= t {
            frame += 1
            window.advanceClock(to: Double(frame) / 60)
            if window.needsFrame { _ = try? window.prepareFrame(time: Double(frame) / 60) }
            afterFrame?()
        }
        window.advanceClock(to: t)
        time = max(time, t)
    }

    func send(_ kind: InputEvent.Kind, at t: Double) {
        run(until: t)
        window.handle(InputEvent(time: t, kind))
    }

    func settle() {
        var n = 0
        while (window.hasActiveAnimations || window.nextTimerDeadline != nil) && n < 3000 {
            run(until: time + 1.0 / 60)
            n += 1
        }
    }
}

@Suite struct ListViewTests {
    @Test func flingingThrough100kRowsCreatesOnlyAScreenfulOfCells() {
        let d = SceneDriver(.list)
        #expect(d.list.contentSize.height > 100_000 * 44)
        for fling in 0..<6 {
            let t0 = d.time + 0.1
            d.send(.touchDown(id: 1, position: Point(x: 200, y: 780)), at: t0)
            for i in 1...5 {
                d.send(
                    .touchMotion(id: 1, position: Point(x: 200, y: 780 - Double(i) * 120)), at: t0 + Double(i) * 0.01)
            }
            d.send(.touchUp(id: 1), at: t0 + 0.06)
            d.run(until: d.time + 1.5)
            _ = fling
        }
        #expect(d.list.contentOffset.y > 20_000)
        // In view: 844 px + 2 × 100 px margin over rows of at least 44 px ≈ 25 rows, plus the pool.
        let bound = Int((844.0 + 2 * 100) / 44) + 2 + ListView.poolLimit
        #expect(d.list.visibleCells.count <= bound)
        #expect(d.list.cellsCreated <= bound, "\(d.list.cellsCreated) cells made")
    }

    @Test func scrollingToTheLastRowPutsItExactlyInView() {
        let d = SceneDriver(.list)
        d.list.scrollToRow(99_999)
        d.run(until: 0.1)
        let r = d.list.rectForRow(99_999)
        let visible = d.list.bounds
        #expect(r.minY >= visible.minY && r.maxY <= visible.maxY)
        #expect(abs(r.maxY - visible.maxY) < 1e-6)  // the least scroll: flush with the bottom
        #expect(d.list.visibleCells[99_999]?.textLabel.text == "Row 100000")
        #expect(d.list.contentOffset.y == d.list.verticalRange.upperBound)
    }

    @Test func insertingAboveKeepsTheRowsInViewStill() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 5000)
        d.run(until: 0.1)
        let row = d.list.visibleCells.keys.sorted()[8]
        let cell = d.list.visibleCells[row]!
        let before = cell.convert(Point.zero, to: nil).y
        d.list.insertRows(at: [0, 1, 2])
        d.run(until: 0.2)
        let moved = d.list.visibleCells[row + 3]!
        #expect(moved === cell)
        #expect(moved.convert(Point.zero, to: nil).y == before)
        d.list.deleteRows(at: [0])
        d.run(until: 0.3)
        #expect(d.list.visibleCells[row + 2]!.convert(Point.zero, to: nil).y == before)
    }

    @Test func measuringRowsAboveNeverMovesTheRowUnderTheFinger() {
        let d = SceneDriver(.list)
        d.list.contentOffset = Point(x: 0, y: 40_000)  // rows here are measured; those above are not
        d.run(until: 0.1)
        d.send(.touchDown(id: 1, position: Point(x: 200, y: 300)), at: 0.2)
        d.send(.touchMotion(id: 1, position: Point(x: 200, y: 312)), at: 0.21)
        let row = d.list.visibleCells.keys.sorted()[6]
        let cell = d.list.visibleCells[row]!
        var last = cell.convert(Point.zero, to: nil).y
        var fingerY = 312.0
        for i in 1...40 {
            fingerY += 10
            d.send(.touchMotion(id: 1, position: Point(x: 200, y: fingerY)), at: 0.21 + Double(i) * 0.016)
            d.run(until: d.time + 0.016)
            let y = cell.convert(Point.zero, to: nil).y
            #expect(abs(y - last - 10) < 1e-6, "the row moved \(y - last) for 10 px of finger")
            last = y
        }
        d.send(.touchUp(id: 1), at: d.time + 0.2)
    }

    @Test func aDragCancelsTheHighlightAndATapSelects() {
        let d = SceneDriver(.list)
        var selected: [Int] = []
        d.list.onSelectRow = { selected.append($0) }
        d.send(.touchDown(id: 1, position: Point(x: 200, y: 20)), at: 0.1)
        d.run(until: 0.3)
        let cell = d.list.visibleCells[0]!
        #expect(cell.isHighlighted)
        d.send(.touchMotion(id: 1, position: Point(x: 200, y: 60)), at: 0.32)
        #expect(!cell.isHighlighted)
        d.send(.touchUp(id: 1), at: 0.5)
        d.settle()
        #expect(selected.isEmpty)
        d.send(.touchDown(id: 2, position: Point(x: 200, y: 20)), at: d.time + 0.1)
        d.send(.touchUp(id: 2), at: d.time + 0.05)
        #expect(selected.count == 1)
    }
}
