import ScrollwayGeometry

/// What a block of pixel rows is known to hold, so that an opaque fill writes only the pixels
/// that differ: per row, an opaque colour that every pixel of the row has outside one span of
/// columns (the part that may differ: text blended over a row's background, say).
///
/// Why: a window's buffer lives in a ring of memory larger than a frame (`ShmRing` in the
/// Wayland target), and the rows a frame moves onto still hold what was painted there before,
/// often the same background colour a list's rows fill again. A frame that is composited again
/// (a recentring) or a strip painted over old rows then writes only the columns that may
/// differ in rows that already have the colour, instead of every pixel: a fill is bound by
/// memory bandwidth, so fewer bytes written is less time.
///
/// Rows are in the tracker's own numbering (a ring's rows); a canvas on part of the block says
/// where its row 0 lies (`Canvas.trackFills`). The knowledge is only as good as the rule that
/// every write to the tracked rows goes through a canvas that tracks them: `Canvas` marks what
/// its other drawing calls touch as unknown, and whoever writes the memory otherwise (a copy
/// inside the ring) says so here (`copyRows`, `forget`).
public final class KnownFills {
    /// Pixels per row.
    public let width: Int
    /// Rows tracked.
    public let rows: Int
    /// Per row: the premultiplied ARGB colour the row holds outside `[lo, hi)`, 0 when nothing
    /// is known (no opaque colour is 0: its alpha byte is 255).
    private var colour: [UInt32]
    /// Per row: the columns `[lo, hi)` that may differ from `colour` (empty when `lo >= hi`).
    private var lo: [Int32]
    private var hi: [Int32]

    /// Nothing known about any of `rows` rows of `width` pixels.
    public init(width: Int, rows: Int) {
        precondition(width >= 0 && width <= Int(Int32.max) && rows >= 0)
        self.width = width
        self.rows = rows
        colour = Array(repeating: 0, count: rows)
        lo = Array(repeating: 0, count: rows)
        hi = Array(repeating: 0, count: rows)
    }

    /// What row `y` is known to hold: its colour and the span that may differ; nil when nothing.
    public func known(row y: Int) -> (colour: UInt32, differs: Range<Int>)? {
        guard colour[y] != 0 else { return nil }
        return (colour[y], Int(lo[y])..<max(Int(lo[y]), Int(hi[y])))
    }

    /// Nothing known about `rows` any more.
    public func forget(_ rows: Range<Int>) {
        let r = rows.clamped(to: 0..<self.rows)
        colour.withUnsafeMutableBufferPointer { c in
            for y in r { c[y] = 0 }
        }
    }

    /// Columns `x0..<x1` of `rows` were written with something other than a tracked fill: they
    /// may differ from their row's colour now.
    public func differs(_ rows: Range<Int>, x0: Int, x1: Int) {
        let r = rows.clamped(to: 0..<self.rows)
        let a = Int32(max(0, x0))
        let b = Int32(min(width, x1))
        guard a < b else { return }
        let w = Int32(width)
        colour.withUnsafeMutableBufferPointer { c in
            lo.withUnsafeMutableBufferPointer { lo in
                hi.withUnsafeMutableBufferPointer { hi in
                    for y in r where c[y] != 0 {
                        if lo[y] >= hi[y] {
                            (lo[y], hi[y]) = (a, b)
                        } else {
                            (lo[y], hi[y]) = (min(lo[y], a), max(hi[y], b))
                        }
                        // A row that may differ everywhere is a row nothing is known of.
                        if lo[y] == 0 && hi[y] == w { c[y] = 0 }
                    }
                }
            }
        }
    }

    /// An opaque fill of columns `x0..<x1` of `rows` with `pixel` (premultiplied ARGB, alpha
    /// 255): calls `write(rows, x0, x1)` for the pixels that may not hold it yet, whole runs of
    /// rows that need the same columns at once, and records the colour. Rows that already hold
    /// `pixel` need only the part of the fill that crosses their differing span.
    public func fill(_ rows: Range<Int>, x0: Int, x1: Int, pixel: UInt32, write: (Range<Int>, Int, Int) -> Void) {
        precondition(pixel >> 24 == 0xFF, "only opaque fills are tracked")
        let r = rows.clamped(to: 0..<self.rows)
        let a = Int32(max(0, x0))
        let b = Int32(min(width, x1))
        guard a < b, !r.isEmpty else { return }
        let whole = a == 0 && Int(b) == width
        // The run being gathered: rows from `runStart` that need columns `runA..<runB`.
        var runStart = r.lowerBound
        var runA: Int32 = 0
        var runB: Int32 = 0
        colour.withUnsafeMutableBufferPointer { c in
            lo.withUnsafeMutableBufferPointer { lo in
                hi.withUnsafeMutableBufferPointer { hi in
                    for y in r {
                        var wa = a
                        var wb = b
                        if c[y] == pixel {
                            // Only the crossing of the fill and the differing span is written.
                            wa = max(a, lo[y])
                            wb = min(b, hi[y])
                            if wa >= wb { (wa, wb) = (0, 0) }
                            if lo[y] < hi[y] {
                                if a <= lo[y] && b >= hi[y] {
                                    (lo[y], hi[y]) = (0, 0)
                                } else if a <= lo[y] && b > lo[y] {
                                    lo[y] = b
                                } else if b >= hi[y] && a < hi[y] {
                                    hi[y] = a
                                }
                            }
                        } else if whole {
                            (c[y], lo[y], hi[y]) = (pixel, 0, 0)
                        } else {
                            // Either the row keeps its colour and the fill joins what differs,
                            // or it takes the fill's colour and the rest differs (which the rest
                            // is only as a span when the fill reaches an edge): the smaller.
                            let w = Int32(width)
                            let keep: Int32 =
                                c[y] == 0 ? w + 1 : (lo[y] < hi[y] ? max(hi[y], b) - min(lo[y], a) : b - a)
                            let take: Int32 = a == 0 ? w - b : (b == w ? a : w + 1)
                            if take <= keep && take <= w {
                                (c[y], lo[y], hi[y]) = a == 0 ? (pixel, b, w) : (pixel, 0, a)
                            } else if keep <= w {
                                (lo[y], hi[y]) = lo[y] < hi[y] ? (min(lo[y], a), max(hi[y], b)) : (a, b)
                            }
                        }
                        if wa != runA || wb != runB {
                            if runA < runB { write(runStart..<y, Int(runA), Int(runB)) }
                            (runStart, runA, runB) = (y, wa, wb)
                        }
                    }
                }
            }
        }
        if runA < runB { write(runStart..<r.upperBound, Int(runA), Int(runB)) }
    }

    /// Rows `from..<from + count` of `source` were copied whole to rows `to..<to + count` here
    /// (the same tracker or another of the same width): they hold what those held. Overlap is
    /// fine, as with `memmove`.
    public func copyRows(from source: KnownFills, _ from: Int, to: Int, count: Int) {
        guard count > 0 else { return }
        guard source.width == width, from >= 0, from + count <= source.rows, to >= 0, to + count <= rows else {
            forget(to..<(to + count))
            return
        }
        // In place, as memmove (a strip is copied between buffers every frame: no arrays made).
        // Every field is 4 bytes a row.
        func move(_ d: UnsafeMutableRawBufferPointer, _ s: UnsafeRawBufferPointer) {
            (d.baseAddress! + to * 4).copyMemory(from: s.baseAddress! + from * 4, byteCount: count * 4)
        }
        if source === self {
            colour.withUnsafeMutableBytes { move($0, UnsafeRawBufferPointer($0)) }
            lo.withUnsafeMutableBytes { move($0, UnsafeRawBufferPointer($0)) }
            hi.withUnsafeMutableBytes { move($0, UnsafeRawBufferPointer($0)) }
        } else {
            colour.withUnsafeMutableBytes { d in source.colour.withUnsafeBytes { move(d, $0) } }
            lo.withUnsafeMutableBytes { d in source.lo.withUnsafeBytes { move(d, $0) } }
            hi.withUnsafeMutableBytes { d in source.hi.withUnsafeBytes { move(d, $0) } }
        }
    }
}
