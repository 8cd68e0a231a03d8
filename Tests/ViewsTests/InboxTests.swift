import Dispatch
import Foundation
import ScrollwayGeometry
import ScrollwayViews
import Synchronization
import Testing

/// The window's inbox: how worker threads hand results to the window's thread.
@MainActor
@Suite struct InboxTests {
    @Test func messagesFromOtherThreadsRunOnlyWhenDrainedInOrder() {
        let window = Window(size: Size(width: 10, height: 10))
        var received: [Int] = []
        let channel = window.openChannel(Int.self) { received.append($0) }
        let wakes = Mutex(0)
        window.inbox.setWakeHandler { wakes.withLock { $0 += 1 } }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThreadWithSemaphore(done) {
            for i in 1...5 { channel.send(i) }
        }
        done.wait()
        #expect(received.isEmpty)  // nothing runs on the worker's thread
        #expect(wakes.withLock { $0 } == 1)  // only the post into an empty inbox wakes
        #expect(window.drainInbox() == 5)
        #expect(received == [1, 2, 3, 4, 5])
        window.closeChannel(channel)
        channel.send(6)
        #expect(window.drainInbox() == 1 && received.count == 5)  // a closed channel's mail is dropped
    }

    @Test func finishingBackgroundWorkWaitsForEveryTicket() {
        let window = Window(size: Size(width: 10, height: 10))
        var received: [String] = []
        let channel = window.openChannel(String.self) { received.append($0) }
        let tickets = (0..<3).map { _ in window.ticket(on: channel) }
        #expect(window.inbox.outstandingWork == 3)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            tickets[0].deliver("a")
            tickets[1].withdraw()
            tickets[2].deliver("c")
        }
        window.finishBackgroundWork()
        #expect(received == ["a", "c"])
        #expect(window.inbox.outstandingWork == 0)
    }

    @Test func aDroppedTicketWithdrawsItself() {
        let window = Window(size: Size(width: 10, height: 10))
        let channel = window.openChannel(Int.self) { _ in }
        do { _ = window.ticket(on: channel) }
        #expect(window.inbox.outstandingWork == 0)
        window.finishBackgroundWork()  // returns: nothing is outstanding
    }

    @Test func aWindowThatWaitsAsksForTheFrameThatWillWait() throws {
        let window = Window(size: Size(width: 10, height: 10))
        try window.prepareFrame(time: 0)
        #expect(!window.needsFrame)
        let channel = window.openChannel(Int.self) { _ in }
        let quiet = window.ticket(on: channel)
        #expect(!window.needsFrame)  // interactive: the result asks for a frame when it arrives
        quiet.withdraw()
        window.waitsForBackgroundWork = true
        let ticket = window.ticket(on: channel)
        #expect(window.needsFrame)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            ticket.deliver(1)
        }
        try window.prepareFrame(time: 1.0 / 60)  // waits for it
        #expect(window.inbox.outstandingWork == 0 && window.inbox.pendingMessages == 0)
        #expect(window.framesPrepared == 2)
    }
}

@MainActor
extension Thread {
    /// Runs `body` on a new thread and signals `done` after it.
    static func detachNewThreadWithSemaphore(_ done: DispatchSemaphore, _ body: @escaping @Sendable () -> Void) {
        detachNewThread {
            body()
            done.signal()
        }
    }
}
