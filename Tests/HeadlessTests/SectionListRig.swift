import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayScrolling
import ScrollwayViews

/// The section tests' list: 320×480 in a window of its size, rows of 40 with the estimate
/// exact (every row where it will be measured), `configure`d, then showing `rows`, loaded and
/// drawn once. The driver holds its window weakly and the list its data source: a
/// test keeps the window and the data source.
@MainActor
enum SectionListRig {
    final class FortyHighCell: ListCell {
        override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 40) }
    }

    static func make(
        _ rows: ListDataSource, configure: (ListView) -> Void = { _ in }
    ) -> (
        window: Window, driver: FrameDriver, list: ListView
    ) {
        let window = Window(size: Size(width: 320, height: 480))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        list.register("r") { FortyHighCell(reuseIdentifier: "r") }
        list.estimatedRowHeight = 40
        configure(list)
        list.dataSource = rows
        window.addSubview(list)
        list.reloadData()
        let driver = FrameDriver(window: window)
        driver.advance(by: 0.05)
        return (window, driver, list)
    }
}
