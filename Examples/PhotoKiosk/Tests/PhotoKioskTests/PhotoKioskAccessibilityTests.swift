import PhotoKioskApp
import Scrollway
import Testing

/// What a screen reader finds in the kiosk with no accessibility code but the photos' labels:
/// each photo an image named after its file, the pager a scroll area that turns pages for a
/// reader and says which page shows.
@MainActor
@Suite struct PhotoKioskAccessibilityTests {
    @Test func thePhotosAreImagesNamedAfterTheirFilesAndThePagerTurnsForAReader() throws {
        let photos = try (0..<3).map {
            try Photo(name: "harbour_at-dawn-\($0 + 1).png", image: try SamplePhotos.make($0))
        }
        let kiosk = PhotoKiosk(photos: photos)
        kiosk.showPhoto(0)
        _ = try kiosk.window.prepareFrame()
        let tree = kiosk.window.accessibilityTree()
        let images = tree.all.filter { $0.role == .image }
        #expect(images.map(\.label) == ["harbour at dawn 1", "harbour at dawn 2", "harbour at dawn 3"])
        #expect(images.first?.states.contains(.showing) == true && images.last?.states.contains(.showing) == false)
        let pager = try #require(tree.all.first { $0.view === kiosk.pager })
        #expect(pager.role == .scrollArea)
        #expect(kiosk.pager.accessibilityScrollDirections == [.left, .right])
        #expect(kiosk.pager.accessibilityScroll(.right))
        #expect(kiosk.pager.accessibilityScrollStatus(at: Point(x: kiosk.window.bounds.width, y: 0)) == "Page 2 of 3")
    }

    /// Only the pages near the screen hold their photos: after turning through ten photos, the
    /// one shown and its neighbours hold theirs, those more than two pages away hold neither
    /// their pixels nor a drawn picture (every page kept both, about a full screen of memory
    /// each, so a photo frame grew with every photo shown), and the contact sheet over the
    /// pager leaves none holding theirs. The photos stay in the reader's tree.
    @Test func onlyThePagesNearTheScreenHoldTheirPhotos() throws {
        let photos = try (0..<10).map { try Photo(name: "photo-\($0).png", image: SamplePhotos.make($0 % 4)) }
        let kiosk = PhotoKiosk(photos: photos)
        #expect(kiosk.pager.pages.allSatisfy { !$0.isLoaded }, "photos held under the sheet")
        for i in 0..<10 {
            kiosk.showPhoto(i)
            _ = try kiosk.window.prepareFrame()
        }
        kiosk.showPhoto(5)
        _ = try kiosk.window.prepareFrame()
        for (i, page) in kiosk.pager.pages.enumerated() {
            if (4...6).contains(i) {
                #expect(page.isLoaded && page.imageView.image != nil, "page \(i)")
            } else if abs(i - 5) > 3 {
                #expect(!page.isLoaded && page.imageView.image == nil, "page \(i)")
                #expect(page.imageView.backingImage == nil, "page \(i)")
            }
        }
        #expect(kiosk.pager.pages[5].imageView.backingImage != nil)
        #expect(kiosk.window.accessibilityTree().all.filter { $0.role == .image }.count == 10)
        // A finger wobbling a pixel either way across a page's edge: once each side's
        // neighbour is loaded, nothing is loaded or dropped again (the set flipped at every
        // crossing, decoding a photo each time).
        func wobble(_ dx: Double) { kiosk.pager.contentOffset = Point(x: 5 * kiosk.pager.bounds.width + dx, y: 0) }
        wobble(1)
        wobble(-1)
        let loaded = kiosk.pager.pages.map(\.isLoaded)
        for dx in [1.0, -1.0, 1.0, -1.0] {
            wobble(dx)
            #expect(kiosk.pager.pages.map(\.isLoaded) == loaded, "at \(dx)")
        }
        kiosk.showSheet()
        #expect(kiosk.pager.pages.allSatisfy { !$0.isLoaded }, "photos held under the sheet")
    }

    /// A new window size keeps the photo that showed (a panel turned, the kiosk shell's size):
    /// the page was read from the new width and the old offset, and a turned panel showed
    /// another photo; the photo shown holds its pixels after.
    @Test func aNewSizeKeepsThePhotoThatShowed() throws {
        let photos = try (0..<10).map { try Photo(name: "photo-\($0).png", image: SamplePhotos.make($0 % 4)) }
        let kiosk = PhotoKiosk(photos: photos)
        kiosk.showPhoto(5)
        _ = try kiosk.window.prepareFrame()
        kiosk.window.resize(to: Size(width: 600, height: 1024))
        _ = try kiosk.window.prepareFrame()
        #expect(kiosk.pager.currentPage == 5)
        #expect(kiosk.pager.contentOffset == Point(x: 5 * 600, y: 0))
        #expect(kiosk.pager.pages[5].isLoaded)
    }

    /// A zoomed photo that left the screen is drawn again at the screen's resolution when it
    /// comes back whole (its zoomed resolution stayed, so a page at 1× held a picture drawn
    /// for 4×).
    @Test func aZoomedPhotoThatLeftIsDrawnAtTheScreensResolutionAgain() throws {
        let photos = try (0..<4).map { try Photo(name: "photo-\($0).png", image: SamplePhotos.make($0)) }
        let kiosk = PhotoKiosk(photos: photos)
        kiosk.showPhoto(0)
        _ = try kiosk.window.prepareFrame()
        let page = kiosk.pager.pages[0]
        page.setZoomScale(2, animated: false)
        page.imageView.contentsScale = 2
        kiosk.showPhoto(2)
        #expect(page.zoomScale == 1)
        #expect(page.imageView.contentsScale == nil)
    }
}
