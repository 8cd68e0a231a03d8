import ScrollwayGeometry
import ScrollwayGestures

/// What a field is for, told to a system input method so that it shows the right panel (a
/// number pad for a number field) and behaves (no word memory for a password). The values are
/// zwp_text_input_v3's `content_purpose` and `content_hint` numbers, which other systems' input
/// type lists resemble closely enough to map from.
public struct TextContentType: Hashable, Sendable {
    public enum Purpose: UInt32, Sendable, CaseIterable {
        case normal = 0, alpha, digits, number, phone, url, email, name, password, pin, date, time, datetime,
            terminal
    }

    public struct Hints: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let completion = Hints(rawValue: 0x1)
        public static let spellcheck = Hints(rawValue: 0x2)
        public static let autoCapitalization = Hints(rawValue: 0x4)
        public static let lowercase = Hints(rawValue: 0x8)
        public static let uppercase = Hints(rawValue: 0x10)
        public static let titlecase = Hints(rawValue: 0x20)
        public static let hiddenText = Hints(rawValue: 0x40)
        public static let sensitiveData = Hints(rawValue: 0x80)
        public static let latin = Hints(rawValue: 0x100)
        public static let multiline = Hints(rawValue: 0x200)
    }

    public var purpose: Purpose
    public var hints: Hints

    public init(purpose: Purpose = .normal, hints: Hints = []) {
        self.purpose = purpose
        self.hints = hints
    }

    public static let normal = TextContentType()
    /// A number: digits, sign and decimal separator.
    public static let number = TextContentType(purpose: .number)
    public static let digits = TextContentType(purpose: .digits)
    public static let email = TextContentType(purpose: .email)
    public static let url = TextContentType(purpose: .url)
    public static let password = TextContentType(purpose: .password, hints: [.hiddenText, .sensitiveData])
}

/// What the focused field tells a system input method, all at once: the platform sends it when
/// it differs from what it sent last (a frame moved the field, the caret moved, text changed).
public struct TextInputState: Equatable, Sendable {
    /// The text around the caret (at most `TextEditing.surroundingLimit` bytes), preedit excluded.
    public var surroundingText: String
    /// The caret and selection anchor, UTF-8 byte offsets into `surroundingText`.
    public var cursor: Int
    public var anchor: Int
    public var contentType: TextContentType
    /// The caret's rectangle in window (surface-local) coordinates, where an input method puts
    /// its candidate list.
    public var cursorRectangle: Rect

    public init(surroundingText: String, cursor: Int, anchor: Int, contentType: TextContentType, cursorRectangle: Rect)
    {
        self.surroundingText = surroundingText
        self.cursor = cursor
        self.anchor = anchor
        self.contentType = contentType
        self.cursorRectangle = cursorRectangle
    }
}

/// A view that edits text through an input method (a `TextField`): the window asks the
/// focused one for its state, and hands it `InputEvent.Kind.textInput` updates.
@MainActor
public protocol TextInputClient: View {
    /// The state an input method is told of; nil while the view is not in a window.
    var textInputState: TextInputState? { get }
}

extension Window {
    /// The focused view's text-input state, nil when it does not take text (nothing is focused,
    /// or a button is): a platform with a system input method enables it while this is non-nil.
    public var textInputState: TextInputState? {
        (focusedView as? TextInputClient)?.textInputState
    }
}
