import Scrollway
import Testing

/// The article's four ways a scroll view's content size comes from constraints, each at two
/// window widths: a content view pinned to the content guide with a size of its own; the same
/// with its width tied to the frame guide (vertical scrolling only); content whose intrinsic
/// sizes push it taller; and a column of wrapping labels that grows as the window narrows.
@MainActor
@Suite struct ContentGuideTests {
    /// A window of `width`×480 whose scroll view fills it, with a content view inside.
    func scene(width: Double) -> (Window, ScrollView, View) {
        let window = Window(size: Size(width: width, height: 480))
        let scroll = ScrollView()
        scroll.name = "scroll"
        scroll.fillsSuperview = true
        window.addSubview(scroll)
        let content = View()
        content.name = "content"
        content.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(content)
        LayoutConstraint.activate(content.constraints(pinningEdgesTo: scroll.contentLayoutGuide))
        return (window, scroll, content)
    }

    @Test(arguments: [320.0, 600.0])
    func aContentViewWithItsOwnSizeIsTheContentSize(width: Double) throws {
        let (window, scroll, content) = scene(width: width)
        LayoutConstraint.activate([
            content.widthAnchor.constraint(equalToConstant: 900),
            content.heightAnchor.constraint(equalToConstant: 1500),
        ])
        try window.prepareFrame()
        #expect(scroll.contentSize == Size(width: 900, height: 1500))
        #expect(content.frame == Rect(x: 0, y: 0, width: 900, height: 1500))
        #expect(window.unsatisfiableLayouts.isEmpty)
        // Scrolled, the layout stays in content coordinates.
        scroll.contentOffset = Point(x: 100, y: 300)
        try window.prepareFrame()
        #expect(content.frame.origin == .zero)
    }

    @Test(arguments: [320.0, 600.0])
    func aWidthTiedToTheFrameScrollsOnlyVertically(width: Double) throws {
        let (window, scroll, content) = scene(width: width)
        LayoutConstraint.activate([
            content.widthAnchor.constraint(equalTo: scroll.frameLayoutGuide.widthAnchor),
            content.heightAnchor.constraint(equalToConstant: 1500),
        ])
        try window.prepareFrame()
        #expect(scroll.contentSize == Size(width: width, height: 1500))
        // A resize follows: the content is as wide as the new window.
        window.resize(to: Size(width: width + 100, height: 480))
        try window.prepareFrame()
        #expect(scroll.contentSize == Size(width: width + 100, height: 1500))
        #expect(content.frame.width == width + 100)
    }

    @Test(arguments: [320.0, 600.0])
    func intrinsicSizesPushTheContentTaller(width: Double) throws {
        let (window, scroll, content) = scene(width: width)
        let image = ImageView()
        image.image = try Canvas(width: 200, height: 150)
        let button = Button(title: "Continue")
        for v in [image, button] as [View] {
            v.translatesAutoresizingMaskIntoConstraints = false
            content.addSubview(v)
        }
        LayoutConstraint.activate([
            content.widthAnchor.constraint(equalTo: scroll.frameLayoutGuide.widthAnchor),
            image.topAnchor.constraint(equalTo: content.topAnchor, constant: 20),
            image.centerXAnchor.constraint(equalTo: content.centerXAnchor),
            button.topAnchor.constraint(equalTo: image.bottomAnchor, constant: 8),
            button.centerXAnchor.constraint(equalTo: content.centerXAnchor),
            button.bottomAnchor.constraint(equalTo: content.bottomAnchor, constant: -20),
        ])
        try window.prepareFrame()
        // 20 + 150 (image) + 8 + 44 (button) + 20.
        #expect(scroll.contentSize == Size(width: width, height: 242))
        #expect(image.frame == Rect(x: (width - 200) / 2, y: 20, width: 200, height: 150))
        let bw = button.intrinsicContentSize.width
        #expect(button.frame == Rect(x: (width - bw) / 2, y: 178, width: bw, height: 44))
        #expect(!content.hasAmbiguousLayout && !image.hasAmbiguousLayout && !button.hasAmbiguousLayout)
    }

    static let paragraphs = [
        "Scroll views show content larger than the screen. The content size says how large.",
        "With constraints, the content decides its own size: pin it to the content guide and let the labels wrap.",
        "Narrow the window and every paragraph takes more lines, so the content grows taller and the scroll range longer.",
    ]

    @Test(arguments: [320.0, 600.0])
    func wrappingLabelsGrowTheContentAsTheWindowNarrows(width: Double) throws {
        let (window, scroll, content) = scene(width: width)
        var labels: [Label] = []
        var constraints = [content.widthAnchor.constraint(equalTo: scroll.frameLayoutGuide.widthAnchor)]
        for (i, text) in Self.paragraphs.enumerated() {
            let label = Label(text: text)
            label.name = "p\(i)"
            label.numberOfLines = 0
            label.translatesAutoresizingMaskIntoConstraints = false
            content.addSubview(label)
            constraints += [
                label.leadingAnchor.constraint(equalTo: content.leadingAnchor, constant: 16),
                label.trailingAnchor.constraint(equalTo: content.trailingAnchor, constant: -16),
                label.topAnchor.constraint(equalTo: labels.last?.bottomAnchor ?? content.topAnchor, constant: 16),
            ]
            labels.append(label)
        }
        constraints.append(labels.last!.bottomAnchor.constraint(equalTo: content.bottomAnchor, constant: -16))
        LayoutConstraint.activate(constraints)
        try window.prepareFrame()

        let font = try #require(Font.standard)
        func height(_ text: String, _ w: Double) -> Double {
            font.layout(text, maxWidth: w, maxLines: 0, scale: 1).size.height.rounded(.up)
        }
        let heights = Self.paragraphs.map { height($0, width - 32) }
        #expect(labels.map(\.frame.height) == heights)
        #expect(scroll.contentSize == Size(width: width, height: 16 * 4 + heights.reduce(0, +)))
        // Each label's wrapped lines fit its width.
        for label in labels { #expect(label.frame.width == width - 32) }
        #expect(window.unsatisfiableLayouts.isEmpty)

        // Narrower: more lines, a taller content; the solver re-solves from where it was.
        window.resize(to: Size(width: width * 0.6, height: 480))
        try window.prepareFrame()
        let narrower = Self.paragraphs.map { height($0, width * 0.6 - 32) }
        #expect(labels.map(\.frame.height) == narrower)
        #expect(scroll.contentSize.height == 16 * 4 + narrower.reduce(0, +))
        #expect(narrower.reduce(0, +) > heights.reduce(0, +))
    }
}
