import Foundation
import PhotoKioskApp
import Testing

/// The folder as the person setting up the kiosk fills it: the photos in name order, a bad
/// file skipped with its name, and errors that name the folder.
@Suite struct PhotoFolderTests {
    func folder(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("photokiosk-\(name)-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func photosComeInNameOrderAndABadFileIsSkippedByName() throws {
        let dir = try folder("order")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try SamplePhotos.write(to: dir)
        // Names as people number them: 10 comes after 9, not after 1.
        try FileManager.default.moveItem(atPath: samples[0], toPath: dir + "/photo-10.PNG")
        try FileManager.default.moveItem(atPath: samples[1], toPath: dir + "/photo-9.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/broken.png"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        var skipped: [String] = []
        let photos = try PhotoFolder.load(dir) { skipped.append($0) }
        #expect(photos.map(\.name) == ["photo-9.png", "photo-10.PNG", "sample-3.png", "sample-4.png"])
        #expect(skipped.count == 1)
        #expect(skipped.first?.contains("\(dir)/broken.png") == true)
    }

    /// Loading keeps a thumbnail of each photo, not its pixels: the 960×640 samples come as
    /// 360×240 thumbnails with their own size noted, and a page decodes the file again; a file
    /// gone since the kiosk started is no photo then, and says so.
    @Test func aFolderKeepsThumbnailsAndPagesDecodeAgain() throws {
        let dir = try folder("thumbnails")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try SamplePhotos.write(to: dir)
        let photos = try PhotoFolder.load(dir) { _ in }
        #expect(photos.count == 4)
        for photo in photos {
            #expect(photo.thumbnail.width == 360 && photo.thumbnail.height == 240)
            #expect(photo.pixelWidth == 960 && photo.pixelHeight == 640)
        }
        #expect(photos[0].image()?.width == 960)
        try FileManager.default.removeItem(atPath: samples[0])
        var failed: [String] = []
        #expect(photos[0].image { failed.append($0) } == nil)
        #expect(failed.first?.contains(samples[0]) == true)
    }

    @Test func aFolderWithoutPhotosIsAnErrorNamingIt() throws {
        let dir = try folder("empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: PhotoKioskError.self) { try PhotoFolder.load(dir) { _ in } }
        do {
            _ = try PhotoFolder.load(dir) { _ in }
        } catch {
            #expect("\(error)" == "no PNG files in '\(dir)'")
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/only.png"))
        do {
            _ = try PhotoFolder.load(dir) { _ in }
            Issue.record("a folder of one unreadable PNG loaded")
        } catch {
            #expect("\(error)" == "none of the PNG files in '\(dir)' could be read")
        }
        do {
            _ = try PhotoFolder.load(dir + "/missing") { _ in }
            Issue.record("a missing folder loaded")
        } catch {
            #expect("\(error)" == "there is no folder '\(dir)/missing'")
        }
    }
}
