import Glibc
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayViews

/// Where one buffer's frame lies in its shared-memory ring, and how a scroll moves it there
/// (foot's offset scrolling): the pixel arithmetic of `ShmBuffer`, apart from its wl_buffers,
/// so that it can be checked on plain memory.
///
/// A move by (dx, dy) device pixels moves the frame `-(dy·stride + dx·4)` bytes through the
/// ring, so last frame's pixels are this frame's pixels moved. Past an end of the ring the
/// frame is recentred: it starts again at the other end, its kept pixels copied there (about
/// one frame copy), which leaves the ring's whole slack (`ringBytes − frameBytes`) of travel in
/// the direction it was going.
///
/// Tried and measured (1080p and 4K in weston): a shadow that copies, frame by frame, the
/// bytes a recentring will need into the dead part of the ring behind the frame. It cuts a
/// recentring's copy to `frameBytes − slack`, a third less at 4K, but every other frame then
/// copies as many rows as it scrolled, and the p99 did not move while the median rose by a
/// tenth: the same work, spread where it costs more. A ring that wraps (mapped twice in this
/// process, the rows past its end shown in a subsurface) never recentres and cut the p99 by a
/// fifth, but weston's pixman renderer draws a subsurface through a bilinear transform, which
/// cost weston 1.5× GTK4's CPU per frame; recentring ahead of time, on a worker while the
/// buffer waits for its next frame, moved the copy off the main thread but made more of them;
/// beginning each recentring at the end of the draw before (half the copy then, half at the
/// recentring) halved the recentring draws' median but not the p99, whose frames are a fast
/// fling's first, with a recentring due every draw or two (docs/architecture.md, "Tried").
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
    }

    /// Moves the frame by `move`: the pixels inside its kept rect are then right; everything
    /// else in the frame is stale (the caller repaints it). Returns whether the frame was
    /// recentred.
    mutating func move(by move: FrameUpdate.Move) -> Bool {
        let delta = -(move.dy * stride + move.dx * 4)
        var target = offset + delta
        guard target < 0 || target + frameBytes > ringBytes else {
            offset = target
            return false
        }
        // Going forwards, start again at the front; backwards, at the back.
        target = delta > 0 ? 0 : slack
        if let kept = move.kept { relocate(kept, dx: move.dx, dy: move.dy, to: target) }
        offset = target
        recentres += 1
        return true
    }

    /// `memmove` with streaming (non-temporal) stores, for a recentring's block of whole rows:
    /// megabytes that only the compositor reads next, written without first reading each
    /// destination line into the cache as plain stores do. In weston at 1920×1080 that took a
    /// fifth off the recentring draws (1.44–1.54 ms to 1.15–1.24 ms of present, 12 flings,
    /// back to back) and as much off the list's p99. The source is fetched ahead
    /// non-temporally, so the megabytes read once do not evict the rest of the frame's working
    /// set from the caches: a tenth more off those draws. Overlap in either direction is fine.
    static func copyStreaming(to dst: UnsafeMutableRawPointer, from src: UnsafeRawPointer, count: Int) {
        sw_memmove_streaming(dst, src, count)
    }

    /// Copies the kept rect's pixels from the frame at `offset` to a frame at `target`, moved.
    /// The two may overlap: rows are copied in the order that never reads one already written.
    private func relocate(_ kept: PixelRect, dx: Int, dy: Int, to target: Int) {
        let rowBytes = kept.width * 4
        if rowBytes == stride {
            // Whole rows (a scroll view as wide as the window): one block, one copy, which
            // copies a large block faster than a call per row (and in the safe direction).
            Self.copyStreaming(
                to: mapping + target + kept.y0 * stride, from: mapping + offset + (kept.y0 - dy) * stride,
                count: kept.height * stride)
            return
        }
        let later = target + dy * stride + dx * 4 > offset  // each row lands after where it was read
        for y in later ? Array((kept.y0..<kept.y1).reversed()) : Array(kept.y0..<kept.y1) {
            let dst = mapping + target + y * stride + kept.x0 * 4
            let src = mapping + offset + (y - dy) * stride + (kept.x0 - dx) * 4
            memmove(dst, src, rowBytes)
        }
    }
}
