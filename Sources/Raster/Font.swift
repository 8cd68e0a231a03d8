import Dispatch
import ScrollwayCFcft
import ScrollwayGeometry
import Synchronization

/// A font family at a logical pixel size, rasterized by fcft (fontconfig + FreeType into pixman
/// glyph images). Each device scale gets its own fcft instance at `size × scale` pixels, so text
/// is crisp at scale 2 instead of scaled up.
///
/// Glyphs are cached by fcft itself (per font instance, a hash table of rasterized glyphs), so
/// drawing the same text again does not rasterize it again.
///
/// Text is shaped (HarfBuzz through fcft's text runs, see `Shaping` and `FcftFont.shape`),
/// broken into lines (`LineBreaks`) and ordered right to left where the Unicode Bidirectional
/// Algorithm says (`BidiParagraph`, fribidi); docs/architecture.md tells the whole path.
///
/// Threads: a `Font` may be shared by threads (tiles draw text on worker threads). fcft's own
/// API is thread safe: `fcft_from_name` and `fcft_destroy` since 2.1.0, `fcft_kerning` since
/// 2.2.2, `fcft_rasterize_char_utf32` and `fcft_rasterize_grapheme_utf32` guard each
/// instance's glyph and grapheme caches with read-write locks and rasterize under the
/// instance's mutex, and `fcft_rasterize_text_run_utf32` shapes under that mutex (fcft's
/// CHANGELOG and fcft.c; Debian 12 ships 3.1.5). What fcft hands back is not: a glyph's `pix` is
/// one pixman image shared by every thread (a cached glyph's by everyone drawing that font, a
/// text run's by every layout holding the cached `ShapedSegment`), and pixman validates an
/// image lazily on its first composite (`_pixman_image_validate` writes its flags while
/// `dirty`), so two threads compositing a new glyph at once race on that write.
/// `Canvas.drawText` therefore composites glyphs through pixman only under a lock chosen by the
/// fcft instance's address (`FcftFont.compositingGlyphs`, `GlyphLocks`): fcft hands the same
/// `fcft_font` (and so the same glyph images) to every caller whose pattern matches, so two
/// `Font`s of one family and size, or 15 px at scale 2 and 30 px at scale 1, share a lock. Only
/// the compositing is under it: glyphs are shaped and rasterized (fcft locks its own caches) and
/// laid out before, so one string's compositing at a time per fcft instance is all threads
/// wait for. Text of coverage glyphs alone drawn without a clip (a label's) needs no lock: it
/// is blended from the glyphs' bits (`CoverageBlend`), which only reads them. The table of
/// instances and each instance's cache of shaped segments are behind mutexes too, held only to
/// read or store.
public final class Font: Sendable {
    /// The fontconfig family, e.g. "DejaVu Sans".
    public let family: String
    /// Size in logical pixels (em height).
    public let size: Double
    /// Extra fontconfig attributes (":weight=bold"), appended to the pattern.
    public let attributes: String
    private let instances = Mutex<[Double: FcftFont]>([:])
    /// Short texts laid out lately, whole (`RecentLayouts`). Here, not in an instance: a layout
    /// keeps its instance alive, and an instance keeping its layouts would never be freed.
    let recentLayouts = Mutex(RecentLayouts(capacity: Font.recentLayoutCount))
    /// How many layouts `recentLayouts` keeps: a few screenfuls of list rows.
    static let recentLayoutCount = 384
    /// How text is shaped: the best fcft offers; tests pick a lower level to compare with.
    let shaping: Shaping

    /// The UI font labels, buttons and fields use when they are given none: `system()`, or nil
    /// (text is then not drawn) with an error logged once under "scrollway.raster", so a
    /// machine without the font says why its windows show no text.
    public static let standard: Font? = {
        do {
            return try Font.system()
        } catch {
            Diagnostics.raster.error(
                "no UI font: \(error) (Scrollway draws text with DejaVu Sans: install fonts-dejavu-core); text is not drawn"
            )
            return nil
        }
    }()

    /// The default UI font (DejaVu Sans at 15 px, from fonts-dejavu-core).
    public static func system(size: Double = 15, bold: Bool = false) throws -> Font {
        try Font(family: "DejaVu Sans", size: size, attributes: bold ? ":weight=bold" : "")
    }

    /// Fails when fcft cannot start or fontconfig finds nothing for the family.
    public convenience init(family: String, size: Double, attributes: String = "") throws {
        try self.init(family: family, size: size, attributes: attributes, shaping: .best)
    }

    init(family: String, size: Double, attributes: String = "", shaping: Shaping) throws {
        precondition(size > 0 && size.isFinite, "font size must be positive and finite")
        self.family = family
        self.size = size
        self.attributes = attributes
        self.shaping = shaping
        _ = try instance(scale: 1)
    }

    /// The fcft instance for a device scale (created on first use).
    ///
    /// The mutex guards only the table (a `Font` is shared by threads, and the table changes
    /// when a new scale is first used). `fcft_from_name` (fontconfig matching and FreeType
    /// loading, milliseconds) runs outside it, so a thread that wants an instance already made
    /// (the main thread drawing a label) never waits while a worker makes another. It is thread
    /// safe, and for an equal pattern returns fcft's cached instance with one more reference, so
    /// when two threads race to make the same scale, the one stored second is simply dropped
    /// (its `fcft_destroy` releases that reference only).
    func instance(scale: Double) throws -> FcftFont {
        if let f = instances.withLock({ $0[scale] }) { return f }
        let made = try FcftFont(pattern: "\(family):pixelsize=\(size * scale)\(attributes)", shaping: shaping)
        return instances.withLock { table in
            if let f = table[scale] { return f }
            table[scale] = made
            return made
        }
    }

    /// Ascent, descent and line height in logical pixels at `scale`.
    public func metrics(scale: Double = 1) -> FontMetrics {
        guard let f = try? instance(scale: scale) else {
            return FontMetrics(ascent: size, descent: 0, lineHeight: size)
        }
        let font = f.pointer.pointee
        return FontMetrics(
            ascent: Double(font.ascent) / scale, descent: Double(font.descent) / scale,
            lineHeight: Double(font.height) / scale)
    }
}

/// Vertical font metrics in logical pixels.
public struct FontMetrics: Equatable, Sendable {
    public var ascent: Double
    public var descent: Double
    public var lineHeight: Double
}

/// One fcft font instance; destroyed with its owner (and with the last `TextLayout` made from
/// it: a layout keeps the instance whose cached glyph images it places). `@unchecked Sendable`:
/// fcft's font API is thread safe, the pointer is never freed while a `Font` or a layout holds
/// this, its glyph images are composited through pixman only under `compositingGlyphs` (see
/// `Font`; blending their bits only reads them), and the shaped segments are behind a mutex.
final class FcftFont: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<fcft_font>
    let shaping: Shaping
    /// Shaped segments by text (see `ShapeCache`).
    let shapes = Mutex(ShapeCache<ShapedSegment>(generationSize: 2048))
    /// Shaped paragraphs by text, laid out from character 0 (see `paragraph(_:characterBase:scale:)`).
    let paragraphs = Mutex(ShapeCache<ShapedParagraph>(generationSize: 128))

    init(pattern: String, shaping: Shaping = .best) throws {
        self.shaping = shaping
        guard FcftLibrary.ready else { throw RasterError.fontLibraryUnavailable }
        let font = pattern.withCString { name -> UnsafeMutablePointer<fcft_font>? in
            var names: [UnsafePointer<CChar>?] = [name]
            return fcft_from_name(1, &names, nil)
        }
        guard let font else { throw RasterError.fontNotFound(pattern) }
        pointer = font
    }

    deinit { fcft_destroy(pointer) }

    /// Runs `body`, which composites this instance's glyph images, one thread at a time.
    /// The lock is per fcft instance, not per `FcftFont`: see `GlyphLocks`.
    func compositingGlyphs(_ body: () -> Void) {
        GlyphLocks.lock(for: UnsafeRawPointer(pointer)).withLock(body)
    }

    /// The rasterized glyph for a code point (fcft caches it), or nil if it cannot.
    func glyph(_ scalar: Unicode.Scalar) -> UnsafePointer<fcft_glyph>? {
        fcft_rasterize_char_utf32(pointer, scalar.value, FCFT_SUBPIXEL_NONE)
    }

    /// Horizontal kerning between two code points in device pixels (0 when the font has none).
    /// Pairs of printable ASCII characters are kept once asked (`asciiKerning`).
    func kerning(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Int {
        let pair = Self.asciiPair(left, right)
        if let pair {
            let known = asciiKerning.withLock { $0[pair] }
            if known != Self.unknownKerning { return Int(known) }
        }
        let k = fcftKerning(left, right)
        if let pair, let small = Int16(exactly: k), small != Self.unknownKerning {
            asciiKerning.withLock { $0[pair] = small }
        }
        return k
    }

    /// fcft's kerning between two code points, asked now.
    func fcftKerning(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Int {
        var x = 0
        var y = 0
        return fcft_kerning(pointer, left.value, right.value, &x, &y) ? x : 0
    }

    /// Kerning between printable ASCII characters (`asciiPair`), `unknownKerning` until asked.
    ///
    /// Why: text is shaped in segments cut at spaces and digits (`ShapedParagraph`), so a list
    /// row's "Row 1234" asks fcft for the kerning across six segment edges each time it is laid
    /// out, and each ask takes fcft's lock and two FreeType lookups, a measurable share of the
    /// layout of the rows a fast drag brings in (docs/decisions.md).
    private let asciiKerning = Mutex([Int16](repeating: FcftFont.unknownKerning, count: 95 * 95))
    private static let unknownKerning = Int16.min

    /// The index of a pair of printable ASCII characters (U+0020 to U+007E) in `asciiKerning`.
    private static func asciiPair(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Int? {
        let (l, r) = (Int(left.value) - 0x20, Int(right.value) - 0x20)
        guard (0..<95).contains(l), (0..<95).contains(r) else { return nil }
        return l * 95 + r
    }
}

/// The locks held while glyph images are composited, chosen by the fcft instance's address.
///
/// Why process-wide: fcft caches fonts globally (`fcft_from_name` returns the existing
/// `fcft_font`, reference counted, when the fontconfig pattern matches), so the glyph images a
/// lock must guard belong to the fcft instance, which several `Font` objects may share without
/// knowing. A lock per `Font` would let two of them composite one glyph image at once.
///
/// Why striped and immutable: a table keyed by pointer would need entries added and removed as
/// fonts come and go (mutable global state, and a pointer can be reused after `fcft_destroy`).
/// A fixed array of locks indexed by the address never changes: equal instances always map to
/// the same lock, unequal ones rarely share one (which only costs some parallelism).
enum GlyphLocks {
    /// One lock; a class so the array can hold it (`Mutex` is not copyable).
    final class Lock: Sendable {
        private let mutex = Mutex(())
        func withLock(_ body: () -> Void) { mutex.withLock { _ in body() } }
    }

    /// A prime count, so allocator alignment does not crowd addresses onto a few stripes.
    static let stripes: [Lock] = (0..<31).map { _ in Lock() }

    static func lock(for instance: UnsafeRawPointer) -> Lock {
        stripes[Int(UInt(bitPattern: instance) % UInt(stripes.count))]
    }
}

/// fcft's process-wide initialisation, done exactly once. fcft keeps global state (font cache,
/// FreeType and fontconfig); it is initialised on first use and never finalised, because
/// `fcft_fini` would pull fontconfig from under any font still alive. Every fcft user in this
/// process (tests included) goes through here.
public enum FcftLibrary {
    /// True once fcft is initialised (a `static let`: lazily, once, thread safe, immutable).
    public static let ready: Bool = fcft_init(FCFT_LOG_COLORIZE_NEVER, false, FCFT_LOG_CLASS_ERROR)

    /// Starts initialising fcft on another thread and returns at once; a no-op after the first
    /// call. fcft's initialisation is fontconfig's: reading its configuration files and font
    /// caches, which otherwise the first font asked for waits on, in the middle of building
    /// the first scene (docs/decisions.md, "fontconfig started early"). Called in `main` as
    /// soon as the limits are checked, it overlaps the process's own start (parsing options,
    /// building views until the first label wants its font); a font asked for sooner waits for
    /// `ready` only for what is left of it. It is one more thread opening files: a process that
    /// caps its malloc arenas does so first, and one held to a few descriptors leaves it out
    /// (the `scrollway` command's `main` does both).
    public static func startInBackground() { _ = starter }

    private static let starter: Void = DispatchQueue.global(qos: .userInitiated).async { _ = ready }
}
