import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A feed with pull to refresh: a pull past 1.5·60 px refreshes, and after a moment of
    /// "loading" five new rows arrive at the top while the rows in view stay exactly where they
    /// are (the offset grows by what was inserted above them).
    public static let refresh = Scene(
        name: "refresh",
        summary: "Pull to refresh: new rows arrive at the top while the rows in view stay still",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let feed = Feed(window: window)
        feed.start()
    }
}

/// The refresh scene's model and rows.
@MainActor
public final class Feed {
    public static let rowHeight = 64.0
    public static let initialRows = 30
    public static let rowsPerRefresh = 5
    /// How long a refresh "loads" before the rows arrive.
    public static let loadingTime = 1.0

    // The view tree owns the control, the control's action owns the feed, and the feed refers
    // back to the tree weakly: no cycle, and the feed lives as long as the scene.
    private weak var window: Window?
    private weak var main: ScrollView?
    private weak var control: RefreshControl?
    private(set) var rows: [View] = []
    private var nextNumber = 0

    init(window: Window) {
        self.window = window
        let main = Scene.addMainScrollView(to: window, contentSize: .zero)
        self.main = main
        // Rows are as wide as the window at any size.
        main.relayout = { [weak self] _, _ in self?.layoutRows() }
    }

    func start() {
        for _ in 0..<Self.initialRows { append(row(numbered: -1)) }
        layoutRows()
        let control = RefreshControl()
        main?.refreshControl = control
        self.control = control
        control.onValueChanged = { [self] in
            guard let window = self.window else { return }
            window.schedule(at: window.now + Self.loadingTime) { [self] in self.insertNewRows() }
        }
    }

    private func row(numbered n: Int) -> View {
        nextNumber += 1
        let v = View(frame: .zero)
        v.backgroundColor = nextNumber % 2 == 0 ? Color(rgb: 250, 250, 252) : Color(rgb: 236, 242, 250)
        let label = Label(text: n < 0 ? "Post \(nextNumber)" : "New post \(n)")
        label.fillsSuperview = true
        v.fillInsets = EdgeInsets(top: 0, left: 16, bottom: 0, right: 16)
        v.addSubview(label)
        return v
    }

    private func append(_ v: View) {
        rows.append(v)
        main?.addSubview(v)
    }

    private func layoutRows() {
        guard let main else { return }
        let width = main.bounds.width
        for (i, v) in rows.enumerated() {
            v.frame = Rect(x: 0, y: Double(i) * Self.rowHeight, width: width, height: Self.rowHeight)
        }
        main.contentSize = Size(width: width, height: Double(rows.count) * Self.rowHeight)
    }

    /// New rows above the old ones; the offset grows by their height so nothing in view moves.
    func insertNewRows() {
        guard let main else { return }
        let fresh = (0..<Self.rowsPerRefresh).map { row(numbered: $0 + 1) }
        for v in fresh.reversed() { main.insertSubview(v, at: 0) }
        rows = fresh + rows
        layoutRows()
        main.contentOffset.y += Double(fresh.count) * Self.rowHeight
        control?.endRefreshing()
    }
}
