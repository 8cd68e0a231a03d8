import ScrollwayGeometry
import ScrollwayScrolling
import ScrollwayViews

/// A demo scene: a documented, tested example that the CLI can show, play and screenshot.
/// In every scene the outer scrolling view is named "main" (`--set` and traces address it).
public struct Scene: Sendable {
    public let name: String
    /// One line for `scrollway scenes`.
    public let summary: String
    /// The scene's natural window size.
    public let preferredSize: Size
    private let make: @MainActor @Sendable (Window) -> Void

    public init(
        name: String, summary: String, preferredSize: Size, make: @escaping @MainActor @Sendable (Window) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.preferredSize = preferredSize
        self.make = make
    }

    /// A new window of `size` (the scene's preferred size by default) holding the scene.
    @MainActor
    public func makeWindow(size: Size? = nil, scale: Double = 1) -> Window {
        let window = Window(size: size ?? preferredSize, scale: scale)
        make(window)
        return window
    }

    /// The outer scroll view every scene has: named "main", filling the window, white, with
    /// `contentSize` set (the window background is white too).
    @MainActor
    static func addMainScrollView(to window: Window, contentSize: Size) -> SceneScrollView {
        let main = add(SceneScrollView(frame: Rect(origin: .zero, size: window.bounds.size)), to: window)
        main.contentSize = contentSize
        return main
    }

    /// The list a scene shows: named "main", filling the window, white, with cells of
    /// `identifier` plain `ListCell`s.
    @MainActor
    static func addMainList(to window: Window, identifier: String) -> ListView {
        let list = add(ListView(frame: Rect(origin: .zero, size: window.bounds.size)), to: window)
        list.register(identifier) { ListCell(reuseIdentifier: identifier) }
        return list
    }

    /// `main` as a scene's outer view: named "main", filling the window, white on white.
    @MainActor
    private static func add<V: View>(_ main: V, to window: Window) -> V {
        window.clearColor = .white
        main.name = "main"
        main.fillsSuperview = true
        main.backgroundColor = .white
        window.addSubview(main)
        return main
    }

    /// The collection view a scene shows: named "main", filling the window, white, showing
    /// `source`'s items in cells `make` makes for `identifier`; the window keeps the source
    /// (the collection holds it weakly).
    @MainActor
    static func addMainCollection(
        to window: Window, layout: FlowLayout, source: CollectionViewDataSource, identifier: String,
        make: @escaping () -> CollectionCell
    ) -> CollectionView {
        let collection = CollectionView(frame: Rect(origin: .zero, size: window.bounds.size), layout: layout)
        collection.name = "main"
        collection.fillsSuperview = true
        collection.backgroundColor = .white
        window.retainedObjects.append(source)
        collection.register(identifier, make)
        collection.dataSource = source
        window.addSubview(collection)
        collection.reloadData()
        return collection
    }

    /// Every scene, in the order `scrollway scenes` lists them.
    public static let all: [Scene] = [
        .bounds, .list, .refresh, .keyboard, .zoom, .paging, .nested, .form, .grid, .feed, .files,
    ]

    /// The scene called `name`, or nil.
    public static func named(_ name: String) -> Scene? { all.first { $0.name == name } }
}

/// A scene's outer scroll view. Its content is laid out by `relayout`, first when the scene is
/// made and again whenever the view's size changes (the window was resized), so that pages
/// stay a page wide and rows stay the window's width at any size, or the window's scale does
/// (text measured by hand is measured in device pixels: the nested scene's notes, sized at 1,
/// cut their last lines at 1.5). `relayout` gets the size laid out before (the same size the
/// first time), to keep the current page, say.
final class SceneScrollView: ScrollView {
    var relayout: ((SceneScrollView, Size) -> Void)? {
        didSet {
            laidOutSize = nil
            setNeedsLayout()
        }
    }
    private var laidOutSize: Size?
    private var laidOutScale: Double?

    override func layoutSubviews() {
        super.layoutSubviews()
        let size = bounds.size
        guard size != laidOutSize || deviceScale != laidOutScale, let relayout else { return }
        let old = laidOutSize ?? size
        laidOutSize = size
        laidOutScale = deviceScale
        relayout(self, old)
    }

    override func windowScaleDidChange() {
        super.windowScaleDidChange()
        setNeedsLayout()
    }
}
