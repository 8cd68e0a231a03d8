import Foundation
import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayWestonHarness
import Testing

@testable import ScrollwayWayland

/// Xcursor files written here, image by image, as libXcursor lays them out (little-endian
/// words: the header, the table of contents, then each image's 36-byte header and pixels).
struct XcursorWriter {
    struct Image {
        var size: Int
        var width: Int
        var height: Int
        var hotspot: (Int, Int)
        var pixel: (Int, Int) -> UInt32
    }

    static func bytes(_ images: [Image]) -> Data {
        var words: [UInt32] = [0x7275_6358, 16, 0x1_0000, UInt32(images.count)]
        var position = 16 + 12 * images.count
        for image in images {
            words += [0xfffd_0002, UInt32(image.size), UInt32(position)]
            position += 36 + 4 * image.width * image.height
        }
        for image in images {
            words += [
                36, 0xfffd_0002, UInt32(image.size), 1, UInt32(image.width), UInt32(image.height),
                UInt32(image.hotspot.0), UInt32(image.hotspot.1), 50,
            ]
            for y in 0..<image.height { for x in 0..<image.width { words.append(image.pixel(x, y)) } }
        }
        return words.withUnsafeBufferPointer { Data(buffer: $0) }  // little-endian host
    }

    /// A square of one colour.
    static func solid(size: Int, side: Int, hotspot: (Int, Int), color: UInt32) -> Image {
        Image(size: size, width: side, height: side, hotspot: hotspot, pixel: { _, _ in color })
    }
}

/// A directory of themes for one test, removed when it ends.
final class ThemeDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("scrollway-cursors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    var path: String { url.path }

    /// `cursors` (name → file bytes) in `root/theme/cursors`, and an index.theme inheriting
    /// `inherits` when given.
    func add(theme: String, root: String? = nil, cursors: [String: Data], inherits: String? = nil) throws {
        let dir = URL(fileURLWithPath: root ?? path).appendingPathComponent(theme)
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("cursors"), withIntermediateDirectories: true)
        for (name, data) in cursors { try data.write(to: dir.appendingPathComponent("cursors/\(name)")) }
        if let inherits {
            try "[Icon Theme]\nName=\(theme)\nInherits=\(inherits)\n".write(
                to: dir.appendingPathComponent("index.theme"), atomically: true, encoding: .utf8)
        }
    }
}

@Suite struct XcursorFileTests {
    @Test func theNearestSizeIsReadWithItsHotspotAndPixels() throws {
        let dir = try ThemeDirectory()
        let file = XcursorWriter.bytes([
            XcursorWriter.solid(size: 16, side: 16, hotspot: (1, 2), color: 0xff00_00ff),
            XcursorWriter.Image(
                size: 32, width: 30, height: 31, hotspot: (5, 6), pixel: { x, y in UInt32(0xff00_0000 | (y << 8) | x) }),
            XcursorWriter.solid(size: 48, side: 48, hotspot: (3, 4), color: 0xffff_0000),
        ])
        let path = dir.path + "/arrow"
        try file.write(to: URL(fileURLWithPath: path))
        let image = try XcursorImage.read(path: path, nominalSize: 30)
        #expect(image.nominalSize == 32)
        #expect(image.width == 30 && image.height == 31)
        #expect(image.hotspotX == 5 && image.hotspotY == 6)
        #expect(image.pixels.count == 30 * 31)
        #expect(image.pixels[0] == 0xff00_0000)
        #expect(image.pixels[7 * 30 + 29] == 0xff00_071d)
        #expect(try XcursorImage.read(path: path, nominalSize: 44).nominalSize == 48)
        #expect(try XcursorImage.read(path: path, nominalSize: 1).nominalSize == 16)
        // A tie (24 is 8 from 16 and from 32) goes to the size listed first, as libXcursor's.
        #expect(try XcursorImage.read(path: path, nominalSize: 24).nominalSize == 16)
    }

    @Test func aFifoOrADirectoryIsRefusedWithoutWaiting() throws {
        let dir = try ThemeDirectory()
        let fifo = dir.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: XcursorError(path: fifo, "not a regular file")) {
            try XcursorImage.read(path: fifo, nominalSize: 24)
        }
        #expect(throws: XcursorError(path: dir.path, "not a regular file")) {
            try XcursorImage.read(path: dir.path, nominalSize: 24)
        }
    }

    @Test func anAnimatedCursorShowsItsFirstFrame() throws {
        let dir = try ThemeDirectory()
        let path = dir.path + "/watch"
        try XcursorWriter.bytes([
            XcursorWriter.solid(size: 24, side: 24, hotspot: (0, 0), color: 0xff11_1111),
            XcursorWriter.solid(size: 24, side: 24, hotspot: (0, 0), color: 0xff22_2222),
        ]).write(to: URL(fileURLWithPath: path))
        #expect(try XcursorImage.read(path: path, nominalSize: 24).pixels.allSatisfy { $0 == 0xff11_1111 })
    }

    /// Each damaged file fails with its path and what was wrong, and never reads past its end.
    @Test func damagedFilesSayWhatIsWrong() throws {
        let dir = try ThemeDirectory()
        let good = XcursorWriter.bytes([XcursorWriter.solid(size: 24, side: 24, hotspot: (2, 2), color: 0xffff_ffff)])
        func failure(_ data: Data, _ name: String) -> String? {
            let path = dir.path + "/" + name
            try? data.write(to: URL(fileURLWithPath: path))
            do {
                _ = try XcursorImage.read(path: path, nominalSize: 24)
                return nil
            } catch {
                #expect(error.path == path)
                return error.reason
            }
        }
        func patched(_ word: Int, _ value: UInt32) -> Data {
            var d = good
            withUnsafeBytes(of: value.littleEndian) { d.replaceSubrange(4 * word..<4 * word + 4, with: $0) }
            return d
        }
        #expect(failure(Data("not a cursor at all".utf8), "text")?.contains("no Xcur magic") == true)
        #expect(failure(good.prefix(10), "short")?.contains("the header") == true)
        #expect(failure(good.prefix(good.count - 4), "cut")?.contains("the image's pixels") == true)
        // Words 4–6: the one table entry; 7–15: the image's header.
        #expect(failure(patched(3, 0x0010_0001), "entries")?.contains("table entries out of range") == true)
        #expect(failure(patched(6, 1_000_000), "position")?.contains("runs past the end") == true)
        #expect(failure(patched(4, 0xfffe_0001), "comment")?.contains("no image") == true)
        #expect(failure(patched(9, 32), "mismatch")?.contains("does not match its table entry") == true)
        #expect(failure(patched(11, 0x8000), "wide")?.contains("32768×24") == true)
        // Within libXcursor's sides but past our 2048 × 2048 pixels: refused before any is read.
        var huge = patched(11, 4096)
        withUnsafeBytes(of: UInt32(4096).littleEndian) { huge.replaceSubrange(48..<52, with: $0) }
        #expect(failure(huge, "huge")?.contains("4096×4096") == true)
        #expect(failure(patched(13, 25), "hotspot")?.contains("hotspot at (25, 2)") == true)
        #expect(failure(good, "good") == nil)
    }
}

@Suite struct CursorThemeTests {
    let arrow = XcursorWriter.bytes([XcursorWriter.solid(size: 24, side: 24, hotspot: (0, 0), color: 0xff00_0000)])

    @Test func theEnvironmentNamesTheThemeSizeAndPath() {
        let env = CursorTheme.fromEnvironment([
            "XCURSOR_THEME": "Adwaita", "XCURSOR_SIZE": "48", "XCURSOR_PATH": "/a:~/b::/c", "HOME": "/home/u",
        ])
        #expect(env == CursorTheme(name: "Adwaita", size: 48, searchPath: ["/a", "/home/u/b", "/c"]))
        let bare = CursorTheme.fromEnvironment(["HOME": "/h", "XCURSOR_SIZE": "huge"])
        #expect(bare.name == "default" && bare.size == 24)
        #expect(bare.searchPath.prefix(3) == ["/h/.local/share/icons", "/h/.icons", "/usr/share/icons"])
        #expect(CursorTheme.fromEnvironment(["XDG_DATA_HOME": "/d"]).searchPath.first == "/d/icons")
        // No home: the directories under it are left out, not looked for at the root.
        #expect(!CursorTheme.fromEnvironment([:]).searchPath.contains { $0.hasPrefix("/.") })
        #expect(CursorTheme.fromEnvironment(["XCURSOR_SIZE": "9999"]).size == 512)
    }

    @Test func aCursorIsFoundThroughInheritanceAndTheSearchPathInOrder() throws {
        let first = try ThemeDirectory()
        let second = try ThemeDirectory()
        try first.add(theme: "default", cursors: [:], inherits: "Middle")
        try second.add(theme: "Middle", root: second.path, cursors: ["default": arrow], inherits: "Base, Other")
        try second.add(theme: "Base", root: second.path, cursors: ["left_ptr": arrow])
        let theme = CursorTheme(name: "default", size: 24, searchPath: [first.path, second.path])
        // left_ptr anywhere in the chain comes before default nearer: as libwayland-cursor's
        // wl_cursor_theme_get_cursor(left_ptr) would find it.
        #expect(theme.file(for: ["left_ptr", "default"]) == second.path + "/Base/cursors/left_ptr")
        #expect(theme.file(for: ["default"]) == second.path + "/Middle/cursors/default")
        // The earlier directory wins for the same theme.
        try first.add(theme: "Base", cursors: ["left_ptr": arrow])
        #expect(theme.file(for: ["left_ptr"]) == first.path + "/Base/cursors/left_ptr")
        #expect(theme.file(for: ["watch"]) == nil)
        #expect(theme.image(for: ["left_ptr"], pixelSize: 24)?.pixels.first == 0xff00_0000)
    }

    @Test func inheritanceLoopsAndPathsInNamesFindNothing() throws {
        let dir = try ThemeDirectory()
        try dir.add(theme: "A", cursors: [:], inherits: "B")
        try dir.add(theme: "B", cursors: [:], inherits: "A;../A")
        try dir.add(theme: "C", cursors: ["left_ptr": arrow])
        #expect(CursorTheme(name: "A", size: 24, searchPath: [dir.path]).file(for: ["left_ptr"]) == nil)
        #expect(
            CursorTheme(name: "../\(dir.url.lastPathComponent)/C", size: 24, searchPath: [dir.path + "/x"])
                .file(for: ["left_ptr"]) == nil)
        #expect(CursorTheme(name: "C", size: 24, searchPath: [dir.path]).file(for: ["../C/cursors/left_ptr"]) == nil)
        #expect(
            CursorTheme.inheritedThemes("[Icon Theme]\n  Inherits = one,two;three\tfour\n") == [
                "one", "two", "three", "four",
            ])
        #expect(CursorTheme.inheritedThemes("InheritsNot=x\n") == [])
    }
}

/// The cursor in real weston: read from the window's theme, set as the pointer enters (while an
/// animation runs too), at its hotspot, and changed with the theme.
@MainActor
@Suite struct CursorInWestonTests {
    let magenta: UInt32 = 0xffff_00ff
    let cyan: UInt32 = 0xff00_ffff

    func theme(_ dir: ThemeDirectory, name: String, color: UInt32, hotspot: (Int, Int)) throws -> CursorTheme {
        try dir.add(
            theme: name,
            cursors: [
                "left_ptr": XcursorWriter.bytes([XcursorWriter.solid(size: 8, side: 8, hotspot: hotspot, color: color)])
            ])
        return CursorTheme(name: name, size: 8, searchPath: [dir.path])
    }

    /// The output's pixels of `color` in `capture`, as their bounding box.
    func box(of color: UInt32, in capture: Canvas) -> PixelRect? {
        var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
        for y in 0..<capture.height {
            for x in 0..<capture.width where capture.pixel(x: x, y: y) == color {
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        return x0 <= x1 ? PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1) : nil
    }

    @Test func theThemesCursorShowsAtItsHotspotAsThePointerEntersMidFling() throws {
        let dir = try ThemeDirectory()
        let (rig, app, _) = try startScene(.list, width: 390, height: 600)
        app.window.cursorTheme = try theme(dir, name: "Probe", color: magenta, hotspot: (2, 3))
        try rig.parkPointer()
        try app.settle()
        // A fling runs: the window is not idle as the pointer enters, and the cursor is set at
        // the enter all the same (read from its one file, not a whole theme loaded at rest).
        try flick(rig, app, from: Point(x: 195, y: 500), step: Point(x: 0, y: -60))
        #expect(app.window.content.hasActiveAnimations)
        try WestonTarget(rig: rig, app: app).send(from: 2000) { $0.pointer(to: Point(x: 100, y: 200), at: 0) }
        try rig.input.roundtrip()
        try app.catchUp()
        #expect(app.connection.input.pointer?.cursorPending == false)
        #expect(app.window.content.hasActiveAnimations, "the fling ended before the check; the enter was at rest")
        try app.settle()
        #expect(box(of: magenta, in: try rig.capture()) == PixelRect(x: 98, y: 197, width: 8, height: 8))
        // Another theme shows at once where the pointer is.
        app.window.cursorTheme = try theme(dir, name: "Other", color: cyan, hotspot: (0, 0))
        try app.settle()
        let after = try rig.capture()
        #expect(box(of: cyan, in: after) == PixelRect(x: 100, y: 200, width: 8, height: 8))
        #expect(box(of: magenta, in: after) == nil)
    }

    /// Where no theme file has the cursor, libwayland-cursor's own theme gives one once the
    /// window is idle: the pointer over the window still shows a cursor.
    @Test func withoutAThemeFileLibwaylandCursorsOwnShowsOnceIdle() throws {
        let (rig, app, _) = try startScene(.list, width: 390, height: 600)
        app.window.cursorTheme = CursorTheme(name: "none-such", size: 24, searchPath: [])
        try rig.parkPointer()
        try app.settle()
        let parked = try rig.capture()
        try WestonTarget(rig: rig, app: app).send(from: 2000) { $0.pointer(to: Point(x: 100, y: 200), at: 0) }
        try app.settle()
        #expect(app.connection.input.pointer?.cursorPending == false)
        #expect(!(try rig.capture()).pixelsEqual(parked), "no cursor showed")
    }
}
