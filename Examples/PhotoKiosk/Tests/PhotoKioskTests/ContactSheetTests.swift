import Foundation
import PhotoKioskApp
import Scrollway
import Synchronization
import Testing

/// The contact sheet opens at once on every file of the folder, each cell a placeholder until
/// its thumbnail is made on the decoder's thread: the cells in view first, re-ranked as the
/// sheet scrolls; a file that does not decode is taken off the sheet (and the pager) and
/// reported, and when none is left the kiosk says so on screen. Offscreen, frames prepared by
/// hand; the thumbnails made by a stand-in (`TestThumbnails`) unless the files are real.
@MainActor
@Suite struct ContactSheetTests {
    /// What a cell shows until its thumbnail is made.
    static let placeholder = Color(rgb: 24, 24, 26)

    /// A fresh folder of `count` empty files, photo-1.png to photo-`count`.png (the stand-in
    /// reads none).
    func folder(_ purpose: String, files count: Int) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photokiosk-\(purpose)-\(getpid())")
            .path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for i in 0..<count {
            try Data().write(to: URL(fileURLWithPath: dir + "/" + name(i)))
        }
        return dir
    }

    func name(_ item: Int) -> String { "photo-\(item + 1).png" }

    /// A frame as a compositor's loop makes it: whatever has arrived, nothing waited for.
    func frame(_ kiosk: PhotoKiosk) throws -> Canvas {
        let canvas = try Canvas(size: kiosk.window.bounds.size, scale: kiosk.window.scale)
        _ = try kiosk.window.prepareFrame()
        kiosk.window.composite(into: canvas)
        return canvas
    }

    /// The items whose cells meet the sheet's viewport.
    func itemsInView(_ kiosk: PhotoKiosk) -> [Int] {
        (0..<kiosk.sheet.totalItems).filter {
            kiosk.sheet.frameForItem(at: ItemPath(item: $0)).intersects(kiosk.sheet.bounds)
        }
    }

    /// The middle of item `i`'s cell on screen.
    func middle(of i: Int, _ kiosk: PhotoKiosk) -> (x: Int, y: Int) {
        let r = kiosk.sheet.convert(kiosk.sheet.frameForItem(at: ItemPath(item: i)), to: nil)
        return (Int(r.midX), Int(r.midY))
    }

    /// Takes what arrives until every photo left has its thumbnail.
    func waitForTheThumbnails(_ kiosk: PhotoKiosk) throws {
        try wait(for: "the thumbnails") {
            kiosk.window.drainInbox()
            return kiosk.photos.allSatisfy { $0.thumbnail != nil }
        }
    }

    /// The window's first frame lists every file, a placeholder in each cell in view, while no
    /// thumbnail has been made (the stand-in holds the first); once they are, the frame shows
    /// them, each photo with its size, and none was made on the window's thread.
    @Test func theSheetOpensAtOnceWithAPlaceholderForEveryFile() throws {
        let dir = try folder("placeholders", files: 30)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let thumbnails = TestThumbnails(gated: true)
        let test = TestDecoder(thumbnails: thumbnails)
        let windowThread = pthread_self()
        let kiosk = PhotoKiosk(photos: try PhotoFolder.load(dir), size: screen, decoder: test.decoder())
        let first = try frame(kiosk)
        #expect(thumbnails.finished == 0)
        #expect(kiosk.sheet.totalItems == 30 && kiosk.photos.map(\.name) == (0..<30).map(name))
        let inView = itemsInView(kiosk)
        #expect(inView.count >= 9 && inView.first == 0)
        for i in inView where i < 9 {
            let m = middle(of: i, kiosk)
            #expect(first.shows(Self.placeholder, x: m.x, y: m.y), "cell \(i)")
        }
        #expect(kiosk.window.accessibilityTree().all.contains { $0.label == "photo 1" })

        thumbnails.release(30)
        try waitForTheThumbnails(kiosk)
        let after = try frame(kiosk)
        for i in inView where i < 9 {
            let m = middle(of: i, kiosk)
            #expect(after.shows(TestThumbnails.color, x: m.x, y: m.y), "cell \(i)")
        }
        #expect(kiosk.photos.allSatisfy { $0.pixelWidth == 4000 && $0.pixelHeight == 3000 })
        #expect(Set(thumbnails.files) == Set((0..<30).map(name)))
        #expect(!thumbnails.made(onThread: windowThread))
    }

    /// A thread refused once (a limit on processes met for a moment) leaves the sheet on its
    /// placeholders until the retry a second later, no frame asking the system again
    /// meanwhile; then every thumbnail comes.
    @Test func aRefusedThreadIsAskedForAgainASecondLater() throws {
        let dir = try folder("refused", files: 12)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let asked = Mutex(0)
        let decoder = TestDecoder(thumbnails: TestThumbnails()).decoder(startThread: { name, body in
            let n = asked.withLock { count in
                count += 1
                return count
            }
            return n == 1 ? EAGAIN : BackgroundThread.start(named: name, body)
        })
        let kiosk = PhotoKiosk(photos: try PhotoFolder.load(dir), size: screen, decoder: decoder)
        for _ in 0..<4 { _ = try frame(kiosk) }
        kiosk.window.drainInbox()
        #expect(asked.withLock { $0 } == 1)
        #expect(kiosk.photos.allSatisfy { $0.thumbnail == nil })
        kiosk.window.advanceClock(to: kiosk.window.now + PhotoPager.decodeRetryDelay)
        try wait(for: "the thumbnails after the retry") {
            _ = try frame(kiosk)
            kiosk.window.drainInbox()
            return kiosk.photos.allSatisfy { $0.thumbnail != nil }
        }
        #expect(asked.withLock { $0 } >= 2)
        #expect(kiosk.photos.count == 12)
    }

    /// The cells in view are made first, in reading order; a scroll while the first is being
    /// made re-ranks the rest: the cells in view then go next, then their neighbours, nearest
    /// first, above and below alike.
    @Test func theCellsInViewAreMadeFirstAndAScrollReRanksTheRest() throws {
        let dir = try folder("ranks", files: 60)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let thumbnails = TestThumbnails(gated: true)
        let kiosk = PhotoKiosk(
            photos: try PhotoFolder.load(dir), size: screen, decoder: TestDecoder(thumbnails: thumbnails).decoder())
        _ = try frame(kiosk)
        try thumbnails.waitForOneToStart()
        #expect(thumbnails.files == [name(0)])
        // Row 10 (items 30 to 32) at the top, the row above it out of view.
        let row = kiosk.sheet.frameForItem(at: ItemPath(item: 30)).minY - 4
        kiosk.sheet.contentOffset = Point(x: 0, y: row)
        _ = try frame(kiosk)
        let shown = itemsInView(kiosk)
        #expect(shown.first == 30 && shown.count >= 9)
        thumbnails.release(60)
        try waitForTheThumbnails(kiosk)
        let (a, b) = (shown.first!, shown.last!)
        let expected = [name(0)] + shown.map(name) + [name(a - 1), name(b + 1), name(a - 2), name(b + 2)]
        #expect(Array(thumbnails.files.prefix(expected.count)) == expected)
        #expect(thumbnails.files.count == 60)

        // Unscrolled, the cells in view come first, in reading order, then the rows below.
        let other = TestThumbnails()
        let unscrolled = PhotoKiosk(
            photos: try PhotoFolder.load(dir), size: screen, decoder: TestDecoder(thumbnails: other).decoder())
        try waitForTheThumbnails(unscrolled)
        #expect(other.files == (0..<60).map(name))
    }

    /// A file whose thumbnail does not decode is taken off the sheet when that is found, and
    /// reported with its path and why: the selection follows its photo, and the pager loses
    /// its page, the photo showing still showing.
    @Test func aFileThatDoesNotDecodeIsTakenOffTheSheetAndReported() throws {
        let dir = try folder("bad", files: 12)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let thumbnails = TestThumbnails(gated: true, failing: [name(1), name(10)])
        let kiosk = PhotoKiosk(
            photos: try PhotoFolder.load(dir), size: screen, decoder: TestDecoder(thumbnails: thumbnails).decoder())
        var reported: [String] = []
        kiosk.reportsSkipped = { reported.append($0) }
        kiosk.sheet.selectItem(at: ItemPath(item: 5))
        _ = try frame(kiosk)
        thumbnails.release(2)  // photo-1 and photo-2, which does not decode
        try wait(for: "photo-2 taken off") {
            kiosk.window.drainInbox()
            return kiosk.photos.count == 11
        }
        #expect(reported == ["skipping '\(dir)/photo-2.png': photo-2.png is broken"])
        #expect(kiosk.sheet.totalItems == 11 && !kiosk.photos.contains { $0.name == name(1) })
        #expect(kiosk.sheet.selectedItem == ItemPath(item: 4) && kiosk.photos[4].name == name(5))
        #expect(kiosk.pager.pages.map(\.photo.name) == kiosk.photos.map(\.name))

        // photo-12 in the pager (page 10 now) when photo-11, before it, is found bad.
        kiosk.showPhoto(10)
        // photo-3's thumbnail, in hand; then the pages' photos go before the other thumbnails.
        thumbnails.release()
        try wait(for: "the page's photo") {
            kiosk.window.drainInbox()
            return kiosk.pager.pages[10].showsFullPhoto
        }
        #expect(kiosk.pager.pages[10].photo.name == name(11))
        thumbnails.release(9)
        try waitForTheThumbnails(kiosk)
        #expect(reported.last == "skipping '\(dir)/photo-11.png': photo-11.png is broken")
        #expect(kiosk.photos.count == 10 && kiosk.pager.pages.count == 10)
        #expect(kiosk.pager.currentPage == 9 && kiosk.pager.pages[9].photo.name == name(11))
        #expect(kiosk.pager.contentOffset == Point(x: 9 * screen.width, y: 0))
        #expect(try frame(kiosk).shows(TestDecoder.photoColor, x: Int(screen.width) / 2, y: Int(screen.height) / 2))
        kiosk.showSheet()
        #expect(kiosk.sheet.selectedItem == ItemPath(item: 9))
    }

    /// A page opened from a cell whose thumbnail is not made yet shows nothing until its photo
    /// is decoded (it and its neighbours' go before the thumbnails), then the photo, with its
    /// size; the thumbnail made later does not replace it.
    @Test func aPageOpenedBeforeItsThumbnailShowsItsPhotoOnceDecoded() throws {
        let dir = try folder("early", files: 6)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let thumbnails = TestThumbnails(gated: true)
        let test = TestDecoder(thumbnails: thumbnails)
        let windowThread = pthread_self()
        let kiosk = PhotoKiosk(photos: try PhotoFolder.load(dir), size: screen, decoder: test.decoder())
        try thumbnails.waitForOneToStart()
        kiosk.showPhoto(3)
        let page = kiosk.pager.pages[3]
        let m = (x: Int(screen.width) / 2, y: Int(screen.height) / 2)
        #expect(page.isLoaded && page.imageView.image == nil && page.isDecoding)
        #expect(try frame(kiosk).shows(.black, x: m.x, y: m.y))
        // photo-1's thumbnail; then the photos of the page and its neighbours, before any
        // other thumbnail (those wait for the test).
        thumbnails.release()
        try wait(for: "the pages' photos") {
            kiosk.window.drainInbox()
            return (2...4).allSatisfy { kiosk.pager.pages[$0].showsFullPhoto }
        }
        #expect(thumbnails.finished == 1)
        #expect(page.photo.thumbnail == nil)
        #expect(page.photo.pixelWidth == Int(SamplePhotos.size.width))
        #expect(try frame(kiosk).shows(TestDecoder.photoColor, x: m.x, y: m.y))
        thumbnails.release(5)
        try waitForTheThumbnails(kiosk)
        #expect(page.showsFullPhoto && page.imageView.image?.width == Int(SamplePhotos.size.width))
        #expect(try frame(kiosk).shows(TestDecoder.photoColor, x: m.x, y: m.y))
        #expect(!thumbnails.made(onThread: windowThread) && !test.decoded(onThread: windowThread))
    }

    /// When none of the files decodes, which is known only once each was tried, the kiosk says
    /// so on screen (it stays up: a kiosk that exited would be started again, and again) and
    /// reports each file and then that none could be read. A headless render shows the message.
    @Test func whenNoneCanBeReadTheKioskSaysSo() throws {
        let dir = try folder("none", files: 0)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/a.png"))
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
        let kiosk = PhotoKiosk(photos: try PhotoFolder.load(dir), size: screen)
        var reported: [String] = []
        kiosk.reportsSkipped = { reported.append($0) }
        #expect(kiosk.messageLabel.isHidden)
        let canvas = try Offscreen.render(kiosk.window)
        #expect(kiosk.photos.isEmpty && kiosk.pager.pages.isEmpty && kiosk.sheet.isHidden)
        #expect(!kiosk.messageLabel.isHidden)
        #expect(kiosk.messageLabel.text == "None of the PNG and JPEG files in '\(dir)' could be read.")
        #expect(
            reported == [
                "skipping '\(dir)/a.png': neither a PNG nor a JPEG file (it begins with the bytes 6E 6F 74 20)",
                "skipping '\(dir)/b.jpg': neither a PNG nor a JPEG file (it begins with the bytes 47 49 46 38)",
                "none of the PNG and JPEG files in '\(dir)' could be read",
            ])
        let text = (0..<canvas.height).flatMap { y in (0..<canvas.width).map { (x: $0, y: y) } }
            .filter { canvas.color(x: $0.x, y: $0.y).red > 0.5 }
        #expect(!text.isEmpty, "no text on screen")
        #expect(text.allSatisfy { abs($0.y - Int(screen.height) / 2) < 40 }, "the text is not in the middle")
        kiosk.showSheet()
        #expect(kiosk.sheet.isHidden)
    }

    /// `--png` renders the first screen with its thumbnails, as when they were all made before
    /// the window opened: the executable's picture is byte for byte the one a kiosk given
    /// photos whose thumbnails are made already renders, a bad file in view left out of both.
    @Test func thePNGOfTheFirstScreenShowsTheThumbnailsAsBefore() throws {
        let dir = try folder("png", files: 0)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try SamplePhotos.write(to: dir)
        for (i, sample) in samples.enumerated() {
            try FileManager.default.moveItem(atPath: sample, toPath: dir + "/" + name(i))
        }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/photo-2b.png"))
        let out = dir + "/../photokiosk-png-\(getpid()).png"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try PhotoKioskExecutableTests().executable())
        process.arguments = [dir, "--png", out]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
        #expect(said.contains("PhotoKiosk: skipping '\(dir)/photo-2b.png': neither a PNG nor a JPEG file"))

        let photos = try PhotoFolder.load(dir).filter { $0.name != "photo-2b.png" }
        for photo in photos { try photo.loadThumbnail() }
        let made = PhotoKiosk(photos: photos)
        let expected = try PNG.encode(Offscreen.render(made.window))
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
        let same = written == expected
        #expect(same, "the --png picture differs")
    }
}
