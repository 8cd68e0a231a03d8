import Glibc
import ScrollwayCFcft
import ScrollwayCPixman
import ScrollwayGeometry
import Synchronization

/// How text is turned into glyphs: the best that the installed fcft offers, chosen once.
///
/// - `textRun`: fcft shapes a whole run with HarfBuzz (`fcft_rasterize_text_run_utf32`):
///   ligatures, Arabic joining, Indic reordering, mark positioning.
/// - `grapheme`: fcft shapes each grapheme cluster alone (`fcft_rasterize_grapheme_utf32`):
///   combining marks are placed, but letters do not join across clusters.
/// - `character`: one glyph per code point (`fcft_rasterize_char_utf32`), as fcft without
///   HarfBuzz can only do.
enum Shaping: Sendable {
    case textRun, grapheme, character

    /// What this process's fcft can do (`fcft_capabilities`); Debian 12's fcft 3.1.5 is built
    /// with HarfBuzz and utf8proc, so it is `textRun` there.
    static let best: Shaping = {
        guard FcftLibrary.ready else { return .character }
        let caps = fcft_capabilities().rawValue
        if caps & FCFT_CAPABILITY_TEXT_RUN_SHAPING.rawValue != 0 { return .textRun }
        if caps & FCFT_CAPABILITY_GRAPHEME_SHAPING.rawValue != 0 { return .grapheme }
        return .character
    }()
}

/// A glyph image placed relative to its cluster's pen position, in device pixels. `y` is the
/// distance from the baseline up to the image's top, as fcft gives it.
struct ShapedGlyph: Equatable, @unchecked Sendable {
    let pix: OpaquePointer
    let x: Int
    let y: Int
}

/// The glyphs shaping tied to one or more whole grapheme clusters (a base and its marks, a
/// ligature, an Arabic letter in its joining form): the unit lines break at, bidi reorders,
/// and the caret steps over. In logical order within its segment.
struct ShapedCluster: Sendable {
    /// The segment's code points this cluster draws (offsets into the segment).
    var scalars: Range<Int>
    /// Its glyphs in `ShapedSegment.glyphs`, in the order shaping emitted them (visual order
    /// inside the cluster).
    var glyphs: Range<Int>
    /// Pen travel in device pixels.
    var advance: Int
    /// The code point whose own glyph draws the cluster, untouched by shaping: the cluster's
    /// one code point, or the precomposed letter of a base and its accent. Such a cluster takes fcft's hinted advance and the font's kerning with a
    /// neighbour of the same kind, exactly as unshaped text did (see `FcftFont.shape`).
    var nominal: Unicode.Scalar?
}

/// One shaped piece of text (a word, a space, a run of one direction): immutable, cached per
/// text in its `FcftFont`, shared by every layout that contains it, on any thread.
///
/// `@unchecked Sendable`: never mutated after `init`. Its glyph images are either fcft's cached
/// glyphs (owned by the font instance, which every `TextLayout` holding this segment keeps
/// alive) or the glyphs of `run`, owned here and freed with `fcft_text_run_destroy`. Either
/// kind is composited through pixman only under the instance's `GlyphLocks` lock (blending a
/// coverage glyph's bits needs none: see `Font`).
final class ShapedSegment: @unchecked Sendable {
    let glyphs: [ShapedGlyph]
    let clusters: [ShapedCluster]
    /// fcft's kerning between each cluster and the one before it when both are nominal (0
    /// otherwise), drawn left to right (`ltr`: previous on the left) or right to left: looked
    /// up once here rather than at every layout.
    let kerning: [(ltr: Int, rtl: Int)]
    private let run: UnsafeMutablePointer<fcft_text_run>?

    init(glyphs: [ShapedGlyph], clusters: [ShapedCluster], run: UnsafeMutablePointer<fcft_text_run>?, font: FcftFont) {
        self.glyphs = glyphs
        self.clusters = clusters
        self.run = run
        kerning = clusters.indices.map { k in
            guard k > 0, let a = clusters[k - 1].nominal, let b = clusters[k].nominal else { return (0, 0) }
            return (font.kerning(a, b), font.kerning(b, a))
        }
    }

    deinit { fcft_text_run_destroy(run) }
}

/// Shaped text by its exact code points (Swift's `String` equality is canonical equivalence,
/// which would hand "é" the shaping of "e" + U+0301), for one font instance: segments (most
/// labels repeat words: "Row", digits, a space) and whole paragraphs (a list's rows repeat
/// their second lines), so a label laid out again (a list cell reused while scrolling) finds
/// its text here instead of shaping it again. Two generations approximate least-recently-used:
/// a hit in the older one moves the entry to the newer, and when the newer is full the older is
/// dropped (its entries freed once no layout holds them).
struct ShapeCache<Value> {
    let generationSize: Int
    private var recent: [[Unicode.Scalar]: Value] = [:]
    private var older: [[Unicode.Scalar]: Value] = [:]
    /// Texts of one ASCII code point (a digit, a space, a letter), by code point: the commonest
    /// segments (shaping cuts numbers into digits), found without building and hashing an
    /// array, and never retired (at most 128; the table is made at the first).
    private var ascii: [Value?] = []

    init(generationSize: Int) { self.generationSize = generationSize }

    /// The value for the one-code-point text `scalar`, which must be ASCII.
    func value(ascii scalar: Unicode.Scalar) -> Value? {
        let i = Self.asciiIndex(scalar)
        return ascii.isEmpty ? nil : ascii[i]
    }

    /// Stores `value` for the one-code-point text `scalar`, which must be ASCII.
    mutating func insert(_ value: Value, ascii scalar: Unicode.Scalar) {
        let i = Self.asciiIndex(scalar)
        if ascii.isEmpty { ascii = [Value?](repeating: nil, count: 128) }
        ascii[i] = value
    }

    /// `scalar`'s place in the ASCII table; anything else is a caller's error.
    private static func asciiIndex(_ scalar: Unicode.Scalar) -> Int {
        precondition(scalar.isASCII, "U+\(String(scalar.value, radix: 16, uppercase: true)) is not ASCII")
        return Int(scalar.value)
    }

    mutating func value(for text: [Unicode.Scalar]) -> Value? {
        if let s = recent[text] { return s }
        guard let s = older[text] else { return nil }
        _ = insert(s, for: text)
        return s
    }

    /// Stores `value`; returns the generation it retired, for the caller to free outside the
    /// lock.
    mutating func insert(_ value: Value, for text: [Unicode.Scalar]) -> [[Unicode.Scalar]: Value] {
        var retired: [[Unicode.Scalar]: Value] = [:]
        if recent.count >= generationSize {
            retired = older
            older = recent
            recent = [:]
        }
        recent[text] = value
        return retired
    }
}

extension Unicode.Scalar {
    /// 0 to 9: what shaping keeps apart and the paragraph cache does not keep.
    var isASCIIDigit: Bool { value >= 0x30 && value <= 0x39 }

    /// A C0 or C1 control code (Unicode's Cc), a tab included.
    var isControl: Bool { value < 0x20 || (value >= 0x7F && value <= 0x9F) }

    /// What a control shows, shaped: a tab a space, any other nothing (a zero width space);
    /// anything else itself.
    var drawn: Unicode.Scalar {
        guard isControl else { return self }
        return value == 0x09 ? " " : "\u{200B}"
    }
}

extension FcftFont {
    /// `text` (one paragraph, no "\n") shaped at `scale` (this instance's) in `direction`, its
    /// characters counted from `characterBase`: from the cache when that text was laid out
    /// lately, else shaped now and kept.
    func paragraph(
        _ text: Substring, characterBase: Int, scale: Double, direction: TextDirection = .natural
    ) -> ShapedParagraph {
        let scalars = Array(text.unicodeScalars)
        // The cache holds paragraphs in their own direction: one given its own is the same one,
        // one given the other (a wrapped line of a paragraph that began in the other script) is
        // shaped from the segment cache and not kept.
        if direction != .natural, TextDirection.of(text) != direction {
            return ShapedParagraph(
                String(text), scalars: scalars, characterBase: characterBase, font: self, direction: direction)
        }
        // Text with digits (row numbers, counters, times) rarely comes again: shaped from the
        // segment cache each time, and not kept, where it would only push out what repeats.
        if scalars.contains(where: \.isASCIIDigit) {
            return ShapedParagraph(String(text), scalars: scalars, characterBase: characterBase, font: self)
        }
        if let p = paragraphs.withLock({ $0.value(for: scalars) }) { return p.rebased(characterBase) }
        var made = ShapedParagraph(String(text), scalars: scalars, characterBase: 0, font: self)
        made.wholeLine = made.line(made.all, ellipsis: nil, scale: scale)
        let retired = paragraphs.withLock { $0.insert(made, for: scalars) }
        _ = retired  // released here, outside the lock
        return made.rebased(characterBase)
    }

    /// The shaped segment for `text` (one direction, no line break inside that shaping should
    /// see), from the cache or shaped now.
    func segment(_ text: [Unicode.Scalar]) -> ShapedSegment {
        if let s = shapes.withLock({ $0.value(for: text) }) { return s }
        let made = shape(text)
        let retired = shapes.withLock { $0.insert(made, for: text) }
        _ = retired  // released here, outside the lock
        return made
    }

    /// The shaped segment for one ASCII code point (see `ShapeCache.value(ascii:)`); anything
    /// else is a programming error.
    func segment(ascii scalar: Unicode.Scalar) -> ShapedSegment {
        if let s = shapes.withLock({ $0.value(ascii: scalar) }) { return s }
        let made = shape([scalar])
        shapes.withLock { $0.insert(made, ascii: scalar) }
        return made
    }

    /// Shapes `scalars` with `shaping`, falling back a level when fcft cannot (a code point no
    /// font has makes a text run fail as a whole).
    ///
    /// Why nominal clusters keep fcft's own glyph and advance: fcft positions shaped glyphs
    /// with HarfBuzz's unhinted advances truncated to whole pixels, while the images are
    /// hinted; text drawn that way runs narrower than the same text unshaped (a 17-letter label
    /// loses 12 px) and its letters sit unevenly. Where shaping left a character alone (its
    /// glyph image is the one `fcft_rasterize_char_utf32` gives), the hinted advance plus
    /// `fcft_kerning` keeps Latin text exactly as it was drawn before shaping; where shaping
    /// changed something (a ligature, a joined Arabic form, a placed mark, a reordered vowel),
    /// HarfBuzz's glyphs and positions are used.
    func shape(_ scalars: [Unicode.Scalar]) -> ShapedSegment {
        if scalars.isEmpty { return ShapedSegment(glyphs: [], clusters: [], run: nil, font: self) }
        switch shaping {
        case .textRun:
            if let s = shapeRun(scalars) { return s }
            return shapeGraphemes(scalars, useFcft: Shaping.best != .character)
        case .grapheme: return shapeGraphemes(scalars, useFcft: true)
        case .character: return shapeGraphemes(scalars, useFcft: false)
        }
    }

    private func shapeRun(_ scalars: [Unicode.Scalar]) -> ShapedSegment? {
        let codes = scalars.map(\.value)
        let made = codes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<fcft_text_run>? in
            guard let base = buffer.baseAddress else { return nil }
            return fcft_rasterize_text_run_utf32(pointer, buffer.count, base, FCFT_SUBPIXEL_NONE)
        }
        guard let run = made else { return nil }
        let count = run.pointee.count
        guard count > 0, let runGlyphs = run.pointee.glyphs, let runClusters = run.pointee.cluster else {
            fcft_text_run_destroy(run)
            return nil
        }
        // HarfBuzz emits glyphs in visual order per script run, each tagged with the first code
        // point of its cluster; gather them per cluster, keeping their emitted order.
        var byStart: [Int: [UnsafePointer<fcft_glyph>]] = [:]
        for i in 0..<count {
            guard let g = runGlyphs[i] else { continue }
            let start = Int(runClusters[i])
            guard start >= 0 && start < scalars.count else { continue }
            byStart[start, default: []].append(g)
        }
        var starts = byStart.keys.sorted()
        if starts.first != 0 {
            // Code points before the first glyph (none in practice) join the first cluster.
            let first = starts.first ?? 0
            byStart[0] = byStart[first] ?? []
            byStart[first] = nil
            starts = byStart.keys.sorted()
        }
        var glyphs: [ShapedGlyph] = []
        var clusters: [ShapedCluster] = []
        var ownsGlyphs = false
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : scalars.count
            let list = byStart[start] ?? []
            let first = glyphs.count
            if list.count == 1, let character = nominalCharacter(scalars[start..<end]),
                let own = glyph(character), Self.sameImage(own.pointee, list[0].pointee)
            {
                let g = own.pointee
                if let pix = g.pix { glyphs.append(ShapedGlyph(pix: pix, x: Int(g.x), y: Int(g.y))) }
                clusters.append(
                    ShapedCluster(
                        scalars: start..<end, glyphs: first..<glyphs.count, advance: Int(g.advance.x),
                        nominal: character))
                continue
            }
            var pen = 0
            for p in list {
                let g = p.pointee
                if let pix = g.pix {
                    glyphs.append(ShapedGlyph(pix: pix, x: pen + Int(g.x), y: Int(g.y)))
                    ownsGlyphs = true
                }
                pen += Int(g.advance.x)
            }
            clusters.append(
                ShapedCluster(scalars: start..<end, glyphs: first..<glyphs.count, advance: pen, nominal: nil))
        }
        if !ownsGlyphs {
            // Every cluster drew fcft's cached glyphs: the run's own images are not needed.
            fcft_text_run_destroy(run)
            return ShapedSegment(glyphs: glyphs, clusters: clusters, run: nil, font: self)
        }
        return ShapedSegment(glyphs: glyphs, clusters: clusters, run: run, font: self)
    }

    /// The one code point a cluster may be drawn as unshaped: itself when it is one, the
    /// precomposed letter when it is a base and one combining mark that Unicode composes
    /// ("e" + U+0301 is "é"; HarfBuzz draws the font's precomposed glyph for it), else nil.
    private func nominalCharacter(_ cluster: ArraySlice<Unicode.Scalar>) -> Unicode.Scalar? {
        if cluster.count == 1 { return cluster.first }
        guard cluster.count == 2, let base = cluster.first, let mark = cluster.last else { return nil }
        let composed = fcft_precompose(pointer, base.value, mark.value, nil, nil, nil)
        return composed == UInt32.max ? nil : Unicode.Scalar(composed)
    }

    /// One cluster per grapheme: a single code point draws its own glyph; several are shaped
    /// together by fcft when `useFcft` (its grapheme cache owns the glyphs), else drawn one
    /// after another.
    private func shapeGraphemes(_ scalars: [Unicode.Scalar], useFcft: Bool) -> ShapedSegment {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        var glyphs: [ShapedGlyph] = []
        var clusters: [ShapedCluster] = []
        var offset = 0
        for character in String(view) {
            let cluster = Array(character.unicodeScalars)
            let first = glyphs.count
            let range = offset..<(offset + cluster.count)
            offset += cluster.count
            if cluster.count == 1 {
                let g = glyph(cluster[0])?.pointee
                if let pix = g?.pix { glyphs.append(ShapedGlyph(pix: pix, x: Int(g?.x ?? 0), y: Int(g?.y ?? 0))) }
                clusters.append(
                    ShapedCluster(
                        scalars: range, glyphs: first..<glyphs.count, advance: Int(g?.advance.x ?? 0),
                        nominal: cluster[0]))
                continue
            }
            var parts: [fcft_glyph] = []
            if useFcft, let shaped = graphemeGlyphs(cluster) {
                parts = shaped
            } else {
                parts = cluster.compactMap { glyph($0)?.pointee }
            }
            var pen = 0
            for g in parts {
                if let pix = g.pix { glyphs.append(ShapedGlyph(pix: pix, x: pen + Int(g.x), y: Int(g.y))) }
                pen += Int(g.advance.x)
            }
            clusters.append(ShapedCluster(scalars: range, glyphs: first..<glyphs.count, advance: pen, nominal: nil))
        }
        return ShapedSegment(glyphs: glyphs, clusters: clusters, run: nil, font: self)
    }

    /// fcft's shaped glyphs for one grapheme cluster (cached by fcft), or nil.
    private func graphemeGlyphs(_ cluster: [Unicode.Scalar]) -> [fcft_glyph]? {
        let codes = cluster.map(\.value)
        let shaped = codes.withUnsafeBufferPointer { buffer -> UnsafePointer<fcft_grapheme>? in
            guard let base = buffer.baseAddress else { return nil }
            return fcft_rasterize_grapheme_utf32(pointer, buffer.count, base, FCFT_SUBPIXEL_NONE)
        }
        guard let g = shaped?.pointee, g.count > 0, let list = g.glyphs else { return nil }
        return (0..<g.count).compactMap { list[$0]?.pointee }
    }

    /// True when two glyphs draw the same image at the same offset: the text run left that
    /// character's glyph alone.
    static func sameImage(_ a: fcft_glyph, _ b: fcft_glyph) -> Bool {
        guard a.x == b.x, a.y == b.y, a.width == b.width, a.height == b.height else { return false }
        switch (a.pix, b.pix) {
        case (nil, nil): return true
        case (let p?, let q?): return samePixels(p, q)
        default: return false
        }
    }

    private static func samePixels(_ p: OpaquePointer, _ q: OpaquePointer) -> Bool {
        let format = pixman_image_get_format(p)
        let w = Int(pixman_image_get_width(p))
        let h = Int(pixman_image_get_height(p))
        guard format == pixman_image_get_format(q), w == Int(pixman_image_get_width(q)),
            h == Int(pixman_image_get_height(q))
        else { return false }
        let rowBytes: Int
        switch format {
        case PIXMAN_a8: rowBytes = w
        case PIXMAN_a1: rowBytes = (w + 7) / 8
        default: rowBytes = 4 * w
        }
        guard rowBytes > 0, h > 0 else { return true }
        guard let dp = pixman_image_get_data(p), let dq = pixman_image_get_data(q) else { return false }
        let sp = Int(pixman_image_get_stride(p))
        let sq = Int(pixman_image_get_stride(q))
        let bp = UnsafeRawPointer(dp)
        let bq = UnsafeRawPointer(dq)
        for y in 0..<h where memcmp(bp + y * sp, bq + y * sq, rowBytes) != 0 { return false }
        return true
    }
}
