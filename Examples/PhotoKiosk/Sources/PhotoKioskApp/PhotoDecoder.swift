import Glibc
import Scrollway
import Synchronization

/// What the decoder hands back for one request, through the window's inbox.
struct DecodedPhoto: Sendable {
    enum Outcome: Sendable {
        /// The full photo, passed whole to the main thread (`CanvasHandoff`: the decoding
        /// thread keeps no reference to it).
        case decoded(CanvasHandoff)
        /// The file went or broke since the kiosk started: what to report.
        case failed(String)
        /// No thread could start to decode it: the page keeps its thumbnail and asks again.
        case notStarted
    }

    let id: Int
    /// The page that asked, by index.
    let page: Int
    let outcome: Outcome
}

/// Decodes the pager's full photos on a thread of its own, one at a time, the most urgent first,
/// and hands each to the main thread through the window's inbox (`PhotoPager` asks and
/// receives; the page shows its thumbnail meanwhile).
///
/// Why a thread: a camera photo takes long enough to decode that a turn which decoded its next
/// page on the main thread stalled the motion's first frames. Why one: a kiosk's board is small,
/// the main thread and the compositor want the other cores, and one decode at a time makes one
/// photo's pixels at a time. Why a thread of its own and not Dispatch's global queues or a task:
/// on Linux those also run Swift concurrency's jobs, and a headless frame that waits for its
/// background work (`Window.waitsForBackgroundWork`) must never be the reason none is free to
/// decode (the rule Scrollway's tile workers keep). The thread starts when there is work and
/// ends when the queue is empty.
///
/// A decoder serves one pager: each update names every request the pager still wants, and the
/// others (a second pager's among them) are let go.
public final class PhotoDecoder: Sendable {
    /// Decodes the photo file at the path, on the decoder's thread.
    public typealias Decode = @Sendable (String) throws -> Canvas
    /// Starts a thread named by the first argument to run the second: 0, or the system's error
    /// number when it refuses (`BackgroundThread.start`).
    public typealias ThreadStarter = @Sendable (String, @escaping @Sendable () -> Void) -> Int32

    struct Job: Sendable {
        let id: Int
        let page: Int
        let path: String
        /// Lower first: how far the page is from the middle of the screen, in pages.
        var priority: Double
        let ticket: InboxTicket<DecodedPhoto>
    }

    private struct State {
        var queue: [Job] = []
        var threadRuns = false
        /// The job being decoded, and whether the pager has let it go since it started.
        var inHand: Int?
        var inHandAbandoned = false
        /// Decodes finished for a request let go meanwhile, dropped on the decoder's thread.
        var abandoned = 0
        /// Whether a thread was ever refused (said once).
        var refusedThread = false

        /// The most urgent queued job, taken out.
        mutating func takeMostUrgent() -> Job? {
            guard let i = queue.indices.min(by: { PhotoDecoder.precedes(queue[$0], queue[$1]) }) else { return nil }
            let job = queue.remove(at: i)
            inHand = job.id
            inHandAbandoned = false
            return job
        }
    }

    private let state = Mutex(State())
    private let decode: Decode
    private let startThread: ThreadStarter

    /// A decoder that reads photos with `decode` (PNG and JPEG files by default) on threads that
    /// `startThread` starts (a test's stand-in for a system that refuses them; by default
    /// `BackgroundThread.start`).
    public init(decode: @escaping Decode = Photo.decode, startThread: ThreadStarter? = nil) {
        self.decode = decode
        self.startThread = startThread ?? { BackgroundThread.start(named: $0, $1) }
    }

    /// Decodes finished for a page let go while they ran, dropped before they reached the main
    /// thread.
    public var abandonedCount: Int { state.withLock { $0.abandoned } }

    /// Keeps the queued and running requests `priorities` names, at their new priorities, lets
    /// go of the others (a queued one leaves the queue and its ticket is withdrawn; the one being
    /// decoded is dropped when it is done), queues `jobs`, and starts the thread if it is not
    /// running. Main thread; never waits for a decode. One call for a whole update, so that the
    /// thread takes the most urgent of the update's requests, whatever their order.
    func schedule(keeping priorities: [Int: Double], adding jobs: [Job]) {
        let (dropped, start) = state.withLock { s -> ([Job], Bool) in
            var dropped: [Job] = []
            var kept: [Job] = []
            for var job in s.queue {
                if let p = priorities[job.id] {
                    job.priority = p
                    kept.append(job)
                } else {
                    dropped.append(job)
                }
            }
            if let id = s.inHand, priorities[id] == nil { s.inHandAbandoned = true }
            s.queue = kept + jobs
            guard !s.threadRuns, !s.queue.isEmpty else { return (dropped, false) }
            s.threadRuns = true
            return (dropped, true)
        }
        for job in dropped { job.ticket.withdraw() }
        guard start else { return }
        let refusal = startThread("photo-decoder") { [self] in run() }
        if refusal != 0 { refused(refusal) }
    }

    /// No thread could start (a limit on processes: a kiosk service's small `TasksMax`): every
    /// queued request comes back undone, so that a headless frame waiting for them does not wait
    /// for ever and the pages keep their thumbnails until they ask again. Not decoded here: the
    /// main thread never decodes. Said once.
    private func refused(_ refusal: Int32) {
        let (undone, first) = state.withLock { s -> ([Job], Bool) in
            defer {
                s.queue = []
                s.threadRuns = false
                s.refusedThread = true
            }
            return (s.queue, !s.refusedThread)
        }
        if first {
            let why = String(cString: strerror(refusal))
            Photo.warn("no thread could start to decode photos (\(why)): the pages show their thumbnails")
        }
        for job in undone { job.ticket.deliver(DecodedPhoto(id: job.id, page: job.page, outcome: .notStarted)) }
    }

    /// The thread's life: decode the most urgent job and deliver it, until the queue is empty.
    private func run() {
        // Woken in the middle of a frame, the thread waits for the main thread instead of taking
        // its core (`BackgroundThread.yieldOnWake`).
        BackgroundThread.yieldOnWake()
        while let job = state.withLock({ s -> Job? in
            guard let job = s.takeMostUrgent() else {
                s.threadRuns = false
                return nil
            }
            return job
        }) {
            if let outcome = decodeIfWanted(job) {
                job.ticket.deliver(DecodedPhoto(id: job.id, page: job.page, outcome: outcome))
            } else {
                job.ticket.withdraw()
            }
        }
    }

    /// Decodes `job`'s photo; nil when the pager let it go meanwhile, its pixels freed here, on
    /// this thread, before the ticket is withdrawn (whoever waits for it finds them gone).
    private func decodeIfWanted(_ job: Job) -> DecodedPhoto.Outcome? {
        let outcome: DecodedPhoto.Outcome
        do {
            outcome = .decoded(CanvasHandoff(try decode(job.path)))
        } catch {
            outcome = .failed(Photo.cannotShow(job.path, error))
        }
        let abandoned = state.withLock { s -> Bool in
            defer { s.inHand = nil }
            if s.inHandAbandoned { s.abandoned += 1 }
            return s.inHandAbandoned
        }
        return abandoned ? nil : outcome
    }

    private static func precedes(_ a: Job, _ b: Job) -> Bool {
        a.priority != b.priority ? a.priority < b.priority : a.id < b.id
    }
}
