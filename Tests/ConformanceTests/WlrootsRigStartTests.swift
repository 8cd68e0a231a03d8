import Testing

@testable import ScrollwayRigs

/// A wlroots rig (sway's, phoc's) starts without waiting for events that have all come: the
/// roundtrip after binding the outputs brings their names and modes, and a wait after it ended
/// only at its one-second timeout, a second for every rig started.
@MainActor
@Suite(.serialized) struct WlrootsRigStartTests {
    @Test(arguments: [Compositor.sway, .phoc]) func theOutputIsKnownWithoutWaiting(_ c: Compositor) throws {
        try Desk.cancelUnlessAvailable(c, needs: [])
        let rig = try c.start(width: 400, height: 300)
        defer { rig.stop() }
        let seat = try #require((rig as? SwayRig)?.control ?? (rig as? PhocRig)?.control)
        #expect(seat.outputWaits == 0)
        #expect(seat.outputMode.width == 400 && seat.outputMode.height == 300, "\(seat.outputMode)")
    }
}
