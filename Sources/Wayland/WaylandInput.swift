import Glibc
import ScrollwayAtSpi
import ScrollwayCSystem
import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayViews
import ScrollwayWaylandProtocols

/// The seat: one object per device it offers (`WaylandPointer`, `WaylandTouch`,
/// `WaylandKeyboard`, and the touchpad's `WaylandPointerGestures`), made when the seat announces
/// the capability. What they share lives here: the clock that moves compositor timestamps onto
/// the platform's, and delivery to the window.
///
/// Timestamps go through one `InputClock`: exact when the compositor stamps with our clock, the
/// compositor's spacing kept within a gesture when it does not.
@MainActor
public final class WaylandInput {
    unowned let connection: WaylandConnection
    private(set) var pointer: WaylandPointer?
    private(set) var gestures: WaylandPointerGestures?
    private(set) var touch: WaylandTouch?
    private(set) var keyboard: WaylandKeyboard?
    /// The seat's text input, when the compositor offers zwp_text_input_manager_v3.
    private(set) var textInput: WaylandTextInput?
    /// The desktop's clipboard (wl_data_device), when the compositor offers one.
    private(set) var clipboard: WaylandClipboard?
    /// Where keys go before the window while a screen reader is served (AT-SPI's device event
    /// controller): it calls its closure to deliver the key unless the reader consumed it.
    var keyForwarder: ((AtSpiKeyEvent, @escaping () -> Void) -> Void)?
    private var clock = InputClock()

    init(connection: WaylandConnection) { self.connection = connection }

    /// Releases every device (before the connection goes).
    func release() {
        gestures?.release()
        pointer?.release()
        touch?.release()
        keyboard?.release()
        textInput?.release()
        textInput = nil
        clipboard?.release()
        clipboard = nil
        gestures = nil
        pointer = nil
        touch = nil
        keyboard = nil
    }

    var window: Window? { connection.window?.content }

    /// wl_seat.capabilities: a device appears, or goes away. One that goes away is released
    /// (the compositor has made its object inert: wlroots does, weston keeps it) after its
    /// state is wound down as a leave would (no key left repeating, no touch left down, no
    /// hover left over), so that when the capability comes back (a keyboard replugged, a
    /// virtual device reconnected) a new object is asked for and the device works again.
    func capabilities(_ caps: UInt32) {
        if caps & WL_SEAT_CAPABILITY_POINTER.rawValue == 0, let p = pointer {
            p.unplugged()
            gestures?.release()
            gestures = nil
            p.release()
            pointer = nil
        }
        if caps & WL_SEAT_CAPABILITY_TOUCH.rawValue == 0, let t = touch {
            t.unplugged()
            t.release()
            touch = nil
        }
        if caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue == 0, let k = keyboard {
            k.leave()
            k.release()
            keyboard = nil
        }
        let seat = connection.seat
        if textInput == nil, let manager = connection.textInputManager, let seat {
            textInput = WaylandTextInput(input: self, manager: manager, seat: seat)
        }
        if clipboard == nil, let manager = connection.dataDeviceManager, let seat {
            clipboard = WaylandClipboard(input: self, manager: manager, seat: seat)
            if let window { clipboard?.attach(to: window) }
        }
        if caps & WL_SEAT_CAPABILITY_POINTER.rawValue != 0, pointer == nil, let proxy = wl_seat_get_pointer(seat) {
            let p = WaylandPointer(input: self, proxy: proxy)
            pointer = p
            if let manager = connection.pointerGestures {
                gestures = WaylandPointerGestures(
                    input: self, manager: manager, pointer: proxy,
                    withHold: connection.boundVersion("zwp_pointer_gestures_v1") ?? 1 >= 3)
            }
        }
        if caps & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0, touch == nil, let proxy = wl_seat_get_touch(seat) {
            touch = WaylandTouch(input: self, proxy: proxy)
        }
        if caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0, keyboard == nil, let proxy = wl_seat_get_keyboard(seat) {
            keyboard = WaylandKeyboard(input: self, proxy: proxy)
        }
    }

    /// A compositor timestamp (ms) on the platform clock (s), as `InputClock` puts it: by the
    /// gesture's clock, or (`alone`: a key) by its own.
    func time(_ ms: UInt32, alone: Bool = false) -> Double {
        clock.time(ms, now: sw_monotonic_seconds(), unreadSince: connection.core.unreadSince, alone: alone)
    }

    /// The time given to the newest input event: no frame is drawn for a time before it.
    var lastEventTime: Double { clock.lastEventTime }

    /// Starts a new gesture (`InputClock.newGesture`).
    func newGesture() { clock.newGesture() }

    /// An output's scale changed, or an output was forgotten (`removing`): the cursor follows.
    func outputsChanged(removing output: OpaquePointer? = nil) { pointer?.outputsChanged(removing: output) }

    func deliver(_ events: [InputEvent]) {
        guard let window else { return }
        for e in events { window.handle(e) }
        connection.window?.inputArrived()
    }

    /// The serial of the last button press (xdg_toplevel.move and resize need it).
    var lastButtonSerial: UInt32 { pointer?.lastButtonSerial ?? 0 }
    /// The serial of the last key event.
    var lastKeySerial: UInt32 { keyboard?.lastSerial ?? 0 }

    /// A cursor waiting for the window to be idle before it is set (only libwayland-cursor's
    /// whole-theme load could give one).
    var cursorPending: Bool { pointer?.cursorPending ?? false }
    /// A keymap the compositor sent, waiting for the window to be idle (or a key) before it is
    /// compiled.
    var keymapPending: Bool { keyboard?.keymapPending ?? false }
    /// Whether the devices' setup left for the window's first idle turn is still to do: a
    /// pending cursor or keymap (`finishPendingSetup`).
    var setupPending: Bool { cursorPending || keymapPending }
    /// Does the setup that waited for the window to be idle: the keymap compiled, the cursor set.
    func finishPendingSetup() {
        keyboard?.compilePendingKeymap()
        pointer?.showPendingCursor()
    }

    /// The window's `hidesCursor` changed: the pointer over it shows or hides its cursor now.
    func cursorVisibilityChanged() { pointer?.cursorVisibilityChanged() }
}
