import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// 100,000 rows of text with varied heights (one to three lines) in a ListView named "main",
    /// in sections of 25 rows whose headers stick to the top: only the rows in view have cells,
    /// reused as they scroll.
    public static let list = Scene(
        name: "list",
        summary: "100,000 rows of text with varied heights and sticky section headers, cells reused",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let list = addMainList(to: window, identifier: ListRows.identifier)
        let rows = ListRows()
        window.retainedObjects.append(rows)
        list.dataSource = rows
        list.reloadData()
    }
}

/// The list scene's rows.
public final class ListRows: ListDataSource {
    public static let count = 100_000
    public static let sectionLength = 25
    static let identifier = "row"

    /// Row i's text: one, two or three lines.
    public static func text(_ i: Int) -> String {
        switch i % 3 {
        case 0: return "Row \(i + 1)"
        case 1: return "Row \(i + 1)\nA second line of text"
        default: return "Row \(i + 1)\nA second line of text\nand a third"
        }
    }

    public static func color(_ i: Int) -> Color {
        i % 2 == 0 ? Color(rgb: 250, 250, 252) : Color(rgb: 228, 236, 246)
    }

    /// The number of rows (the scene's 100,000; `scrollway bench` compares with fewer). Rows are
    /// numbered by their place: a test that inserts or deletes rows changes this first, as an
    /// app changes its model before telling the list (`ListView.insertRows`), and the rows after
    /// the change show their new places' texts.
    public var rowCount: Int

    public init(count: Int = ListRows.count) { rowCount = count }

    public func numberOfRows(in list: ListView) -> Int { rowCount }

    public func sectionStarts(in list: ListView) -> [Int] {
        Array(stride(from: 0, to: rowCount, by: Self.sectionLength))
    }

    public func list(_ list: ListView, titleForSection section: Int) -> String {
        let first = section * Self.sectionLength + 1
        return "Rows \(first)–\(min(rowCount, first + Self.sectionLength - 1))"
    }

    public func list(_ list: ListView, cellForRow row: Int) -> ListCell {
        let cell = list.dequeueReusableCell(withIdentifier: Self.identifier)
        cell.textLabel.text = Self.text(row)
        cell.normalColor = Self.color(row)
        return cell
    }
}
