import Dispatch
import Foundation
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews
import Synchronization

/// What a worker thread hands back for one tile request: the image it drew (nil when the canvas
/// could not be allocated).
struct TileDelivery: Sendable {
    let id: Int
    let image: CanvasHandoff?
    /// The memory `image` draws into, for the tiled view to give back (`recycle`) once the
    /// tile is gone.
    let memory: PixelMemory?
}

/// How a tile rasterizer starts a worker thread named by the first argument to run the second:
/// 0, or the system's error number when it refuses (`BackgroundThread.start`).
package typealias WorkerThreadStarter = @Sendable (String, @escaping @Sendable () -> Void) -> Int32

/// A small fixed pool of worker threads that draw tiles, most urgent first, each into its own
/// canvas, and deliver them through the window's inbox.
///
/// Dedicated threads, not Dispatch's global queues: on Linux those also run Swift concurrency's
/// tasks, and a headless frame that blocks its thread waiting for tiles must never be the reason
/// no thread is free to draw them. The threads start on first use (at most `width`), sleep on a
/// semaphore while the queue is empty, and end when the owning tiled view goes (`close`).
final class TileRasterizer: Sendable {
    struct Job: Sendable {
        let id: Int
        /// The content rect to draw and the canvas size in device pixels at `level`.
        let rect: Rect
        let level: Double
        let pixelWidth: Int
        let pixelHeight: Int
        /// Lower first: visible tiles nearest the middle of the view, then the margin's.
        var priority: Double
        let source: any TileSource
        let ticket: InboxTicket<TileDelivery>
    }

    private struct State {
        var queue: [Job] = []
        var threads = 0
        var closed = false
        var budget: BackgroundBudget?
        /// Evicted tiles' memory, for queued jobs of the same size (`recycle`); never more
        /// bytes than the queued jobs will draw, so it stays inside the room the tiled view's
        /// cap reserves for them, and none once the queue is empty.
        var spares: [PixelMemory] = []
        /// Jobs drawn in a spare so far.
        var reused = 0
        /// Whether a worker thread was ever refused (said once).
        var refusedWorker = false

        /// The spare of `width`×`height` pixels, taken out, if there is one.
        mutating func takeSpare(width: Int, height: Int) -> PixelMemory? {
            guard let i = spares.firstIndex(where: { $0.width == width && $0.height == height }) else { return nil }
            reused += 1
            return spares.remove(at: i)
        }

        /// The most urgent queued job, taken out, with a spare of its size if there is one.
        mutating func takeMostUrgent() -> (job: Job, spare: PixelMemory?)? {
            guard let i = queue.indices.min(by: { TileRasterizer.precedes(queue[$0], queue[$1]) }) else {
                return nil
            }
            let job = queue.remove(at: i)
            return (job, takeSpare(width: job.pixelWidth, height: job.pixelHeight))
        }

        /// Bytes of the spares.
        var spareBytes: Int {
            var held = 0
            for spare in spares { held += spare.byteCount }
            return held
        }

        /// Takes out the spares beyond what the queued jobs will draw (the caller frees them
        /// outside the lock).
        mutating func excessSpares() -> [PixelMemory] {
            var room = 0
            for job in queue { room += job.pixelWidth * job.pixelHeight * 4 }
            var held = spareBytes
            var excess: [PixelMemory] = []
            while held > room, let spare = spares.popLast() {
                held -= spare.byteCount
                excess.append(spare)
            }
            return excess
        }
    }

    private let state = Mutex(State())
    /// Counts queued jobs (cancelled ones only cost a worker one empty look at the queue).
    private let jobsQueued = DispatchSemaphore(value: 0)
    /// Worker threads at most.
    let width: Int

    /// One worker per core, less one kept for the main thread (at least one).
    static var defaultWidth: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// Starts a worker: `BackgroundThread.start`, or a test's stand-in for a system that
    /// refuses threads.
    let startThread: WorkerThreadStarter

    init(width: Int, startThread: WorkerThreadStarter? = nil) {
        precondition(width > 0, "a tile rasterizer needs at least one worker")
        self.width = width
        self.startThread = startThread ?? { BackgroundThread.start(named: $0, $1) }
    }

    /// The CPU share the workers keep to (nil: none), read before each job: the window's
    /// `backgroundBudget`, set when the tiled view connects to it.
    var budget: BackgroundBudget? {
        get { state.withLock { $0.budget } }
        set { state.withLock { $0.budget = newValue } }
    }

    /// Queues `jobs` together (main thread), starting workers while fewer than `width` run and
    /// there are jobs for them: a worker that wakes takes the most urgent job queued, so one
    /// update's requests, queued at once, are drawn most urgent first whatever their order.
    func submit(_ jobs: [Job]) {
        guard !jobs.isEmpty else { return }
        let (accepted, spawn) = state.withLock { s -> (Bool, Int) in
            guard !s.closed else { return (false, 0) }
            s.queue.append(contentsOf: jobs)
            let spawn = max(0, min(width - s.threads, jobs.count))
            s.threads += spawn
            return (true, spawn)
        }
        guard accepted else {
            for job in jobs { job.ticket.withdraw() }
            return
        }
        var refusal: Int32 = 0
        for started in 0..<spawn {
            refusal = startThread("scrollway-tiles") { [self] in run() }
            if refusal != 0 {
                // This one and those not tried: one refusal is the system's answer for now.
                state.withLock { $0.threads -= spawn - started }
                break
            }
        }
        if refusal != 0, refused(refusal) == 0 {
            drawWithoutWorkers()
        } else {
            for _ in jobs { jobsQueued.signal() }
        }
    }

    /// Notes that the system refused a worker (said once) and returns how many workers run.
    private func refused(_ refusal: Int32) -> Int {
        let (running, first) = state.withLock { s -> (Int, Bool) in
            defer { s.refusedWorker = true }
            return (s.threads, !s.refusedWorker)
        }
        if first {
            let why = String(cString: strerror(refusal))
            Diagnostics.raster.warning("no thread could start to draw tiles (\(why)): the thread that asks draws them")
        }
        return running
    }

    /// When the system refuses a worker thread (a limit on processes: a kiosk's service with a
    /// small `TasksMax`) and none runs, the submitting thread draws everything queued, most
    /// urgent first and the margin's tiles too, as a view with synchronous tiles would, and
    /// outside any background budget: tiles that come late, rather than a view left blank by
    /// work no thread will ever take. The next `submit` tries a worker again.
    private func drawWithoutWorkers() {
        while let (job, spare) = state.withLock({ $0.closed ? nil : $0.takeMostUrgent() }) {
            Self.draw(job, reusing: spare)
        }
        _ = state.withLock { $0.excessSpares() }
    }

    /// Re-ranks the queued jobs: `priorities` gives each job's new priority by id; a job it
    /// leaves out is cancelled. Cancelled jobs that had not started are removed and their
    /// tickets withdrawn; returns their ids (a job already being drawn is not stopped: its
    /// delivery tells the caller). A table, not a function: the caller is on the main actor,
    /// and a closure formed there checks its executor at every call.
    func reprioritize(_ priorities: [Int: Double]) -> [Int] {
        let (removed, excess) = state.withLock { s -> ([Job], [PixelMemory]) in
            var removed: [Job] = []
            var kept: [Job] = []
            kept.reserveCapacity(s.queue.count)
            for var job in s.queue {
                if let p = priorities[job.id] {
                    job.priority = p
                    kept.append(job)
                } else {
                    removed.append(job)
                }
            }
            s.queue = kept
            return (removed, removed.isEmpty ? [] : s.excessSpares())
        }
        _ = excess  // freed here, outside the lock
        for job in removed { job.ticket.withdraw() }
        return removed.map(\.id)
    }

    /// Removes the queued jobs among `ids` and withdraws their tickets; returns their ids (jobs
    /// already being drawn are not stopped).
    func cancel(_ ids: Set<Int>) -> [Int] {
        let (removed, excess) = state.withLock { s -> ([Job], [PixelMemory]) in
            let removed = s.queue.filter { ids.contains($0.id) }
            guard !removed.isEmpty else { return ([], []) }
            s.queue.removeAll { ids.contains($0.id) }
            return (removed, s.excessSpares())
        }
        _ = excess  // freed here, outside the lock
        for job in removed { job.ticket.withdraw() }
        return removed.map(\.id)
    }

    /// Keeps an evicted tile's memory (no canvas may wrap it any more) for a queued job of its
    /// size, if the queue has room for it (see `State.spares`); else it is freed when the
    /// caller lets it go.
    func recycle(_ memory: PixelMemory) {
        let excess = state.withLock { s -> [PixelMemory] in
            guard !s.closed else { return [] }
            s.spares.append(memory)
            return s.excessSpares()  // the newest first: `memory` itself when there is no room
        }
        _ = excess  // freed here, outside the lock
    }

    /// Jobs drawn in an evicted tile's memory so far.
    var reusedCount: Int { state.withLock { $0.reused } }

    /// Bytes of the spares kept for queued jobs.
    var spareBytes: Int { state.withLock { $0.spareBytes } }

    /// The ids of the jobs no worker has started yet.
    func queuedIDs() -> Set<Int> {
        state.withLock { Set($0.queue.map(\.id)) }
    }

    /// Drops every queued job and lets the workers end once they finish the tile in hand.
    func close() {
        let (dropped, threads, spares) = state.withLock { s -> ([Job], Int, [PixelMemory]) in
            s.closed = true
            let dropped = s.queue
            s.queue = []
            defer { s.spares = [] }
            return (dropped, s.threads, s.spares)
        }
        _ = spares  // freed here, outside the lock
        for job in dropped { job.ticket.withdraw() }
        for _ in 0..<threads { jobsQueued.signal() }
    }

    /// A worker thread's life: take the most urgent job, draw it, deliver it; repeat until closed.
    /// Under a budget it waits for its turn before taking the job, which stays queued meanwhile
    /// (re-ranked or cancelled as the view moves on), and charges the budget what it took.
    private func run() {
        // Woken in the middle of a frame, a worker waits for the main thread instead of taking
        // its core (`BackgroundThread.yieldOnWake`).
        BackgroundThread.yieldOnWake()
        while true {
            jobsQueued.wait()
            let budget = state.withLock { $0.closed ? nil : $0.budget }
            let work = budget?.startWork()
            let next = state.withLock { s -> (job: Job?, spare: PixelMemory?, excess: [PixelMemory], exit: Bool) in
                if s.closed {
                    s.threads -= 1
                    return (nil, nil, [], true)
                }
                guard let (job, spare) = s.takeMostUrgent() else { return (nil, nil, [], false) }
                return (job, spare, s.excessSpares(), false)
            }
            // Spares the queue no longer needs are freed here, on this thread, not the main one.
            if let job = next.job { Self.draw(job, reusing: next.spare) }
            // A turn that found no job (cancelled meanwhile) gives its share back unlearnt.
            if let budget, let work { budget.finish(work, learns: next.job != nil) }
            if next.exit { return }
        }
    }

    private static func precedes(_ a: Job, _ b: Job) -> Bool {
        a.priority != b.priority ? a.priority < b.priority : a.id < b.id
    }

    /// Draws one tile into a canvas of its own (this thread's alone), in an evicted tile's
    /// memory or in new memory, and hands it to the main thread. The evicted tile's pixels are
    /// cleared first unless the source is opaque: one that paints every pixel would write the
    /// whole tile twice.
    private static func draw(_ job: Job, reusing spare: PixelMemory?) {
        if !job.source.isOpaque { spare?.clear() }
        let memory = spare ?? PixelMemory(width: job.pixelWidth, height: job.pixelHeight)
        let canvas: Canvas
        do {
            if let memory {
                canvas = try memory.canvas(scale: job.level)
            } else {
                canvas = try Canvas(width: job.pixelWidth, height: job.pixelHeight, scale: job.level)
            }
        } catch {
            job.ticket.deliver(TileDelivery(id: job.id, image: nil, memory: nil))
            return
        }
        job.source.draw(job.rect, in: canvas)
        // Consumed, so this thread holds no reference once it is delivered: the main thread may
        // evict the tile at once, and gives its memory back only when it holds the image alone.
        job.ticket.deliver(TileDelivery(id: job.id, image: CanvasHandoff(consume canvas), memory: memory))
    }
}
