/// The last few hundred short texts a font laid out, whole (`Font.layout`): a list scrolled
/// back shows rows it laid out a moment ago, each in a cell that has shown other rows since
/// (a label keeps only its own last two layouts), and laying a row out again costs its
/// shaping, breaking and placing anew, where finding it here costs a hash.
///
/// Keyed by the text's exact UTF-8 (Swift's `String` equality is canonical equivalence, which
/// would hand "é" the glyphs of "e" + U+0301), the width limit in device pixels, the line
/// count, the scale and the direction: everything a layout is made from besides the font.
///
/// First in, first out, one entry out for each entry in: the layouts a fling passes are freed
/// one for each new row, never a generation of them in one frame (what a two-generation cache
/// such as `ShapeCache` would do: hundreds of layouts, each several arrays, freed at once). A
/// hit does not move its entry: a row scrolled back and forth is laid out again once
/// `capacity` others came after it.
struct RecentLayouts {
    struct Key: Hashable {
        let text: String
        let limit: Int?
        let maxLines: Int
        let scale: Double
        let direction: TextDirection

        static func == (a: Key, b: Key) -> Bool {
            a.limit == b.limit && a.maxLines == b.maxLines && a.scale == b.scale && a.direction == b.direction
                && a.text.isLiterally(b.text)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(limit)
            hasher.combine(direction)
            hasher.combine(maxLines)
            hasher.combine(scale)
            // The bytes in one piece (`withUTF8` makes a string contiguous first, which a native
            // one already is), so equal texts always hash alike.
            var bytes = text
            bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Texts longer than this (in UTF-8) are not kept: a label's or a row's text is shorter, and
    /// a document's paragraphs (a text view lays out thousands) would only push those out.
    static let longestText = 256

    let capacity: Int
    private var layouts: [Key: TextLayout] = [:]
    /// The keys in the order they came in, `next` the slot of the oldest once full.
    private var order: [Key?]
    private var next = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a cache of no layouts")
        self.capacity = capacity
        order = Array(repeating: nil, count: capacity)
        layouts.reserveCapacity(capacity)
    }

    /// Whether `text` is short enough to be kept.
    static func keeps(_ text: String) -> Bool { text.utf8.count <= longestText }

    func layout(for key: Key) -> TextLayout? { layouts[key] }

    /// How many layouts it holds.
    var count: Int { layouts.count }

    /// Stores `layout` for `key`; returns the layout it let go of, if any, for the caller to
    /// free outside its lock. A key stored again (two threads laying one text out at once)
    /// takes the new layout, an equal one, and a second place in the order, whose turn to go
    /// then finds nothing: the cache holds fewer for a while, never more.
    mutating func insert(_ layout: TextLayout, for key: Key) -> TextLayout? {
        var evicted: TextLayout?
        if let oldest = order[next] { evicted = layouts.removeValue(forKey: oldest) }
        order[next] = key
        next = (next + 1) % capacity
        layouts[key] = layout
        return evicted
    }
}
