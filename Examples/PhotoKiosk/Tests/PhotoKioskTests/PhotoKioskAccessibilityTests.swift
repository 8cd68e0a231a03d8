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
    /// one shown and its neighbours hold theirs and the rest hold neither their pixels nor a
    /// drawn picture (every page kept both, about a full screen of memory each, so a photo
    /// frame grew with every photo shown). The photos stay in the reader's tree.
    @Test func onlyThePagesNearTheScreenHoldTheirPhotos() throws {
        let photos = try (0..<10).map { try Photo(name: "photo-\($0).png", image: SamplePhotos.make($0 % 4)) }
        let kiosk = PhotoKiosk(photos: photos)
        for i in 0..<10 {
            kiosk.showPhoto(i)
            _ = try kiosk.window.prepareFrame()
        }
        kiosk.showPhoto(5)
        _ = try kiosk.window.prepareFrame()
        for (i, page) in kiosk.pager.pages.enumerated() {
            let near = (4...6).contains(i)
            #expect(page.isLoaded == near, "page \(i)")
            #expect((page.imageView.image != nil) == near, "page \(i)")
            if !near { #expect(page.imageView.backingImage == nil, "page \(i)") }
        }
        #expect(kiosk.pager.pages[5].imageView.backingImage != nil)
        #expect(kiosk.window.accessibilityTree().all.filter { $0.role == .image }.count == 10)
    }
}
