import Dispatch
import Foundation
import PhotoKioskApp
import Scrollway
import Synchronization
import Testing

/// Eight photos (the samples twice over, photo-1.png to photo-8.png: page i shows
/// photo-(i + 1)), loaded once for this test process, their files kept until it exits (the
/// kiosk's own decoder reads them). Their thumbnails are made at once: these tests are about
/// the pages, and a kiosk asks its decoder for no thumbnail a photo has.
@MainActor let eightPhotos: [Photo] = {
    let dir = eightPhotosFolder(pid: getpid())
    atexit { try? FileManager.default.removeItem(atPath: eightPhotosFolder(pid: getpid())) }
    guard let samples = try? SamplePhotos.write(to: dir) else { return [] }
    for i in 0..<8 {
        try? FileManager.default.copyItem(atPath: samples[i % samples.count], toPath: dir + "/photo-\(i + 1).png")
    }
    for sample in samples { try? FileManager.default.removeItem(atPath: sample) }
    let photos = (try? PhotoFolder.load(dir)) ?? []
    for photo in photos { try? photo.loadThumbnail() }
    return photos
}()

func eightPhotosFolder(pid: Int32) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("photokiosk-eight-\(pid)").path
}

/// How many pixel buffers a test decoder made that something still holds.
final class LiveCount: Sendable {
    private let count = Atomic(0)
    var value: Int { count.load(ordering: .acquiring) }
    func add(_ n: Int) { count.add(n, ordering: .acquiringAndReleasing) }
}

/// A decoded photo's pixels as the test decoder makes them: counted until the canvas wrapping
/// them goes.
final class CountedPixels {
    let bytes: UnsafeMutableRawPointer
    let live: LiveCount

    init(byteCount: Int, live: LiveCount) {
        bytes = calloc(byteCount, 1)!
        self.live = live
        live.add(1)
    }

    deinit {
        free(bytes)
        live.add(-1)
    }
}

/// The kiosk's decoder with a stand-in for the PNG decoder: it notes each file it is asked for
/// and the thread it ran on, may wait for the test to let it finish (`gated`), and
/// "decodes" every photo as the same size in one plain colour that no sample has, so the screen
/// tells the full photo from its thumbnail. Files named in `failing` do not decode. Thumbnails
/// are made by `thumbnails` (the kiosk's own way, from the files, without it).
final class TestDecoder: Sendable {
    static let photoColor = Color(rgb: 0, 200, 0)
    let gated: Bool
    let failing: Set<String>
    let thumbnails: TestThumbnails?
    let live = LiveCount()
    private let calls = Mutex<[(file: String, thread: pthread_t)]>([])
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    init(gated: Bool = false, failing: Set<String> = [], thumbnails: TestThumbnails? = nil) {
        self.gated = gated
        self.failing = failing
        self.thumbnails = thumbnails
    }

    /// A decoder that decodes with `decode(_:)` and makes thumbnails with `thumbnails`, on
    /// threads `startThread` starts.
    func decoder(startThread: PhotoDecoder.ThreadStarter? = nil) -> PhotoDecoder {
        PhotoDecoder(
            decode: { [self] in try decode($0) },
            thumbnail: { [thumbnails] in try thumbnails?.make($0) ?? Photo.makeThumbnail($0) },
            startThread: startThread)
    }

    func decode(_ path: String) throws -> Canvas {
        let file = (path as NSString).lastPathComponent
        calls.withLock { $0.append((file, pthread_self())) }
        entered.signal()
        // Bounded, so that a decode wrongly run on the main thread fails the test, not hangs it.
        if gated { _ = gate.wait(timeout: .now() + 10) }
        if failing.contains(file) { throw TestFailure("\(file) is broken") }
        let (w, h) = (Int(SamplePhotos.size.width), Int(SamplePhotos.size.height))
        let pixels = CountedPixels(byteCount: w * h * 4, live: live)
        let canvas = try Canvas(wrapping: pixels.bytes, width: w, height: h, stride: w * 4, owner: pixels)
        canvas.fill(Rect(origin: .zero, size: SamplePhotos.size), color: Self.photoColor)
        return canvas
    }

    /// Lets `count` gated decodes finish.
    func release(_ count: Int = 1) {
        for _ in 0..<count { gate.signal() }
    }

    /// Waits until one more decode has started.
    func waitForADecodeToStart() throws {
        guard entered.wait(timeout: .now() + 10) == .success else { throw TestFailure("no decode started") }
    }

    /// The files asked for, in order.
    var files: [String] { calls.withLock { $0.map(\.file) } }
    /// Whether any decode ran on `thread`. The tests ask of the thread that runs them, the one
    /// the window and its views live on (the main actor's, which under the test runner need
    /// not be the process's first thread: `Thread.isMainThread` said no on it).
    func decoded(onThread thread: pthread_t) -> Bool {
        calls.withLock { $0.contains { pthread_equal($0.thread, thread) != 0 } }
    }
}

/// A stand-in for the kiosk's thumbnail maker: it notes each file it is asked for and the
/// thread it ran on, may wait for the test to let it finish (`gated`), and makes every
/// thumbnail in one plain colour that no sample has, for a photo of `pixelSize`. Files named in
/// `failing` do not decode. The files need not exist: it reads none.
final class TestThumbnails: Sendable {
    static let color = Color(rgb: 40, 90, 220)
    static let pixelSize = (width: 4000, height: 3000)
    let gated: Bool
    let failing: Set<String>
    private let calls = Mutex<[(file: String, thread: pthread_t)]>([])
    private let made = Atomic(0)
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    init(gated: Bool = false, failing: Set<String> = []) {
        self.gated = gated
        self.failing = failing
    }

    func make(_ path: String) throws -> PhotoThumbnail {
        let file = (path as NSString).lastPathComponent
        calls.withLock { $0.append((file, pthread_self())) }
        entered.signal()
        // Bounded, so that a thumbnail wrongly made on the main thread fails the test, not hangs it.
        if gated { _ = gate.wait(timeout: .now() + 10) }
        defer { made.add(1, ordering: .acquiringAndReleasing) }
        if failing.contains(file) { throw RasterError.imageFormat("\(file) is broken") }
        let image = try Canvas(size: Photo.thumbnailSize)
        image.fill(Rect(origin: .zero, size: Photo.thumbnailSize), color: Self.color)
        return PhotoThumbnail(image: image, pixelWidth: Self.pixelSize.width, pixelHeight: Self.pixelSize.height)
    }

    /// Lets `count` gated thumbnails finish.
    func release(_ count: Int = 1) {
        for _ in 0..<count { gate.signal() }
    }

    /// Waits until one more thumbnail has started.
    func waitForOneToStart() throws {
        guard entered.wait(timeout: .now() + 10) == .success else { throw TestFailure("no thumbnail started") }
    }

    /// The files asked for, in order.
    var files: [String] { calls.withLock { $0.map(\.file) } }
    /// How many have finished (made, or thrown).
    var finished: Int { made.load(ordering: .acquiring) }
    /// Whether any was made on `thread`.
    func made(onThread thread: pthread_t) -> Bool {
        calls.withLock { $0.contains { pthread_equal($0.thread, thread) != 0 } }
    }
}

/// The pager's photos are decoded off the main thread: a page shows its thumbnail until its
/// photo is decoded, the page shown first, and a photo decoded for a page let go meanwhile is
/// neither shown nor kept. Offscreen: frames are prepared and composited by hand, and never wait
/// for a decode (`Window.waitsForBackgroundWork` is false), as on a compositor.
@MainActor
@Suite struct PhotoDecodingTests {
    let middle = (x: Int(screen.width) / 2, y: Int(screen.height) / 2)

    func kiosk(_ decoder: PhotoDecoder) -> PhotoKiosk {
        PhotoKiosk(photos: eightPhotos, size: screen, decoder: decoder)
    }

    /// A frame as a compositor's loop makes it: whatever has arrived, nothing waited for.
    func frame(_ kiosk: PhotoKiosk) throws -> Canvas {
        let canvas = try Canvas(size: kiosk.window.bounds.size, scale: kiosk.window.scale)
        _ = try kiosk.window.prepareFrame()
        kiosk.window.composite(into: canvas)
        return canvas
    }

    /// While its photo is being decoded the page shows its thumbnail scaled up to the page (the
    /// sun where the photo's is), in every frame, never an empty page; the frame after the decode
    /// arrives shows the photo.
    @Test func aPageShowsItsThumbnailUntilItsPhotoIsDecodedThenThePhoto() throws {
        #expect(eightPhotos.count == 8)
        let test = TestDecoder(gated: true)
        let kiosk = kiosk(test.decoder())
        let windowThread = pthread_self()
        kiosk.showPhoto(0)
        let page = kiosk.pager.pages[0]
        #expect(try frame(kiosk).shows(SamplePhotos.sunColors[0], x: middle.x, y: middle.y))
        try test.waitForADecodeToStart()
        #expect(page.isDecoding && !page.showsFullPhoto)
        #expect(page.imageView.image === eightPhotos[0].thumbnail)
        #expect(try frame(kiosk).shows(SamplePhotos.sunColors[0], x: middle.x, y: middle.y))
        // Pages 0 and 1 (its neighbour) let finish; their photos arrive through the inbox.
        test.release(2)
        kiosk.window.finishBackgroundWork()
        #expect(page.showsFullPhoto && !page.isDecoding)
        #expect(page.imageView.image?.width == Int(SamplePhotos.size.width))
        #expect(try frame(kiosk).shows(TestDecoder.photoColor, x: middle.x, y: middle.y))
        #expect(kiosk.pager.pages[1].showsFullPhoto)
        #expect(!test.decoded(onThread: windowThread))
    }

    /// A frame that waits for background work (headless rendering, `Offscreen.render`) shows the
    /// decoded photo, not the thumbnail: what it shows never depends on the decoder's speed.
    @Test func aHeadlessRenderShowsTheDecodedPhoto() throws {
        let test = TestDecoder()
        let kiosk = kiosk(test.decoder())
        kiosk.showPhoto(3)
        #expect(try Offscreen.render(kiosk.window).shows(TestDecoder.photoColor, x: middle.x, y: middle.y))
    }

    /// A photo still being decoded when its page is let go (the contact sheet opened) is
    /// dropped on the decoder's thread, and the neighbour's decode queued behind it never runs;
    /// one decoded but not yet taken when its page is let go is dropped when it arrives. Neither
    /// shows, and no one keeps its pixels.
    @Test func aDecodeForAPageLetGoIsNeitherShownNorKept() throws {
        let test = TestDecoder(gated: true)
        let kiosk = kiosk(test.decoder())
        let page = kiosk.pager.pages[0]
        kiosk.showPhoto(0)
        try test.waitForADecodeToStart()
        kiosk.showSheet()
        test.release()
        kiosk.window.finishBackgroundWork()
        #expect(test.files == ["photo-1.png"], "the neighbour's queued decode ran")
        #expect(!page.isLoaded && page.imageView.image == nil && !page.isDecoding)
        #expect(kiosk.pager.decoder.abandonedCount == 1)
        #expect(test.live.value == 0, "a dropped photo's pixels are held")
        #expect(kiosk.window.inbox.outstandingWork == 0)

        // Decoded, on its way through the inbox, when the page is let go: the decoder has gone
        // on to the neighbour's photo, so the one in the inbox is the only reference to it.
        kiosk.showPhoto(0)
        try test.waitForADecodeToStart()
        test.release()
        try test.waitForADecodeToStart()
        #expect(kiosk.window.inbox.pendingMessages == 1)
        kiosk.showSheet()
        kiosk.window.drainInbox()
        #expect(kiosk.pager.droppedDecodeCount == 1)
        #expect(!page.isLoaded && page.imageView.image == nil)
        #expect(!kiosk.pager.pages.contains { $0.imageView.image?.width == Int(SamplePhotos.size.width) })
        #expect(test.live.value == 0, "a dropped photo's pixels are held")
        // The neighbour's decode, started meanwhile, is let go as well.
        test.release()
        kiosk.window.finishBackgroundWork()
        #expect(kiosk.pager.pages.allSatisfy { $0.imageView.image == nil })
        #expect(test.live.value == 0, "a dropped photo's pixels are held")
        #expect(kiosk.window.inbox.outstandingWork == 0 && kiosk.window.inbox.pendingMessages == 0)
    }

    /// A photo decoded for a page that went far away (swiped past) never shows on the page
    /// that is near the screen now, which waits for its own photo.
    @Test func aDecodeNeverShowsOnAnotherPage() throws {
        let test = TestDecoder(gated: true)
        let kiosk = kiosk(test.decoder())
        kiosk.showPhoto(0)
        try test.waitForADecodeToStart()
        kiosk.showPhoto(6)
        test.release(8)
        kiosk.window.finishBackgroundWork()
        #expect(test.files.first == "photo-1.png")
        #expect(!test.files.contains("photo-2.png"), "the far page's queued neighbour was decoded")
        for (i, page) in kiosk.pager.pages.enumerated() {
            #expect(page.showsFullPhoto == (5...7).contains(i), "page \(i)")
            #expect(page.isLoaded || page.imageView.image == nil, "page \(i)")
        }
        #expect(test.live.value == 3)
    }

    /// The page shown is decoded first, then its neighbours; a turn re-ranks what is still
    /// queued, so the page that comes into sight is next, however early its neighbours were
    /// asked for.
    @Test func thePageShownIsDecodedBeforeItsNeighbours() throws {
        let test = TestDecoder()
        let kiosk = kiosk(test.decoder())
        kiosk.showPhoto(5)
        kiosk.window.finishBackgroundWork()
        #expect(test.files.first == "photo-6.png")
        #expect(Set(test.files) == ["photo-5.png", "photo-6.png", "photo-7.png"])
        // Back two pages: 3 comes into sight, 2 is its new neighbour (4 is decoded already).
        kiosk.showPhoto(3)
        kiosk.window.finishBackgroundWork()
        #expect(test.files.dropFirst(3) == ["photo-4.png", "photo-3.png"])

        let gated = TestDecoder(gated: true)
        let other = self.kiosk(gated.decoder())
        other.showPhoto(1)  // 1 first, then 0 and 2
        try gated.waitForADecodeToStart()
        other.showPhoto(2)  // 2, queued behind 0, is now in sight; 3 is its new neighbour
        gated.release(4)
        other.window.finishBackgroundWork()
        #expect(gated.files == ["photo-2.png", "photo-3.png", "photo-4.png", "photo-1.png"])
    }

    /// Every decode runs on the decoder's thread, never on the one the window runs on, however
    /// the pages turn.
    @Test func nothingDecodesOnTheMainThread() throws {
        let test = TestDecoder()
        let kiosk = kiosk(test.decoder())
        let windowThread = pthread_self()
        kiosk.showPhoto(0)
        _ = try frame(kiosk)
        for x in stride(from: 0.0, through: 7 * screen.width, by: screen.width / 4) {
            kiosk.pager.contentOffset = Point(x: x, y: 0)
            _ = try frame(kiosk)
            kiosk.window.finishBackgroundWork()
        }
        #expect(test.files == (1...8).map { "photo-\($0).png" })
        #expect(!test.decoded(onThread: windowThread))
    }

    /// A photo that does not decode shows nothing and is reported, as before; the thumbnail
    /// stood in while it was tried.
    @Test func aPhotoThatDoesNotDecodeShowsNothingAndIsReported() throws {
        let test = TestDecoder(failing: ["photo-2.png"])
        let kiosk = kiosk(test.decoder())
        var reported: [String] = []
        kiosk.pager.reportsFailure = { reported.append($0) }
        kiosk.showPhoto(1)
        let page = kiosk.pager.pages[1]
        #expect(page.imageView.image === eightPhotos[1].thumbnail)
        kiosk.window.finishBackgroundWork()
        #expect(page.isLoaded && page.imageView.image == nil && !page.showsFullPhoto)
        #expect(reported.count == 1)
        #expect(reported.first?.hasPrefix("cannot show '") == true && reported.first?.contains("photo-2.png") == true)
        // Not tried again at every move while it stays near.
        kiosk.pager.contentOffset = Point(x: screen.width + 1, y: 0)
        kiosk.window.finishBackgroundWork()
        #expect(test.files.filter { $0 == "photo-2.png" }.count == 1)
    }

    /// When no thread can start (a kiosk service's small `TasksMax`), the pages keep their
    /// thumbnails, nothing is decoded on the main thread, and no frame waits for ever.
    @Test func withoutAThreadThePagesKeepTheirThumbnails() throws {
        let test = TestDecoder()
        let kiosk = kiosk(test.decoder(startThread: { _, _ in EAGAIN }))
        kiosk.showPhoto(0)
        kiosk.window.finishBackgroundWork()
        let page = kiosk.pager.pages[0]
        #expect(page.isLoaded && !page.isDecoding && !page.showsFullPhoto)
        #expect(page.imageView.image === eightPhotos[0].thumbnail)
        #expect(test.files.isEmpty)
        #expect(try Offscreen.render(kiosk.window).shows(SamplePhotos.sunColors[0], x: middle.x, y: middle.y))
    }

    /// A thread refused once (a limit on processes met for a moment) leaves the page shown on
    /// its thumbnail only until the retry a second later, at rest too: nothing asked again
    /// until the pager moved. Until then no frame asks the system for a thread again.
    @Test func aPageAtRestGetsItsPhotoOnceAThreadStartsAgain() throws {
        let test = TestDecoder()
        let asked = Mutex(0)
        let kiosk = kiosk(
            test.decoder(startThread: { name, body in
                let n = asked.withLock { count in
                    count += 1
                    return count
                }
                return n == 1 ? EAGAIN : BackgroundThread.start(named: name, body)
            }))
        kiosk.showPhoto(0)
        kiosk.window.finishBackgroundWork()
        let page = kiosk.pager.pages[0]
        // Frames at rest, and a finger's small moves, during the wait.
        for i in 0..<5 {
            if i > 1 { kiosk.pager.contentOffset.x += 1 }
            _ = try frame(kiosk)
        }
        kiosk.window.finishBackgroundWork()
        #expect(!page.showsFullPhoto && asked.withLock { $0 } == 1)
        kiosk.window.advanceClock(to: kiosk.window.now + PhotoPager.decodeRetryDelay)
        try wait(for: "the photo after the retry") {
            kiosk.window.finishBackgroundWork()
            _ = try frame(kiosk)
            return page.showsFullPhoto
        }
        #expect(page.imageView.image !== eightPhotos[0].thumbnail)
    }
}
