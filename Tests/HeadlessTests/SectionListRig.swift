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

    /// Forty rows ("Row 0" on) in sections starting at rows 0, 10, 10 (an empty one) and 25,
    /// titled "Section n" and "End of n"; each section's own heights when set (else the
    /// list's).
    final class Rows: ListDataSource {
        var count = 40
        var starts = [0, 10, 10, 25]
        var headers: [Double]?
        var footers: [Double]?
        /// How many times a header's height was asked.
        var headerHeightsAsked = 0
        func numberOfRows(in list: ListView) -> Int { count }
        func list(_ list: ListView, cellForRow row: Int) -> ListCell {
            let cell = list.dequeueReusableCell(withIdentifier: "r")
            cell.textLabel.text = "Row \(row)"
            return cell
        }
        func sectionStarts(in list: ListView) -> [Int] { starts }
        func list(_ list: ListView, titleForSection section: Int) -> String { "Section \(section)" }
        /// Footers' own titles by section (else "End of n").
        var footerTitles: [Int: String] = [:]
        func list(_ list: ListView, titleForFooterInSection section: Int) -> String {
            footerTitles[section] ?? "End of \(section)"
        }
        func list(_ list: ListView, heightForHeaderInSection section: Int) -> Double {
            headerHeightsAsked += 1
            return headers?[section] ?? list.sectionHeaderHeight
        }
        func list(_ list: ListView, heightForFooterInSection section: Int) -> Double {
            footers?[section] ?? list.sectionFooterHeight
        }
    }

    static func make(
        _ rows: ListDataSource, scale: Double = 1, configure: (ListView) -> Void = { _ in }
    ) -> (window: Window, driver: FrameDriver, list: ListView) {
        let window = Window(size: Size(width: 320, height: 480), scale: scale)
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
