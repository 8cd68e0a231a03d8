import ScrollwayGeometry

/// Lines of text shaped and measured with one font at one device scale: what a label draws and
/// what its `sizeThatFits` reports, computed by the same code so measurement agrees with
/// rendering. A layout holds its shaped glyphs (drawing it shapes nothing again) and keeps the
/// font instance they come from alive.
public struct TextLayout: Equatable, Sendable {
    public struct Line: Equatable, Sendable {
        public var text: String
        /// Advance width in logical pixels (kerning included).
        public var width: Double
        /// The direction of the line's paragraph (from its first strong character): natural
        /// alignment puts a right-to-left line at the right.
        public var isRightToLeft: Bool
        /// The characters (`Character` offsets into the laid-out text) this line shows; an
        /// ellipsis the layout added is not one of them, nor are spaces a wrap left hanging.
        public var characterRange: Range<Int>
        /// Glyphs in visual order, device pixels from the line's left end and its baseline.
        var glyphs: [PlacedGlyph]
        /// Clusters in visual order with the characters they show: where carets go.
        var clusters: [PlacedCluster]
        /// The shaped segments whose glyph images `glyphs` points into.
        var segments: [ShapedSegment]

        public static func == (a: Line, b: Line) -> Bool {
            a.text == b.text && a.width == b.width && a.isRightToLeft == b.isRightToLeft
                && a.characterRange == b.characterRange && a.glyphs == b.glyphs && a.clusters == b.clusters
        }
    }

    public var lines: [Line]
    public var metrics: FontMetrics
    /// The device scale the glyphs were shaped at.
    public var scale: Double
    /// The font instance whose cached glyph images the lines place (nil when there is no font).
    var instance: FcftFont?
    /// For a layout that no width limit would change (nothing wrapped, shortened or dropped,
    /// and no line left for a wrap to trim spaces from): its widest paragraph's whole width in
    /// device pixels. The same text laid out with no limit, or with one at least this wide, is
    /// this layout (`laysOutAlike(within:)`), so a view measured at one width (or none) and
    /// drawn at another lays its text out once. Nil otherwise.
    var widestUncut: Int?

    /// Whether the same text, laid out with the same line count and scale but the width limit
    /// `maxWidth` (logical pixels; nil for none), gives this layout: nothing in it was or would
    /// be cut.
    public func laysOutAlike(within maxWidth: Double?) -> Bool {
        guard let widestUncut else { return false }
        guard let maxWidth, let limit = Font.deviceLimit(maxWidth, scale: scale) else { return true }
        return widestUncut <= limit
    }

    public static func == (a: TextLayout, b: TextLayout) -> Bool {
        a.lines == b.lines && a.metrics == b.metrics && a.scale == b.scale
    }

    /// Width of the widest line and height of all lines, in logical pixels.
    public var size: (width: Double, height: Double) {
        (lines.map(\.width).max() ?? 0, Double(lines.count) * metrics.lineHeight)
    }

    /// Where line `index` starts, from the left of a box `width` wide, with `alignment`.
    public func lineX(_ index: Int, alignment: TextAlignment, width: Double) -> Double {
        let line = lines[index]
        switch alignment.resolved(rightToLeft: line.isRightToLeft) {
        case .center: return (width - line.width) / 2
        case .right: return width - line.width
        default: return 0
        }
    }

    /// The line a caret before character `offset` (a `Character` offset into the laid-out
    /// text) sits on, and its x in logical pixels from that line's left end (add `lineX` for
    /// an aligned box). Carets fall on cluster edges from the shaped glyphs, so a base letter
    /// and its combining marks are one step, and in right-to-left text the caret before a
    /// character is at its right. Inside a ligature (several characters, one cluster) the
    /// cluster's width is shared evenly. An offset at a line's end is after the line's
    /// logically last character; offsets past the text clamp to its end.
    public func caret(forCharacterOffset offset: Int) -> (line: Int, x: Double) {
        guard !lines.isEmpty else { return (0, 0) }
        var index = 0
        for (i, line) in lines.enumerated() where line.characterRange.lowerBound <= offset { index = i }
        let line = lines[index]
        let k = min(max(offset, line.characterRange.lowerBound), line.characterRange.upperBound)
        for c in line.clusters where c.characters.contains(k) {
            let fraction = Double(k - c.characters.lowerBound) / Double(c.characters.count)
            let span = Double(c.right - c.left) * fraction
            return (index, (c.isRightToLeft ? Double(c.right) - span : Double(c.left) + span) / scale)
        }
        // After the logically last cluster: its trailing edge.
        let last = line.clusters.filter { $0.characters.upperBound <= k }.max {
            $0.characters.upperBound < $1.characters.upperBound
        }
        guard let last else { return (index, line.isRightToLeft ? line.width : 0) }
        return (index, Double(last.isRightToLeft ? last.left : last.right) / scale)
    }

    /// Where characters `range` are drawn on line `index`: their clusters' extents in logical
    /// pixels from the line's left end, left to right, neighbours merged (a selection's band).
    /// A run of right-to-left text is one span whose characters run leftwards, and a range across
    /// a change of direction is several; a ligature's characters share its width evenly, as
    /// carets do. Each cluster is read once, where a span per character from carets read every
    /// cluster for each.
    public func spans(forCharacters range: Range<Int>, line index: Int) -> [(left: Double, right: Double)] {
        guard lines.indices.contains(index), !range.isEmpty else { return [] }
        var spans: [(left: Double, right: Double)] = []
        for c in lines[index].clusters {
            let lo = max(range.lowerBound, c.characters.lowerBound)
            let hi = min(range.upperBound, c.characters.upperBound)
            guard lo < hi else { continue }
            let n = Double(c.characters.count)
            let width = Double(c.right - c.left)
            // The share of the cluster from its logical start: from the right in right-to-left.
            let from = width * Double(lo - c.characters.lowerBound) / n
            let to = width * Double(hi - c.characters.lowerBound) / n
            let left = (c.isRightToLeft ? Double(c.right) - to : Double(c.left) + from) / scale
            let right = (c.isRightToLeft ? Double(c.right) - from : Double(c.left) + to) / scale
            if let last = spans.last, abs(last.right - left) < 1e-9 {
                spans[spans.count - 1].right = right
            } else {
                spans.append((left, right))
            }
        }
        return spans
    }

    /// The x of the caret before character `offset`, from the left end of its line (see
    /// `caret(forCharacterOffset:)`): what a single-line, left-aligned field adds to its text's
    /// left edge.
    public func caretX(forCharacterOffset offset: Int) -> Double {
        caret(forCharacterOffset: offset).x
    }
}

/// A glyph image at its place on a line (device pixels: `x` from the line's left end, `y`
/// from the baseline up to the image's top).
struct PlacedGlyph: Equatable, @unchecked Sendable {
    let pix: OpaquePointer
    let x: Int
    let y: Int
}

/// A cluster's characters and horizontal extent on its line, in device pixels.
struct PlacedCluster: Equatable, Sendable {
    let characters: Range<Int>
    let left: Int
    let right: Int
    let isRightToLeft: Bool

    /// The same cluster with its characters counted `base` further on.
    func moved(by base: Int) -> PlacedCluster {
        PlacedCluster(
            characters: (characters.lowerBound + base)..<(characters.upperBound + base), left: left, right: right,
            isRightToLeft: isRightToLeft)
    }
}

/// The ellipsis appended to truncated text.
let ellipsis = "\u{2026}"

extension Font {
    /// The advance width of `text` in logical pixels at `scale`, shaped as it is drawn
    /// (kerning included); for text with line breaks, its widest line.
    public func width(of text: String, scale: Double = 1) -> Double {
        layout(text, scale: scale).size.width
    }

    /// Lays `text` out into lines: hard breaks at every line break ("\n", "\r\n", "\r", a
    /// vertical tab, a form feed, NEL, U+2028, U+2029: `Character.isNewline`, each one
    /// character of `characterRange`'s count), controls shown as nothing but a tab, as a space;
    /// when `maxWidth` is given, lines wrap at
    /// the opportunities `LineBreaks` finds (a word longer than a line breaks between grapheme
    /// clusters); `maxLines` (0 = unlimited) caps the count, and the last line kept ends in an
    /// ellipsis when text was cut. With `maxLines == 1` the one line is truncated with an
    /// ellipsis instead of wrapping. Each line is then ordered for display (right-to-left runs
    /// reversed, see `BidiParagraph`), each paragraph in `direction` (its own by default).
    ///
    /// A short text laid out lately with the same limit, line count, scale and direction comes
    /// from `recentLayouts` (a list scrolled back shows rows it laid out a moment ago).
    public func layout(
        _ text: String, maxWidth: Double? = nil, maxLines: Int = 0, scale: Double = 1,
        direction: TextDirection = .natural
    ) -> TextLayout {
        let limit = maxWidth.flatMap { Self.deviceLimit($0, scale: scale) }
        guard RecentLayouts.keeps(text) else {
            return makeLayout(text, limit: limit, maxLines: maxLines, scale: scale, direction: direction)
        }
        let key = RecentLayouts.Key(text: text, limit: limit, maxLines: maxLines, scale: scale, direction: direction)
        if let kept = recentLayouts.withLock({ $0.layout(for: key) }) { return kept }
        let made = makeLayout(text, limit: limit, maxLines: maxLines, scale: scale, direction: direction)
        // No font: nothing laid out, and nothing to keep (the font may come later).
        guard made.instance != nil else { return made }
        let evicted = recentLayouts.withLock { $0.insert(made, for: key) }
        _ = evicted  // freed here, outside the lock
        return made
    }

    /// `layout`'s work: `limit` is `maxWidth` in device pixels (`deviceLimit`).
    private func makeLayout(
        _ text: String, limit: Int?, maxLines: Int, scale: Double, direction: TextDirection
    ) -> TextLayout {
        let m = metrics(scale: scale)
        guard let f = try? instance(scale: scale) else {
            return TextLayout(lines: [], metrics: m, scale: scale, instance: nil)
        }
        var paragraphs: [ShapedParagraph] = []
        var pieces: [LinePiece] = []
        var truncated = false
        var characterBase = 0
        for text in Self.paragraphs(text) {
            let paragraph = f.paragraph(text, characterBase: characterBase, scale: scale, direction: direction)
            characterBase += paragraph.characterCount + 1
            if let limit, maxLines != 1 {
                for range in paragraph.wrap(limit: limit) { pieces.append(LinePiece(paragraphs.count, range)) }
            } else {
                pieces.append(LinePiece(paragraphs.count, paragraph.all))
            }
            paragraphs.append(paragraph)
            if maxLines > 0 && pieces.count > maxLines {
                truncated = true
                break
            }
        }
        if maxLines > 0 && pieces.count > maxLines {
            pieces.removeLast(pieces.count - maxLines)
            truncated = true
        }
        // The ellipsis is shaped (looked up) only when a line is cut.
        var ellipsisSegment: ShapedSegment?
        func mark() -> ShapedSegment {
            if let ellipsisSegment { return ellipsisSegment }
            let made = f.segment(Array(ellipsis.unicodeScalars))
            ellipsisSegment = made
            return made
        }
        if let limit {
            for i in pieces.indices {
                let mustEllipsize = truncated && i == pieces.count - 1
                let paragraph = paragraphs[pieces[i].paragraph]
                if !mustEllipsize && paragraph.width(pieces[i].clusters) <= limit { continue }
                let (range, dots) = paragraph.fit(
                    pieces[i].clusters, limit: limit, ellipsis: mark(), force: mustEllipsize)
                pieces[i].clusters = range
                pieces[i].ellipsis = dots
            }
        } else if truncated, let last = pieces.indices.last {
            pieces[last].ellipsis = true
        }
        let lines = pieces.map { piece in
            let paragraph = paragraphs[piece.paragraph]
            if !piece.ellipsis, piece.clusters == paragraph.all, let whole = paragraph.wholeLine { return whole }
            return paragraph.line(piece.clusters, ellipsis: piece.ellipsis ? mark() : nil, scale: scale)
        }
        var layout = TextLayout(lines: lines, metrics: m, scale: scale, instance: f)
        // Nothing truncated, every paragraph whole within the limit (wrapping measures ranges
        // of its clusters, none wider than the whole: an advance outweighs any kerning), and,
        // where lines may wrap, none ending in spaces (a wrapped line's are trimmed, an
        // unlimited one's kept): then no limit at least `widest`, nor none, cuts anything.
        if !truncated {
            var widest = 0
            var trimsAlike = true
            for paragraph in paragraphs {
                widest = max(widest, paragraph.width(paragraph.all))
                if maxLines != 1 && paragraph.trimmed(paragraph.all) != paragraph.all { trimsAlike = false }
            }
            if trimsAlike && widest <= limit ?? widest { layout.widestUncut = widest }
        }
        return layout
    }

    /// A width limit in device pixels for `maxWidth` logical pixels at `scale`: nil for a width
    /// beyond any line (or not a number), which does not wrap.
    static func deviceLimit(_ maxWidth: Double, scale: Double) -> Int? {
        let px = (maxWidth * scale + 1e-9).rounded(.down)
        return px.isFinite && px < 1e15 ? Int(clamping: max(px, 0)) : nil
    }

    /// `text` cut at each mandatory line break (an empty paragraph between two in a row, and
    /// after a last one), as `split(omittingEmptySubsequences: false, whereSeparator:
    /// \.isNewline)` cuts it: "\n", "\r\n" (one `Character`), "\r", a vertical tab, a
    /// form feed, NEL, and the line and paragraph separators U+2028 and U+2029 (Unicode's BK,
    /// CR, LF and NL classes). Searched byte by byte in UTF-8 (the generic `split` cost a tenth
    /// of a short label's layout): the single-byte ones are never part of another code point's
    /// encoding, and NEL and the separators are found from their lead bytes, 0xC2 and 0xE2.
    static func paragraphs(_ text: String) -> [Substring] {
        var result: [Substring] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var i = start
        while i < utf8.endIndex {
            let byte = utf8[i]
            var length = 0
            switch byte {
            case 0x0A, 0x0B, 0x0C: length = 1
            case 0x0D:
                let next = utf8.index(after: i)
                length = next < utf8.endIndex && utf8[next] == 0x0A ? 2 : 1
            case 0xC2:
                let next = utf8.index(after: i)
                if next < utf8.endIndex && utf8[next] == 0x85 { length = 2 }
            case 0xE2:
                let second = utf8.index(after: i)
                if utf8.distance(from: second, to: utf8.endIndex) >= 2, utf8[second] == 0x80,
                    utf8[utf8.index(after: second)] == 0xA8 || utf8[utf8.index(after: second)] == 0xA9
                {
                    length = 3
                }
            default: break
            }
            guard length > 0 else {
                i = utf8.index(after: i)
                continue
            }
            result.append(text[start..<i])
            i = utf8.index(i, offsetBy: length)
            start = i
        }
        result.append(text[start...])
        return result
    }
}

/// A line to be: clusters of one paragraph (its index in the layout's paragraphs), and whether
/// it ends in an ellipsis. Plain values: an array of tuples holding the paragraph itself looked
/// its type metadata up at run time and retained the paragraph's arrays for every line.
private struct LinePiece {
    let paragraph: Int
    var clusters: Range<Int>
    var ellipsis = false

    init(_ paragraph: Int, _ clusters: Range<Int>) {
        self.paragraph = paragraph
        self.clusters = clusters
    }
}

/// One paragraph shaped into clusters in logical order, with what wrapping needs: each
/// cluster's advance, the kerning before it, where lines may break, and prefix sums so a
/// candidate line is measured in constant time.
struct ShapedParagraph: Sendable {
    struct Cluster {
        /// Its segment in `segments` (an index: a reference per cluster would be retained and
        /// released on every copy).
        let segment: Int
        /// Its index in that segment.
        let index: Int
        let shaped: ShapedCluster
        /// Code points of the paragraph.
        let scalars: Range<Int>
        let level: UInt8
        /// Kerning with the previous cluster (device pixels), both nominal and of one level.
        var kernBefore: Int
        /// A space that hangs at a line's end.
        let isSpace: Bool
    }

    let scalars: [Unicode.Scalar]
    /// The paragraph's text: a line showing all of it shows this string.
    let source: String
    /// The `Character` offset (into the whole laid-out text) of each code point, and one past
    /// the end.
    private(set) var characterOffsets: [Int]
    let bidi: BidiParagraph
    /// Unowned: the font instance keeps shaped paragraphs in its cache, and a layout holds the
    /// instance while it uses one.
    unowned let font: FcftFont
    private(set) var segments: [ShapedSegment] = []
    private(set) var clusters: [Cluster] = []
    /// `prefix[i]`: width of clusters `0..<i` with the kerning between them.
    private(set) var prefix: [Int] = [0]
    /// The whole paragraph as one line, made once for the font's cache: most paragraphs are
    /// not wrapped, and a repeated one then costs no line building either.
    var wholeLine: TextLayout.Line?

    var all: Range<Int> { 0..<clusters.count }

    /// `scalars`, when the caller has them already, are `text`'s code points.
    init(
        _ text: String, scalars known: [Unicode.Scalar]? = nil, characterBase: Int, font: FcftFont,
        direction: TextDirection = .natural
    ) {
        self.font = font
        source = text
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            // ASCII without CR (CR LF is one grapheme cluster): every code point is a character.
            scalars = known ?? text.unicodeScalars.map { $0 }
            offsets = Array(characterBase...(characterBase + scalars.count))
        } else {
            var character = characterBase
            for c in text {
                for s in c.unicodeScalars {
                    scalars.append(s)
                    offsets.append(character)
                }
                character += 1
            }
            offsets.append(character)
        }
        self.scalars = scalars
        characterOffsets = offsets
        bidi = BidiParagraph(scalars, direction: direction)
        shapeSegments()
    }

    /// The same paragraph with its characters counted from `base` (the cache keeps paragraphs
    /// counted from 0). Consuming: a paragraph counted from 0 (a text's first, and so every
    /// single paragraph's) is handed back as it is, not copied field by field and released.
    consuming func rebased(_ base: Int) -> ShapedParagraph {
        guard base != 0 else { return self }
        var p = self
        for i in p.characterOffsets.indices { p.characterOffsets[i] += base }
        if let whole = p.wholeLine {
            p.wholeLine?.characterRange =
                (whole.characterRange.lowerBound + base)..<(whole.characterRange.upperBound + base)
            p.wholeLine?.clusters = whole.clusters.map { $0.moved(by: base) }
        }
        return p
    }

    /// How many characters it has.
    var characterCount: Int { characterOffsets.last! - characterOffsets.first! }

    /// Splits the paragraph where shaping needs no context across (spaces, zero width spaces,
    /// ASCII digits) and where the level changes (one direction per shaping), only between
    /// grapheme clusters, and shapes each piece through the font's cache (right-to-left pieces
    /// with their brackets mirrored, `BidiParagraph.mirrored`). Digits are pieces of their own
    /// because numbers are the words that change most (row numbers, counters, times): shaped
    /// one by one, they are shaped once per font instead of once per number, and no default
    /// OpenType feature joins or ligates them.
    private mutating func shapeSegments() {
        let n = scalars.count
        guard n > 0 else { return }
        // At most a cluster and a segment per code point: no array grows piece by piece.
        clusters.reserveCapacity(n)
        segments.reserveCapacity(n)
        // Held strongly for the loop: calling a method of `self` that reads the unowned
        // reference copied the whole paragraph at each segment.
        let font = font
        var start = 0
        for i in 1...n {
            if i < n {
                let graphemeBoundary = characterOffsets[i] != characterOffsets[i - 1]
                let separate =
                    isSeparator(scalars[i]) || isSeparator(scalars[i - 1]) || bidi.level(at: i) != bidi.level(at: i - 1)
                if !(graphemeBoundary && separate) { continue }
            }
            let level = bidi.level(at: start)
            var text = scalars[start..<i]
            // Controls are shaped as what they show: a tab as a space, the rest as nothing (a
            // zero width space): the font's box for a missing glyph drew them.
            if text.contains(where: \.isControl) { text = ArraySlice(text.map(\.drawn)) }
            let segment: ShapedSegment
            if text.count == 1, let only = text.first, only.isASCII, level % 2 == 0 {
                segment = font.segment(ascii: only)
            } else {
                segment = font.segment(level % 2 == 1 ? text.map(BidiParagraph.mirrored) : Array(text))
            }
            let first = clusters.count
            for (k, c) in segment.clusters.enumerated() {
                let range = (start + c.scalars.lowerBound)..<(start + c.scalars.upperBound)
                clusters.append(
                    Cluster(
                        segment: segments.count, index: k, shaped: c, scalars: range, level: level,
                        // Inside a segment the kerning was looked up once, when it was shaped.
                        kernBefore: k == 0 ? 0 : (level % 2 == 0 ? segment.kerning[k].ltr : segment.kerning[k].rtl),
                        isSpace: range.count == 1 && LineBreaks.lineBreakClass(scalars[range.lowerBound]) == .space))
            }
            if first > 0 && first < clusters.count {
                clusters[first].kernBefore = Self.kerning(clusters[first - 1], clusters[first], font: font)
            }
            segments.append(segment)
            start = i
        }
        prefix.reserveCapacity(clusters.count + 1)
        for i in clusters.indices { prefix.append(prefix[i] + clusters[i].kernBefore + clusters[i].shaped.advance) }
    }

    /// Code points shaped apart from their neighbours (see `shapeSegments`).
    private func isSeparator(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\u{200B}" || s.isASCIIDigit
    }

    /// fcft's kerning between two nominal clusters of one level, left and right as they will
    /// be drawn (a right-to-left run puts the logically later one on the left).
    private static func kerning(_ a: Cluster, _ b: Cluster, font: FcftFont) -> Int {
        guard let x = a.shaped.nominal, let y = b.shaped.nominal, a.level == b.level else { return 0 }
        return a.level % 2 == 0 ? font.kerning(x, y) : font.kerning(y, x)
    }

    /// Device width of clusters `range`, kerning between them included.
    func width(_ range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        return prefix[range.upperBound] - prefix[range.lowerBound] - clusters[range.lowerBound].kernBefore
    }

    /// `range` without the spaces at its end.
    func trimmed(_ range: Range<Int>) -> Range<Int> {
        var end = range.upperBound
        while end > range.lowerBound && clusters[end - 1].isSpace { end -= 1 }
        return range.lowerBound..<end
    }

    /// Greedy wrap into cluster ranges no wider than `limit` device pixels (hanging spaces not
    /// counted), breaking at the last opportunity that fits; a piece with no opportunity that
    /// fits breaks between clusters (at least one cluster per line).
    func wrap(limit: Int) -> [Range<Int>] {
        guard !clusters.isEmpty else { return [all] }
        // A whole that fits is one line, as the search below would find without the break
        // opportunities worked out: each line it measures from the start is a prefix of the
        // whole, none wider (an advance outweighs any kerning, as `Font.layout` relies on too).
        let whole = trimmed(all)
        if width(whole) <= limit { return [whole] }
        return searchingBreaks(limit: limit)
    }

    /// `wrap(limit:)`'s search over the break opportunities (also for a whole that fits, for
    /// the test that holds the shortcut to it).
    func searchingBreaks(limit: Int) -> [Range<Int>] {
        guard !clusters.isEmpty else { return [all] }
        let allowed = LineBreaks.opportunities(scalars)
        var lines: [Range<Int>] = []
        var start = 0
        var lastFit: Int?  // the last opportunity after `start` whose line fits
        var i = 1
        while i <= clusters.count {
            let isOpportunity = i == clusters.count || allowed[clusters[i].scalars.lowerBound]
            if !isOpportunity {
                i += 1
                continue
            }
            if width(trimmed(start..<i)) <= limit {
                lastFit = i
                i += 1
                continue
            }
            if let fit = lastFit {
                lines.append(trimmed(start..<fit))
                start = fit
                lastFit = nil
                // Measure the same opportunity again from the new line start.
                continue
            }
            // Nothing from `start` fits up to this opportunity: fill the line cluster by
            // cluster and go on from there (the rest of the word starts the next line). No
            // opportunity lies between the new start and this one (each would have fitted, and
            // been `lastFit`), so the search goes on at this one: going back to the cluster
            // after the new start walked the rest of a long word again for every line of it.
            var end = start + 1
            while end < i && width(start..<(end + 1)) <= limit { end += 1 }
            lines.append(start..<end)
            start = end
            // A single cluster wider than the limit was the line: the search goes on past it.
            if start == i { i += 1 }
        }
        if start < clusters.count || lines.isEmpty { lines.append(trimmed(start..<clusters.count)) }
        return lines
    }

    /// `range` when it fits `limit` (and no ellipsis is forced), else its longest prefix of
    /// clusters that fits with the ellipsis after it (spaces before the ellipsis dropped); no
    /// ellipsis when not even it fits.
    func fit(_ range: Range<Int>, limit: Int, ellipsis: ShapedSegment, force: Bool) -> (Range<Int>, Bool) {
        if !force && width(range) <= limit { return (range, false) }
        let dots = ellipsis.clusters.reduce(0) { $0 + $1.advance }
        var end = range.upperBound
        while true {
            let kern =
                end > range.lowerBound ? ellipsis.clusters.first.map { ellipsisKerning(after: end - 1, $0) } ?? 0 : 0
            if end == range.lowerBound || width(range.lowerBound..<end) + kern + dots <= limit {
                return (range.lowerBound..<end, !(end == range.lowerBound && dots > limit))
            }
            end -= 1
            while end > range.lowerBound && clusters[end - 1].isSpace { end -= 1 }
        }
    }

    /// Kerning between cluster `index` and an ellipsis after it at the paragraph's level.
    private func ellipsisKerning(after index: Int, _ dots: ShapedCluster) -> Int {
        guard let mark = dots.nominal, let x = clusters[index].shaped.nominal, clusters[index].level == bidi.baseLevel
        else { return 0 }
        return bidi.baseLevel % 2 == 0 ? font.kerning(x, mark) : font.kerning(mark, x)
    }

    /// The line showing clusters `range` (and an ellipsis after them): its glyphs placed in
    /// visual order.
    func line(_ range: Range<Int>, ellipsis: ShapedSegment?, scale: Double) -> TextLayout.Line {
        let dots = ellipsis?.clusters ?? []
        let count = range.count + dots.count
        // Items in logical order: the clusters of `range`, then the ellipsis's at the
        // paragraph's level (the end of a right-to-left paragraph is its left).
        var levels = [UInt8](repeating: bidi.baseLevel, count: count)
        var kerns = [Int](repeating: 0, count: count)
        for (k, i) in range.enumerated() {
            levels[k] = clusters[i].level
            kerns[k] = k == 0 ? 0 : clusters[i].kernBefore
        }
        if !dots.isEmpty && !range.isEmpty {
            kerns[range.count] = ellipsisKerning(after: range.upperBound - 1, dots[0])
        }
        let codePoints = scalarRange(range)
        var text = codePoints == 0..<scalars.count ? source : Self.string(scalars[codePoints])
        let end = characterOffsets[codePoints.upperBound]
        if ellipsis != nil { text += "\u{2026}" }
        let order = BidiParagraph.visualOrder(levels: levels)
        var glyphs: [PlacedGlyph] = []
        glyphs.reserveCapacity(count)  // a glyph a cluster, mostly
        var placed: [PlacedCluster] = []
        placed.reserveCapacity(range.count)
        var pen = 0
        for (v, k) in order.enumerated() {
            // Kerning belongs between logically adjacent clusters of one level, which stay
            // adjacent (in either order) after reordering.
            if v > 0 {
                let previous = order[v - 1]
                if previous == k - 1 { pen += kerns[k] }
                if previous == k + 1 { pen += kerns[previous] }
            }
            let shaped: ShapedCluster
            let segment: ShapedSegment
            if k < range.count {
                let c = clusters[range.lowerBound + k]
                shaped = c.shaped
                segment = segments[c.segment]
                let characters = characterOffsets[c.scalars.lowerBound]..<characterOffsets[c.scalars.upperBound]
                placed.append(
                    PlacedCluster(
                        characters: characters, left: pen, right: pen + shaped.advance, isRightToLeft: c.level % 2 == 1)
                )
            } else {
                shaped = dots[k - range.count]
                segment = ellipsis!
            }
            for g in segment.glyphs[shaped.glyphs] { glyphs.append(PlacedGlyph(pix: g.pix, x: pen + g.x, y: g.y)) }
            pen += shaped.advance
        }
        // The segments the line's clusters come from, once each: clusters are in segment order.
        var used: [ShapedSegment] = []
        used.reserveCapacity(min(range.count, segments.count) + 1)
        var last = -1
        for i in range where clusters[i].segment != last {
            last = clusters[i].segment
            used.append(segments[last])
        }
        if let ellipsis { used.append(ellipsis) }
        return TextLayout.Line(
            text: text, width: Double(pen) / scale, isRightToLeft: bidi.isRightToLeft,
            characterRange: characterOffsets[codePoints.lowerBound]..<end, glyphs: glyphs, clusters: placed,
            segments: used)
    }

    /// `scalars` as a string without a string per code point: an ASCII line written straight
    /// as its bytes (after one check that it is ASCII), anything else appended to one scalar view.
    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        if scalars.allSatisfy({ $0.isASCII }) {
            return String(unsafeUninitializedCapacity: scalars.count) { buffer in
                for (i, s) in scalars.enumerated() { buffer[i] = UInt8(truncatingIfNeeded: s.value) }
                return scalars.count
            }
        }
        var text = String.UnicodeScalarView()
        for s in scalars { text.append(s) }
        return String(text)
    }

    /// The code points of clusters `range`.
    private func scalarRange(_ range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else {
            let at = range.lowerBound < clusters.count ? clusters[range.lowerBound].scalars.lowerBound : scalars.count
            return at..<at
        }
        return clusters[range.lowerBound].scalars.lowerBound..<clusters[range.upperBound - 1].scalars.upperBound
    }
}
