import Foundation
import PhotoKioskApp
import Scrollway
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

    /// A camera's photos are JPEG files: they come in name order beside PNGs, whatever their
    /// extension's case, each with a thumbnail of the picture (the sun in the middle in its
    /// own colour) and its own size, decoded whole when a page shows it; a file named .jpg
    /// that holds no photo is skipped with its name and why; a reader hears
    /// the name without its extension.
    @Test func jpegPhotosLoadBesidePNGs() throws {
        let dir = try folder("jpeg")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<3 {
            let name = ["harbour_at-dawn.jpg", "photo-2.JPEG", "photo-10.jpeg"][i]
            try Data(JPEG.encode(SamplePhotos.make(i), quality: 92)).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        try PNG.write(SamplePhotos.make(3), toFile: dir + "/photo-3.png")
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: dir + "/photo-4.jpg"))
        var skipped: [String] = []
        let photos = try PhotoFolder.load(dir) { skipped.append($0) }
        #expect(photos.map(\.name) == ["harbour_at-dawn.jpg", "photo-2.JPEG", "photo-3.png", "photo-10.jpeg"])
        #expect(
            skipped == [
                "skipping '\(dir)/photo-4.jpg': neither a PNG nor a JPEG file (it begins with the bytes 47 49 46 38)"
            ])
        #expect(photos[0].spokenName == "harbour at dawn")
        /// Within JPEG's loss of a colour, channel by channel.
        func near(_ a: Color, _ b: Color) -> Bool {
            abs(a.red - b.red) < 0.06 && abs(a.green - b.green) < 0.06 && abs(a.blue - b.blue) < 0.06
        }
        for (photo, sample) in zip(photos, [0, 1, 3, 2]) {
            #expect(photo.pixelWidth == 960 && photo.pixelHeight == 640, "\(photo.name)")
            #expect(photo.thumbnail.width == 360 && photo.thumbnail.height == 240, "\(photo.name)")
            let sun = photo.thumbnail.color(x: 180, y: 120)
            #expect(near(sun, SamplePhotos.sunColors[sample]), "\(photo.name): \(sun)")
            let whole = try #require(photo.image())
            #expect(whole.width == 960 && whole.height == 640)
            #expect(near(whole.color(x: 480, y: 320), SamplePhotos.sunColors[sample]), "\(photo.name)")
        }
    }

    @Test func aFolderWithoutPhotosIsAnErrorNamingIt() throws {
        let dir = try folder("empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: PhotoKioskError.self) { try PhotoFolder.load(dir) { _ in } }
        do {
            _ = try PhotoFolder.load(dir) { _ in }
        } catch {
            #expect("\(error)" == "no PNG or JPEG files in '\(dir)'")
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/only.png"))
        do {
            _ = try PhotoFolder.load(dir) { _ in }
            Issue.record("a folder of one unreadable PNG loaded")
        } catch {
            #expect("\(error)" == "none of the PNG and JPEG files in '\(dir)' could be read")
        }
        do {
            _ = try PhotoFolder.load(dir + "/missing") { _ in }
            Issue.record("a missing folder loaded")
        } catch {
            #expect("\(error)" == "there is no folder '\(dir)/missing'")
        }
    }
}
