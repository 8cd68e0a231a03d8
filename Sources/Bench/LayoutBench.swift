import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayLayout
import ScrollwayScrolling
import ScrollwayViews

/// The grid scene's flings: a collection view whose per-frame work does not grow with the
/// number of items costs the same with 1,000 photos as with 100,000.
@MainActor
enum GridRun {
    /// A grid scene's window of `items` photos.
    static func makeWindow(items: Int) -> Window {
        let window = Window(size: Scene.grid.preferredSize)
        window.clearColor = .white
        _ = PhotoGrid.make(in: window, count: items)
        return window
    }

    /// `window` is a grid scene's (a new one of `items` photos by default).
    static func measure(quick: Bool, items: Int = PhotoGrid.count, window given: Window? = nil) throws -> FrameTimes {
        let window = given ?? makeWindow(items: items)
        let bench = try BenchDriver(window: window)
        let from = Point(x: window.bounds.width / 2, y: window.bounds.height - 100)
        for dy in quick ? [-600.0] : [-600, -600, 600, -600] {
            bench.fling(dx: 0, dy: dy, from: from)
            try bench.run(for: quick ? 0.6 : 1.0)
        }
        return bench.times
    }
}

/// The form scene resized frame after frame: what the layout pass (views' own layout and the
/// constraint solver, re-solving from its last solution) costs per resize frame, against solving
/// the same form from nothing at each width (`systemLayoutSizeFitting`, its kept solver
/// forgotten each time); and those fittings again with the solver kept from one to the next.
@MainActor
struct FormResizeRun {
    var constraints = 0
    var incremental = FrameTimes()
    var fromScratch = FrameTimes()
    /// The same fittings with the solver the last one kept.
    var refitted = FrameTimes()

    /// The widths a window dragged narrower and back passes through.
    static func widths(quick: Bool) -> [Double] {
        let down = stride(from: 390.0, through: 260, by: -5).map { $0 }
        let cycle = down + down.reversed().dropFirst()
        return Array(repeating: cycle, count: quick ? 1 : 4).flatMap { $0 }
    }

    static func measure(quick: Bool) throws -> FormResizeRun {
        let window = Scene.form.makeWindow()
        window.layoutIfNeeded()
        guard let form = window.firstView(of: SettingsForm.self) else {
            throw BenchError("bench: the form scene has no SettingsForm")
        }
        var run = FormResizeRun()
        run.constraints = window.constraintsInSubtree.count
        let clock = ContinuousClock()
        for w in widths(quick: quick) {
            let start = clock.now
            window.resize(to: Size(width: w, height: 844))
            window.layoutIfNeeded()
            run.incremental.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
        }
        guard window.unsatisfiableLayouts.isEmpty else {
            throw BenchError("bench: the form's constraints conflict: \(window.unsatisfiableLayouts)")
        }
        for w in widths(quick: true) {
            form.forgetFittingEngine()
            let start = clock.now
            _ = form.systemLayoutSizeFitting(Size(width: w, height: 0), horizontalFittingPriority: .required)
            run.fromScratch.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
        }
        for w in widths(quick: true) {
            let start = clock.now
            _ = form.systemLayoutSizeFitting(Size(width: w, height: 0), horizontalFittingPriority: .required)
            run.refitted.samples.append(BenchDriver.seconds(start.duration(to: clock.now)) * 1000)
        }
        return run
    }
}

/// A fling in a window that also holds the form's few hundred constraints (a hidden form
/// beside the list or grid): a frame that changes no constraint must not pay for them.
@MainActor
enum BesideFormRun {
    /// The form's constraints added to `window`, beside its content; their number.
    static func addForm(to window: Window) throws -> Int {
        let form = SettingsForm()
        form.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(form)
        LayoutConstraint.activate([
            form.leadingAnchor.constraint(equalTo: window.trailingAnchor),
            form.topAnchor.constraint(equalTo: window.topAnchor),
            form.widthAnchor.constraint(equalToConstant: 390),
        ])
        window.layoutIfNeeded()
        // Hidden once laid out: its constraints stay in the window's engine, and each frame's
        // walk leaves its views out. Shown out of sight beside the window, the views would be
        // walked every frame whatever lays them out: the view tree's cost, not the constraints'
        // (the decision log, 0.13.0, has what it measured).
        form.isHidden = true
        guard window.unsatisfiableLayouts.isEmpty else {
            throw BenchError("bench: the form's constraints conflict: \(window.unsatisfiableLayouts)")
        }
        return window.constraintsInSubtree.count
    }

    /// Each fling's runs without the form and with it, taken in turn and in both orders
    /// (without then with, with then without, …), so that the machine's drift and what the run
    /// before left behind fall on both alike: a baseline measured minutes earlier, after other
    /// scenes, moved the ratio more than the form could, and the second of a pair ran slower.
    struct Result {
        var listWithout: [FrameTimes] = []
        var listWith: [FrameTimes] = []
        var gridWithout: [FrameTimes] = []
        var gridWith: [FrameTimes] = []
        /// The form's constraints in the window's engine.
        var constraints = 0
    }

    /// Rounds, 3 (1 when quick), of the list fling and the grid fling (100,000 rows and
    /// photos), each in a new window without the form and with it; the second round takes
    /// them the other way round.
    static func measure(quick: Bool) throws -> Result {
        var result = Result()
        func listWithout() throws { result.listWithout.append(try ListRun.measure(quick: quick)) }
        func listWith() throws {
            let list = Scene.list.makeWindow()
            result.constraints = try addForm(to: list)
            result.listWith.append(try ListRun.measure(quick: quick, window: list))
        }
        func gridWithout() throws { result.gridWithout.append(try GridRun.measure(quick: quick)) }
        func gridWith() throws {
            let grid = GridRun.makeWindow(items: PhotoGrid.count)
            _ = try addForm(to: grid)
            result.gridWith.append(try GridRun.measure(quick: quick, window: grid))
        }
        for round in 0..<(quick ? 1 : 3) {
            for (without, with) in [(listWithout, listWith), (gridWithout, gridWith)] {
                let pair = round % 2 == 0 ? [without, with] : [with, without]
                for run in pair { try run() }
            }
        }
        return result
    }
}

/// The feed scene's self-sizing cards, each a title and a wrapping body, measured as they come
/// into view (UITableView's automatic dimension): laid out by constraints (the scene's cards:
/// the content view pins the two labels; the height is `systemLayoutSizeFitting`'s, and the
/// window's engine places the labels), against the same cards laid out by hand (`sizeThatFits`
/// and `layoutSubviews`). What constraints in every cell cost a fling's frame: each card that
/// comes in is fitted by a solver (its own, kept for the next item) and its constraints are
/// solved with the window's.
@MainActor
enum FeedRun {
    /// A window of the feed scene's size holding the feed with cards of either kind.
    static func makeWindow(byConstraints: Bool) -> Window {
        let window = Window(size: Scene.feed.preferredSize)
        Posts.make(in: window, byConstraints: byConstraints)
        return window
    }

    struct Result {
        var byHand: [FrameTimes] = []
        var byConstraints: [FrameTimes] = []
    }

    /// Rounds, 3 (1 when quick), of the grid's flings in a new feed of each kind, taken in turn
    /// as the beside lines' are (the second round the other way round).
    static func measure(quick: Bool) throws -> Result {
        var result = Result()
        func byHand() throws {
            result.byHand.append(try GridRun.measure(quick: quick, window: makeWindow(byConstraints: false)))
        }
        func byConstraints() throws {
            result.byConstraints.append(try GridRun.measure(quick: quick, window: makeWindow(byConstraints: true)))
        }
        for round in 0..<(quick ? 1 : 3) {
            for run in round % 2 == 0 ? [byHand, byConstraints] : [byConstraints, byHand] { try run() }
        }
        return result
    }
}
