import ScrollwayGeometry

/// One input event, platform-neutral: what the Wayland seat, the offscreen script player and
/// tests all produce. Positions are surface-local logical pixels; `time` is in seconds on the
/// platform's clock (Wayland's millisecond timestamps / 1000).
public struct InputEvent: Hashable, Sendable {
    public var time: Double
    public var kind: Kind

    public init(time: Double, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }

    public enum Kind: Hashable, Sendable {
        case touchDown(id: Int, position: Point)
        case touchMotion(id: Int, position: Point)
        case touchUp(id: Int)
        /// Ends a group of touch events (wl_touch.frame).
        case touchFrame
        /// The compositor took every touch away.
        case touchCancel
        case pointerEnter(position: Point)
        case pointerLeave
        case pointerMotion(position: Point)
        case pointerButton(PointerButton, pressed: Bool)
        /// `value` in px, positive towards the end of the content (as wl_pointer.axis).
        case axis(Axis, value: Double, source: AxisSource, value120: Double?)
        /// The fingers left the touchpad: momentum may start.
        case axisStop(Axis)
        /// Ends a group of pointer events (wl_pointer.frame).
        case pointerFrame
        case pinchBegin(fingers: Int)
        /// Cumulative scale since the pinch began; dx/dy this update's centroid motion.
        case pinchUpdate(scale: Double, dx: Double, dy: Double)
        case pinchEnd(cancelled: Bool)
        /// Fingers resting on the touchpad (pointer-gestures hold): stops momentum.
        case holdBegin(fingers: Int)
        case holdEnd(cancelled: Bool)
        case key(Key, pressed: Bool, modifiers: Modifiers)
        /// The modifiers held changed without a key event of their own: Wayland reports them in
        /// `wl_keyboard.modifiers`, after the key that changed them (so Ctrl+wheel needs it).
        case modifiers(Modifiers)
        /// Text typed through the keyboard path (physical or on-screen).
        case text(String)
        /// An input method's update (zwp_text_input_v3's done): preedit, commit, deletion.
        case textInput(TextInputUpdate)
    }
}

public enum PointerButton: String, Hashable, Sendable, CaseIterable {
    case left, right, middle
}

public enum Axis: String, Hashable, Sendable, CaseIterable {
    case vertical, horizontal
}

/// Where an axis event came from (wl_pointer.axis_source).
public enum AxisSource: String, Hashable, Sendable, CaseIterable {
    /// A wheel with detents.
    case wheel
    /// Fingers on a touchpad: direct, with momentum after axis_stop.
    case finger
    /// A trackpoint or similar: direct, no momentum.
    case continuous
    /// A sideways wheel tilt.
    case wheelTilt = "wheel-tilt"
}

/// The keys the scroll engine acts on, plus any other by name (an xkb keysym name).
public enum Key: Hashable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end, space, tab, enter, backspace, escape
    case other(String)

    /// From an xkb keysym name as scripts write them ("Page_Down", "Home", "a").
    public init(keysymName name: String) {
        switch name {
        case "Up", "KP_Up": self = .up
        case "Down", "KP_Down": self = .down
        case "Left", "KP_Left": self = .left
        case "Right", "KP_Right": self = .right
        case "Page_Up", "Prior", "KP_Page_Up", "KP_Prior": self = .pageUp
        case "Page_Down", "Next", "KP_Page_Down", "KP_Next": self = .pageDown
        case "Home", "KP_Home": self = .home
        case "End", "KP_End": self = .end
        case "space", "KP_Space": self = .space
        case "Tab", "ISO_Left_Tab", "KP_Tab": self = .tab  // Shift+Tab is ISO_Left_Tab in most keymaps
        case "Return", "KP_Enter": self = .enter
        case "BackSpace": self = .backspace
        case "Escape": self = .escape
        default: self = .other(name)
        }
    }
}

public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
    public static let logo = Modifiers(rawValue: 8)
}
