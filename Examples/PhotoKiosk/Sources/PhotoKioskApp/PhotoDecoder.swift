import Glibc
import Scrollway
import Synchronization

/// What the decoder hands back for one request, through the window's inbox.
struct DecodedPhoto: Sendable {
    enum Outcome: Sendable {
        /// The full photo, passed whole to the main thread (`CanvasHandoff`: the decoding
        /// thread keeps no reference to it).
        case decoded(CanvasHandoff)
        /// A photo's thumbnail for the contact sheet, and the photo's own size in pixels.
        case thumbnail(CanvasHandoff, width: Int, height: Int)
        /// The file went or broke (since the kiosk started, for a page's photo): what to report.
        case failed(String)
        /// No thread could start to decode it: the page keeps its thumbnail and asks again.
        case notStarted
    }

    /// The request, by the id its asker gave it.
    let id: Int
    let outcome: Outcome
}

/// Decodes the pager's full photos and the contact sheet's thumbnails on a thread of its own,
/// one at a time, the most urgent first, and hands each to the main thread through the window's
/// inbox (`PhotoPager` and `ContactSheet` ask and receive; a page shows its thumbnail meanwhile,
/// a cell a placeholder).
///
/// Why a thread: a camera photo takes long enough to decode that a turn which decoded its next
/// page on the main thread stalled the motion's first frames, and a folder's thumbnails made
/// before the window opened kept the screen dark for seconds. Why one: a kiosk's board is
/// small, the main thread and the compositor want the other cores, and one decode at a time
/// makes one photo's pixels at a time. Why a thread of its own and not Dispatch's global queues
/// or a task: on Linux those also run Swift concurrency's jobs, and a headless frame that waits
/// for its background work (`Window.waitsForBackgroundWork`) must never be the reason none is
/// free to decode (the rule Scrollway's tile workers keep). The thread starts when there is work
/// and ends when the queue is empty.
///
/// A decoder serves one pager and one contact sheet, each by its own kind of request: each
/// update names every request of its kind the asker still wants, and the others of that kind
/// (a second pager's among them) are let go. A page's photo goes before any thumbnail: it is
/// what someone is looking at.
public final class PhotoDecoder: Sendable {
    /// Decodes the photo file at the path, on the decoder's thread.
    public typealias Decode = @Sendable (String) throws -> Canvas
    /// Makes the thumbnail of the photo file at the path, on the decoder's thread.
    public typealias MakeThumbnail = @Sendable (String) throws -> PhotoThumbnail
    /// Starts a thread named by the first argument to run the second: 0, or the system's error
    /// number when it refuses (`BackgroundThread.start`).
    public typealias ThreadStarter = @Sendable (String, @escaping @Sendable () -> Void) -> Int32

    /// Who asks, and what is made for it; the lower kind goes first.
    enum Kind: Int, Sendable {
        case photo = 0
        case thumbnail = 1
    }

    struct Job: Sendable {
        let kind: Kind
        let id: Int
        let path: String
        /// Lower first, within a kind: how far the page or the cell is from what shows.
        var priority: Double
        /// What a frame that waits for background work waits for; nil for work no frame waits
        /// for (thumbnails out of view), whose result is sent on `channel`.
        let ticket: InboxTicket<DecodedPhoto>?
        let channel: InboxChannel<DecodedPhoto>

        var key: Key { Key(kind: kind, id: id) }

        /// Hands the result over: delivered on the ticket, or sent when there is none.
        func finish(_ outcome: DecodedPhoto.Outcome) {
            let message = DecodedPhoto(id: id, outcome: outcome)
            if let ticket { ticket.deliver(message) } else { channel.send(message) }
        }
    }

    /// A request's identity: ids are the asker's, so each kind has its own.
    struct Key: Hashable, Sendable {
        let kind: Kind
        let id: Int
    }

    private struct State {
        var queue: [Job] = []
        var threadRuns = false
        /// The job being decoded, and whether its asker has let it go since it started.
        var inHand: Key?
        var inHandAbandoned = false
        /// Decodes finished for a request let go meanwhile, dropped on the decoder's thread.
        var abandoned = 0
        /// Whether a thread was ever refused (said once).
        var refusedThread = false

        /// The most urgent queued job, taken out.
        mutating func takeMostUrgent() -> Job? {
            guard let i = queue.indices.min(by: { PhotoDecoder.precedes(queue[$0], queue[$1]) }) else { return nil }
            let job = queue.remove(at: i)
            inHand = job.key
            inHandAbandoned = false
            return job
        }
    }

    private let state = Mutex(State())
    private let decode: Decode
    private let makeThumbnail: MakeThumbnail
    private let startThread: ThreadStarter

    /// A decoder that reads photos with `decode` (PNG and JPEG files by default) and makes
    /// thumbnails with `thumbnail` (`Photo.makeThumbnail` by default) on threads that
    /// `startThread` starts (a test's stand-in for a system that refuses them; by default
    /// `BackgroundThread.start`).
    public init(
        decode: @escaping Decode = Photo.decode, thumbnail: @escaping MakeThumbnail = Photo.makeThumbnail,
        startThread: ThreadStarter? = nil
    ) {
        self.decode = decode
        self.makeThumbnail = thumbnail
        self.startThread = startThread ?? { BackgroundThread.start(named: $0, $1) }
    }

    /// Decodes finished for a request let go while they ran, dropped before they reached the main
    /// thread.
    public var abandonedCount: Int { state.withLock { $0.abandoned } }

    /// Keeps the queued and running requests of `kind` that `priorities` names, at their new
    /// priorities, lets go of its others (a queued one leaves the queue and its ticket is
    /// withdrawn; the one being decoded is dropped when it is done), queues `jobs`, and starts the
    /// thread if it is not running. Main thread; never waits for a decode. One call for a whole
    /// update, so that the thread takes the most urgent of the update's requests, whatever their
    /// order.
    func schedule(_ kind: Kind, keeping priorities: [Int: Double], adding jobs: [Job]) {
        let (dropped, start) = state.withLock { s -> ([Job], Bool) in
            var dropped: [Job] = []
            var kept: [Job] = []
            for var job in s.queue {
                if job.kind != kind {
                    kept.append(job)
                } else if let p = priorities[job.id] {
                    job.priority = p
                    kept.append(job)
                } else {
                    dropped.append(job)
                }
            }
            if let key = s.inHand, key.kind == kind, priorities[key.id] == nil { s.inHandAbandoned = true }
            s.queue = kept + jobs
            guard !s.threadRuns, !s.queue.isEmpty else { return (dropped, false) }
            s.threadRuns = true
            return (dropped, true)
        }
        for job in dropped { job.ticket?.withdraw() }
        guard start else { return }
        let refusal = startThread("photo-decoder") { [self] in run() }
        if refusal != 0 { refused(refusal) }
    }

    /// No thread could start (a limit on processes: a kiosk service's small `TasksMax`): every
    /// queued request comes back undone, so that a headless frame waiting for them does not wait
    /// for ever and the askers keep what they show until they ask again. Not decoded here: the
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
        for job in undone { job.finish(.notStarted) }
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
                job.finish(outcome)
            } else {
                job.ticket?.withdraw()
            }
        }
    }

    /// Decodes `job`'s photo or thumbnail; nil when its asker let it go meanwhile, its pixels
    /// freed here, on this thread, before the ticket is withdrawn (whoever waits for it finds
    /// them gone).
    private func decodeIfWanted(_ job: Job) -> DecodedPhoto.Outcome? {
        let outcome: DecodedPhoto.Outcome
        do {
            switch job.kind {
            case .photo:
                outcome = .decoded(CanvasHandoff(try decode(job.path)))
            case .thumbnail:
                let made = try makeThumbnail(job.path)
                let (width, height) = (made.pixelWidth, made.pixelHeight)
                outcome = .thumbnail(CanvasHandoff(made.image), width: width, height: height)
            }
        } catch {
            outcome = .failed(job.kind == .photo ? Photo.cannotShow(job.path, error) : Photo.skipping(job.path, error))
        }
        let abandoned = state.withLock { s -> Bool in
            defer { s.inHand = nil }
            if s.inHandAbandoned { s.abandoned += 1 }
            return s.inHandAbandoned
        }
        return abandoned ? nil : outcome
    }

    private static func precedes(_ a: Job, _ b: Job) -> Bool {
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.priority != b.priority ? a.priority < b.priority : a.id < b.id
    }
}
