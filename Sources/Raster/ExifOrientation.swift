import ScrollwayGeometry

/// How a photo's stored pixels are turned to stand upright: EXIF's Orientation tag (0x0112),
/// which cameras and phones write instead of turning the pixels themselves. The cases are its
/// values 1–8, named by what makes the stored picture upright.
public enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case mirrored = 2
    /// 3: turned half round.
    case halfTurn = 3
    /// 4: mirrored top to bottom.
    case flipped = 4
    /// 5: mirrored across the diagonal from the top left (rows become columns).
    case transposed = 5
    /// 6: turned a quarter clockwise to stand up (a phone held upright, its camera's top to
    /// the right).
    case quarterClockwise = 6
    /// 7: mirrored across the other diagonal.
    case transverse = 7
    /// 8: turned a quarter anticlockwise to stand up.
    case quarterAnticlockwise = 8

    /// Whether the upright picture's width is the stored height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel (x, y) that upright pixel (`x`, `y`) shows, for a stored picture of
    /// `w`×`h`.
    public func source(x: Int, y: Int, storedWidth w: Int, storedHeight h: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .mirrored: return (w - 1 - x, y)
        case .halfTurn: return (w - 1 - x, h - 1 - y)
        case .flipped: return (x, h - 1 - y)
        case .transposed: return (y, x)
        case .quarterClockwise: return (y, h - 1 - x)
        case .transverse: return (w - 1 - y, h - 1 - x)
        case .quarterAnticlockwise: return (w - 1 - y, x)
        }
    }

    /// The orientation a JPEG file's EXIF block (its APP1 "Exif" segment) gives; `.up` when it
    /// has none, or one that cannot be read (the bytes are the file's, so every offset is
    /// checked: a broken or hostile file reads as upright, never traps).
    public init(jpeg bytes: [UInt8]) {
        self = Self.read(bytes) ?? .up
    }

    private static func read(_ b: [UInt8]) -> ExifOrientation? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        // Segments up to the image data (start of scan, 0xDA).
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            let body = i + 4
            let end = i + 2 + length
            if marker == 0xE1, end - body >= 6, Array(b[body..<body + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return tiffOrientation(b, from: body + 6, to: end)
            }
            i = end
        }
        return nil
    }

    /// The Orientation entry of the first image directory of the TIFF structure in
    /// `b[start..<end]`.
    private static func tiffOrientation(_ b: [UInt8], from start: Int, to end: Int) -> ExifOrientation? {
        guard end - start >= 8 else { return nil }
        let little: Bool
        switch (b[start], b[start + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= start, at + 2 <= end else { return nil }
            return little ? Int(b[at]) | Int(b[at + 1]) << 8 : Int(b[at]) << 8 | Int(b[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let c = u16(at + 2) else { return nil }
            return little ? a | c << 16 : a << 16 | c
        }
        guard u16(start + 2) == 42, let ifd = u32(start + 4), ifd <= end - start,
            let entries = u16(start + ifd)
        else { return nil }
        for e in 0..<entries {
            let entry = start + ifd + 2 + 12 * e
            guard let tag = u16(entry) else { return nil }
            // A SHORT (type 3) of one value, held in the entry's value field.
            guard tag == 0x0112 else { continue }
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let value = u16(entry + 8) else { return nil }
            return ExifOrientation(rawValue: value)
        }
        return nil
    }

    /// A new canvas at `scale` holding `stored` turned upright.
    func applied(to stored: Canvas, scale: Double) throws -> Canvas {
        let (w, h) = (stored.width, stored.height)
        let upright = try Canvas(width: swapsAxes ? h : w, height: swapsAxes ? w : h, scale: scale)
        let (uw, uh) = (upright.width, upright.height)
        stored.withPixels { from in
            let fromRow = stored.stride / 4
            upright.withPixels { to in
                let toRow = upright.stride / 4
                for y in 0..<uh {
                    for x in 0..<uw {
                        let s = source(x: x, y: y, storedWidth: w, storedHeight: h)
                        to[y * toRow + x] = from[s.y * fromRow + s.x]
                    }
                }
            }
        }
        return upright
    }
}
