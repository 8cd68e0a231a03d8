import Foundation
import Scrollway

/// A photo to show: its file name, a thumbnail for the contact sheet, and where its full
/// pixels come from. Only the thumbnail stays in memory: a page has its photo decoded when it
/// comes near the screen (off the main thread, `PhotoDecoder`) and lets it go when it is far
/// (`PhotoPage.isLoaded`), so a folder of a hundred camera photos costs a few photos' pixels,
/// not a hundred.
///
/// A photo file's thumbnail and size are not known when the folder is listed: the kiosk has
/// them made on its decoder's thread (`ContactSheet`), so that the window opens at once
/// however many photos the folder holds; a cell shows a placeholder until then.
public final class Photo {
    public let name: String
    /// The photo fitted into `Photo.thumbnailSize` (twice the contact sheet's cell, for a 2×
    /// screen); nil until it is made.
    public private(set) var thumbnail: Canvas?
    /// The photo's own size in pixels; nil until its thumbnail or its full photo is made.
    public private(set) var pixelWidth: Int?
    public private(set) var pixelHeight: Int?
    private let source: Source

    private enum Source {
        case file(String)
        case image(Canvas)
    }

    public static let thumbnailSize = Size(width: Double(thumbnailPixels.width), height: Double(thumbnailPixels.height))
    /// `thumbnailSize` in whole pixels: what a JPEG's decode must cover at least for its
    /// thumbnail (`JPEG.decode(_:atLeast:)`).
    static let thumbnailPixels = (width: 360, height: 240)

    /// A photo held in memory (samples, tests).
    public init(name: String, image: Canvas) throws {
        self.name = name
        thumbnail = try Self.fitted(image)
        pixelWidth = image.width
        pixelHeight = image.height
        source = .image(image)
    }

    /// A photo in the file at `path`, not read yet: its thumbnail and size come later
    /// (`makeThumbnail`, on the decoder's thread), its pixels each time a page shows it.
    public init(name: String, path: String) {
        self.name = name
        source = .file(path)
    }

    /// Makes the thumbnail now, on the calling thread, for a photo that has none (tests and
    /// tools; the kiosk has its decoder make them, never on the main thread). Throws what the
    /// file's decode throws.
    public func loadThumbnail() throws {
        guard thumbnail == nil, let path else { return }
        let made = try Self.makeThumbnail(path)
        setThumbnail(made.image, width: made.pixelWidth, height: made.pixelHeight)
    }

    /// The thumbnail made for the photo, and its size in pixels.
    func setThumbnail(_ image: Canvas, width: Int, height: Int) {
        thumbnail = image
        pixelWidth = width
        pixelHeight = height
    }

    /// The size the full photo turned out to have, when a page decodes it: the file's own word
    /// on it, if its thumbnail is not made yet (a page opened first) or it changed since.
    func noteSize(of image: Canvas) {
        pixelWidth = image.width
        pixelHeight = image.height
    }

    /// The thumbnail of the photo file at `path` and the photo's size, on any thread. The size
    /// comes from the file's header (`pixelSize(ofHeader:)`), the thumbnail from as little a
    /// decode as covers it: a JPEG is decoded from an eighth of it, or as little as covers the
    /// thumbnail (a camera's 12-megapixel photo costs a 500×375 decode, not a whole one); a PNG
    /// whole, as it has no smaller decode. A photo larger than a decode may be (a JPEG whose
    /// eighth would still make a thumbnail) fails here, as its page's decode would: a sheet
    /// cell that never opens is worse than a file reported and left out.
    public static func makeThumbnail(_ path: String) throws -> PhotoThumbnail {
        let bytes = try read(path)
        if let size = pixelSize(ofHeader: bytes),
            let why = ImageFile.sizeProblem(width: size.width, height: size.height)
        {
            throw JPEG.isJPEG(bytes) ? RasterError.jpeg(why) : RasterError.png(why)
        }
        let image = try ImageFile.decode(bytes, atLeast: thumbnailPixels)
        let size = pixelSize(ofHeader: bytes) ?? (image.width, image.height)
        return PhotoThumbnail(image: try fitted(image), pixelWidth: size.width, pixelHeight: size.height)
    }

    /// A photo file's size upright, read from its header without decoding it: a JPEG's
    /// (`JPEG.size(of:)`, turned by its EXIF orientation), a PNG's from its IHDR chunk, which
    /// the format puts first, at bytes 16 to 24 (width and height, big-endian, each 1 to
    /// 2³¹ − 1). Nil for a file too short for it, a PNG whose first chunk is not IHDR or says
    /// a size that is none, or anything else.
    public static func pixelSize(ofHeader bytes: [UInt8]) -> (width: Int, height: Int)? {
        if JPEG.isJPEG(bytes) {
            guard let size = try? JPEG.size(of: bytes), size.width > 0, size.height > 0 else { return nil }
            return size
        }
        guard PNG.isPNG(bytes), bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func bigEndian(at offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int(truncatingIfNeeded: $1) }
        }
        let width = bigEndian(at: 16)
        let height = bigEndian(at: 20)
        let valid = 1...0x7FFF_FFFF
        guard valid.contains(width), valid.contains(height) else { return nil }
        return (width, height)
    }

    /// The full photo: decoded from its file each time, on the calling thread (nil if the file
    /// went or broke since the kiosk started, reported by `failed`: on standard error unless told
    /// otherwise, as the command reports a file it skips). The pager does not call it: its pages
    /// have their photos decoded on the decoder's thread (`PhotoDecoder`).
    public func image(failed: (String) -> Void = Photo.warn) -> Canvas? {
        switch source {
        case .image(let image):
            return image
        case .file(let path):
            do {
                return try Self.decode(path)
            } catch {
                failed(Self.cannotShow(path, error))
                return nil
            }
        }
    }

    /// The file the full photo is decoded from; nil for a photo held in memory.
    var path: String? {
        if case .file(let path) = source { return path }
        return nil
    }

    /// The folder the photo's file is in; nil for a photo held in memory.
    var folder: String? { path.map { ($0 as NSString).deletingLastPathComponent } }

    /// The full photo when it is held in memory (nothing to decode); nil for a file's.
    var heldImage: Canvas? {
        if case .image(let image) = source { return image }
        return nil
    }

    /// What is reported of a photo file that does not decode.
    static func cannotShow(_ path: String, _ error: any Error) -> String { "cannot show '\(path)': \(why(error))" }

    /// What is reported of a photo file whose thumbnail does not decode, taken off the contact
    /// sheet: a decoder's error as it says it, a file's (gone, unreadable) as the system does.
    static func skipping(_ path: String, _ error: any Error) -> String {
        "skipping '\(path)': \(why(error))"
    }

    /// What went wrong with a photo's file, after its path: a decoder's error as it says it, a
    /// file that could not be read by the reason alone (its error names the path again), any
    /// other as the system says it.
    static func why(_ error: any Error) -> String {
        if case RasterError.fileRead(_, let reason) = error { return reason }
        return error is RasterError ? "\(error)" : error.localizedDescription
    }

    /// Writes `message` on standard error, named as the kiosk's.
    public static func warn(_ message: String) {
        FileHandle.standardError.write(Data("PhotoKiosk: \(message)\n".utf8))
    }

    /// Decodes the photo file at `path`, PNG or JPEG (a JPEG turned upright by its EXIF
    /// orientation), on any thread.
    public static func decode(_ path: String) throws -> Canvas {
        try ImageFile.decode(try read(path))
    }

    /// The file's bytes, if it is a regular file of a size an image may have (`ImageFile.read`,
    /// whose errors say what a path is instead: Foundation's said "You don't have permission"
    /// of a named pipe or a device, and read a file of any size whole).
    static func read(_ path: String) throws -> [UInt8] { try ImageFile.read(path) }

    /// The names of the files a folder's photos come from: PNG and JPEG, by extension.
    static func isPhotoFile(_ name: String) -> Bool {
        photoExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    static let photoExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// `image` fitted into `thumbnailSize`, halved step by step first (each halving averages
    /// pixels two by two, where one bilinear step of ten times would skip most of them and
    /// alias fine detail), then scaled the rest of the way.
    static func fitted(_ image: Canvas) throws -> Canvas {
        let size = thumbnailSize
        let f = min(size.width / Double(image.width), size.height / Double(image.height), 1)
        let fit = Size(
            width: max(1, (Double(image.width) * f).rounded()), height: max(1, (Double(image.height) * f).rounded()))
        var source = image
        while Double(source.width) >= 2 * fit.width, Double(source.height) >= 2 * fit.height {
            let half = Size(width: Double(source.width / 2), height: Double(source.height / 2))
            let smaller = try Canvas(size: half)
            smaller.draw(source, in: Rect(origin: .zero, size: half))
            source = smaller
        }
        let thumbnail = try Canvas(size: fit)
        thumbnail.draw(source, in: Rect(origin: .zero, size: fit))
        return thumbnail
    }

    /// What a screen reader says for the photo, which has no text of its own: its file name
    /// without the extension, dashes and underscores read as spaces ("harbour at dawn").
    public var spokenName: String {
        let base = Self.isPhotoFile(name) ? (name as NSString).deletingPathExtension : name
        return base.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
    }
}

/// A photo's thumbnail as its decoder makes it, with the photo's own size in pixels.
public struct PhotoThumbnail {
    public let image: Canvas
    public let pixelWidth: Int
    public let pixelHeight: Int

    public init(image: Canvas, pixelWidth: Int, pixelHeight: Int) {
        self.image = image
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// What goes wrong with a photo folder, worded for the person setting up the kiosk.
public struct PhotoKioskError: Error, CustomStringConvertible {
    public let description: String
}

/// Photos come from a folder of PNG and JPEG files.
public enum PhotoFolder {
    /// Every PNG and JPEG in `directory` (.png, .jpg, .jpeg, in any case), in the order people
    /// sort names ("photo-9" before "photo-10"), none of them read yet: the folder is only
    /// listed, so the window opens at once however many photos it holds, and their thumbnails
    /// are made on the decoder's thread once it shows (a folder of camera photos decoded one by
    /// one for their thumbnails had kept the screen dark for seconds). A file that turns out not
    /// to decode is taken off the contact sheet then, and reported (`PhotoKiosk.reportsSkipped`).
    /// Throws when the folder cannot be read or holds no PNG or JPEG file.
    public static func load(_ directory: String) throws -> [Photo] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) else {
            throw PhotoKioskError(description: "there is no folder '\(directory)'")
        }
        guard isFolder.boolValue else { throw PhotoKioskError(description: "'\(directory)' is not a folder") }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw PhotoKioskError(description: "cannot read the folder '\(directory)': \(error.localizedDescription)")
        }
        let files = names.filter(Photo.isPhotoFile)
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard !files.isEmpty else { throw PhotoKioskError(description: "no PNG or JPEG files in '\(directory)'") }
        return files.map { Photo(name: $0, path: (directory as NSString).appendingPathComponent($0)) }
    }

    /// What is said when none of a folder's photo files decodes, known only once the decoder
    /// has tried them all.
    static func noneCouldBeRead(_ directory: String) -> String {
        "none of the PNG and JPEG files in '\(directory)' could be read"
    }
}

/// Sample photos drawn by the app itself (`PhotoKiosk --make-samples DIR`), so that the
/// repository carries no images: a sky, a hill and a sun, a different palette each. The sun is
/// a disc of `sunRadius` around the centre, in `sunColors[i]`; tests find a photo by it.
public enum SamplePhotos {
    public static let size = Size(width: 960, height: 640)
    public static let sunRadius = 120.0
    public static let sunColors = [
        Color(rgb: 255, 204, 0), Color(rgb: 255, 112, 67), Color(rgb: 236, 64, 122), Color(rgb: 255, 255, 255),
    ]
    static let skies: [(Color, Color)] = [
        (Color(rgb: 30, 90, 180), Color(rgb: 140, 200, 250)), (Color(rgb: 60, 20, 90), Color(rgb: 250, 150, 90)),
        (Color(rgb: 10, 60, 70), Color(rgb: 120, 220, 200)), (Color(rgb: 10, 10, 40), Color(rgb: 60, 70, 140)),
    ]

    /// Sample `i` (0 ..< `sunColors.count`).
    public static func make(_ i: Int) throws -> Canvas {
        let canvas = try Canvas(size: size)
        let all = Rect(origin: .zero, size: size)
        canvas.fillLinearGradient(
            all, from: .zero, to: Point(x: 0, y: size.height), stops: [(0, skies[i].0), (1, skies[i].1)])
        let c = all.center
        let r = sunRadius
        canvas.fillEllipse(in: Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), color: sunColors[i])
        // A dark hill below the sun.
        let (w, h) = (size.width, size.height)
        canvas.fillConvexPolygon(
            [
                Point(x: 0, y: h), Point(x: 0, y: h * 0.8), Point(x: w * 0.55, y: h * 0.72), Point(x: w, y: h * 0.85),
                Point(x: w, y: h),
            ], color: Color.black.withAlpha(0.45))
        if let font = try? Font.system(size: 28, bold: true) {
            canvas.drawText(
                "Sample \(i + 1) of \(sunColors.count)", font: font, in: Rect(x: 32, y: 24, width: 400, height: 40),
                color: .white, maxLines: 1)
        }
        return canvas
    }

    /// Writes every sample into `directory` (created if missing) as sample-N.png; returns the paths.
    public static func write(to directory: String) throws -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PhotoKioskError(description: "cannot make the folder '\(directory)': \(error.localizedDescription)")
        }
        return try sunColors.indices.map { i in
            let path = (directory as NSString).appendingPathComponent("sample-\(i + 1).png")
            try PNG.write(make(i), toFile: path)
            return path
        }
    }
}
