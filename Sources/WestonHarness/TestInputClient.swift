import CWaylandClient
import Foundation
import Raster
import WaylandProtocols

/// The rig's own Wayland connection: it binds scrollway_test_input_v1 (served by the
/// WestonTestInput module) and wl_shm, injects input and captures the output.
///
/// Used from one thread (the one that created it), like every Wayland connection here.
public final class TestInputClient {
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var input: OpaquePointer?
    private var shm: OpaquePointer?
    private var globals: [String: (name: UInt32, version: UInt32)] = [:]
    private let listeners: UnsafeMutablePointer<wl_registry_listener>
    private let inputListener: UnsafeMutablePointer<scrollway_test_input_v1_listener>
    private let captureListener: UnsafeMutablePointer<scrollway_test_capture_v1_listener>
    /// The output captures read, in buffer pixels.
    public private(set) var outputWidth = 0
    public private(set) var outputHeight = 0
    public private(set) var outputScale = 1

    /// Connects to the socket at `socketPath` (absolute) and binds the injector.
    public init(socketPath: String, timeout: Double = 5) throws {
        guard let d = wl_display_connect(socketPath) else {
            throw RigError.connectionLost("cannot connect to \(socketPath): errno \(errno)")
        }
        display = d
        listeners = .allocate(capacity: 1)
        listeners.initialize(to: Trampolines.registry)
        inputListener = .allocate(capacity: 1)
        inputListener.initialize(to: Trampolines.testInput)
        captureListener = .allocate(capacity: 1)
        captureListener.initialize(to: Trampolines.capture)
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, listeners, Unmanaged.passUnretained(self).toOpaque())
        try roundtrip()
        guard let g = globals["scrollway_test_input_v1"] else {
            throw RigError.missingGlobal("scrollway_test_input_v1")
        }
        guard let s = globals["wl_shm"] else { throw RigError.missingGlobal("wl_shm") }
        input = OpaquePointer(wl_registry_bind(registry, g.name, sw_scrollway_test_input_v1_interface(), 1))
        scrollway_test_input_v1_add_listener(input, inputListener, Unmanaged.passUnretained(self).toOpaque())
        shm = OpaquePointer(wl_registry_bind(registry, s.name, sw_wl_shm_interface(), 1))
        let deadline = Date().addingTimeInterval(timeout)
        while outputWidth == 0 {
            try dispatch(until: deadline)
        }
    }

    deinit {
        if let input { scrollway_test_input_v1_destroy(input) }
        if let shm { wl_shm_destroy(shm) }
        if let registry { wl_registry_destroy(registry) }
        wl_display_flush(display)
        wl_display_disconnect(display)
        listeners.deallocate()
        inputListener.deallocate()
        captureListener.deallocate()
    }

    // MARK: Trampoline targets

    func global(name: UInt32, interface: String, version: UInt32) { globals[interface] = (name, version) }

    func outputInfo(width: Int, height: Int, scale: Int) {
        outputWidth = width
        outputHeight = height
        outputScale = scale
    }

    // MARK: Connection

    /// Sends everything queued and waits until the compositor has processed it.
    public func roundtrip() throws {
        if wl_display_roundtrip(display) < 0 { throw connectionError() }
    }

    /// Sends everything queued without waiting.
    public func flush() throws {
        if wl_display_flush(display) < 0 && errno != EAGAIN { throw connectionError() }
    }

    /// Reads and dispatches events, waiting at most until `deadline`.
    func dispatch(until deadline: Date) throws {
        let fd = wl_display_get_fd(display)
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
        }
        if wl_display_flush(display) < 0 && errno != EAGAIN {
            wl_display_cancel_read(display)
            throw connectionError()
        }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else {
            wl_display_cancel_read(display)
            throw RigError.connectionLost("timed out waiting for the compositor")
        }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, Int32(min(remaining, 1) * 1000))
        if ready > 0 {
            if wl_display_read_events(display) < 0 { throw connectionError() }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { throw connectionError() }
    }

    private func connectionError() -> RigError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            var iface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let pcode = wl_display_get_protocol_error(display, &iface, &id)
            let name = iface.map { String(cString: $0.pointee.name) } ?? "?"
            return .connectionLost("protocol error \(pcode) on \(name)@\(id)")
        }
        return .connectionLost(code != 0 ? String(cString: strerror(code)) : "the compositor closed the connection")
    }

    // MARK: Injection (times in milliseconds, coordinates global logical pixels)

    public func pointerMotion(x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_pointer_motion_absolute(input, time, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    /// Takes the pointer away from every surface (its cursor disappears from captures).
    public func pointerHide() { scrollway_test_input_v1_pointer_hide(input) }

    /// `button` is an evdev code (BTN_LEFT 0x110, BTN_RIGHT 0x111, BTN_MIDDLE 0x112).
    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {
        scrollway_test_input_v1_pointer_button(input, time, button, pressed ? 1 : 0)
    }

    /// wl_pointer.axis_source: wheel 0, finger 1, continuous 2, wheel_tilt 3.
    public func axisSource(_ source: UInt32) { scrollway_test_input_v1_pointer_axis_source(input, source) }

    /// axis: vertical 0, horizontal 1.
    public func axis(_ axis: UInt32, value: Double, discrete: Int32 = 0, value120: Int32 = 0, time: UInt32) {
        scrollway_test_input_v1_pointer_axis(input, time, axis, wl_fixed_from_double(value), discrete, value120)
    }

    public func axisStop(_ axis: UInt32, time: UInt32) { scrollway_test_input_v1_pointer_axis_stop(input, time, axis) }
    public func pointerFrame() { scrollway_test_input_v1_pointer_frame(input) }

    public func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_touch_down(input, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    public func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {
        scrollway_test_input_v1_touch_motion(input, time, id, wl_fixed_from_double(x), wl_fixed_from_double(y))
    }

    public func touchUp(id: Int32, time: UInt32) { scrollway_test_input_v1_touch_up(input, time, id) }
    public func touchFrame() { scrollway_test_input_v1_touch_frame(input) }
    public func touchCancel() { scrollway_test_input_v1_touch_cancel(input) }

    /// `key` is an evdev code (KEY_A 30, KEY_PAGEDOWN 109, ...).
    public func key(_ key: UInt32, pressed: Bool, time: UInt32) {
        scrollway_test_input_v1_key(input, time, key, pressed ? 1 : 0)
    }

    // MARK: Capture

    /// What the output shows at its next repaint, as a canvas of the output's buffer size.
    public func capture(timeout: Double = 5) throws -> Canvas {
        let w = outputWidth
        let h = outputHeight
        let stride = w * 4
        let size = stride * h
        let fd = sw_memfd_create("scrollway-capture")
        guard fd >= 0 else { throw RigError.system("memfd_create failed: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else {
            throw RigError.system("cannot size the capture buffer (\(size) bytes): \(String(cString: strerror(errno)))")
        }
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            throw RigError.system("cannot map the capture buffer: \(String(cString: strerror(errno)))")
        }
        defer { munmap(map, size) }
        let pool = wl_shm_create_pool(shm, fd, Int32(size))
        let buffer = wl_shm_pool_create_buffer(
            pool, 0, Int32(w), Int32(h), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        wl_shm_pool_destroy(pool)
        defer { wl_buffer_destroy(buffer) }

        let state = CaptureState()
        let capture = scrollway_test_input_v1_capture(input, buffer)
        defer { scrollway_test_capture_v1_destroy(capture) }
        scrollway_test_capture_v1_add_listener(capture, captureListener, Unmanaged.passUnretained(state).toOpaque())
        let deadline = Date().addingTimeInterval(timeout)
        while state.result == nil {
            try dispatch(until: deadline)
        }
        try state.result!.get()
        let canvas = try Canvas(width: w, height: h, scale: Double(outputScale))
        canvas.withPixels { px in
            let src = map.assumingMemoryBound(to: UInt32.self)
            for y in 0..<h {
                for x in 0..<w { px[y * (canvas.stride / 4) + x] = src[y * w + x] }
            }
        }
        return canvas
    }
}
