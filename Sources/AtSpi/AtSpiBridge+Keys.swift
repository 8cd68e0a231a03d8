import ScrollwayDBus
import ScrollwayGestures
import ScrollwayViews

/// A key press or release as AT-SPI's device event controller takes it
/// (`NotifyListenersSync`'s `(uiiiisb)`, the signature registryd reads).
public struct AtSpiKeyEvent: Equatable, Sendable {
    public var pressed: Bool
    /// The keysym (`XK_Tab`…).
    public var keysym: UInt32
    /// The XKB keycode (evdev's + 8): Orca knows its own modifier (Insert, Caps Lock) by it.
    public var keycode: UInt32
    public var modifiers: Modifiers
    /// Milliseconds, from the compositor's clock.
    public var timestamp: UInt32
    /// The keysym's name ("Tab", "Page_Down") for a key that types nothing, else its text.
    public var string: String
    /// Whether `string` is text the key types.
    public var isText: Bool

    public init(
        pressed: Bool, keysym: UInt32, keycode: UInt32, modifiers: Modifiers, timestamp: UInt32, string: String,
        isText: Bool
    ) {
        self.pressed = pressed
        self.keysym = keysym
        self.keycode = keycode
        self.modifiers = modifiers
        self.timestamp = timestamp
        self.string = string
        self.isText = isText
    }

    /// AtspiModifierType bits: SHIFT 0, CONTROL 2, ALT 3 (Mod1), META3 6 (Mod4, the logo key).
    var atspiModifiers: Int32 {
        var bits: Int32 = 0
        if modifiers.contains(.shift) { bits |= 1 << 0 }
        if modifiers.contains(.control) { bits |= 1 << 2 }
        if modifiers.contains(.alt) { bits |= 1 << 3 }
        if modifiers.contains(.logo) { bits |= 1 << 6 }
        return bits
    }

    var value: DBusValue {
        .structure([
            .uint32(pressed ? 0 : 1), .int32(Int32(bitPattern: keysym)), .int32(Int32(bitPattern: keycode)),
            .int32(atspiModifiers), .int32(Int32(bitPattern: timestamp)), .string(string), .bool(isText),
        ])
    }
}

/// Keys forwarded to the registry: on Wayland a screen reader cannot watch the keyboard
/// (at-spi2-core's legacy device sees only the keys apps pass on), so its own commands (Orca's
/// Insert+…, its flat review) work only if the app asks `NotifyListenersSync` about each key
/// first, as Qt does. The app gets a key only if no listener consumed it.
///
/// The call is not waited for: a reader handling a key may call back into this app (to read
/// the focused row) before it answers, which a blocking call would hold up. Keys wait in order
/// for their answers and go to the window in the order they came; one unanswered in
/// `keyTimeout` seconds, or that cannot be asked, goes to the window.
extension AtSpiBridge {
    /// How long a key waits for the reader's answer before it goes to the window anyway (the
    /// wait Qt allows).
    public static let keyTimeout = 0.1

    final class PendingKey {
        let deliver: () -> Void
        var call: DBusRegistration?
        var consumed: Bool?
        init(deliver: @escaping () -> Void) { self.deliver = deliver }
    }

    /// Asks the registry's listeners about `key`, then calls `deliver` unless one consumed it.
    public func forward(_ key: AtSpiKeyEvent, deliver: @escaping () -> Void) {
        guard isRegistered else {
            deliver()
            return
        }
        let pending = PendingKey(deliver: deliver)
        pendingKeys.append(pending)
        do {
            pending.call = try connection.callWithoutWaiting(
                "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry/deviceeventcontroller",
                interface: "org.a11y.atspi.DeviceEventController", member: "NotifyListenersSync",
                arguments: [key.value], timeout: Self.keyTimeout
            ) { [weak self, unowned pending] result in
                if case .success(let values) = result, case .bool(true)? = values.first {
                    pending.consumed = true
                } else {
                    pending.consumed = false
                }
                MainActor.assumeIsolated { self?.deliverAnsweredKeys() }
            }
        } catch {
            pending.consumed = false
            deliverAnsweredKeys()
        }
    }

    /// Keys asked about whose answers have not all come.
    public var pendingKeyCount: Int { pendingKeys.count }

    /// Delivers the keys at the head of the queue that have their answers.
    func deliverAnsweredKeys() {
        while let first = pendingKeys.first, let consumed = first.consumed {
            pendingKeys.removeFirst()
            if !consumed { first.deliver() }
        }
    }

    /// Every key still waiting goes to the window (the bridge is going away: none is lost).
    func deliverWaitingKeys() {
        let waiting = pendingKeys
        pendingKeys = []
        for key in waiting {
            key.call?.cancel()
            if key.consumed != true { key.deliver() }
        }
    }
}
