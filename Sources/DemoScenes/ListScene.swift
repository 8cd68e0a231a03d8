import Geometry
import Raster
import Scrolling
import Views

extension Scene {
    /// A simple list: 200 rows of text in a ScrollView named "main". (The 100,000-row list with
    /// cell reuse replaces it with the huge-content work.)
    public static let list = Scene(
        name: "list",
        summary: "A scrolling list of 200 rows (touch, touchpad, wheel, keys)",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let rowHeight = 56.0
        let main = addMainScrollView(
            to: window, contentSize: Size(width: window.bounds.width, height: Double(ListRows.count) * rowHeight))
        for i in 0..<ListRows.count {
            let row = View(frame: Rect(x: 0, y: Double(i) * rowHeight, width: window.bounds.width, height: rowHeight))
            row.backgroundColor = ListRows.color(i)
            let label = Label(
                text: "Row \(i + 1)", frame: Rect(x: 16, y: 0, width: window.bounds.width - 32, height: rowHeight))
            row.addSubview(label)
            main.addSubview(row)
        }
    }
}

/// The list scene's rows: alternating tints so motion is visible in captures.
public enum ListRows {
    public static let count = 200
    public static func color(_ i: Int) -> Color {
        i % 2 == 0 ? Color(rgb: 250, 250, 252) : Color(rgb: 228, 236, 246)
    }
}
