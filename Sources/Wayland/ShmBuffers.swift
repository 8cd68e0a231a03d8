import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import ScrollwayWaylandCore

/// One of the window's buffers: a frame's pixels inside its own shared-memory ring.
///
/// The ring holds one and a half frames (foot's offset scrolling, with the memory kept): a scroll moves the
/// frame's place in the ring instead of its pixels. A new wl_buffer is made a whole number of
/// rows (and pixels) further in, so last frame's rows are this frame's rows moved, and only
/// what the scroll exposes (and whatever lies outside the scrolled rect) is painted. When the
/// frame reaches an end of the ring it starts again at the other end, copied there once or,
/// when that moves fewer bytes, composited again (`WaylandWindow.present`), leaving the ring's
/// whole slack (half a frame) of travel in the direction it was going (`ShmRing`).
/// Its pages are faulted in as they are first drawn, or ahead of time while the window is idle,
/// a piece at a time (`prefault`), and never given back while the window has this size: a
/// frame moving through fresh pages made the kernel zero, map and later free every page it
/// crossed (in this process and in the compositor), which cost more than the occasional copy.
/// Between attach+commit and wl_buffer.release the compositor may read it: it is never drawn
/// into, moved or destroyed then.
@MainActor
final class ShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let scale: Double
    /// Bytes of one frame.
    let frameBytes: Int
    private let memory: SharedMemory
    let mapping: UnsafeMutableRawPointer
    private let pool: OpaquePointer
    /// Where the frame lies in the ring.
    private var ring: ShmRing
    /// What the ring's rows are known to hold (`KnownFills`): a frame composited again where
    /// the ring already holds its backgrounds writes only what differs. Every write to the ring
    /// goes through `canvas` or `move`, which keep it.
    private let knownFills: KnownFills
    private(set) var buffer: OpaquePointer
    private(set) var canvas: Canvas
    /// Between attach+commit and wl_buffer.release the compositor may read it: never draw then.
    var isBusy = false
    /// The frame number last drawn into it (nil: never; its pixels are undefined).
    var frame: Int?
    /// Bytes of the ring faulted in ahead of time so far (`prefault`), from `prefaultStart` on,
    /// round the end to the start.
    private(set) var prefaultedBytes = 0
    /// Where faulting in ahead began: the page the frame started on then.
    private var prefaultStart: Int?
    /// Whether the whole ring has been faulted in (`prefault`).
    var prefaulted: Bool { prefaultedBytes >= ring.ringBytes }
    /// Made as the pool's third buffer (`BufferPool.acquire`, `prefaultNext`), not one of the
    /// two the window draws from its first frame on.
    var isThird = false
    /// Whether a replacement may be drawn into it, and a frame before into a buffer that is not
    /// (`BufferPool.hasReadyBuffer`, `nextFree`): a third buffer once its whole ring is faulted
    /// in (its first frames would otherwise fault a frame's pages in); the two first buffers
    /// always (the window's first frames must be drawn somewhere, and their rings are faulted in
    /// from the first idle turn on).
    var isReady: Bool { !isThird || prefaulted }
    /// Frames recentred in the ring.
    var recentres: Int { ring.recentres }

    /// The smallest frame whose opaque fills are streamed (`Canvas.streamsFills`): past it a
    /// frame, with the compositor's reads of it and its own output, does not stay in the caches,
    /// and writing around them saves reading each line in first; below it the lines are still
    /// cached and a streaming store only sends them to memory sooner (measured at three sizes:
    /// docs/decisions.md).
    static let streamingFillFrameBytes = 2 << 20

    /// The ring's size for one frame: one and a half frames (half a screen of travel between
    /// copies; more costs memory for every buffer, less copies more often), or exactly one (no
    /// offset scrolling) when `offsetScrolling` is off or that does not fit a pool.
    static func ringBytes(frameBytes: Int, offsetScrolling: Bool) -> Int {
        let page = 4096
        let ring = (frameBytes + frameBytes / 2 + page - 1) / page * page
        return offsetScrolling && ring <= Int(Int32.max) ? ring : frameBytes
    }

    init(shm: OpaquePointer, width: Int, height: Int, scale: Double, offsetScrolling: Bool) throws {
        self.width = width
        self.height = height
        self.scale = scale
        // Sides checked before multiplying: a compositor's size × scale can be any Int32.
        let possible = (1...32767).contains(width) && (1...32767).contains(height)
        stride = possible ? width * 4 : 0
        frameBytes = stride * (possible ? height : 0)
        guard possible, frameBytes < Int(Int32.max) else {
            throw WaylandError.sharedMemory("a \(width)×\(height) buffer is not possible")
        }
        let ringBytes = Self.ringBytes(frameBytes: frameBytes, offsetScrolling: offsetScrolling)
        do {
            memory = try SharedMemory(name: "scrollway-buffer", size: ringBytes)
            pool = try memory.makePool(shm: shm)
        } catch {
            throw WaylandError.sharedMemory(error.description)
        }
        mapping = memory.mapping
        ring = ShmRing(mapping: mapping, ringBytes: ringBytes, frameBytes: frameBytes, stride: stride)
        knownFills = KnownFills(width: width, rows: ringBytes / stride)
        (buffer, canvas) = try Self.makeBuffer(
            pool: pool, mapping: mapping, ring: &ring, knownFills: knownFills, width: width, height: height,
            stride: stride, scale: scale)
    }

    isolated deinit {
        wl_buffer_destroy(buffer)
        wl_shm_pool_destroy(pool)
        // `memory` unmaps and closes after this (the buffer and pool are gone by then).
    }

    /// How much of a ring one piece of idle work faults in: a whole ring at a large size spent
    /// several periods' quota at once under a CPU quota, and the frames after it stalled
    /// (measured: docs/decisions.md, 0.15.9); without one, input landing then waited for it
    /// (0.15.27).
    static let prefaultPieceBytes = 1 << 20

    /// Faults in the next piece of the ring, at most `bytes` (whole pages; contents unchanged,
    /// safe while the compositor reads it): from the page the frame starts on to the ring's
    /// end, then from its start, so that a buffer drawn before it is all faulted in (a spare
    /// wanted by the next touch) finds the pages of its frame there. A kernel without
    /// `MADV_POPULATE_WRITE` faults in nothing ahead: the ring counts as done, its pages
    /// faulted in as frames first draw them.
    func prefault(piece bytes: Int = ShmBuffer.prefaultPieceBytes) {
        guard !prefaulted else { return }
        let start = prefaultStart ?? ring.offset / 4096 * 4096
        prefaultStart = start
        // Page aligned: `start` is, the ring is whole pages when it is longer than a frame (and
        // starts at 0 when it is not), and each piece is whole pages but the ring's last.
        let position = (start + prefaultedBytes) % ring.ringBytes
        let length = min(max(4096, bytes / 4096 * 4096), ring.ringBytes - position, ring.ringBytes - prefaultedBytes)
        let done = sw_prefault(mapping + position, length) == 0
        prefaultedBytes = done ? prefaultedBytes + length : ring.ringBytes
    }

    /// Where the frame starts in its ring, bytes.
    var frameOffset: Int { ring.offset }

    /// Whether the frame can move inside its ring at all.
    var movesByOffset: Bool { ring.slack > 0 }

    /// A wl_buffer and a canvas for the frame where `ring` has it, tracking `knownFills`
    /// (`ShmRing.track`).
    private static func makeBuffer(
        pool: OpaquePointer, mapping: UnsafeMutableRawPointer, ring: inout ShmRing, knownFills: KnownFills, width: Int,
        height: Int, stride: Int, scale: Double
    ) throws -> (OpaquePointer, Canvas) {
        let offset = ring.offset
        guard
            let b = wl_shm_pool_create_buffer(
                pool, Int32(offset), Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        else { throw WaylandError.sharedMemory("wl_shm_pool.create_buffer failed") }
        let canvas = try Canvas(
            wrapping: mapping + offset, width: width, height: height, stride: stride, scale: scale, owner: nil)
        canvas.streamsFills = stride * height >= Self.streamingFillFrameBytes
        ring.track(canvas, in: knownFills)
        return (b, canvas)
    }

    /// Registers the release listener (after the slot is at its final address).
    func listen() {
        wl_buffer_add_listener(buffer, Listeners.buffer, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Moves the frame's pixels by `move` by moving the frame in the ring (`ShmRing.move`): the
    /// pixels inside the move's kept rect are then right; everything else in the frame is stale
    /// (the caller repaints it). Returns whether the frame was recentred (its kept rows copied
    /// to the other end of the ring: about one frame copy).
    @discardableResult
    func move(by move: FrameUpdate.Move) throws -> Bool {
        precondition(!isBusy, "never move a buffer the compositor may be reading")
        let recentred = ring.move(by: move, knownFills: knownFills)
        try remakeBuffer()
        return recentred
    }

    /// Whether moving the frame by `move` keeps it inside its ring (no recentring).
    func fits(_ move: FrameUpdate.Move) -> Bool { ring.fits(move) }

    /// Recentres the frame for `move` (which must not fit) without keeping its pixels
    /// (`ShmRing.recentre`): everything in the frame is stale until the caller copies it.
    func recentre(for move: FrameUpdate.Move) throws {
        precondition(!isBusy, "never move a buffer the compositor may be reading")
        ring.recentre(for: move)
        try remakeBuffer()
    }

    /// A new wl_buffer (and canvas) where the frame now lies in the ring.
    private func remakeBuffer() throws {
        wl_buffer_destroy(buffer)
        (buffer, canvas) = try Self.makeBuffer(
            pool: pool, mapping: mapping, ring: &ring, knownFills: knownFills, width: width, height: height,
            stride: stride, scale: scale)
        listen()
    }
}

/// Two buffers, and a third only when the compositor holds both and a frame wants one (a
/// frame that replaces one not yet repainted, or a compositor that keeps two), given back once
/// no frame has needed it for a while (`returnSpare`); recreated whenever the size or scale
/// changes.
@MainActor
final class BufferPool {
    let width: Int
    let height: Int
    let scale: Double
    static let maximumCount = 3
    private(set) var buffers: [ShmBuffer] = []
    private let shm: OpaquePointer
    private let offsetScrolling: Bool

    init(shm: OpaquePointer, width: Int, height: Int, scale: Double, offsetScrolling: Bool) throws {
        self.width = width
        self.height = height
        self.scale = scale
        self.shm = shm
        self.offsetScrolling = offsetScrolling
        for _ in 0..<2 { try addBuffer() }
    }

    @discardableResult
    private func addBuffer(now: Double? = nil) throws -> ShmBuffer {
        let b = try ShmBuffer(shm: shm, width: width, height: height, scale: scale, offsetScrolling: offsetScrolling)
        b.listen()
        b.isThird = buffers.count == 2
        buffers.append(b)
        if buffers.count == Self.maximumCount, let now { spareLastNeeded = now }
        return b
    }

    /// A buffer the compositor is not reading: the one drawn most recently, so it has the least
    /// to catch up on; a new one while there are fewer than three; nil when all three are held.
    /// `now` (the window's clock, s) is noted when a frame needs the third buffer: the compositor
    /// holds the other two.
    func acquire(now: Double) throws -> ShmBuffer? {
        if buffers.count == Self.maximumCount && freeCount < 2 { spareLastNeeded = now }
        if let free = nextFree { return free }
        guard buffers.count < Self.maximumCount else { return nil }
        if buffers.count == 2 {
            Diagnostics.wayland.debug(
                "the compositor holds both buffers; a third is allocated (\(width)×\(height) px)")
        }
        return try addBuffer(now: now)
    }

    /// The free buffer `acquire` hands out first: of those the compositor is not reading, a
    /// ready one (`ShmBuffer.isReady`) before one that is not, then the one drawn most recently
    /// (the first of them on a tie); nil when all are held. A third buffer whose ring is not yet
    /// faulted in takes a frame only when no other is free: its first frames would fault a
    /// frame's pages in, and a client held to a small CPU share then lost the frames after
    /// (decisions.md, 0.15.27).
    var nextFree: ShmBuffer? {
        // Loops, not `filter` and `max`: those allocate an array and run a main-actor closure
        // per buffer, every frame.
        var free: (buffer: ShmBuffer, ready: Bool, frame: Int)?
        for b in buffers where !b.isBusy {
            let ready = b.isReady
            let frame = b.frame ?? -1
            if let f = free, f.ready && !ready || f.ready == ready && frame <= f.frame { continue }
            free = (b, ready, frame)
        }
        return free?.buffer
    }

    /// Whether a ready buffer (`ShmBuffer.isReady`) is free: what a frame that replaces a waiting
    /// one may use. A replacement is never worth faulting pages in for: without it the input
    /// waits for the next frame, as before replacements were drawn.
    var hasReadyBuffer: Bool { buffers.contains { !$0.isBusy && $0.isReady } }

    /// Buffers the compositor is not reading.
    private var freeCount: Int {
        var n = 0
        for b in buffers where !b.isBusy { n += 1 }
        return n
    }

    /// When a frame last needed the third buffer (the compositor held the other two), or it was
    /// made; nil while there are two.
    private(set) var spareLastNeeded: Double?

    /// When the third buffer may be given back, `keep` seconds after a frame last needed it,
    /// while two buffers are free (one of them stays for the next frame): nil when there is
    /// none, or the compositor holds two.
    func spareReturnTime(keep: Double) -> Double? {
        guard buffers.count == Self.maximumCount, let last = spareLastNeeded, freeCount >= 2 else { return nil }
        return last + keep
    }

    /// Gives the third buffer back (its ring unmapped, its wl_buffer and pool destroyed): of
    /// the free buffers, the one holding the oldest frame, never the newest. A window that rests
    /// keeps two; a frame that finds both held again has it made again while idle
    /// (`wantsSpare`). Returns whether one went.
    func returnSpare() -> Bool {
        guard buffers.count == Self.maximumCount, freeCount >= 2 else { return false }
        var oldest: (index: Int, frame: Int)?
        for (i, b) in buffers.enumerated() where !b.isBusy {
            let frame = b.frame ?? -1
            if oldest == nil || frame < oldest!.frame { oldest = (i, frame) }
        }
        guard let oldest else { return false }
        precondition(!buffers[oldest.index].isBusy, "never destroy a buffer the compositor may be reading")
        buffers.remove(at: oldest.index)
        spareLastNeeded = nil
        return true
    }

    /// A frame that would have replaced a waiting one found both buffers held (weston keeps the
    /// one it shows until its next repaint): the third is made and faulted in while the window
    /// is idle (`prefaultNext`), for the input after. Never inside a frame: its ring (one and a
    /// half frames) drawn into fresh costs page faults that a client held to a small CPU share
    /// pays for in frames (decisions.md, 0.15.5).
    var wantsSpare = false

    /// A spare is wanted and there is room for it.
    private var spareToMake: Bool { wantsSpare && buffers.count < Self.maximumCount }

    /// The buffer holding the newest frame, other than `buffer`.
    func newest(other buffer: ShmBuffer) -> ShmBuffer? {
        var newest: (buffer: ShmBuffer, frame: Int)?
        for b in buffers where b !== buffer {
            if let f = b.frame, newest == nil || f > newest!.frame { newest = (b, f) }
        }
        return newest?.buffer
    }

    /// Whether a buffer's ring is not faulted in yet, or a spare is wanted.
    var needsPrefault: Bool {
        spareToMake || buffers.contains { !$0.prefaulted }
    }

    /// Makes the spare buffer when one is wanted, else faults in the next piece (at most
    /// `piece` bytes) of a buffer's ring that is not yet (`ShmBuffer.prefault`); returns whether
    /// more still waits (so the loop does not spin one more turn to learn that nothing is left).
    func prefaultNext(piece: Int, now: Double) -> Bool {
        if spareToMake {
            wantsSpare = false
            do {
                try addBuffer(now: now)  // faulted in at the next turn
            } catch {
                // Only the replacements go without it: input waits for the next frame.
                Diagnostics.wayland.warning("no spare buffer for frames that replace a waiting one: \(error)")
            }
            return needsPrefault
        }
        buffers.first(where: { !$0.prefaulted })?.prefault(piece: piece)
        return needsPrefault
    }

    /// Frames copied to the other end of their rings so far.
    var recentres: Int { buffers.reduce(0) { $0 + $1.recentres } }
}
