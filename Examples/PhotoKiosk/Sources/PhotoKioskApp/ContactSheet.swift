import Scrollway

/// The kiosk's contact sheet: every photo as a thumbnail in a grid (`CollectionView` with a
/// `FlowLayout`), as many to a row as the screen holds; tapping one opens it in the pager.
/// Thumbnails (`Photo.thumbnail`) are drawn as their cells come into view, and cells are
/// reused, so a folder of hundreds of photos costs a screenful of cells.
///
/// The sheet shows every file of the folder from the first frame, each cell a quiet placeholder
/// until its thumbnail is made: the decoder's thread (`PhotoDecoder`) makes the thumbnails of
/// the cells in view first, re-ranked as the sheet scrolls, then the others by how near they are,
/// and a file that turns out not to decode is taken off the sheet when that is found (the cells
/// in view stay where they are, and the selection follows its photo).
///
/// A headless frame (`Offscreen.render`, the command's `--png`) waits for the thumbnails of the
/// cells it shows: their requests carry an `InboxTicket`. The others' do not, so that a frame
/// never waits for the whole folder; one that comes into view while the window waits for
/// background work is asked for again, with a ticket.
@MainActor
final class ContactSheet: CollectionViewDataSource, ScrollViewDelegate {
    static let identifier = "thumbnail"
    private(set) var photos: [Photo]
    let view: CollectionView
    let decoder: PhotoDecoder
    /// Where a file whose thumbnail does not decode is reported.
    var reportsSkipped: (String) -> Void = Photo.warn
    /// A photo was taken off the sheet (its index before).
    var onRemove: ((Int) -> Void)?
    /// A photo's thumbnail arrived (a page opened before it may show it now).
    var onThumbnail: ((Photo) -> Void)?
    private var requests = ThumbnailRequests()

    init(photos: [Photo], decoder: PhotoDecoder) {
        self.photos = photos
        self.decoder = decoder
        let layout = FlowLayout()
        layout.itemSize = Size(width: 180, height: 120)
        layout.minimumInteritemSpacing = 8
        layout.minimumLineSpacing = 8
        layout.sectionInset = EdgeInsets(top: 16, left: 16, bottom: 16, right: 16)
        view = CollectionView(layout: layout)
        view.name = "sheet"
        view.backgroundColor = .black
        view.fillsSuperview = true
        view.allowsMouseDrag = true
        view.register(Self.identifier) { Thumbnail() }
        view.dataSource = self
        view.delegate = self
        view.reloadData()
    }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        photos.count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt path: ItemPath) -> CollectionCell {
        let cell = collectionView.dequeueReusableCell(withIdentifier: Self.identifier) as! Thumbnail
        let photo = photos[path.item]
        cell.imageView.image = photo.thumbnail
        cell.accessibilityLabel = photo.spokenName
        // A cell placed before its photo's thumbnail was asked for (the first layout), or in
        // view of a window that waits for it before it was asked for with a ticket, has it asked
        // for now.
        if photo.thumbnail == nil, let window = collectionView.window {
            let request = requests.byPhoto[ObjectIdentifier(photo)]
            if request == nil
                || (!request!.awaited && window.waitsForBackgroundWork
                    && collectionView.frameForItem(at: path).intersects(collectionView.bounds))
            {
                requestThumbnails()
            }
        }
        return cell
    }

    /// A scroll changes which cells are in view: their thumbnails go first. Nothing is asked
    /// while the same items are in view.
    func scrollViewDidScroll(_ scrollView: ScrollView) {
        guard itemsInView != requests.rankedInView else { return }
        requestThumbnails()
    }

    /// The items in view, by index (empty before the sheet has a size).
    private var itemsInView: ClosedRange<Int>? {
        guard !photos.isEmpty, view.bounds.width > 0, view.bounds.height > 0 else { return nil }
        let items = view.layout.items(in: view.bounds).map(\.item).filter { $0 < photos.count }
        guard let first = items.min(), let last = items.max() else { return nil }
        return first...last
    }

    /// Asks the decoder for every thumbnail not made yet: the cells in view first, in reading
    /// order, then the others by how many items they are from those (below and above alike).
    /// Re-ranks those already asked for; never waits. Does nothing while a refused thread's
    /// retry waits.
    func requestThumbnails() {
        guard let window = view.window, requests.retry == nil else { return }
        let inView = itemsInView
        requests.rankedInView = inView
        let waits = window.waitsForBackgroundWork
        let channel = connect(to: window)
        var priorities: [Int: Double] = [:]
        var jobs: [PhotoDecoder.Job] = []
        let count = Double(max(1, photos.count))
        for (i, photo) in photos.enumerated() where photo.thumbnail == nil {
            guard let path = photo.path else { continue }
            let priority: Double
            let shown: Bool
            if let inView {
                let distance = i < inView.lowerBound ? inView.lowerBound - i : max(0, i - inView.upperBound)
                shown = distance == 0
                priority = shown ? Double(i - inView.lowerBound) / count : Double(distance)
            } else {
                shown = false
                priority = Double(i)
            }
            let key = ObjectIdentifier(photo)
            // A request no frame waits for is asked again with a ticket once its cell shows in
            // a window that waits for background work (and the first is let go).
            if let request = requests.byPhoto[key], request.awaited || !shown || !waits {
                priorities[request.id] = priority
                continue
            }
            requests.nextID += 1
            let id = requests.nextID
            if let old = requests.byPhoto[key] { requests.photoByID[old.id] = nil }
            requests.byPhoto[key] = ThumbnailRequests.Request(id: id, awaited: shown)
            requests.photoByID[id] = photo
            priorities[id] = priority
            jobs.append(
                PhotoDecoder.Job(
                    kind: .thumbnail, id: id, path: path, priority: priority,
                    ticket: shown ? window.ticket(on: channel) : nil, channel: channel))
        }
        decoder.schedule(.thumbnail, keeping: priorities, adding: jobs)
    }

    /// The channel into `window`'s inbox, opened on first use; moving to another window drops
    /// what was on its way to the old one (the thumbnails are asked for again).
    private func connect(to window: Window) -> InboxChannel<DecodedPhoto> {
        if let channel = requests.channel, requests.window === window { return channel }
        if let old = requests.channel { requests.window?.closeChannel(old) }
        requests.byPhoto = [:]
        requests.photoByID = [:]
        let channel = window.openChannel(DecodedPhoto.self) { [weak self] decoded in self?.receive(decoded) }
        requests.channel = channel
        requests.window = window
        return channel
    }

    /// A thumbnail arrives (main thread, from the inbox): its cell shows it, if it has one. A
    /// file that did not decode is taken off the sheet and reported.
    private func receive(_ decoded: DecodedPhoto) {
        guard let photo = requests.photoByID.removeValue(forKey: decoded.id) else { return }
        requests.byPhoto[ObjectIdentifier(photo)] = nil
        guard let index = photos.firstIndex(where: { $0 === photo }) else { return }
        switch decoded.outcome {
        case .thumbnail(let handoff, let width, let height):
            guard let image = handoff.take() else { return }
            photo.setThumbnail(image, width: width, height: height)
            (view.cellForItem(at: ItemPath(item: index)) as? Thumbnail)?.imageView.image = image
            onThumbnail?(photo)
        case .failed(let message):
            photos.remove(at: index)
            view.deleteItems(at: [ItemPath(item: index)])
            reportsSkipped(message)
            onRemove?(index)
            // The cells that came into view in its place have theirs asked for (in this
            // frame, if it waits for them).
            requestThumbnails()
        case .notStarted:
            retryRequests()
        case .decoded:
            break
        }
    }

    /// No thread could start: the thumbnails are asked for again `PhotoPager.decodeRetryDelay`
    /// later, the cells showing their placeholders meanwhile. One retry waits at a time.
    private func retryRequests() {
        guard requests.retry == nil, let window = view.window else { return }
        requests.retry = window.schedule(at: window.now + PhotoPager.decodeRetryDelay) { [weak self] in
            guard let self else { return }
            requests.retry = nil
            requestThumbnails()
        }
    }
}

/// The contact sheet's thumbnail requests, kept on the main thread.
struct ThumbnailRequests {
    struct Request {
        let id: Int
        /// Whether a frame that waits for background work waits for it (it has a ticket).
        let awaited: Bool
    }

    var nextID = 0
    var byPhoto: [ObjectIdentifier: Request] = [:]
    var photoByID: [Int: Photo] = [:]
    var channel: InboxChannel<DecodedPhoto>?
    weak var window: Window?
    /// The retry after a refused thread, while one waits.
    var retry: TimerToken?
    /// The items in view when the requests were last ranked.
    var rankedInView: ClosedRange<Int>?
}

/// A photo, fitted to its cell on black; the cell's own quiet grey until its thumbnail is made.
final class Thumbnail: CollectionCell {
    let imageView = ImageView()

    init() {
        super.init(reuseIdentifier: ContactSheet.identifier)
        normalColor = Self.placeholderColor
        selectedColor = Color(rgb: 70, 110, 170)
        imageView.contentMode = .aspectFit
        imageView.fillsSuperview = true
        imageView.accessibilityRole = .image
        contentView.fillInsets = EdgeInsets(top: 4, left: 4, bottom: 4, right: 4)
        contentView.addSubview(imageView)
    }

    /// What a cell shows where its thumbnail is not (yet).
    static let placeholderColor = Color(rgb: 24, 24, 26)
}
