import PhotoKioskApp
import Scrollway
import Testing

/// What a screen reader finds in the kiosk with no accessibility code but the photos' labels:
/// each photo an image named after its file, the pager a scroll area that turns pages for a
/// reader and says which page shows.
@MainActor
@Suite struct PhotoKioskAccessibilityTests {
    @Test func thePhotosAreImagesNamedAfterTheirFilesAndThePagerTurnsForAReader() throws {
        let photos = try (0..<3).map { Photo(name: "harbour_at-dawn-\($0 + 1).png", image: try SamplePhotos.make($0)) }
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
}
