import Glibc
import ScrollwayCWaylandClient
import ScrollwayWaylandCore
import ScrollwayWaylandProtocols
import ScrollwayWestonHarness
import Testing

/// A compositor that refuses a request sends a protocol error and closes the connection. A
/// client that writes before it reads then finds the pipe broken; it reads on, and the error
/// it reports names the object and the code, not the broken pipe.
@MainActor
@Suite struct ProtocolErrorTests {
    @Test func aProtocolErrorIsNamedAfterTheCompositorHungUp() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        let display = try WaylandDisplay(socket: rig.socketPath)
        try display.roundtrip()
        // No global has this name: weston posts an error on the registry (wl_registry@2,
        // WL_DISPLAY_ERROR_INVALID_OBJECT) and closes the connection.
        _ = display.bind(name: 99_999, sw_wl_compositor_interface(), version: 1)
        try display.flush()
        // Without reading: wait until weston has closed its end (POLLRDHUP, which Glibc's
        // module leaves out: 0x2000).
        let peerClosed: Int16 = 0x2000
        var closed = false
        for _ in 0..<1_000 where !closed {
            var pfd = pollfd(fd: display.fileDescriptor, events: peerClosed, revents: 0)
            _ = poll(&pfd, 1, 10)
            closed = pfd.revents & (peerClosed | Int16(truncatingIfNeeded: POLLHUP)) != 0
        }
        #expect(closed)
        // A request written after the close: the flush meets a broken pipe.
        let sync = wl_display_sync(display.display)
        defer { if let sync { wl_callback_destroy(sync) } }
        #expect(throws: DisplayError.protocolError(object: "wl_registry@2", code: 0)) {
            try display.dispatch(timeout: 5)
        }
    }

    /// An error the compositor sends on wl_display itself (an invalid object or method, no
    /// memory: a client's commonest faults) is a protocol error too: libwayland gives it errno
    /// EINVAL or ENOMEM, not EPROTO, and it was reported as a lost connection, "Invalid
    /// argument".
    @Test func anErrorOnTheDisplayItselfIsAProtocolError() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        let display = try WaylandDisplay(socket: rig.socketPath)
        try display.roundtrip()
        // A request on an object that does not exist (id 1000, opcode 0, no arguments), written
        // past libwayland, which would not send it: weston answers with wl_display.error,
        // invalid_object.
        let message: [UInt32] = [1000, 8 << 16]
        let written = message.withUnsafeBytes { Glibc.write(display.fileDescriptor, $0.baseAddress, $0.count) }
        #expect(written == 8)
        #expect(throws: DisplayError.protocolError(object: "wl_display@1", code: 0)) {
            for _ in 0..<100 { try display.dispatch(timeout: 5) }
        }
    }
}
