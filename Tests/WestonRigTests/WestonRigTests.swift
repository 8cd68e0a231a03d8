import Foundation
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayTestSupport
import ScrollwayWaylandCore
import ScrollwayWestonHarness
import Testing

/// The rig against stock weston clients, with real wl_touch, wl_pointer and wl_keyboard events.
/// These need weston installed: without it they fail with RigError.westonNotFound, saying so
/// (CI installs it and never skips them).
@Suite(.serialized) struct WestonRigTests {
    /// Protocol events a client received (its WAYLAND_DEBUG lines without the requests).
    func received(_ log: URL) -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.contains(" -> ") }
    }

    /// Waits until `log` has a line containing `needle` (clients start asynchronously).
    func waitFor(_ needle: String, in log: URL, timeout: Double = 5) -> Bool {
        (try? eventually("'\(needle)' in \(log.lastPathComponent)", timeout: timeout) {
            received(log).contains { $0.contains(needle) }
        }) != nil
    }

    func tempLog(_ name: String) -> URL {
        CommandRunner.temp("\(name).log")
    }

    @Test func startsFastAndLeavesNothingBehind() throws {
        let started = Date()
        var rig: WestonRig? = try WestonRig(width: 320, height: 240)
        // The first roundtrip has happened once init returns (it waits for output_info).
        let startup = Date().timeIntervalSince(started)
        #expect(startup < 1.0, "start-up took \(startup) s")
        #expect(rig!.input.outputWidth == 320 && rig!.input.outputHeight == 240 && rig!.input.outputScale == 1)
        let pid = rig!.process.pid
        let dir = rig!.process.runtimeDirectory.path
        let socket = rig!.socketPath
        #expect(FileManager.default.fileExists(atPath: socket))
        rig = nil
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "weston \(pid) is still running")
        #expect(!FileManager.default.fileExists(atPath: socket))
        #expect(!FileManager.default.fileExists(atPath: dir))
    }

    /// A keymap other than us goes to weston.ini's `[keyboard]` (the Compose tests in
    /// WaylandTests show weston honours it); the default writes no section, as before.
    /// A compositor that stops holds the rig's roundtrip, and the next script time comes late
    /// by the stall: the pacer says so (issue 36, item 10: weston stopped for 15 s mid-script and
    /// the rig exited 0, its flings delivered in a burst). A capture's own time is excused.
    @Test func aStalledCompositorIsSeenAsLateness() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        rig.pacer.begin()
        try rig.input.roundtrip()
        try rig.pacer.wait(until: 0.0) { RealTimePacer.sleep($0) }
        // A slow capture, excused: the times that fell due during it are not late.
        _ = try rig.capture()
        rig.pacer.excuseUntilNow()
        let pid = rig.process.pid
        #expect(kill(pid, SIGSTOP) == 0)
        let stopped = 0.4
        DispatchQueue.global().asyncAfter(deadline: .now() + stopped) { _ = kill(pid, SIGCONT) }
        try rig.input.roundtrip()  // held until weston runs again
        try rig.pacer.wait(until: 20.0) { RealTimePacer.sleep($0) }
        let late = try #require(rig.pacer.worstLateness)
        #expect(late.seconds > stopped - 0.1 && late.ms == 20, "\(late)")
        let stall = try #require(rig.pacer.stall)
        #expect(
            stall.hasPrefix("events fell ")
                && stall.hasSuffix(" ms behind their script times (at t = 20 ms): the compositor stalled"))
        // A new script starts with a clean slate.
        rig.pacer.begin()
        #expect(rig.pacer.worstLateness == nil)
    }

    /// A client that stops leaves what weston sends it unread, and its backlog says so; once it
    /// runs again it reads it all (issue 36, item 10: a stopped client went unnoticed). A client
    /// that runs reads its input within a frame or two.
    @Test func aStoppedClientLeavesItsInputUnread() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer { rig.stop() }
        let empty = try rig.capture()
        let client = try rig.process.launchClient(CommandRunner.scrollway().path, arguments: ["demo"])
        let backlog = ClientBacklog(client: client.processIdentifier, socketPath: rig.socketPath)
        try eventually("the demo's window", timeout: 30) {
            try rig.capture().pixel(x: 160, y: 120) != empty.pixel(x: 160, y: 120)
        }
        #expect(backlog.unread() != nil, "the demo's connection to weston was not found")
        func wiggle() throws {
            for i in 0..<6 {
                rig.input.pointerMotion(x: 100 + Double(i % 2) * 20, y: 120, time: UInt32(i))
                rig.input.pointerFrame()
                try rig.input.roundtrip()
            }
        }
        try wiggle()
        let running = backlog.waitUntilRead(limit: 10)
        #expect(running.unread == 0, "a running client did not read its input in 10 s")

        #expect(kill(client.processIdentifier, SIGSTOP) == 0)
        defer { kill(client.processIdentifier, SIGCONT) }
        // A signal is delivered when the process next runs: until it is seen stopped, it may
        // still read what comes.
        try eventually("the demo to stop", timeout: 10) {
            let stat = try String(contentsOfFile: "/proc/\(client.processIdentifier)/stat", encoding: .utf8)
            return stat.split(separator: ")").last?.split(separator: " ").first == "T"
        }
        try wiggle()
        let stopped = backlog.waitUntilRead(limit: 0.2)
        #expect(stopped.unread > 0 && stopped.waited >= 0.2, "\(stopped)")
        #expect(kill(client.processIdentifier, SIGCONT) == 0)
        let resumed = backlog.waitUntilRead(limit: 10)
        #expect(resumed.unread == 0, "\(resumed)")
        // Connections to another compositor's socket are not this client's.
        #expect(ClientBacklog(client: client.processIdentifier, socketPath: rig.socketPath + "-other").unread() == nil)
    }

    @Test func aKeymapIsWrittenToWestonIni() throws {
        func ini(_ rig: WestonRig) throws -> String {
            try String(
                contentsOf: rig.process.runtimeDirectory.appendingPathComponent("weston.ini"), encoding: .utf8)
        }
        let intl = try WestonRig(
            width: 320, height: 240, keymap: KeymapNames(layout: "us", variant: "intl", options: "compose:ralt"))
        #expect(
            try ini(intl).contains("[keyboard]\nkeymap_layout=us\nkeymap_variant=intl\nkeymap_options=compose:ralt\n"))
        #expect(intl.keys.stroke(forKeysymNamed: "dead_acute")?.evdev == 40)
        intl.stop()
        let plain = try WestonRig(width: 320, height: 240)
        #expect(try !ini(plain).contains("[keyboard]"))
        #expect(plain.keys.stroke(forKeysymNamed: "dead_acute") == nil)
        plain.stop()
    }

    @Test func aThrowingTestStillTearsDown() throws {
        struct Boom: Error {}
        var pid: Int32 = 0
        func failing() throws {
            let rig = try WestonRig(width: 200, height: 200)
            pid = rig.process.pid
            throw Boom()
        }
        #expect(throws: Boom.self) { try failing() }
        #expect(pid > 0 && kill(pid, 0) == -1)
    }

    @Test func westonExitsWhenItsParentDies() throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sleep")
        parent.arguments = ["30"]
        try parent.run()
        let weston = try WestonProcess(
            .init(width: 200, height: 200, modulePath: try WestonRig.modulePath(), parentPID: parent.processIdentifier))
        defer { weston.stop() }
        #expect(weston.isAlive)
        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        try eventually("weston to end with its parent", timeout: 10) { !weston.isAlive }
    }

    /// A client starts with no signal blocked, whatever thread starts it: started here from a
    /// libdispatch worker thread, whose mask blocks nearly every signal (as the concurrency
    /// pool's threads do, where `scrollway rig` runs), so the rig's SIGTERM still reaches it.
    @Test func aClientStartsWithNoSignalBlocked() throws {
        let rig = try WestonRig(width: 320, height: 240)
        let out = tempLog("sigmask")
        defer { try? FileManager.default.removeItem(at: out) }
        // grep itself reads its own mask (a shell would not do: it unblocks signals at start).
        // Handed to the worker and used there alone until it signals.
        nonisolated(unsafe) let process = rig.process
        let started = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? process.launchClient("/usr/bin/grep", arguments: ["SigBlk", "/proc/self/status"], output: out)
            started.signal()
        }
        started.wait()
        try eventually("grep's output") { !((try? String(contentsOf: out, encoding: .utf8)) ?? "").isEmpty }
        let line = try String(contentsOf: out, encoding: .utf8)
        #expect(line == "SigBlk:\t0000000000000000\n")
    }

    @Test func simpleTouchReceivesInjectedTouchesAndCancel() throws {
        // weston-simple-touch always draws 600×500; kiosk-shell rejects a larger buffer.
        let rig = try WestonRig(width: 600, height: 500)
        let log = tempLog("simple-touch")
        try rig.process.launchClient("weston-simple-touch", environment: ["WAYLAND_DEBUG": "1"], output: log)
        #expect(waitFor("xdg_surface@", in: log) && waitFor(".configure(", in: log))
        try rig.parkPointer()
        // Give the client its first commit before touching (a touch on no surface is dropped).
        var mapped = false
        for _ in 0..<100 where !mapped {
            mapped = try rig.capture().pixel(x: 300, y: 250) != 0xFF00_0000
        }
        #expect(mapped)
        let i = rig.input
        i.touchDown(id: 0, x: 100, y: 100, time: 1000)
        i.touchFrame()
        i.touchMotion(id: 0, x: 150, y: 120, time: 1016)
        i.touchFrame()
        i.touchDown(id: 1, x: 400, y: 300, time: 1020)
        i.touchFrame()
        try i.roundtrip()
        #expect(waitFor("wl_touch@", in: log))
        #expect(waitFor("down(", in: log))
        let lines = received(log)
        #expect(
            lines.contains {
                $0.contains(".down(") && $0.contains(", 1000, ") && $0.contains("100.00000000, 100.00000000")
            })
        #expect(lines.contains { $0.contains(".motion(1016, 0, 150.00000000, 120.00000000)") })
        #expect(
            lines.contains {
                $0.contains(".down(") && $0.contains(", 1020, ") && $0.contains(", 1, 400.00000000, 300.00000000")
            })
        #expect(lines.contains { $0.contains("wl_touch@") && $0.contains(".frame()") })

        // The capture shows the client's marks at the injected points: simple-touch paints
        // touch id 0 red (0xffff0000) and id 1 yellow (0xffffff00).
        var marks = false
        for _ in 0..<50 where !marks {
            let c = try rig.capture()
            func channels(_ x: Int, _ y: Int) -> (UInt32, UInt32, UInt32) {
                let p = c.pixel(x: x, y: y)
                return ((p >> 16) & 0xff, (p >> 8) & 0xff, p & 0xff)
            }
            func red(_ x: Int, _ y: Int) -> Bool { channels(x, y) == (255, 0, 0) }
            func yellow(_ x: Int, _ y: Int) -> Bool { channels(x, y) == (255, 255, 0) }
            marks = red(100, 100) && red(150, 120) && yellow(400, 300) && !red(300, 400) && !yellow(300, 400)
        }
        #expect(marks)

        i.touchCancel()
        try i.roundtrip()
        #expect(waitFor(".cancel()", in: log))
        // After a cancel the touch state is clean: a new down reaches the client.
        i.touchDown(id: 0, x: 50, y: 50, time: 3000)
        i.touchFrame()
        i.touchUp(id: 0, time: 3010)
        try i.roundtrip()
        #expect(waitFor(", 3000, ", in: log))
        #expect(waitFor(".up(", in: log))
    }

    @Test func eventdemoReceivesPointerAxisAndKeysWithInjectedTimes() throws {
        let rig = try WestonRig(width: 600, height: 500)
        let log = tempLog("eventdemo")
        try rig.process.launchClient("weston-eventdemo", environment: ["WAYLAND_DEBUG": "1"], output: log)
        #expect(waitFor("wl_keyboard@", in: log) && waitFor(".configure(", in: log))
        var mapped = false
        for _ in 0..<100 where !mapped { mapped = try rig.capture().pixel(x: 300, y: 250) != 0xFF00_0000 }
        let i = rig.input
        i.pointerMotion(x: 200, y: 150, time: 2000)
        i.pointerFrame()
        i.pointerButton(0x110, pressed: true, time: 2010)
        i.pointerFrame()
        i.pointerButton(0x110, pressed: false, time: 2020)
        i.pointerFrame()
        i.axisSource(1)
        i.axis(0, value: 12.5, time: 2030)
        i.pointerFrame()
        i.axisStop(0, time: 2040)
        i.pointerFrame()
        i.axisSource(0)
        i.axis(0, value: 15, discrete: 1, value120: 120, time: 2050)
        i.pointerFrame()
        try rig.pressKey(named: "A", at: 2060)
        try rig.pressKey(named: "Page_Down", at: 2070)
        // The last key's release is the last thing the client logs: wait for it, not for a time.
        #expect(waitFor("key(", in: log))
        #expect(waitFor(", 2071, 109, 0)", in: log))
        let lines = received(log)
        func has(_ s: String) -> Bool { lines.contains { $0.contains(s) } }
        #expect(has("wl_pointer@") && has(".motion(2000, 200.00000000, 150.00000000)"))
        #expect(has(", 2010, 272, 1)") && has(", 2020, 272, 0)"))
        #expect(has(".axis_source(1)") && has(".axis(2030, 0, 12.50000000)"))
        #expect(has(".axis_stop(2040, 0)"))
        #expect(has(".axis_source(0)") && has(".axis_discrete(0, 1)") && has(".axis(2050, 0, 15.00000000)"))
        // Shift (42) then A (30), with Shift in the modifiers; Page_Down is evdev 109.
        #expect(has(", 2060, 42, 1)") && has(", 2060, 30, 1)") && has(", 2061, 30, 0)"))
        #expect(has(".modifiers(") && lines.contains { $0.contains(".modifiers(") && $0.contains(", 1, 0, 0, 0)") })
        #expect(has(", 2070, 109, 1)"))
    }

    @Test func aBadRequestIsAClearProtocolError() throws {
        let rig = try WestonRig(width: 200, height: 200)
        rig.input.touchUp(id: 7, time: 1)
        do {
            try rig.input.roundtrip()
            Issue.record("a touch_up for an id that is not down must be a protocol error")
        } catch let error as RigError {
            #expect(error.description.contains("protocol error 1 on scrollway_test_input_v1"))
        }
        // The compositor itself is fine: a new connection works.
        let again = try TestInputClient(socketPath: rig.socketPath)
        #expect(again.outputWidth == 200)
    }

    /// A compositor that stops answering (SIGSTOP) is an error within the client's timeout,
    /// naming what happened, not a hang.
    @Test func aStoppedCompositorIsAnErrorNotAHang() throws {
        let rig = try WestonRig(width: 320, height: 240)
        defer {
            kill(rig.process.pid, SIGCONT)
            rig.stop()
        }
        let client = try TestInputClient(socketPath: rig.socketPath, timeout: 1)
        try client.roundtrip()
        kill(rig.process.pid, SIGSTOP)
        let started = Date()
        #expect(throws: RigError.connectionLost("weston did not answer within 1.0 s")) { try client.roundtrip() }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// A client busy in its own handlers past the timeout was not kept waiting: the answer
    /// that came meanwhile ends the roundtrip. (The headless tour failed with "the compositor
    /// did not answer within 10.0 s" while a debug build drew a long frame.)
    @Test func aClientBusyInItsHandlersIsNotTimedOut() throws {
        let weston = try WestonProcess(.init(width: 320, height: 240))
        defer { weston.stop() }
        let display = try WaylandDisplay(socket: weston.socketPath)
        try display.roundtrip(timeout: 5)
        // An answer, in the socket before the roundtrip starts, whose handler keeps the client
        // busy three times the roundtrip's timeout.
        let callback = try #require(wl_display_sync(display.display))
        defer { wl_callback_destroy(callback) }
        let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
        defer { listener.deallocate() }
        listener.initialize(
            to: wl_callback_listener(done: { _, _, _ in
                let busyUntil = ContinuousClock.now + .milliseconds(300)
                while ContinuousClock.now < busyUntil {}
            }))
        wl_callback_add_listener(callback, listener, nil)
        try display.flush()
        var pfd = pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&pfd, 1, 10_000) == 1)
        try display.roundtrip(timeout: 0.1)
    }

    @Test func aModuleWestonCannotLoadFailsWithItsLog() {
        do {
            _ = try WestonProcess(.init(width: 100, height: 100, modulePath: "/nonexistent/libWestonTestInput.so"))
            Issue.record("weston started with a module that does not exist")
        } catch let error as RigError {
            guard case .startupFailed(_, let log) = error else {
                Issue.record("expected startupFailed, got \(error)")
                return
            }
            #expect(log.contains("/nonexistent/libWestonTestInput.so"))
            #expect(
                error.description.contains("weston exited")
                    && error.description.contains("--- the compositor's log ---"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
