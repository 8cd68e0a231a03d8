import Dispatch
import Synchronization

/// The thread-safe half of a window: where other threads hand finished work to the thread that
/// runs the window (the "main thread": views are not Sendable and live there).
///
/// Work done elsewhere — a tile drawn on a worker thread — comes back as a message on an
/// `InboxChannel`. Messages wait here, behind a mutex, until the main thread drains them
/// (`Window.drainInbox()`: every frame does, and so does every turn of a platform's loop) and
/// runs each channel's handler. Workers never touch a view, and the main thread never waits for
/// a worker unless the window's `waitsForBackgroundWork` says so (headless platforms, which want
/// the same pixels on every run).
///
/// A post into an empty inbox calls the wake handler, which a platform sets to interrupt its
/// sleep (the Wayland loop's eventfd): a message that arrives while nothing else happens is
/// handled at once, not at the next input event.
public final class WindowInbox: Sendable {
    struct Letter: Sendable {
        let channel: Int
        let message: any Sendable
    }

    private struct State {
        var letters: [Letter] = []
        /// Tickets issued and neither delivered nor withdrawn.
        var outstanding = 0
        /// The main thread is blocked in `waitUntilSettled` (deliveries signal it).
        var waiting = false
        var wake: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// Signalled by deliveries while the main thread waits for outstanding tickets.
    private let settled = DispatchSemaphore(value: 0)

    init() {}

    /// Sets what a post into an empty inbox calls, on the posting thread (nil: nothing). It must
    /// be quick and must not touch the window: write to an eventfd, signal a semaphore.
    public func setWakeHandler(_ wake: (@Sendable () -> Void)?) {
        state.withLock { $0.wake = wake }
    }

    /// Tickets issued and not yet delivered or withdrawn: work still running somewhere.
    public var outstandingWork: Int { state.withLock { $0.outstanding } }

    /// Messages posted and not yet drained.
    public var pendingMessages: Int { state.withLock { $0.letters.count } }

    func post(_ letter: Letter, settlingTicket: Bool) {
        let (wake, signal) = state.withLock { s -> ((@Sendable () -> Void)?, Bool) in
            s.letters.append(letter)
            if settlingTicket { s.outstanding -= 1 }
            return (s.letters.count == 1 ? s.wake : nil, s.waiting && settlingTicket)
        }
        wake?()
        if signal { settled.signal() }
    }

    func issueTicket() { state.withLock { $0.outstanding += 1 } }

    func withdrawTicket() {
        let signal = state.withLock { s -> Bool in
            s.outstanding -= 1
            return s.waiting
        }
        if signal { settled.signal() }
    }

    func takeLetters() -> [Letter] {
        state.withLock { s in
            let letters = s.letters
            s.letters = []
            return letters
        }
    }

    /// Blocks the calling (main) thread until every issued ticket is delivered or withdrawn.
    func waitUntilSettled() {
        while true {
            let done = state.withLock { s -> Bool in
                s.waiting = s.outstanding > 0
                return !s.waiting
            }
            if done { return }
            // Extra signals left from earlier waits only cost one more look at the count.
            settled.wait()
        }
    }
}

/// Where one kind of message travels from any thread to a handler on the window's thread.
/// Opened with `Window.openChannel(_:handler:)`; Sendable, so workers can hold it.
public struct InboxChannel<Message: Sendable>: Sendable {
    let inbox: WindowInbox
    let id: Int

    /// Posts a message nobody waits for (progress, say); work the window should wait for when it
    /// waits for background work goes through an `InboxTicket` instead.
    public func send(_ message: Message) {
        inbox.post(WindowInbox.Letter(channel: id, message: message), settlingTicket: false)
    }
}

/// One promised message: issued on the window's thread when work starts (`Window.ticket(on:)`),
/// then settled exactly once, from any thread: delivered with the result, or withdrawn when the
/// work was cancelled before it produced anything. Headless frames wait until every ticket is
/// settled; a ticket dropped unsettled withdraws itself, so a lost job cannot hang them.
public final class InboxTicket<Message: Sendable>: Sendable {
    private let channel: InboxChannel<Message>
    private let isSettled = Atomic(false)

    init(channel: InboxChannel<Message>) {
        self.channel = channel
        channel.inbox.issueTicket()
    }

    deinit { if settle() { channel.inbox.withdrawTicket() } }

    /// True the first time only.
    private func settle() -> Bool {
        isSettled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Posts the result. A ticket settles once: a second call is a programming error.
    public func deliver(_ message: Message) {
        precondition(settle(), "an inbox ticket was settled twice")
        channel.inbox.post(WindowInbox.Letter(channel: channel.id, message: message), settlingTicket: true)
    }

    /// Settles the ticket with no message (the work was cancelled). Does nothing if settled.
    public func withdraw() {
        if settle() { channel.inbox.withdrawTicket() }
    }
}

/// The window-thread half of the inbox, stored in `Window`: the handlers by channel, and what
/// background work needs to know about frames.
struct InboxRegistry {
    let inbox = WindowInbox()
    var handlers: [Int: (any Sendable) -> Void] = [:]
    var nextChannel = 0
    var waitsForBackgroundWork = false
    var framesPrepared = 0
    var backgroundBudget: BackgroundBudget?
}

extension Window {
    /// Where other threads post finished work for this window (see `WindowInbox`).
    public var inbox: WindowInbox { inboxRegistry.inbox }

    /// When true, every frame waits for all background work (every outstanding `InboxTicket`)
    /// and takes its results before compositing, so what a frame shows never depends on how
    /// fast other threads ran: headless platforms and `Offscreen` set it for byte-for-byte
    /// repeatable output. Interactive platforms leave it false: the main thread never waits, and
    /// results join whichever frame follows their arrival. Issuing a ticket while it is true asks
    /// for a frame, the one that will wait.
    public var waitsForBackgroundWork: Bool {
        get { inboxRegistry.waitsForBackgroundWork }
        set { inboxRegistry.waitsForBackgroundWork = newValue }
    }

    /// The CPU share background work may use (nil, the default: as much as it can). A platform
    /// sets it when the process runs under a CPU quota (`BackgroundBudget`); worker pools read it
    /// when they start work for this window.
    public var backgroundBudget: BackgroundBudget? {
        get { inboxRegistry.backgroundBudget }
        set { inboxRegistry.backgroundBudget = newValue }
    }

    /// Frames prepared so far. Background work notes it when it starts: a result that arrives
    /// while the count is unchanged has not been missed by any frame (a tile then needs no
    /// fade-in).
    public var framesPrepared: Int { inboxRegistry.framesPrepared }

    /// Opens a channel whose messages run `handler` on this window's thread, in posting order,
    /// when the inbox is drained.
    public func openChannel<Message: Sendable>(
        _ type: Message.Type = Message.self, handler: @escaping (Message) -> Void
    ) -> InboxChannel<Message> {
        inboxRegistry.nextChannel += 1
        let id = inboxRegistry.nextChannel
        inboxRegistry.handlers[id] = { message in
            if let message = message as? Message { handler(message) }
        }
        return InboxChannel(inbox: inbox, id: id)
    }

    /// Forgets the channel's handler: messages still on their way are dropped when drained.
    public func closeChannel<Message>(_ channel: InboxChannel<Message>) {
        inboxRegistry.handlers[channel.id] = nil
    }

    /// A ticket for one message of work starting now (see `InboxTicket`).
    public func ticket<Message>(on channel: InboxChannel<Message>) -> InboxTicket<Message> {
        precondition(channel.inbox === inbox, "a ticket on another window's channel")
        if waitsForBackgroundWork { setNeedsFrame() }
        return InboxTicket(channel: channel)
    }

    /// Runs the handler of every message posted so far, on this (the window's) thread, and
    /// returns how many there were. Never blocks.
    @discardableResult
    public func drainInbox() -> Int {
        let letters = inbox.takeLetters()
        for letter in letters {
            let handler = inboxRegistry.handlers[letter.channel]
            handler?(letter.message)
        }
        return letters.count
    }

    /// Waits until no background work is outstanding and takes every result (handlers may start
    /// more work; that is waited for too). For headless platforms and tests: it blocks.
    @discardableResult
    public func finishBackgroundWork() -> Int {
        var count = 0
        repeat {
            inbox.waitUntilSettled()
            count += drainInbox()
        } while inbox.outstandingWork > 0 || inbox.pendingMessages > 0
        return count
    }

    /// Whether work posted to the inbox is still out or its results have not been taken yet
    /// (tiles being drawn on worker threads).
    public var hasBackgroundWork: Bool { inbox.outstandingWork > 0 || inbox.pendingMessages > 0 }

    /// Whether a frame just prepared must be followed by another for background work: results
    /// arrived too late for it, or (when waiting) work started after it had waited.
    var backgroundWorkWantsFrame: Bool {
        inbox.pendingMessages > 0 || (waitsForBackgroundWork && inbox.outstandingWork > 0)
    }

    /// What `prepareFrame` does after layout: takes the results that arrived (all of them,
    /// waiting, when `waitsForBackgroundWork`). True when any arrived.
    func receiveBackgroundWork() -> Bool {
        (waitsForBackgroundWork ? finishBackgroundWork() : drainInbox()) > 0
    }
}
