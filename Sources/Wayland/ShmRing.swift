import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

/// Where one buffer's frame lies in its shared-memory ring, and how a scroll moves it there
/// (foot's offset scrolling): the pixel arithmetic of `ShmBuffer`, apart from its wl_buffers,
/// so that it can be checked on plain memory.
///
/// A move by (dx, dy) device pixels moves the frame `-(dy·stride + dx·4)` bytes through the
/// ring, so last frame's pixels are this frame's pixels moved. Past an end of the ring the
/// frame is recentred: it starts again at the other end, its pixels copied there (about one
/// frame copy) from its own frame (`move`), or by the caller from another buffer or composited
/// again (`recentre`, `WaylandWindow.present`), which leaves the ring's whole slack
/// (`ringBytes − frameBytes`) of travel in the direction it was going, but for less than a
/// row: it lands on the same row boundary (`knownPhase`), so that the ring's rows stay whole
/// rows of every frame and what is known of them (`KnownFills`) stays true.
///
/// Other ways round the recentring were built and measured and not kept: a shadow copy spread
/// over the frames, a ring that wraps (shown through a subsurface), recentring ahead of time on
/// a worker or at the end of the draw before. Why each lost is in docs/decisions.md.
struct ShmRing {
    let mapping: UnsafeMutableRawPointer
    let ringBytes: Int
    let frameBytes: Int
    let stride: Int
    /// Where the frame starts (bytes, a multiple of 4).
    private(set) var offset: Int
    /// Frames recentred so far.
    private(set) var recentres = 0

    /// Bytes the frame can travel between recentrings.
    var slack: Int { ringBytes - frameBytes }

    /// A frame in the middle of the ring (page aligned).
    init(mapping: UnsafeMutableRawPointer, ringBytes: Int, frameBytes: Int, stride: Int) {
        precondition(ringBytes >= frameBytes && frameBytes % stride == 0 && stride % 4 == 0)
        self.mapping = mapping
        self.ringBytes = ringBytes
        self.frameBytes = frameBytes
        self.stride = stride
        offset = ((ringBytes - frameBytes) / 2) / 4096 * 4096
        knownPhase = offset % stride
    }

    /// Where the ring's rows (`KnownFills`'s) start: the frame's rows are whole ring rows while
    /// the frame's offset keeps this remainder, as a vertical scroll and a recentring do. A
    /// horizontal move starts rows afresh.
    private(set) var knownPhase: Int

    /// The ring row the frame starts on (counted from `knownPhase`).
    var row: Int { offset / stride }

    /// Has `canvas` (on the frame where it lies now) track its rows in `knownFills` (the
    /// ring's rows): if the frame no longer starts on a ring row, the rows start afresh where
    /// it does, nothing known of them.
    mutating func track(_ canvas: Canvas, in knownFills: KnownFills) {
        if offset % stride != knownPhase {
            knownPhase = offset % stride
            knownFills.forget(0..<knownFills.rows)
        }
        canvas.trackFills(knownFills, fromRow: row)
    }

    /// Whether moving the frame by `move` keeps it inside the ring (no recentring).
    func fits(_ move: FrameUpdate.Move) -> Bool {
        let target = offset + Self.delta(of: move, stride: stride)
        return target >= 0 && target + frameBytes <= ringBytes
    }

    /// Moves the frame by `move`: the pixels inside its kept rect are then right; everything
    /// else in the frame is stale (the caller repaints it). Returns whether the frame was
    /// recentred. `knownFills` (the ring's rows) is told what a recentring's copy wrote.
    mutating func move(by move: FrameUpdate.Move, knownFills: KnownFills? = nil) -> Bool {
        guard !fits(move) else {
            offset += Self.delta(of: move, stride: stride)
            return false
        }
        let target = recentringTarget(for: move)
        if let kept = move.kept {
            Self.copy(
                kept, dx: move.dx, dy: move.dy, from: mapping + offset, to: mapping + target, stride: stride)
            if let knownFills {
                // Whole rows landing on ring rows carry what was known of them.
                let wholeRows = move.dx == 0 && kept.x0 == 0 && kept.width * 4 == stride
                if wholeRows && offset % stride == knownPhase && target % stride == knownPhase {
                    knownFills.copyRows(
                        from: knownFills, row + kept.y0 - move.dy, to: target / stride + kept.y0, count: kept.height)
                } else {
                    knownFills.forget(0..<knownFills.rows)
                }
            }
        }
        offset = target
        recentres += 1
        return true
    }

    /// Recentres the frame for `move` (which must not fit) without keeping its pixels: the
    /// caller copies the frame before into it from the newest buffer (`WaylandWindow.present`).
    mutating func recentre(for move: FrameUpdate.Move) {
        precondition(!fits(move))
        offset = recentringTarget(for: move)
        recentres += 1
    }

    /// How far a move moves the frame through the ring, bytes: last frame's pixel (x, y) is
    /// this frame's (x + dx, y + dy), so the frame starts `dy` rows and `dx` pixels earlier.
    private static func delta(of move: FrameUpdate.Move, stride: Int) -> Int { -(move.dy * stride + move.dx * 4) }

    /// Where a recentring puts the frame: going forwards, at the front of the ring; backwards,
    /// at the back; in either case on a ring row (`knownPhase`), less than a row in, so that
    /// what the ring's rows are known to hold stays known. Either leaves the ring's whole slack
    /// of travel in the direction it was going, but for that part of a row.
    private func recentringTarget(for move: FrameUpdate.Move) -> Int {
        guard knownPhase <= slack else { return Self.delta(of: move, stride: stride) > 0 ? 0 : slack }
        return Self.delta(of: move, stride: stride) > 0 ? knownPhase : slack - (slack - knownPhase) % stride
    }

    /// Copies `rect`'s pixels into the frame at `dst` from the frame at `src` moved: pixel
    /// (x, y) from (x − dx, y − dy). The two frames may overlap (one ring): rows are copied in
    /// the order that never reads one already written.
    private static func copy(
        _ rect: PixelRect, dx: Int, dy: Int, from src: UnsafeRawPointer, to dst: UnsafeMutableRawPointer, stride: Int
    ) {
        let rowBytes = rect.width * 4
        if rowBytes == stride {
            assert(dx == 0, "a rect of whole rows moves vertically")
            // Whole rows (a scroll view as wide as the window): one block, one copy, which
            // copies a large block faster than a call per row (and in the safe direction).
            Canvas.copyStreaming(
                to: dst + rect.y0 * stride, from: src + (rect.y0 - dy) * stride, count: rect.height * stride)
            return
        }
        let later = UnsafeRawPointer(dst) + dy * stride + dx * 4 > src  // each row lands after where it was read
        for y in later ? Array((rect.y0..<rect.y1).reversed()) : Array(rect.y0..<rect.y1) {
            memmove(dst + y * stride + rect.x0 * 4, src + (y - dy) * stride + (rect.x0 - dx) * 4, rowBytes)
        }
    }
}
