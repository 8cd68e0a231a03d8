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

    /// The folder is only listed: its photo files come in name order, a bad one among them (it
    /// is found out, and taken off the contact sheet, when its thumbnail is made:
    /// ContactSheetTests), none read yet.
    @Test func photosComeInNameOrderWithoutBeingRead() throws {
        let dir = try folder("order")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try SamplePhotos.write(to: dir)
        // Names as people number them: 10 comes after 9, not after 1.
        try FileManager.default.moveItem(atPath: samples[0], toPath: dir + "/photo-10.PNG")
        try FileManager.default.moveItem(atPath: samples[1], toPath: dir + "/photo-9.png")
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/broken.png"))
        try Data("notes".utf8).write(to: URL(fileURLWithPath: dir + "/notes.txt"))
        let photos = try PhotoFolder.load(dir)
        #expect(photos.map(\.name) == ["broken.png", "photo-9.png", "photo-10.PNG", "sample-3.png", "sample-4.png"])
        #expect(photos.allSatisfy { $0.thumbnail == nil && $0.pixelWidth == nil && $0.pixelHeight == nil })
        #expect(throws: RasterError.imageFormat("neither a PNG nor a JPEG file (it begins with the bytes 6E 6F 74 20)"))
        {
            try photos[0].loadThumbnail()
        }
    }

    /// A thumbnail is made of each photo, not kept pixels: the 960×640 samples come as 360×240
    /// thumbnails with their own size noted, and a page decodes the file again; a file gone
    /// since the kiosk started is no photo then, and says so.
    @Test func aFolderKeepsThumbnailsAndPagesDecodeAgain() throws {
        let dir = try folder("thumbnails")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let samples = try SamplePhotos.write(to: dir)
        let photos = try PhotoFolder.load(dir)
        #expect(photos.count == 4)
        for photo in photos {
            try photo.loadThumbnail()
            #expect(photo.thumbnail?.width == 360 && photo.thumbnail?.height == 240)
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
    /// that holds no photo says why when its thumbnail is made; a reader hears the name without
    /// its extension.
    @Test func jpegPhotosLoadBesidePNGs() throws {
        let dir = try folder("jpeg")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for i in 0..<3 {
            let name = ["harbour_at-dawn.jpg", "photo-2.JPEG", "photo-10.jpeg"][i]
            try Data(JPEG.encode(SamplePhotos.make(i), quality: 92)).write(to: URL(fileURLWithPath: dir + "/" + name))
        }
        try PNG.write(SamplePhotos.make(3), toFile: dir + "/photo-3.png")
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: dir + "/photo-4.jpg"))
        var photos = try PhotoFolder.load(dir)
        #expect(
            photos.map(\.name) == [
                "harbour_at-dawn.jpg", "photo-2.JPEG", "photo-3.png", "photo-4.jpg", "photo-10.jpeg",
            ])
        #expect(throws: RasterError.imageFormat("neither a PNG nor a JPEG file (it begins with the bytes 47 49 46 38)"))
        {
            try photos[3].loadThumbnail()
        }
        photos.remove(at: 3)
        #expect(photos[0].spokenName == "harbour at dawn")
        /// Within JPEG's loss of a colour, channel by channel.
        func near(_ a: Color, _ b: Color) -> Bool {
            abs(a.red - b.red) < 0.06 && abs(a.green - b.green) < 0.06 && abs(a.blue - b.blue) < 0.06
        }
        for (photo, sample) in zip(photos, [0, 1, 3, 2]) {
            try photo.loadThumbnail()
            #expect(photo.pixelWidth == 960 && photo.pixelHeight == 640, "\(photo.name)")
            let thumbnail = try #require(photo.thumbnail)
            #expect(thumbnail.width == 360 && thumbnail.height == 240, "\(photo.name)")
            let sun = thumbnail.color(x: 180, y: 120)
            #expect(near(sun, SamplePhotos.sunColors[sample]), "\(photo.name): \(sun)")
            let whole = try #require(photo.image())
            #expect(whole.width == 960 && whole.height == 640)
            #expect(near(whole.color(x: 480, y: 320), SamplePhotos.sunColors[sample]), "\(photo.name)")
        }
    }

    /// A photo's size is read from its file's header, without decoding it: a PNG's IHDR (its
    /// first 24 bytes are enough), a JPEG's SOF, turned by its EXIF orientation; a header too
    /// short, or one whose chunk is not IHDR or whose size is none, says nothing.
    @Test func aPhotosSizeComesFromItsHeader() throws {
        let png = try PNG.encode(SamplePhotos.make(0))
        #expect(Photo.pixelSize(ofHeader: png).map { [$0.width, $0.height] } == [960, 640])
        #expect(Photo.pixelSize(ofHeader: Array(png.prefix(24))).map { [$0.width, $0.height] } == [960, 640])
        let jpeg = try JPEG.encode(SamplePhotos.make(1))
        #expect(Photo.pixelSize(ofHeader: jpeg).map { [$0.width, $0.height] } == [960, 640])
        #expect(Photo.pixelSize(ofHeader: Array(png.prefix(23))) == nil)
        #expect(Photo.pixelSize(ofHeader: Array(jpeg.prefix(3))) == nil)
        #expect(Photo.pixelSize(ofHeader: []) == nil)
        #expect(Photo.pixelSize(ofHeader: Array("GIF89a and more bytes than a header".utf8)) == nil)
        func with(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
            var header = Array(png.prefix(24))
            header.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            return header
        }
        #expect(Photo.pixelSize(ofHeader: with(Array("IDAT".utf8), at: 12)) == nil)
        #expect(Photo.pixelSize(ofHeader: with([0, 0, 0, 0], at: 16)) == nil)
        #expect(Photo.pixelSize(ofHeader: with([0, 0, 0, 0], at: 20)) == nil)
        #expect(Photo.pixelSize(ofHeader: with([0x80, 0, 0, 0], at: 16)) == nil)
        #expect(Photo.pixelSize(ofHeader: with([0x7F, 0xFF, 0xFF, 0xFF], at: 20)).map(\.height) == 0x7FFF_FFFF)
    }

    /// A JPEG whose header claims more than a decode may hold is refused by its thumbnail job,
    /// as its page's decode would refuse it: its eighth would have made a thumbnail of a photo
    /// that never opens.
    @Test func aPhotoTooLargeToOpenGetsNoThumbnail() throws {
        let dir = try folder("huge")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var bytes = try JPEG.encode(SamplePhotos.make(0), quality: 80)
        // The frame header (FF C0): its length and precision, then height and width.
        let sof = try #require((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange(sof + 5..<sof + 9, with: [0, 10, 0x9C, 0x40])  // 40000 × 10
        let path = dir + "/wide.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: RasterError.jpeg("a 40000×10 image is larger than a canvas holds (32767 px a side)")) {
            try Photo.makeThumbnail(path)
        }
    }

    /// A folder with no PNG or JPEG file is an error at once; one whose files all turn out not
    /// to decode is listed (the kiosk says so once it has tried them: ContactSheetTests).
    @Test func aFolderWithoutPhotosIsAnErrorNamingIt() throws {
        let dir = try folder("empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: PhotoKioskError.self) { try PhotoFolder.load(dir) }
        do {
            _ = try PhotoFolder.load(dir)
        } catch {
            #expect("\(error)" == "no PNG or JPEG files in '\(dir)'")
        }
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/only.png"))
        #expect(try PhotoFolder.load(dir).map(\.name) == ["only.png"])
        do {
            _ = try PhotoFolder.load(dir + "/missing")
            Issue.record("a missing folder loaded")
        } catch {
            #expect("\(error)" == "there is no folder '\(dir)/missing'")
        }
    }
}
