import Dispatch
import Glibc
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayViews
import ScrollwayWaylandProtocols

/// The desktop's clipboard through wl_data_device: the window's `Pasteboard` on Wayland.
///
/// Copy: a wl_data_source offering the text as "text/plain;charset=utf-8" and "text/plain"
/// becomes the seat's selection, with the serial of the last key event (the compositor takes a
/// selection only from a client an input event went to). When some client pastes, the
/// compositor asks us to `send` into a pipe: the text is written on a worker thread, so a slow
/// reader — or this app itself, pasting what it copied — never blocks the main thread.
///
/// Paste: the current selection's wl_data_offer (the compositor sends it whenever the selection
/// changes while we have keyboard focus) is asked to write into a pipe whose read end a worker
/// thread drains to its end; the text comes back to the main thread through the window's inbox,
/// which wakes the event loop. Nothing on the main thread waits for the pipe: the writer may be
/// our own data source, answered by the same loop.
@MainActor
final class WaylandClipboard: Pasteboard {
    /// The types our text is offered as, the first preferred when pasting.
    static let textTypes = ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING"]

    unowned let input: WaylandInput
    private let manager: OpaquePointer
    private var device: OpaquePointer?
    /// The types each live offer carries, by offer.
    private var offers: [OpaquePointer: [String]] = [:]
    /// The seat's selection as offered to us (nil: the clipboard is empty or not text).
    private var selection: OpaquePointer?
    /// The offer of a drag over our surface (not taken: only destroyed when the drag leaves).
    private var dragOffer: OpaquePointer?
    /// Our selection source and the text it offers, while it is the selection.
    private var source: OpaquePointer?
    private var copied = ""
    /// Pastes waiting for their text, by request number; answered through `channel`.
    private var pending: [Int: @MainActor (String?) -> Void] = [:]
    private var nextRequest = 0
    private var channel: InboxChannel<PasteResult>?
    private weak var window: Window?
    /// The manager is version 2 or later: the device has a release request.
    private let releasesDevice: Bool

    /// One paste's text, read on a worker thread.
    struct PasteResult: Sendable {
        var request: Int
        var text: String?
    }

    init(input: WaylandInput, manager: OpaquePointer, seat: OpaquePointer) {
        self.input = input
        self.manager = manager
        // Read now: `release` runs from the connection's deinit, when it can no longer be asked.
        releasesDevice = input.connection.boundVersion("wl_data_device_manager") ?? 1 >= 2
        device = wl_data_device_manager_get_data_device(manager, seat)
        wl_data_device_add_listener(device, Listeners.dataDevice, Unmanaged.passUnretained(self).toOpaque())
    }

    func release() {
        for offer in offers.keys { wl_data_offer_destroy(offer) }
        offers = [:]
        selection = nil
        dragOffer = nil
        if let source { wl_data_source_destroy(source) }
        source = nil
        if let device {
            if releasesDevice {
                wl_data_device_release(device)
            } else {
                wl_data_device_destroy(device)
            }
        }
        device = nil
        if let channel { window?.closeChannel(channel) }
        channel = nil
    }

    /// Becomes `window`'s pasteboard; pasted text comes back through its inbox.
    func attach(to window: Window) {
        guard self.window !== window else { return }
        if let channel { self.window?.closeChannel(channel) }
        self.window = window
        channel = window.openChannel(PasteResult.self) { [weak self] result in self?.finish(result) }
        window.pasteboard = self
    }

    // MARK: Pasteboard

    func setText(_ text: String) {
        guard let device else { return }
        if let source { wl_data_source_destroy(source) }
        let s = wl_data_device_manager_create_data_source(manager)
        wl_data_source_add_listener(s, Listeners.dataSource, Unmanaged.passUnretained(self).toOpaque())
        for type in Self.textTypes { wl_data_source_offer(s, type) }
        source = s
        copied = text
        wl_data_device_set_selection(device, s, input.lastKeySerial)
    }

    func requestText(_ completion: @escaping @MainActor (String?) -> Void) {
        guard let offer = selection, let types = offers[offer],
            let type = Self.textTypes.first(where: types.contains), let channel
        else { return completion(nil) }
        var fds: [Int32] = [-1, -1]
        guard sw_pipe_cloexec(&fds) == 0 else { return completion(nil) }
        // The request carries a duplicate of the write end: ours closes at once, so the reader
        // sees the end of the text when the writer closes theirs.
        wl_data_offer_receive(offer, type, fds[1])
        close(fds[1])
        try? input.connection.flush()
        nextRequest += 1
        let request = nextRequest
        pending[request] = completion
        let readEnd = fds[0]
        DispatchQueue.global().async {
            let text = Self.readAll(readEnd)
            channel.send(PasteResult(request: request, text: text))
        }
    }

    private func finish(_ result: PasteResult) {
        pending.removeValue(forKey: result.request)?(result.text)
    }

    /// Reads `fd` to its end and closes it (on a worker thread): the text, nil on an error or
    /// when it is not UTF-8.
    nonisolated static func readAll(_ fd: Int32) -> String? {
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes += buffer.prefix(n)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to `fd` and closes it (on a worker thread). A reader that went away ends
    /// the write with EPIPE: SIGPIPE, which would end the process, is blocked on this thread
    /// meanwhile and the one the write raised is taken before unblocking.
    nonisolated static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            close(fd)
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&pipeSignal, nil, &now) > 0 {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += n
        }
    }

    // MARK: wl_data_device, wl_data_offer, wl_data_source events

    func dataOffer(_ offer: OpaquePointer?) {
        guard let offer else { return }
        offers[offer] = []
        wl_data_offer_add_listener(offer, Listeners.dataOffer, Unmanaged.passUnretained(self).toOpaque())
    }

    func offered(_ offer: OpaquePointer?, type: String) {
        guard let offer else { return }
        offers[offer]?.append(type)
    }

    func selectionChanged(_ offer: OpaquePointer?) {
        if let old = selection, old != offer { destroy(old) }
        selection = offer
    }

    func dragEntered(_ offer: OpaquePointer?) {
        if let old = dragOffer, old != offer { destroy(old) }
        dragOffer = offer
    }

    func dragLeft() {
        if let old = dragOffer { destroy(old) }
        dragOffer = nil
    }

    private func destroy(_ offer: OpaquePointer) {
        offers[offer] = nil
        wl_data_offer_destroy(offer)
    }

    func send(_ s: OpaquePointer?, type: String, fd: Int32) {
        guard s == source, Self.textTypes.contains(type) else {
            close(fd)
            return
        }
        let bytes = Array(copied.utf8)
        DispatchQueue.global().async { Self.writeAll(bytes, to: fd) }
    }

    func cancelled(_ s: OpaquePointer?) {
        guard let s else { return }
        wl_data_source_destroy(s)
        if s == source { source = nil }
    }
}
