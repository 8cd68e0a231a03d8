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
        let indicator = PageIndicator(count: Pages.count)
        indicator.name = "pageIndicator"
        window.addSubview(indicator)
        let tracker = PageTracker(indicator: indicator)
        main.delegate = tracker
        window.retainedObjects.append(tracker)
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

/// Dots, one per page, the current one solid (UIPageControl's look).
public final class PageIndicator: View {
    public let count: Int
    public var currentPage = 0 { didSet { if currentPage != oldValue { setNeedsDisplay() } } }

    init(count: Int) {
        self.count = count
        super.init()
        isUserInteractionEnabled = false
    }

    public override var drawsContent: Bool { true }

    public override func draw(in canvas: Canvas) {
        let d = 9.0
        let gap = 10.0
        let total = Double(count) * d + Double(count - 1) * gap
        var x = (bounds.width - total) / 2
        for i in 0..<count {
            let dot = Rect(x: x, y: (bounds.height - d) / 2, width: d, height: d)
            canvas.fillEllipse(in: dot, color: i == currentPage ? .white : Color.white.withAlpha(0.45))
            x += d + gap
        }
    }
}

/// Keeps the indicator on the page nearest the offset.
final class PageTracker: ScrollViewDelegate {
    weak var indicator: PageIndicator?
    init(indicator: PageIndicator) { self.indicator = indicator }
    func scrollViewDidScroll(_ scrollView: ScrollView) {
        guard let indicator, scrollView.bounds.width > 0 else { return }
        // Clamped as a double first: an offset set from outside may be any finite number.
        let page = min(
            max((scrollView.contentOffset.x / scrollView.bounds.width).rounded(), 0), Double(indicator.count - 1))
        indicator.currentPage = Int(clamping: page)
    }
}
