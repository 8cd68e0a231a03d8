import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews

extension Scene {
    /// A contact sheet: 100,000 photo thumbnails in a `CollectionView` named "main", rolls of
    /// 36 under headers, as many columns as the width holds; only the thumbnails in view have
    /// cells. Tapping one opens it in a pager ("viewer") where a swipe turns to the next photo;
    /// Close (or Escape) goes back to the grid.
    public static let grid = Scene(
        name: "grid",
        summary: "100,000 photo thumbnails in a grid with cell reuse; a tap opens the photo in a pager",
        preferredSize: Size(width: 390, height: 844)
    ) { window in
        window.clearColor = .white
        let grid = PhotoGrid.make(in: window, count: PhotoGrid.count)
        grid.onSelectItem = { [unowned window, unowned grid] path in
            let viewer = PhotoViewer.open(in: window, at: grid.flatIndex(ofItem: path), count: PhotoGrid.count)
            // Closed from the keyboard, the focus goes back to the photo the viewer showed (in
            // view), where Tab and the arrows go on from, and a screen reader says it.
            viewer.onKeyboardClose = { [unowned grid] photo in
                let shown = grid.item(atFlatIndex: photo)
                grid.selectItem(at: shown, scrollsIntoView: true)
                grid.layoutIfNeeded()
                grid.cellForItem(at: shown)?.becomeFocused()
            }
        }
    }
}

/// The grid scene's photos: made up, each a sky, a hill and a sun in colours from its number.
public final class PhotoGrid: CollectionViewDataSource {
    public static let count = 100_000
    public static let rollLength = 36
    static let identifier = "thumbnail"
    public let itemCount: Int

    public init(count: Int = PhotoGrid.count) { itemCount = count }

    /// A collection named "main" filling `window`, showing `count` photos (the bench compares
    /// counts).
    @MainActor
    public static func make(in window: Window, count: Int) -> CollectionView {
        let layout = FlowLayout()
        layout.itemSize = Size(width: 92, height: 92)
        layout.minimumInteritemSpacing = 4
        layout.minimumLineSpacing = 4
        layout.sectionInset = EdgeInsets(top: 4, left: 4, bottom: 8, right: 4)
        layout.headerHeight = 32
        return Scene.addMainCollection(
            to: window, layout: layout, source: PhotoGrid(count: count), identifier: identifier
        ) { ThumbnailCell() }
    }

    public func numberOfSections(in collectionView: CollectionView) -> Int {
        (itemCount + Self.rollLength - 1) / Self.rollLength
    }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        min(Self.rollLength, itemCount - section * Self.rollLength)
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
        let cell = collectionView.dequeueReusableCell(withIdentifier: Self.identifier) as! ThumbnailCell
        cell.photo.number = path.section * Self.rollLength + path.item
        cell.accessibilityLabel = "Photo \(cell.photo.number + 1)"
        return cell
    }

    public func collectionView(_ collectionView: CollectionView, titleForSection section: Int) -> String {
        "Roll \(section + 1)"
    }
}

extension CollectionView {
    /// The photo number of `path` in the grid scene's rolls.
    public func flatIndex(ofItem path: ItemPath) -> Int { path.section * PhotoGrid.rollLength + path.item }

    /// The path of photo number `n` (`flatIndex(ofItem:)`'s inverse).
    public func item(atFlatIndex n: Int) -> ItemPath {
        ItemPath(item: n % PhotoGrid.rollLength, section: n / PhotoGrid.rollLength)
    }
}

/// A grid cell: the photo, edge to edge.
final class ThumbnailCell: CollectionCell {
    let photo = PhotoView()

    init() {
        super.init(reuseIdentifier: PhotoGrid.identifier)
        photo.fillsSuperview = true
        contentView.addSubview(photo)
        highlightColor = nil
    }

    override func prepareForReuse() {
        super.prepareForReuse()
    }
}

/// A made-up photo: sky, hill and sun, coloured by its number; drawn at any size.
public final class PhotoView: View {
    public var number = 0 { didSet { if number != oldValue { setNeedsDisplay() } } }

    public override var drawsContent: Bool { true }

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isOpaque = true
        accessibilityRole = .image
    }

    /// The photo's three colours.
    public static func colors(_ n: Int) -> (sky: Color, hill: Color, sun: Color) {
        let a = UInt8(truncatingIfNeeded: 60 + (n * 37) % 140)
        let b = UInt8(truncatingIfNeeded: 90 + (n * 53) % 130)
        let c = UInt8(truncatingIfNeeded: 120 + (n * 29) % 120)
        return (Color(rgb: a, b, c), Color(rgb: b / 2, c / 2 + 40, a / 3), Color(rgb: 250, 220 - a / 4, 90))
    }

    public override func draw(in canvas: Canvas) {
        let (sky, hill, sun) = Self.colors(number)
        let w = bounds.width
        let h = bounds.height
        canvas.clear(sky)
        let r = min(w, h) * 0.14
        canvas.fillRoundedRect(
            Rect(x: w * 0.68 - r, y: h * 0.3 - r, width: 2 * r, height: 2 * r), radius: r, color: sun)
        canvas.fillRoundedRect(
            Rect(x: -w * 0.2, y: h * 0.62, width: w * 1.4, height: h * 0.8), radius: h * 0.4, color: hill)
    }
}

/// The grid's photo opened full size: a horizontal pager over every photo (three page views,
/// reused as it turns), a caption, and Close. Named "viewer".
public final class PhotoViewer: ScrollView {
    public let count: Int
    private var pages: [PhotoView] = []
    private let caption = Label()
    public let closeButton = Button(title: "Close")
    /// Called with the photo shown when Escape closes the viewer (the grid gives that photo
    /// the focus).
    public var onKeyboardClose: ((Int) -> Void)?

    /// Opens the viewer over `window`'s grid at photo `index`.
    @MainActor
    @discardableResult
    public static func open(in window: Window, at index: Int, count: Int) -> PhotoViewer {
        let viewer = PhotoViewer(count: count)
        viewer.frame = Rect(origin: .zero, size: window.bounds.size)
        viewer.shownPhoto = min(max(index, 0), count - 1)
        window.addSubview(viewer)
        viewer.layoutIfNeeded()
        // The keys are the viewer's now (Escape, the arrows), not the grid cell's beneath.
        viewer.becomeFocused()
        return viewer
    }

    init(count: Int) {
        self.count = count
        super.init()
        name = "viewer"
        accessibilityLabel = "Photo viewer"
        fillsSuperview = true
        backgroundColor = .black
        isPagingEnabled = true
        isDirectionalLockEnabled = true
        showsHorizontalScrollIndicator = false
        showsVerticalScrollIndicator = false
        allowsMouseDrag = true
        for _ in 0..<3 {
            let page = PhotoView()
            pages.append(page)
            addSubview(page)
        }
        caption.textColor = .white
        caption.textAlignment = .center
        addSubview(caption)
        closeButton.name = "close"
        closeButton.onTap = { [unowned self] in self.close() }
        addSubview(closeButton)
        canBecomeFocused = true
    }

    /// The photo the pages were last placed for: kept through a resize (a new width moves
    /// every page).
    var shownPhoto = 0
    private var laidOutWidth: Double?

    /// Back to the grid.
    public func close() {
        resignFocus()
        removeFromSuperview()
    }

    /// The photo nearest the offset.
    public var currentPhoto: Int {
        guard bounds.width > 0 else { return 0 }
        return min(max(Int(clamping: contentOffset.x / bounds.width, rounding: .toNearestOrAwayFromZero), 0), count - 1)
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        contentSize = Size(width: bounds.width * Double(count), height: bounds.height)
        if laidOutWidth != bounds.width {
            laidOutWidth = bounds.width
            setContentOffset(Point(x: Double(shownPhoto) * bounds.width, y: 0), animated: false)
        }
        placePages()
    }

    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        placePages()
    }

    /// The current photo and its neighbours on their pages; the caption and Close stay put.
    func placePages() {
        let w = bounds.width
        let h = bounds.height
        guard w > 0, laidOutWidth == w else { return }
        let current = currentPhoto
        shownPhoto = current
        for (k, page) in pages.enumerated() {
            let n = current - 1 + k
            page.isHidden = n < 0 || n >= count
            page.number = max(0, n)
            page.frame = Rect(x: Double(n) * w, y: h * 0.15, width: w, height: h * 0.7)
        }
        caption.text = "Photo \(current + 1) of \(count)"
        caption.frame = Rect(x: bounds.minX, y: h * 0.87, width: w, height: 24)
        let size = closeButton.intrinsicContentSize
        closeButton.frame = Rect(x: bounds.minX + 12, y: 12, width: size.width, height: size.height)
    }

    /// Escape closes, as Close does; Left and Right turn a page.
    public override func handleInput(_ event: InputEvent) -> Bool {
        guard case .key(let key, let pressed, _) = event.kind else { return super.handleInput(event) }
        switch key {
        case .escape:
            if pressed {
                let photo = currentPhoto
                close()
                onKeyboardClose?(photo)
            }
            return true
        case .left, .right:
            if pressed {
                let next = min(max(currentPhoto + (key == .left ? -1 : 1), 0), count - 1)
                setContentOffset(Point(x: Double(next) * bounds.width, y: 0), animated: true)
            }
            return true
        default:
            return super.handleInput(event)
        }
    }
}
