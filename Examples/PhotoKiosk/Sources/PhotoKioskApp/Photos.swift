import Foundation
import Scrollway

/// A photo to show: its file name and its decoded pixels.
public struct Photo {
    public let name: String
    public let image: Canvas

    public init(name: String, image: Canvas) {
        self.name = name
        self.image = image
    }

    /// What a screen reader says for the photo, which has no text of its own: its file name
    /// without the extension, dashes and underscores read as spaces ("harbour at dawn").
    public var spokenName: String {
        let base = name.lowercased().hasSuffix(".png") ? String(name.dropLast(4)) : name
        return base.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")
    }
}

/// What goes wrong with a photo folder, worded for the person setting up the kiosk.
public struct PhotoKioskError: Error, CustomStringConvertible {
    public let description: String
}

/// Photos come from a folder of PNG files.
public enum PhotoFolder {
    /// Every PNG in `directory`, decoded, in the order people sort names ("photo-9" before
    /// "photo-10"). A file that does not decode is skipped and reported to `skipped` with the
    /// reason, so that one bad file never keeps the kiosk dark. Throws when the folder cannot
    /// be read or holds no readable PNG.
    ///
    /// Every photo is decoded once, at start: simple, and a turn never waits for a decoder. A
    /// kiosk with hundreds of large photos would decode the pages near the current one instead.
    public static func load(_ directory: String, skipped: (String) -> Void) throws -> [Photo] {
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
        let pngs = names.filter { $0.lowercased().hasSuffix(".png") }
            .sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        guard !pngs.isEmpty else { throw PhotoKioskError(description: "no PNG files in '\(directory)'") }
        var photos: [Photo] = []
        for name in pngs {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                photos.append(Photo(name: name, image: try PNG.decode(Array(bytes))))
            } catch let error as RasterError {
                skipped("skipping '\(path)': \(error)")
            } catch {
                skipped("skipping '\(path)': \(error.localizedDescription)")
            }
        }
        guard !photos.isEmpty else {
            throw PhotoKioskError(description: "none of the PNG files in '\(directory)' could be read")
        }
        return photos
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
