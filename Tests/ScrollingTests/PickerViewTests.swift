import Foundation
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayHeadless
import ScrollwayPhysics
import ScrollwayRaster
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A date's three wheels: months (a share of the width), days (60 wide) and years 1900–2100
/// (90 wide).
@MainActor
final class DateWheels: PickerViewDataSource {
    static let months = DatePicker.englishMonthSymbols
    var monthCount = 12
    var picks: [(row: Int, component: Int)] = []

    func numberOfComponents(in picker: PickerView) -> Int { 3 }
    func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int {
        [monthCount, 31, 201][component]
    }
    func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
        switch component {
        case 0: return Self.months[row]
        case 1: return "\(row + 1)"
        default: return "\(1900 + row)"
        }
    }
    func picker(_ picker: PickerView, widthForComponent component: Int) -> Double { [0, 60, 90][component] }
    func picker(_ picker: PickerView, accessibilityLabelForComponent component: Int) -> String? {
        ["Month", "Day", "Year"][component]
    }
}

/// A picker of three wheels, 320 × 216, in a window on the offscreen frame driver.
@MainActor
final class PickerRig {
    let window = Window(size: Size(width: 320, height: 216))
    let picker = PickerView(frame: Rect(x: 0, y: 0, width: 320, height: 216))
    let source = DateWheels()
    let driver: FrameDriver

    init(rightToLeft: Bool = false) {
        if rightToLeft { window.semanticContentAttribute = .forceRightToLeft }
        window.addSubview(picker)
        picker.dataSource = source
        picker.onSelectRow = { [unowned source] row, component in source.picks.append((row, component)) }
        driver = FrameDriver(window: window)
    }

    func wheel(_ component: Int) -> ScrollView {
        picker.subviews.compactMap { $0 as? ScrollView }[component]
    }

    /// The offset at which `row` is picked: `row·32 − (216 − 32) / 2`.
    static func offset(_ row: Int) -> Double { Double(row) * 32 - 92 }

    func send(_ build: (inout ScriptBuilder) -> Void) {
        driver.send(build)
        driver.settle()
    }

    var picks: [String] { source.picks.map { "\($0.row)@\($0.component)" } }
}

@MainActor
@Suite struct PickerViewTests {
    /// The drum: a row `d` from the middle shows `R·sin(d/R)` from it, `cos(d/R)` as high,
    /// fading to a quarter at the edge; past a quarter turn it is not shown.
    @Test func rowsLieOnADrumSeenSideOn() throws {
        let middle = try #require(PickerWheelProjection.place(distance: 0, radius: 108))
        #expect(middle.shownOffset == 0 && middle.heightScale == 1 && middle.alpha == 1)
        let next = try #require(PickerWheelProjection.place(distance: 32, radius: 108))
        #expect(abs(next.shownOffset - 108 * Foundation.sin(32.0 / 108)) < 1e-12)
        #expect(abs(next.heightScale - Foundation.cos(32.0 / 108)) < 1e-12)
        #expect(abs(next.alpha - (0.25 + 0.75 * Foundation.cos(32.0 / 108))) < 1e-12)
        let above = try #require(PickerWheelProjection.place(distance: -32, radius: 108))
        #expect(above.shownOffset == -next.shownOffset && above.heightScale == next.heightScale)
        #expect(PickerWheelProjection.place(distance: 108 * Double.pi / 2, radius: 108) == nil)
        #expect(PickerWheelProjection.place(distance: .nan, radius: 108) == nil)
        #expect(PickerWheelProjection.place(distance: 10, radius: 0) == nil)
    }

    @Test func wheelsStandSideBySideWithTheirFirstRowsPickedInTheMiddle() throws {
        let rig = PickerRig()
        #expect(rig.picker.numberOfComponents == 3)
        #expect((0..<3).map(rig.picker.numberOfRows(inComponent:)) == [12, 31, 201])
        #expect(rig.picker.numberOfRows(inComponent: 3) == 0)
        // 320 − 16 of edges − 16 between: 288; the months share what 60 and 90 leave.
        #expect(
            (0..<3).map { rig.wheel($0).frame } == [
                Rect(x: 8, y: 0, width: 138, height: 216), Rect(x: 154, y: 0, width: 60, height: 216),
                Rect(x: 222, y: 0, width: 90, height: 216),
            ])
        #expect((0..<3).map(rig.picker.selectedRow(inComponent:)) == [0, 0, 0])
        #expect(rig.picker.selectedRow(inComponent: 5) == -1)
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(0))
        // The picked row in the band, as it is; the next one on the drum, lower and shorter.
        let first = rig.picker.viewForRow(0, forComponent: 0)
        #expect(first?.frame == Rect(x: 0, y: 0, width: 138, height: 32))
        #expect(first?.transform.isIdentity == true)
        let second = try #require(rig.picker.viewForRow(1, forComponent: 0))
        let shown = 108 * Foundation.sin(32.0 / 108)
        #expect(abs(second.frame.midY - (16 + shown)) < 1e-9)
        #expect(abs(second.frame.height - 32 * Foundation.cos(32.0 / 108)) < 1e-9)
        // Rows round the back of the drum have no views: 108·π/2 ≈ 170 below the middle.
        #expect(rig.picker.viewForRow(5, forComponent: 0) != nil)
        #expect(rig.picker.viewForRow(6, forComponent: 0) == nil)
    }

    @Test func rightToLeftTheFirstWheelIsOnTheRight() {
        let rig = PickerRig(rightToLeft: true)
        #expect((0..<3).map { rig.wheel($0).frame.minX } == [174, 106, 8])
    }

    /// A fling glides to a row, not between two: the release is aimed at the row nearest its
    /// natural rest, and the app hears the one row picked when it stops.
    @Test func aFlingComesToRestOnARowAndTheAppHearsIt() {
        let rig = PickerRig()
        var natural: Double?
        var aimed: Double?
        rig.wheel(2).eventObserver = { s, e in
            if case .willEndDragging(let v, let target) = e {
                natural = s.contentOffset.y + v.y * 1000 / DecelerationRate.normal.k
                aimed = target.y
            }
        }
        rig.send { $0.flick(from: Point(x: 260, y: 160), by: Point(x: 0, y: -60), at: 0) }
        let row = rig.picker.selectedRow(inComponent: 2)
        #expect(row > 5 && row < 200)
        #expect(rig.wheel(2).contentOffset.y == PickerRig.offset(row))
        #expect(aimed == PickerRig.offset(row))
        #expect(abs((natural ?? 0) - PickerRig.offset(row)) <= 16)
        #expect(rig.picks == ["\(row)@2"])
        #expect(!rig.wheel(2).isDecelerating && !rig.wheel(2).isScrollAnimating)
    }

    /// A slow drag let go between rows settles on the nearest; one past the end bounces back
    /// to the last row.
    @Test func aStillReleaseSettlesOnTheNearestRowAndAFlingPastTheEndOnTheLast() {
        let rig = PickerRig()
        var released: Double?
        rig.wheel(1).eventObserver = { s, e in if case .didEndDragging = e { released = s.contentOffset.y } }
        rig.send { $0.drag(from: Point(x: 180, y: 150), to: Point(x: 180, y: 80), at: 0, ms: 700, hold: 300) }
        let expected = Int(clamping: ((released ?? 0) + 92) / 32, rounding: .toNearestOrAwayFromZero, in: 0...30)
        #expect(expected >= 1)
        #expect(rig.picker.selectedRow(inComponent: 1) == expected)
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(expected))
        #expect(rig.picks == ["\(expected)@1"])
        rig.send { $0.flick(from: Point(x: 180, y: 200), by: Point(x: 0, y: -150), at: 0, moves: 3, step: 8) }
        rig.send { $0.flick(from: Point(x: 180, y: 200), by: Point(x: 0, y: -150), at: 0, moves: 3, step: 8) }
        #expect(rig.picker.selectedRow(inComponent: 1) == 30)
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(30))
    }

    /// A finger that stops a glide between rows and lifts lets the wheel settle on the nearest;
    /// a touchpad's scroll comes to rest on a row as a drag's release does.
    @Test func aWheelStoppedByAFingerOrTurnedOnATouchpadRestsOnARow() {
        let rig = PickerRig()
        rig.driver.send { $0.flick(from: Point(x: 260, y: 160), by: Point(x: 0, y: -60), at: 0) }
        rig.driver.advance(by: 0.23)
        #expect(rig.wheel(2).isDecelerating)
        rig.send { $0.tap(at: Point(x: 260, y: 108), at: 0, hold: 200) }
        let stopped = rig.picker.selectedRow(inComponent: 2)
        #expect(stopped > 0)
        #expect(rig.wheel(2).contentOffset.y == PickerRig.offset(stopped))
        #expect(rig.picks == ["\(stopped)@2"])
        rig.driver.send(.pointerMotion(position: Point(x: 180, y: 108)))
        rig.driver.send(.pointerFrame)
        for _ in 0..<6 {
            rig.driver.send(.axis(.vertical, value: 9, source: .finger, value120: nil), at: rig.driver.time + 0.01)
            rig.driver.send(.pointerFrame)
        }
        rig.driver.send(.axisStop(.vertical), at: rig.driver.time + 0.01)
        rig.driver.send(.pointerFrame)
        rig.driver.settle()
        let day = rig.picker.selectedRow(inComponent: 1)
        #expect(day > 0)
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(day))
        #expect(rig.picks == ["\(stopped)@2", "\(day)@1"])
    }

    /// A finger that stops a glide and then pages an enclosing pager sideways: the wheel, its
    /// touch taken over, still comes to rest on a row, picked.
    @Test func aWheelWhoseTouchAPagerTookOverRestsOnARow() throws {
        let window = Window(size: Size(width: 320, height: 216))
        let pager = ScrollView(frame: Rect(x: 0, y: 0, width: 320, height: 216))
        pager.isPagingEnabled = true
        pager.contentSize = Size(width: 640, height: 216)
        window.addSubview(pager)
        let picker = PickerView(frame: Rect(x: 0, y: 0, width: 320, height: 216))
        let source = DateWheels()
        picker.dataSource = source
        picker.onSelectRow = { source.picks.append(($0, $1)) }
        pager.addSubview(picker)
        let driver = FrameDriver(window: window)
        let years = try #require(picker.subviews.compactMap { $0 as? ScrollView }.last)
        driver.send { $0.flick(from: Point(x: 260, y: 160), by: Point(x: 0, y: -60), at: 0) }
        driver.advance(by: 0.23)
        #expect(years.isDecelerating)
        driver.send {
            $0.drag(
                from: Point(x: 260, y: 108), through: (1...8).map { Point(x: 260 - Double($0) * 25, y: 108) }, at: 0,
                liftAfter: 16)
        }
        driver.settle()
        #expect(pager.contentOffset.x == 320, "the pager did not turn")
        let row = picker.selectedRow(inComponent: 2)
        #expect(years.contentOffset.y == Double(row) * 32 - 92, "row \(row), offset \(years.contentOffset.y)")
        #expect(source.picks.map { "\($0.row)@\($0.component)" } == ["\(row)@2"])
    }

    @Test func aTapOnARowTurnsTheWheelToIt() {
        let rig = PickerRig()
        // Row 1 shows 31.5 below the middle (108).
        rig.send { $0.tap(at: Point(x: 260, y: 140), at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 2) == 1)
        #expect(rig.wheel(2).contentOffset.y == PickerRig.offset(1))
        #expect(rig.picks == ["1@2"])
    }

    @Test func wheelClicksPickARowEachAndPassOnAtTheEnd() {
        let rig = PickerRig()
        rig.send { $0.wheel(clicks: 3, over: Point(x: 70, y: 108), at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 0) == 3)
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(3))
        #expect(rig.picks == ["1@0", "2@0", "3@0"])
        rig.send { $0.wheel(clicks: -5, over: Point(x: 70, y: 108), at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 0) == 0)
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(0))
        #expect(rig.picks.count == 6)
        let wheel = rig.wheel(0)
        #expect(!wheel.handleInput(InputEvent(time: 10, .axis(.vertical, value: -15, source: .wheel, value120: -120))))
    }

    /// Part of a click one way (a high-resolution wheel's half detent) does not swallow a
    /// whole click back.
    @Test func aClickBackIsNotSwallowedByHalfAClickForward() {
        let rig = PickerRig()
        rig.picker.selectRow(5, inComponent: 0, animated: false)
        let over = Point(x: 70, y: 108)
        rig.driver.send(.pointerMotion(position: over))
        rig.driver.send(.axis(.vertical, value: 7.5, source: .wheel, value120: 60))
        rig.driver.send(.axis(.vertical, value: -15, source: .wheel, value120: -120))
        rig.driver.settle()
        #expect(rig.picker.selectedRow(inComponent: 0) == 4)
        #expect(rig.picks == ["4@0"])
    }

    /// The focus rests on the picked row; Up, Down, Page Down, End and Home pick rows, the
    /// focus following, and the app hears each.
    @Test func keysPickRowsAndTheFocusFollows() throws {
        let rig = PickerRig()
        let focused = try #require(rig.window.moveFocus())
        #expect(focused === rig.picker.viewForRow(0, forComponent: 0))
        rig.send {
            $0.key("Down", at: 0)
            $0.key("Down", at: 100)
        }
        #expect(rig.picker.selectedRow(inComponent: 0) == 2)
        #expect(rig.window.focusedView === rig.picker.viewForRow(2, forComponent: 0))
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(2))
        rig.send { $0.key("Page_Down", at: 0) }
        // A wheelful less one: 216 / 32 → 6, so 5 rows.
        #expect(rig.picker.selectedRow(inComponent: 0) == 7)
        rig.send { $0.key("End", at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 0) == 11)
        rig.send { $0.key("Up", at: 0) }
        rig.send { $0.key("Page_Up", at: 0) }
        rig.send { $0.key("Page_Up", at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 0) == 0)
        rig.send { $0.key("Home", at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 0) == 0)
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(0))
        #expect(rig.picks == ["1@0", "2@0", "7@0", "11@0", "10@0", "5@0", "0@0"])
        #expect(rig.window.focusedView === rig.picker.viewForRow(0, forComponent: 0))
        // Tab goes on to the next wheel's picked row.
        #expect(rig.window.moveFocus() === rig.picker.viewForRow(0, forComponent: 1))
    }

    /// A reload keeps the focus on the picked row (its view made afresh, its title new); a
    /// taller picker keeps the picked row in its middle.
    @Test func aReloadKeepsTheFocusAndANewHeightThePickInTheMiddle() throws {
        let rig = PickerRig()
        rig.picker.selectRow(4, inComponent: 0, animated: false)
        rig.window.focus(rig.picker.viewForRow(4, forComponent: 0), byTouch: false)
        rig.picker.reloadAllComponents()
        let focused = try #require(rig.window.focusedView)
        #expect(focused === rig.picker.viewForRow(4, forComponent: 0))
        #expect(focused.accessibilityNode(in: rig.window)?.label == "May")
        rig.picker.frame = Rect(x: 0, y: 0, width: 320, height: 300)
        rig.driver.settle()
        // (300 − 32) / 2 = 134 above the first row.
        #expect(rig.wheel(0).contentOffset.y == 4 * 32 - 134)
        #expect(rig.picker.viewForRow(4, forComponent: 0)?.frame.midY == 150 + rig.wheel(0).contentOffset.y)
        #expect(rig.picker.selectedRow(inComponent: 0) == 4 && rig.picks.isEmpty)
    }

    /// A fling with the focus on the wheel moves it to the row the wheel stops on.
    @Test func theFocusMovesToTheRowAFlingStopsOn() throws {
        let rig = PickerRig()
        _ = try #require(rig.window.moveFocus())
        rig.send { $0.flick(from: Point(x: 70, y: 200), by: Point(x: 0, y: -120), at: 0, moves: 3, step: 8) }
        let row = rig.picker.selectedRow(inComponent: 0)
        #expect(row > 3)
        let view = rig.picker.viewForRow(row, forComponent: 0)
        #expect(view != nil && rig.window.focusedView === view)
    }

    /// `selectRow` picks without telling the app, at once or springing there; rows the wheel
    /// does not have are ignored; a reload keeps the pick, or the last row when there are fewer.
    @Test func selectRowAndReloadKeepThePick() {
        let rig = PickerRig()
        rig.picker.selectRow(5, inComponent: 1, animated: false)
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(5))
        rig.picker.selectRow(20, inComponent: 1, animated: true)
        #expect(rig.wheel(1).isScrollAnimating)
        rig.driver.settle()
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(20))
        #expect(rig.picker.selectedRow(inComponent: 1) == 20)
        rig.picker.selectRow(31, inComponent: 1, animated: false)
        rig.picker.selectRow(-1, inComponent: 1, animated: false)
        rig.picker.selectRow(0, inComponent: 7, animated: false)
        #expect(rig.picker.selectedRow(inComponent: 1) == 20)
        rig.picker.selectRow(10, inComponent: 0, animated: false)
        rig.source.monthCount = 6
        rig.picker.reloadComponent(0)
        #expect(rig.picker.selectedRow(inComponent: 0) == 5)
        #expect(rig.wheel(0).contentOffset.y == PickerRig.offset(5))
        #expect(rig.picks.isEmpty)
        rig.source.monthCount = 0
        rig.picker.reloadAllComponents()
        #expect(rig.picker.selectedRow(inComponent: 0) == -1)
        #expect(rig.picker.viewForRow(0, forComponent: 0) == nil)
        #expect(rig.picker.selectedRow(inComponent: 1) == 20)
    }

    /// Rows the data source shows with views of its own: each view inside its row, 3 points
    /// in, taking no touches; a row's view reused for another row is handed back to be
    /// configured again; the picked row's swatch is what the band shows; the title still
    /// names the row for a reader.
    @Test func rowsShowTheAppsViewsReusedAsTheWheelTurns() throws {
        final class Swatches: PickerViewDataSource {
            static let colors = (0..<40).map { Color(rgb: UInt8($0 * 6), 200, UInt8(255 - $0 * 6)) }
            var made = 0
            var reused = 0
            func numberOfComponents(in picker: PickerView) -> Int { 1 }
            func picker(_ picker: PickerView, numberOfRowsInComponent component: Int) -> Int { Self.colors.count }
            func picker(_ picker: PickerView, titleForRow row: Int, forComponent component: Int) -> String {
                "Colour \(row + 1)"
            }
            func picker(
                _ picker: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?
            ) -> View? {
                let swatch = view ?? View()
                if view == nil { made += 1 } else { reused += 1 }
                swatch.backgroundColor = Self.colors[row]
                return swatch
            }
        }
        let window = Window(size: Size(width: 320, height: 216))
        let picker = PickerView(frame: Rect(x: 0, y: 0, width: 320, height: 216))
        let swatches = Swatches()
        picker.dataSource = swatches
        window.addSubview(picker)
        let driver = FrameDriver(window: window)
        let row = try #require(picker.viewForRow(0, forComponent: 0))
        let swatch = try #require(row.subviews.first)
        #expect(swatch.frame == Rect(x: 3, y: 3, width: 298, height: 26) && !swatch.isUserInteractionEnabled)
        #expect(swatches.made == 6 && swatches.reused == 0, "\(swatches.made) made, \(swatches.reused) reused")
        driver.send { $0.flick(from: Point(x: 160, y: 200), by: Point(x: 0, y: -80), at: 0) }
        driver.settle()
        let picked = picker.selectedRow(inComponent: 0)
        #expect(picked > 5)
        #expect(swatches.reused > 0 && swatches.made < 16, "\(swatches.made) made, \(swatches.reused) reused")
        let canvas = try Offscreen.render(window)
        #expect(canvas.color(x: 160, y: 108) == Swatches.colors[picked], "row \(picked)")
        let node = try #require(picker.viewForRow(picked, forComponent: 0)?.accessibilityNode(in: window))
        #expect(node.label == "Colour \(picked + 1)" && node.children.isEmpty)
        // A tap on a row's swatch picks the row.
        driver.send { $0.tap(at: Point(x: 160, y: 140), at: 0) }
        driver.settle()
        #expect(picker.selectedRow(inComponent: 0) == picked + 1)
    }

    /// A reader sees a list per wheel, named by the data source, its shown rows' titles, the
    /// picked one selected, each counted among all the wheel's rows; activating a row picks it.
    @Test func aReaderSeesAListPerWheelWithThePickedRowSelected() throws {
        let rig = PickerRig()
        let tree = rig.window.accessibilityTree()
        let lists = tree.all.filter { $0.role == .list }
        #expect(lists.map(\.label) == ["Month", "Day", "Year"])
        let months = try #require(lists.first)
        #expect(months.children.map(\.label) == ["January", "February", "March", "April", "May", "June"])
        #expect(months.children.map(\.role) == Array(repeating: .listItem, count: 6))
        #expect(months.children.map { $0.states.contains(.selected) } == [true, false, false, false, false, false])
        #expect(months.children[2].position?.index == 3 && months.children[2].position?.count == 12)
        let march = try #require(rig.picker.viewForRow(2, forComponent: 0))
        #expect(march.accessibilityActivate())
        rig.driver.settle()
        #expect(rig.picker.selectedRow(inComponent: 0) == 2)
        #expect(rig.picks == ["2@0"])
        let after = try #require(rig.window.accessibilityTree().all.first { $0.label == "Month" })
        let selected = after.children.filter { $0.states.contains(.selected) }.map(\.label)
        #expect(selected == ["March"])
    }
}

@MainActor
@Suite struct PickerRowsHeardTests {
    /// What a reader is told of a wheel's rows: each come and gone, with the name it had then.
    final class Told: WindowObserver {
        let wheel: View
        var rows: [ObjectIdentifier: String]
        init(_ wheel: View, in window: Window) {
            self.wheel = wheel
            rows = Dictionary(
                wheel.accessibilityChildren(in: window).map { (ObjectIdentifier($0.view), $0.label) },
                uniquingKeysWith: { a, _ in a })
        }
        func window(_ window: Window, accessibilityNotification notification: AccessibilityNotification) {
            switch notification {
            case .elementAdded(let row, let container) where container === wheel:
                rows[ObjectIdentifier(row)] = row.accessibilityNode(in: window)?.label ?? ""
            case .elementRemoved(let row, let container) where container === wheel:
                rows[ObjectIdentifier(row)] = nil
            default: break
            }
        }
    }

    /// The rows a wheel shows come and go as it turns, and on a reload: a reader is told of
    /// each, so the rows it knows are the wheel's, each under the title it shows (a row's view
    /// reused for another row had been renamed unheard: "1904" became "1915").
    @Test func aReaderHearsAWheelsRowsComeAndGo() {
        let rig = PickerRig()
        let wheel = rig.wheel(2)
        let told = Told(wheel, in: rig.window)
        rig.window.addObserver(told)
        func check(_ what: String) {
            let now = Dictionary(
                wheel.accessibilityChildren(in: rig.window).map { (ObjectIdentifier($0.view), $0.label) },
                uniquingKeysWith: { a, _ in a })
            #expect(now == told.rows, "\(what): \(now.values.sorted()) but told \(told.rows.values.sorted())")
        }
        rig.send { $0.flick(from: Point(x: 260, y: 160), by: Point(x: 0, y: -60), at: 0) }
        #expect(rig.picker.selectedRow(inComponent: 2) > 8)
        check("after a fling")
        rig.picker.selectRow(3, inComponent: 2, animated: false)
        check("after selectRow")
        rig.picker.reloadAllComponents()
        check("after a reload")
    }
}

@MainActor
@Suite struct PickerTouchpadHoldTests {
    /// Fingers resting on a touchpad stop a wheel's glide between rows; as they lift the wheel
    /// comes to rest on the nearest row, and the app hears it picked (it had stayed between
    /// rows, 26.3 rows down, the pick still the first).
    @Test func aTouchpadHoldThatStopsAGlideLeavesTheWheelOnARow() {
        let rig = PickerRig()
        rig.driver.send(.pointerMotion(position: Point(x: 180, y: 108)))
        rig.driver.send(.pointerFrame)
        for _ in 0..<6 {
            rig.driver.send(.axis(.vertical, value: 25, source: .finger, value120: nil), at: rig.driver.time + 0.01)
            rig.driver.send(.pointerFrame)
        }
        rig.driver.send(.axisStop(.vertical), at: rig.driver.time + 0.01)
        rig.driver.send(.pointerFrame)
        rig.driver.advance(by: 0.08)
        #expect(rig.wheel(1).isDecelerating)
        rig.driver.send(.holdBegin(fingers: 2), at: rig.driver.time + 0.001)
        rig.driver.send(.pointerFrame)
        rig.driver.advance(by: 0.1)
        #expect(!rig.wheel(1).isDecelerating)
        rig.driver.send(.holdEnd(cancelled: false), at: rig.driver.time + 0.001)
        rig.driver.send(.pointerFrame)
        rig.driver.settle()
        let row = rig.picker.selectedRow(inComponent: 1)
        #expect(row > 5)
        #expect(rig.wheel(1).contentOffset.y == PickerRig.offset(row))
        #expect(rig.picks == ["\(row)@1"])
    }
}
