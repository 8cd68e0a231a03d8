import Glibc
import ScrollwayGeometry
import ScrollwayWaylandCore

/// Where a pointer cursor's image comes from: an Xcursor theme by name, at a size, looked up
/// along a search path, as libXcursor and libwayland-cursor look it up.
///
/// Why not `wl_cursor_theme_load`: it reads every cursor of the theme to show one, with the main
/// thread blocked, so the first wheel click or motion after the pointer entered waited for it
/// (the times: docs/decisions.md, "A cursor read from its one file"). This reads the one file the
/// cursor is in: its table of contents and the one image of the nearest size. Where no file is
/// found (no theme installed), the window falls back on libwayland-cursor, whose built-in cursors
/// need no files.
public struct CursorTheme: Sendable, Equatable {
    /// The theme's directory name (`Adwaita`; `default` is what a desktop points at its choice).
    public var name: String
    /// The cursor's nominal size in logical pixels (a file's nearest size is used, at the
    /// output's scale).
    public var size: Int
    /// The directories themes are looked for in, first to last.
    public var searchPath: [String]

    public init(name: String, size: Int, searchPath: [String]) {
        self.name = name
        self.size = min(max(size, 1), 512)
        self.searchPath = searchPath
    }

    /// The theme the environment names, as libwayland-cursor reads it: `XCURSOR_THEME`
    /// (`default` when unset), `XCURSOR_SIZE` (24 when unset or not a number; kept to 1–512),
    /// and `XCURSOR_PATH` (colon-separated) or the usual directories, `~` being `HOME`.
    public static func fromEnvironment(_ env: [String: String]) -> CursorTheme {
        let name = env["XCURSOR_THEME"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let size = env["XCURSOR_SIZE"].flatMap { Int($0) } ?? 24
        let home = env["HOME"] ?? ""
        let path: String
        if let p = env["XCURSOR_PATH"], !p.isEmpty {
            path = p
        } else {
            let dataHome = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "~/.local/share"
            path =
                "\(dataHome)/icons:~/.icons:/usr/share/icons:/usr/share/pixmaps:~/.cursors:"
                + "/usr/share/cursors/xorg-x11:/usr/X11R6/lib/X11/icons"
        }
        let dirs = path.split(separator: ":").compactMap { part -> String? in
            guard !part.isEmpty else { return nil }
            if part.hasPrefix("~") {
                guard !home.isEmpty else { return nil }
                return home + part.dropFirst()
            }
            return String(part)
        }
        return CursorTheme(name: name, size: size, searchPath: dirs)
    }

    /// The environment's theme (`fromEnvironment` of this process's).
    public static var standard: CursorTheme {
        var env: [String: String] = [:]
        for key in ["XCURSOR_THEME", "XCURSOR_SIZE", "XCURSOR_PATH", "XDG_DATA_HOME", "HOME"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return fromEnvironment(env)
    }

    /// Themes inherited through more levels than this are not looked in (a loop of `Inherits`
    /// lines ends here too, besides the themes already seen).
    static let deepestInheritance = 16

    /// The file that holds the first of `names` this theme or a theme it inherits has, looking
    /// for each name through the whole chain before the next name (so `left_ptr` in an
    /// inherited theme wins over `default` in this one); nil when none has any.
    public func file(for names: [String]) -> String? {
        for cursorName in names where Self.isPlainName(cursorName) {
            var seen: Set<String> = []
            if let found = file(cursorName, theme: name, depth: 0, seen: &seen) { return found }
        }
        return nil
    }

    private func file(_ cursorName: String, theme: String, depth: Int, seen: inout Set<String>) -> String? {
        guard depth <= Self.deepestInheritance, Self.isPlainName(theme), seen.insert(theme).inserted else {
            return nil
        }
        var inherits: [String]?
        for dir in searchPath {
            let path = "\(dir)/\(theme)/cursors/\(cursorName)"
            if Self.isReadableFile(path) { return path }
            // The first index.theme found along the path says what the theme inherits.
            let index = "\(dir)/\(theme)/index.theme"
            if inherits == nil, Self.isReadableFile(index), let text = SmallFile.text(index, limit: 64 << 10) {
                inherits = Self.inheritedThemes(text)
            }
        }
        for parent in inherits ?? [] {
            if let found = file(cursorName, theme: parent, depth: depth + 1, seen: &seen) { return found }
        }
        return nil
    }

    /// The themes an index.theme's `Inherits` line names, in order (separated by commas,
    /// semicolons or spaces).
    static func inheritedThemes(_ indexTheme: String) -> [String] {
        for line in indexTheme.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("Inherits") else { continue }
            let rest = trimmed.dropFirst("Inherits".count).drop(while: { $0 == " " || $0 == "\t" })
            guard rest.first == "=" else { continue }
            return rest.dropFirst().split(whereSeparator: { " \t,;".contains($0) }).map(String.init)
        }
        return []
    }

    /// A name that stays one path component (a theme or cursor name from the environment or an
    /// index.theme is never a path).
    static func isPlainName(_ s: String) -> Bool {
        !s.isEmpty && s != "." && s != ".." && !s.contains("/") && !s.contains("\0")
    }

    private static func isReadableFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    /// The image of the first of `names` found (`file(for:)`) at `pixelSize` device pixels
    /// (the file's nearest size), or nil when no theme has one or its file cannot be read as
    /// an Xcursor file (then the caller falls back).
    public func image(for names: [String], pixelSize: Int) -> XcursorImage? {
        guard let path = file(for: names) else { return nil }
        return try? XcursorImage.read(path: path, nominalSize: pixelSize)
    }
}

/// One image of an Xcursor file: premultiplied ARGB pixels in host order, which is
/// `WL_SHM_FORMAT_ARGB8888`'s layout, and its hotspot.
///
/// The format (libXcursor's `xcursor.c`, all little-endian 32-bit words): a header (`Xcur`,
/// its length, a version, the number of table entries), a table of (type, subtype, position)
/// entries, and chunks; an image chunk (type 0xfffd0002, subtype its nominal size) is a
/// 36-byte header (length, type, subtype, version, width, height, x and y hotspot, delay)
/// followed by width × height pixels. An animated cursor has several images of one size; the
/// first is shown.
public struct XcursorImage: Sendable, Equatable {
    public let nominalSize: Int
    public let width: Int
    public let height: Int
    public let hotspotX: Int
    public let hotspotY: Int
    public let pixels: [UInt32]

    static let magic: UInt32 = 0x7275_6358  // "Xcur"
    static let imageType: UInt32 = 0xfffd_0002
    /// libXcursor's limits: images up to 0x7fff px on a side, tables of up to 0x10000 entries.
    static let largestSide = 0x7fff
    static let mostEntries = 0x10000
    /// Ours besides: at most 2048 × 2048 pixels, twice the largest cursor asked for
    /// (`XCURSOR_SIZE` 512 at scale 2) on a side; a file claiming more is not read into memory.
    static let mostPixels = 2048 * 2048

    public init(nominalSize: Int, width: Int, height: Int, hotspotX: Int, hotspotY: Int, pixels: [UInt32]) {
        self.nominalSize = nominalSize
        self.width = width
        self.height = height
        self.hotspotX = hotspotX
        self.hotspotY = hotspotY
        self.pixels = pixels
    }

    /// The first image of the size nearest `nominalSize` in the Xcursor file at `path` (the
    /// first such size in the table on a tie, as libXcursor picks); reads only the table and
    /// that image.
    public static func read(path: String, nominalSize: Int) throws(XcursorError) -> XcursorImage {
        // Not blocking: a FIFO put where a cursor should be must not hold the window up.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw XcursorError(path: path, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw XcursorError(path: path, "cannot read its size") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw XcursorError(path: path, "not a regular file") }
        let fileSize = Int(st.st_size)
        func words(at offset: Int, count: Int, _ what: String) throws(XcursorError) -> [UInt32] {
            guard offset >= 0, count >= 0, offset <= fileSize, count <= (fileSize - offset) / 4 else {
                throw XcursorError(path: path, "\(what) at byte \(offset) runs past the end (\(fileSize) bytes)")
            }
            var out = [UInt32](repeating: 0, count: count)
            let want = count * 4
            let got = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, want, off_t(offset)) }
            guard got == want else { throw XcursorError(path: path, "\(what) at byte \(offset): short read") }
            return out.map { UInt32(littleEndian: $0) }
        }
        let header = try words(at: 0, count: 4, "the header")
        guard header[0] == magic else { throw XcursorError(path: path, "not an Xcursor file (no Xcur magic)") }
        let headerLength = Int(header[1])
        let entries = Int(header[3])
        guard headerLength >= 16, entries <= mostEntries else {
            throw XcursorError(path: path, "header length \(headerLength) or \(entries) table entries out of range")
        }
        let table = try words(at: headerLength, count: entries * 3, "the table of contents")
        // Nearest size first, then its first image in table order.
        var chosen: (size: Int, entry: Int)?
        for i in 0..<entries where table[3 * i] == imageType {
            let size = Int(table[3 * i + 1])
            if let c = chosen, abs(size - nominalSize) >= abs(c.size - nominalSize) { continue }
            chosen = (size, i)
        }
        guard let (best, entry) = chosen else { throw XcursorError(path: path, "no image in its table of contents") }
        let position = Int(table[3 * entry + 2])
        let chunk = try words(at: position, count: 9, "the image header")
        guard chunk[0] == 36, chunk[1] == imageType, Int(chunk[2]) == best else {
            throw XcursorError(path: path, "the image at byte \(position) does not match its table entry")
        }
        let (width, height, hx, hy) = (Int(chunk[4]), Int(chunk[5]), Int(chunk[6]), Int(chunk[7]))
        guard (1...largestSide).contains(width), (1...largestSide).contains(height), width * height <= mostPixels
        else {
            throw XcursorError(
                path: path,
                "the image at byte \(position) is \(width)×\(height) (1 to \(largestSide) px a side, "
                    + "at most \(mostPixels) pixels)")
        }
        guard hx <= width, hy <= height else {
            throw XcursorError(
                path: path,
                "the image at byte \(position) has its hotspot at (\(hx), \(hy)), outside \(width)×\(height)")
        }
        let pixels = try words(at: position + 36, count: width * height, "the image's pixels")
        return XcursorImage(nominalSize: best, width: width, height: height, hotspotX: hx, hotspotY: hy, pixels: pixels)
    }
}

/// An Xcursor file that could not be read: which, and what was wrong.
public struct XcursorError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}
