import ScrollwayRaster

/// The last few text layouts a view made and what each was made of: a view lays the same text
/// out for measuring, drawing and reporting its caret, and shaping and line breaking are worth
/// doing once. Clear it when the font changes (the font is not part of the key).
struct TextLayoutCache {
    private var entries:
        [(text: String, maxWidth: Double?, lines: Int, scale: Double, direction: TextDirection, layout: TextLayout)] =
            []
    let capacity: Int
    /// The entry the next new layout replaces once the cache is full.
    private var oldest = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func removeAll() {
        entries = []
        oldest = 0
    }

    /// The texts it holds layouts of, in its slots' order.
    var texts: [String] { entries.map(\.text) }

    /// `text` laid out with `font` in `direction`, from the cache when the same layout was made
    /// lately.
    mutating func layout(
        _ text: String, font: Font, maxWidth: Double?, maxLines: Int, scale: Double,
        direction: TextDirection = .natural
    ) -> TextLayout {
        // The same bytes, not `==`: canonically equivalent texts ("é" and "e" + U+0301) are
        // shaped into different glyphs (`Font.layout` keys its own layouts the same way).
        for e in entries
        where e.scale == scale && e.lines == maxLines && e.direction == direction && e.text.isLiterally(text) {
            // Measured at one width (or none) and drawn at another (a label's `sizeThatFits`
            // and its bounds), text that neither cuts is laid out alike.
            if e.maxWidth == maxWidth || e.layout.laysOutAlike(within: maxWidth) { return e.layout }
        }
        let layout = font.layout(text, maxWidth: maxWidth, maxLines: maxLines, scale: scale, direction: direction)
        // The oldest entry is replaced in place: a list row measured and then drawn makes one
        // layout per row, and shifting the entries to put the new one first moved every entry.
        if entries.count < capacity {
            entries.append((text, maxWidth, maxLines, scale, direction, layout))
        } else {
            entries[oldest] = (text, maxWidth, maxLines, scale, direction, layout)
            oldest = (oldest + 1) % capacity
        }
        return layout
    }
}
