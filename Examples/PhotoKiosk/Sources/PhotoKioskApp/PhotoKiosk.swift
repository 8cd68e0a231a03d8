import Scrollway

/// A photo kiosk: a contact sheet of every photo first; a tap on one opens it in the pager,
/// one photo per page side by side in a paging scroll view, each page a scroll view of its own
/// that zooms its photo from 1× to 4× (pinch, double tap); "All photos" goes back to the sheet.
/// Fullscreen, no cursor, the screen kept awake, and a mouse drags like a finger (a kiosk's
/// mouse, if it has one, is just another finger). Staff leave with a three-finger tap
/// (`ThreeFingerTap`).
@MainActor
public final class PhotoKiosk {
    public let window: Window
    public let pager: PhotoPager
    /// The contact sheet (a `CollectionView` of thumbnails), shown over the pager.
    public var sheet: CollectionView { contactSheet.view }
    /// Over the pager: back to the contact sheet.
    public let allPhotosButton = Button(title: "All photos")
    private let contactSheet: ContactSheet
    /// What the exit gesture does: `open` makes it stop the app's loop.
    public var onExit: (() -> Void)?

    /// Said on screen, over black, when none of the folder's photos could be read (known only
    /// once the decoder has tried them all): the kiosk stays up and says so, where a kiosk that
    /// exited would be started again by its service, and try again, every few seconds.
    public let messageLabel = Label()
    /// The photos the kiosk shows, in the contact sheet's order: those whose files did not
    /// decode are gone from it.
    public var photos: [Photo] { contactSheet.photos }
    /// Where a photo file whose thumbnail does not decode is reported, as it is taken off the
    /// contact sheet (and the pager), and then, when none is left, that none could be read: on
    /// standard error unless told otherwise, as the command reports what it skips.
    public var reportsSkipped: (String) -> Void {
        get { contactSheet.reportsSkipped }
        set { contactSheet.reportsSkipped = newValue }
    }

    /// The kiosk's window at `size` (the compositor's fullscreen size replaces it once shown),
    /// showing the contact sheet, every photo listed at once and each thumbnail made on
    /// `decoder`'s thread. The pager's photos are decoded by `decoder` too (PNG and JPEG files on
    /// a thread of its own by default).
    public init(photos: [Photo], size: Size = Size(width: 1024, height: 600), decoder: PhotoDecoder = PhotoDecoder()) {
        window = Window(size: size)
        window.clearColor = .black
        pager = PhotoPager(photos: photos, decoder: decoder)
        pager.fillsSuperview = true
        pager.holdsPhotos = false  // the sheet shows first
        window.addSubview(pager)
        allPhotosButton.name = "allPhotos"
        allPhotosButton.fillColor = Color(red: 0, green: 0, blue: 0, alpha: 0.55)
        let size = allPhotosButton.intrinsicContentSize
        allPhotosButton.frame = Rect(x: 16, y: 16, width: size.width, height: size.height)
        window.addSubview(allPhotosButton)
        contactSheet = ContactSheet(photos: photos, decoder: decoder)
        window.addSubview(contactSheet.view)
        messageLabel.name = "message"
        messageLabel.textColor = .white
        messageLabel.textAlignment = .center
        messageLabel.numberOfLines = 0
        messageLabel.fillsSuperview = true
        messageLabel.fillInsets = EdgeInsets(top: 32, left: 32, bottom: 32, right: 32)
        messageLabel.isHidden = true
        window.addSubview(messageLabel)
        let folder = photos.lazy.compactMap(\.folder).first
        allPhotosButton.onTap = { [unowned self] in self.showSheet() }
        sheet.onSelectItem = { [unowned self] path in self.showPhoto(path.item) }
        contactSheet.onThumbnail = { [unowned self] photo in self.pager.thumbnailArrived(for: photo) }
        contactSheet.onRemove = { [unowned self] index in
            self.pager.removePage(at: index)
            if self.photos.isEmpty { self.showNoPhotos(folder: folder) }
        }
        window.addGestureRecognizer(ThreeFingerTap { [weak self] in self?.onExit?() })
        window.layoutIfNeeded()
    }

    /// None of the photos could be read: said on screen and reported.
    private func showNoPhotos(folder: String?) {
        let said = PhotoFolder.noneCouldBeRead(folder ?? ".")
        messageLabel.text = said.prefix(1).uppercased() + said.dropFirst() + "."
        messageLabel.isHidden = false
        sheet.isHidden = true
        pager.isHidden = true
        allPhotosButton.isHidden = true
        reportsSkipped(said)
    }

    /// Whether the contact sheet shows (else the pager does).
    public var isShowingSheet: Bool { !sheet.isHidden }

    /// Opens photo `index` in the pager, the sheet put away.
    public func showPhoto(_ index: Int) {
        guard !pager.pages.isEmpty else { return }
        window.layoutIfNeeded()
        let page = min(max(index, 0), max(0, pager.pages.count - 1))
        pager.setContentOffset(Point(x: Double(page) * pager.bounds.width, y: 0), animated: false)
        pager.holdsPhotos = true
        sheet.isHidden = true
        allPhotosButton.isHidden = false
    }

    /// Back to the contact sheet, the photo that showed selected and in view.
    public func showSheet() {
        guard !photos.isEmpty else { return }
        sheet.isHidden = false
        allPhotosButton.isHidden = true
        pager.holdsPhotos = false
        sheet.selectItem(at: ItemPath(item: pager.currentPage), scrollsIntoView: true)
    }

    /// Shows the kiosk on the compositor at `socket` (nil: $WAYLAND_DISPLAY) the way a kiosk
    /// runs: fullscreen (kiosk-shell and cage make it so anyway), no pointer cursor, and an idle
    /// inhibitor so that the screen does not blank while people look at the photos. Run it
    /// with `run()`; the exit gesture makes `run()` return.
    public func open(socket: String? = nil) throws -> WaylandApp {
        let app = try WaylandApp(
            content: window, title: "Photo Kiosk", socket: socket, appID: "photo-kiosk", fullscreen: true)
        app.window.hidesCursor = true
        app.window.inhibitsIdle = true
        onExit = { [weak app] in app?.requestStop() }
        return app
    }
}

/// The photos side by side, one page each: a swipe or a flick turns exactly one page.
public final class PhotoPager: ScrollView {
    /// A page for each photo of the contact sheet, in its order.
    public private(set) var pages: [PhotoPage]
    private var laidOutSize: Size?
    /// Decodes the pages' photos off the main thread.
    public let decoder: PhotoDecoder
    private var decodes = DecodeRequests()
    /// Where a photo that does not decode is reported: on standard error unless told otherwise,
    /// as the command reports a file it skips.
    public var reportsFailure: (String) -> Void = Photo.warn

    init(photos: [Photo], decoder: PhotoDecoder) {
        pages = photos.map(PhotoPage.init)
        self.decoder = decoder
        super.init()
        isPagingEnabled = true
        isDirectionalLockEnabled = true
        showsHorizontalScrollIndicator = false
        showsVerticalScrollIndicator = false
        allowsMouseDrag = true
        mouseDragMomentum = true
        backgroundColor = .black
        for page in pages { addSubview(page) }
    }

    /// The page nearest the offset.
    public var currentPage: Int {
        guard bounds.width > 0, !pages.isEmpty else { return 0 }
        return min(max(Int((contentOffset.x / bounds.width).rounded()), 0), pages.count - 1)
    }

    /// Pages are the pager's size at any window size (the compositor decides the kiosk's size);
    /// a new size keeps the page that was showing.
    public override func layoutSubviews() {
        super.layoutSubviews()
        let size = bounds.size
        guard size != laidOutSize else { return }
        // The page showing at the old size: the bounds have the new width already, the offset
        // is still the old size's.
        let old = laidOutSize?.width ?? size.width
        let page = old > 0 ? min(max(Int((contentOffset.x / old).rounded()), 0), max(0, pages.count - 1)) : 0
        laidOutSize = size
        placePages(showing: page)
    }

    /// Every page at its place for the laid-out size, and `page` showing.
    private func placePages(showing page: Int) {
        guard let size = laidOutSize else { return }
        for (i, p) in pages.enumerated() {
            p.frame = Rect(x: Double(i) * size.width, y: 0, width: size.width, height: size.height)
        }
        contentSize = Size(width: size.width * Double(pages.count), height: size.height)
        setContentOffset(Point(x: Double(page) * size.width, y: 0), animated: false)
        loadPagesNearTheScreen()
    }

    /// Takes page `index` away (its photo's file did not decode for the contact sheet): the
    /// photo that showed still shows (the next one, if it was this one), and the page lets its
    /// photo and its decode go.
    func removePage(at index: Int) {
        guard pages.indices.contains(index) else { return }
        let showing = currentPage
        let page = pages.remove(at: index)
        page.isLoaded = false
        page.removeFromSuperview()
        guard laidOutSize != nil else { return }
        placePages(showing: min(showing > index ? showing - 1 : showing, max(0, pages.count - 1)))
    }

    /// A photo's thumbnail was made: its page shows it if it holds its photo and waits for it.
    func thumbnailArrived(for photo: Photo) {
        for page in pages where page.photo === photo { page.thumbnailArrived() }
    }

    /// A photo that has left the screen is shown whole when it comes back (as photo apps do),
    /// at the screen's resolution again. The pages near the screen hold their photos.
    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        for page in pages where page.zoomScale != 1 && !page.frame.intersects(bounds) {
            page.setZoomScale(1, animated: false)
            page.imageView.contentsScale = nil
        }
        loadPagesNearTheScreen()
    }

    /// Whether the pager's pages may hold their photos: not while the contact sheet covers
    /// it (`PhotoKiosk` says), when only thumbnails are needed.
    public var holdsPhotos = true {
        didSet { if holdsPhotos != oldValue { loadPagesNearTheScreen() } }
    }

    /// The pages in sight and one each side of them hold their photos, asked of the decoder
    /// before a swipe shows them; a page lets its photo go only more than two pages from those
    /// in sight, so a finger wobbling across a page's edge decodes nothing. None hold theirs
    /// while the pager is covered, or before it has its size (the size it is laid out at decides
    /// the pages).
    func loadPagesNearTheScreen() {
        guard holdsPhotos, let size = laidOutSize, size == bounds.size, bounds.width > 0, !pages.isEmpty else {
            if !holdsPhotos {
                for page in pages { page.isLoaded = false }
                decoder.schedule(.photo, keeping: [:], adding: [])
            }
            return
        }
        let last = pages.count - 1
        let first = Int(clamping: (bounds.minX / bounds.width).rounded(.down), in: 0...last)
        let end = Int(clamping: ((bounds.maxX - 1) / bounds.width).rounded(.down), in: 0...last)
        for (i, page) in pages.enumerated() {
            if i >= first - 1 && i <= end + 1 {
                page.isLoaded = true
            } else if i < first - 2 || i > end + 2 {
                page.isLoaded = false
            }
        }
        requestDecodes()
    }

    /// Asks the decoder for the photos of the pages that hold theirs and show a thumbnail, the
    /// page nearest the middle of the screen first, then the others by their distance from it;
    /// re-ranks those already asked for, and lets go of those of pages let go. Never waits.
    private func requestDecodes() {
        // After a refused thread the pages wait for the retry, not each move: a swipe asked the
        // system for a thread every frame.
        guard let window, decodes.retry == nil else { return }
        let channel = connect(to: window)
        let middle = bounds.midX / bounds.width - 0.5
        var priorities: [Int: Double] = [:]
        var jobs: [PhotoDecoder.Job] = []
        for (i, page) in pages.enumerated() where page.isLoaded && !page.showsFullPhoto && !page.failedToDecode {
            guard let path = page.photo.path else { continue }
            let priority = abs(Double(i) - middle)
            if let id = page.decodeRequest {
                priorities[id] = priority
                continue
            }
            decodes.nextID += 1
            let id = decodes.nextID
            page.decodeRequest = id
            priorities[id] = priority
            jobs.append(
                PhotoDecoder.Job(
                    kind: .photo, id: id, path: path, priority: priority, ticket: window.ticket(on: channel),
                    channel: channel))
        }
        decoder.schedule(.photo, keeping: priorities, adding: jobs)
    }

    /// The channel into `window`'s inbox, opened on first use; moving to another window drops
    /// what was on its way to the old one (the pages ask again).
    private func connect(to window: Window) -> InboxChannel<DecodedPhoto> {
        if let channel = decodes.channel, decodes.window === window { return channel }
        if let old = decodes.channel { decodes.window?.closeChannel(old) }
        for page in pages { page.decodeRequest = nil }
        let channel = window.openChannel(DecodedPhoto.self) { [weak self] decoded in self?.receive(decoded) }
        decodes.channel = channel
        decodes.window = window
        return channel
    }

    /// Decoded photos dropped on arrival: their page was let go, or asked again, meanwhile.
    public private(set) var droppedDecodeCount = 0

    /// A decode arrives (main thread, from the inbox): shown in the next frame if its page still
    /// wants it, else dropped, never shown on another page. Found by its request, not by its
    /// index: a page taken away before it moves those after it.
    private func receive(_ decoded: DecodedPhoto) {
        guard let page = pages.first(where: { $0.decodeRequest == decoded.id }) else {
            droppedDecodeCount += 1
            return
        }
        page.decodeRequest = nil
        switch decoded.outcome {
        case .decoded(let handoff):
            if let image = handoff.take() { page.show(fullPhoto: image) }
        case .failed(let message):
            page.showFailure()
            reportsFailure(message)
        case .notStarted:
            retryDecodes()  // the thumbnail stays meanwhile
        case .thumbnail:
            break
        }
    }

    /// No thread could start (a limit on processes, often met only for a moment): the pages
    /// that hold their photos ask again `decodeRetryDelay` later, at rest too, where a page at
    /// rest had kept its thumbnail until the pager next moved. One retry waits at a time.
    private func retryDecodes() {
        guard decodes.retry == nil, let window else { return }
        decodes.retry = window.schedule(at: window.now + Self.decodeRetryDelay) { [weak self] in
            guard let self else { return }
            decodes.retry = nil
            requestDecodes()
        }
    }

    /// How long the pages wait to ask for a thread again after one was refused.
    public static let decodeRetryDelay = 1.0
}

/// The pager's decode requests, kept on the main thread.
struct DecodeRequests {
    var nextID = 0
    var channel: InboxChannel<DecodedPhoto>?
    weak var window: Window?
    /// The retry after a refused thread, while one waits.
    var retry: TimerToken?
}

/// One photo, fitted to the page, zoomable from 1× to 4× by pinching or double tapping. The
/// page is its own delegate: it names the view that zooms.
public final class PhotoPage: ScrollView, ScrollViewDelegate {
    public let photo: Photo
    public let imageView: ImageView

    /// Whether the page holds its photo (`PhotoPager` sets it for the pages near the screen). A
    /// page that comes to hold a photo file's shows its thumbnail, scaled up to the page, until
    /// the pager's decoder brings the full photo (`showsFullPhoto`): the page is never empty
    /// meanwhile and the main thread never decodes. A page let go drops its pixels and its drawn
    /// picture too (`discardContents`), and a decode still on its way for it is dropped.
    public var isLoaded = false {
        didSet {
            guard isLoaded != oldValue else { return }
            decodeRequest = nil
            failedToDecode = false
            showsFullPhoto = isLoaded && photo.heldImage != nil
            imageView.image = isLoaded ? photo.heldImage ?? photo.thumbnail : nil
            if !isLoaded { imageView.discardContents() }
        }
    }

    /// The photo's thumbnail was made after the page came to hold it (opened from a cell whose
    /// thumbnail was not ready): it stands in until the full photo arrives.
    func thumbnailArrived() {
        guard isLoaded, !showsFullPhoto, !failedToDecode, imageView.image == nil else { return }
        imageView.image = photo.thumbnail
    }

    /// Whether the page shows its full photo (else its thumbnail, or nothing when let go or when
    /// the photo did not decode).
    public private(set) var showsFullPhoto = false
    /// Whether a decode of the photo is on its way for this page (see `PhotoPager`).
    public var isDecoding: Bool { decodeRequest != nil }
    /// The decode request the page waits for (`PhotoPager`).
    var decodeRequest: Int?
    /// The photo did not decode since the page came to hold it: not asked again until it is let
    /// go and comes back, as the photo was decoded again each time it came near.
    private(set) var failedToDecode = false

    /// The full photo, decoded, replaces the thumbnail (or nothing, if it came first), at the
    /// zoom's resolution if the page was zoomed meanwhile; its size is the photo's.
    func show(fullPhoto image: Canvas) {
        showsFullPhoto = true
        photo.noteSize(of: image)
        imageView.image = image
        if zoomScale > 1 { sharpenForZoom(zoomScale) }
    }

    /// A photo that does not decode shows nothing, as it always has.
    func showFailure() {
        failedToDecode = true
        imageView.image = nil
    }

    init(photo: Photo) {
        self.photo = photo
        imageView = ImageView()
        super.init()
        // A picture is read by its label: the only accessibility code the kiosk needs.
        imageView.accessibilityLabel = photo.spokenName
        imageView.contentMode = .aspectFit
        addSubview(imageView)
        minimumZoomScale = 1
        maximumZoomScale = 4
        doubleTapZooms = true
        // A zoomed photo pans to its edge, and the same drag then turns the page.
        handsOffDragsAtEdges = true
        allowsMouseDrag = true
        mouseDragMomentum = true
        showsHorizontalScrollIndicator = false
        showsVerticalScrollIndicator = false
        scrollsToTop = false
        delegate = self
    }

    public func viewForZooming(in scrollView: ScrollView) -> View? { imageView }

    /// Once a zoom ends, the photo is drawn again at the zoomed resolution (never finer than
    /// the photo's own pixels), so that a zoomed photo is sharp rather than a stretched image.
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        sharpenForZoom(scale)
    }

    /// Draws the photo at the resolution of zoom `scale`, no finer than its own pixels (the
    /// image's, before its size is known: what it shows is all there is to draw).
    private func sharpenForZoom(_ scale: Double) {
        let fitted = imageView.imageRect.width
        let pixels = photo.pixelWidth ?? imageView.image?.width ?? 0
        let finest = fitted > 0 ? Double(pixels) / fitted : 1
        let deviceScale = window?.scale ?? 1
        imageView.contentsScale = scale > 1 ? max(deviceScale, min(deviceScale * scale, finest)) : nil
    }

    /// A new page size (the window was resized) shows the photo whole at the new size.
    public override func didChangeBounds(from old: Rect) {
        super.didChangeBounds(from: old)
        guard old.size != bounds.size else { return }
        setZoomScale(1, animated: false)
        imageView.contentsScale = nil
        imageView.frame = Rect(origin: .zero, size: bounds.size)
        contentSize = bounds.size
    }
}
