import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry

/// One client connection to a compositor, written once for every client of this package (the
/// Wayland platform and the weston test harness): connecting, the registry's globals, binding a
/// global at a version this code handles, dispatching with or without a deadline, and one
/// description of what went wrong (a protocol error names the interface and object).
///
/// Used only on the thread that created it, like every Wayland object here.
public final class WaylandDisplay {
    public let display: OpaquePointer
    public private(set) var registry: OpaquePointer?
    /// Every global the compositor announced, by interface name.
    public private(set) var globals: [String: (name: UInt32, version: UInt32)] = [:]
    /// Called for each global as it is announced (outputs come and go while connected).
    public var onGlobal: ((_ name: UInt32, _ interface: String, _ version: UInt32) -> Void)?
    /// Called when a global goes away.
    public var onGlobalRemoved: ((_ name: UInt32) -> Void)?
    /// Since when what the last read took from the socket can have waited there unread: the
    /// moment of the read before it, or, when the read's `poll` found the socket empty and
    /// waited, the moment data woke it (it came then). An input event stamped before this, by
    /// more than the compositor's own delay in sending, cannot be on our clock (`InputClock`). A roundtrip's reads are not counted: the moment stays earlier, looser.
    public private(set) var unreadSince = sw_monotonic_seconds()
    private var lastRead = sw_monotonic_seconds()
    private var readPrepared = sw_monotonic_seconds()

    /// Connects to `socket` (a name in $XDG_RUNTIME_DIR or an absolute path; nil: as libwayland
    /// chooses, $WAYLAND_SOCKET, else $WAYLAND_DISPLAY) and starts listening to the registry; a
    /// `roundtrip()` then fills `globals`.
    ///
    /// A named socket is connected here and handed over as a descriptor: libwayland's connect
    /// takes $WAYLAND_SOCKET whatever name it is given, so a rig's app and seat, started from a
    /// process that had one (a client of another compositor), went to that compositor instead
    /// of the rig, or failed naming the rig's socket when the variable was bad.
    public init(socket: String?) throws(DisplayError) {
        let connected: OpaquePointer?
        if let socket {
            let fd = Self.connect(toSocket: socket)
            guard fd >= 0 else { throw .cannotConnect(errno: errno) }
            connected = wl_display_connect_to_fd(fd)
            if connected == nil {
                let error = errno
                close(fd)
                errno = error
            }
        } else {
            connected = wl_display_connect(nil)
        }
        guard let d = connected else { throw .cannotConnect(errno: errno) }
        display = d
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, Listeners.registry, Unmanaged.passUnretained(self).toOpaque())
    }

    /// A connected Unix stream socket for `name` as libwayland resolves one (absolute, or in
    /// $XDG_RUNTIME_DIR), close-on-exec; -1 with errno set when there is none. (A rig's probe
    /// of its compositor's socket connects the same way.)
    package static func connect(toSocket name: String) -> Int32 {
        let path: String
        if name.hasPrefix("/") {
            path = name
        } else {
            guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else {
                errno = ENOENT
                return -1
            }
            path = runtime + "/" + name
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1)
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard done == 0 else {
            let error = errno
            close(fd)
            errno = error
            return -1
        }
        return fd
    }

    deinit {
        if let registry { wl_registry_destroy(registry) }
        wl_display_flush(display)
        wl_display_disconnect(display)
    }

    func global(name: UInt32, interface: String, version: UInt32) {
        globals[interface] = (name, version)
        onGlobal?(name, interface, version)
    }

    func globalRemoved(name: UInt32) {
        globals = globals.filter { $0.value.name != name }
        onGlobalRemoved?(name)
    }

    /// Binds the global named `interface` at the lower of what the compositor offers and
    /// `handled` (libwayland aborts on an event whose listener entry is missing); nil when it
    /// is not offered.
    public func bind(_ interface: String, _ type: UnsafePointer<wl_interface>, handled: UInt32) -> OpaquePointer? {
        guard let g = globals[interface] else { return nil }
        return bind(name: g.name, type, version: min(g.version, handled))
    }

    /// Binds the global `name` at `version` (outputs, of which there may be several).
    public func bind(name: UInt32, _ type: UnsafePointer<wl_interface>, version: UInt32) -> OpaquePointer? {
        OpaquePointer(wl_registry_bind(registry, name, type, version))
    }

    // MARK: Dispatch

    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Sends everything queued and waits until the compositor has processed it.
    public func roundtrip() throws(DisplayError) {
        if wl_display_roundtrip(display) < 0 { throw failure() }
    }

    /// A roundtrip that gives up after waiting `timeout` seconds for the answer: a compositor
    /// that stopped answering (stopped, deadlocked) is an error, never a hang. Only the time
    /// spent waiting counts: the events read on the way run the client's own handlers (a
    /// frame that lays out thousands of rows in a debug build), and a client busy with them
    /// has not been kept waiting by the compositor.
    public func roundtrip(timeout: Double) throws(DisplayError) {
        guard let callback = wl_display_sync(display) else { throw failure() }
        let done = SyncDone()
        defer { wl_callback_destroy(callback) }
        wl_callback_add_listener(callback, Listeners.sync, Unmanaged.passUnretained(done).toOpaque())
        var waited = 0.0
        while !done.value {
            guard waited < timeout else { throw .timedOut(seconds: timeout) }
            waited += try dispatchWaiting(timeout: min(timeout - waited, 1)).waited
        }
    }

    /// Sends everything queued without waiting.
    public func flush() throws(DisplayError) {
        if wl_display_flush(display) < 0 && errno != EAGAIN && errno != EPIPE { throw failure() }
        if wl_display_get_error(display) != 0 { throw failure() }
    }

    /// Prepares to read (dispatching what is queued first) and flushes: the first half of a
    /// poll turn. Pair with `finishRead(revents:)`.
    public func beginRead() throws(DisplayError) {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw failure() }
        }
        // EPIPE: the compositor closed its end, perhaps after sending a protocol error. Read
        // on, so that the error (its object and code) is what the caller hears rather than a
        // broken pipe: wl_display_flush keeps EPIPE non-fatal for this; the read then ends in
        // the error or the hang-up.
        if wl_display_flush(display) < 0 && errno != EAGAIN && errno != EPIPE {
            wl_display_cancel_read(display)
            throw failure()
        }
        readPrepared = sw_monotonic_seconds()
    }

    /// Reads (if the descriptor was readable) or cancels, then dispatches: the second half.
    public func finishRead(revents: Int16) throws(DisplayError) {
        if revents & Int16(POLLIN) != 0 {
            let now = sw_monotonic_seconds()
            unreadSince = now - readPrepared > Self.waitedPoll ? now : lastRead
            lastRead = now
            if wl_display_read_events(display) < 0 { throw failure() }
        } else {
            wl_display_cancel_read(display)
            if revents & Int16(POLLHUP | POLLERR) != 0 { throw .connectionLost("the compositor hung up") }
        }
        if wl_display_dispatch_pending(display) < 0 { throw failure() }
    }

    /// Longer than a poll that found data waiting takes, with the loop's own work around it:
    /// a poll that took longer waited for the data, which came as it returned.
    static let waitedPoll = 0.002

    /// Reads and dispatches what arrives within `timeout` seconds (0: only what is there,
    /// infinity: until something arrives). Returns whether anything was readable.
    @discardableResult
    public func dispatch(timeout: Double) throws(DisplayError) -> Bool {
        try dispatchWaiting(timeout: timeout).ready
    }

    /// `dispatch(timeout:)`, also saying how long it waited in `poll` (not in handlers).
    private func dispatchWaiting(timeout: Double) throws(DisplayError) -> (ready: Bool, waited: Double) {
        try beginRead()
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ms: Int32 = timeout.isFinite ? Int32(clamping: timeout * 1000, rounding: .up, in: 0...60_000) : -1
        let before = sw_monotonic_seconds()
        let ready = poll(&pfd, 1, ms)
        let waited = sw_monotonic_seconds() - before
        try finishRead(revents: ready > 0 ? pfd.revents : 0)
        return (ready > 0, waited)
    }

    /// The connection's error, as one clear value: a protocol error names the interface and
    /// object, anything else says why the connection ended.
    public func failure() -> DisplayError {
        let code = wl_display_get_error(display)
        // A protocol error names the object it was sent on. libwayland sets errno EPROTO for most,
        // but EINVAL, ENOMEM or EFAULT for wl_display's own (invalid object or method, no memory,
        // implementation: the errors a compositor sends for a client's commonest faults), which
        // read as a broken connection ("Invalid argument", "Cannot allocate memory").
        var iface: UnsafePointer<wl_interface>?
        var id: UInt32 = 0
        let pcode = wl_display_get_protocol_error(display, &iface, &id)
        if code == EPROTO || (code != 0 && iface != nil) {
            let name = iface.map { String(cString: $0.pointee.name) } ?? "unknown"
            return .protocolError(object: "\(name)@\(id)", code: pcode)
        }
        return .connectionLost(code != 0 ? String(cString: strerror(code)) : "the compositor closed the connection")
    }
}

/// What ended a connection; each client of the core words it for its users.
public enum DisplayError: Error, Equatable, Sendable {
    /// wl_display_connect failed.
    case cannotConnect(errno: Int32)
    /// The compositor sent a protocol error on `object` (interface@id).
    case protocolError(object: String, code: UInt32)
    /// The connection broke or was closed.
    case connectionLost(String)
    /// The compositor did not answer within the time given.
    case timedOut(seconds: Double)
}

/// Set by a wl_display.sync callback.
final class SyncDone {
    var value = false
}
