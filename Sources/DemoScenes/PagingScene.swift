import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// Full-page colour pages, side by side, in a paging scroll view, with a page indicator.
    public static let paging = Scene(
        name: "paging",
        summary: "Full-page colour pages with paging and a page indicator",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        let main = addMainScrollView(to: window, contentSize: window.bounds.size)
        main.isPagingEnabled = true
        main.showsHorizontalScrollIndicator = false
        var pages: [(page: View, label: Label)] = []
        for i in 0..<Pages.count {
            let page = View()
            page.backgroundColor = Pages.colors[i]
            let label = Label(text: "Page \(i + 1)")
            label.textAlignment = .center
            label.textColor = .white
            label.font = try? Font.system(size: 34, bold: true)
            page.addSubview(label)
            main.addSubview(page)
            pages.append((page, label))
        }
        // It follows the pages, and a tap beside the current dot (or a drag along the dots)
        // turns them.
        let indicator = PageControl(numberOfPages: Pages.count)
        indicator.name = "pageIndicator"
        indicator.accessibilityLabel = "Pages"
        window.addSubview(indicator)
        indicator.scrollView = main
        // Pages are the view's size at any window size; a resize keeps the page in view.
        main.relayout = { [weak indicator] main, old in
            let w = main.bounds.width
            let h = main.bounds.height
            let page = old.width > 0 ? (main.contentOffset.x / old.width).rounded() : 0
            for (i, p) in pages.enumerated() {
                p.page.frame = Rect(x: Double(i) * w, y: 0, width: w, height: h)
                p.label.frame = Rect(x: 0, y: h / 2 - 30, width: w, height: 60)
            }
            main.contentSize = Size(width: w * Double(Pages.count), height: h)
            main.setContentOffset(Point(x: min(max(page, 0), Double(Pages.count - 1)) * w, y: 0), animated: false)
            indicator?.frame = Rect(x: 0, y: h - 60, width: w, height: 24)
        }
        main.layoutIfNeeded()
    }
}

public enum Pages {
    public static let count = 6
    public static let colors: [Color] = [
        Color(rgb: 208, 2, 27), Color(rgb: 245, 166, 35), Color(rgb: 126, 211, 33),
        Color(rgb: 74, 144, 226), Color(rgb: 144, 19, 254), Color(rgb: 80, 80, 90),
    ]
}
