import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// The seeds' bounds article: four coloured views in content 320 wide and 750 tall, in a
    /// 320×480 ScrollView named "main" whose contentOffset (its bounds origin) scrolls them.
    public static let bounds = Scene(
        name: "bounds",
        summary: "The bounds article: four coloured views; contentOffset is bounds.origin",
        preferredSize: Size(width: 320, height: 480)
    ) { window in
        let main = addMainScrollView(to: window, contentSize: BoundsColors.contentSize)
        for (name, rect, color) in BoundsColors.views {
            let v = View(frame: rect)
            v.name = name
            v.backgroundColor = color
            main.addSubview(v)
        }
    }
}

/// The article's colours and frames.
public enum BoundsColors {
    public static let contentSize = Size(width: 320, height: 750)
    public static let views: [(String, Rect, Color)] = [
        ("red", Rect(x: 20, y: 20, width: 100, height: 100), Color(rgb: 208, 2, 27)),
        ("green", Rect(x: 150, y: 160, width: 150, height: 200), Color(rgb: 126, 211, 33)),
        ("blue", Rect(x: 40, y: 400, width: 200, height: 150), Color(rgb: 74, 144, 226)),
        ("yellow", Rect(x: 100, y: 600, width: 180, height: 150), Color(rgb: 248, 231, 28)),
    ]
}
