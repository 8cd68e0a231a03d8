/// One input method update: what zwp_text_input_v3 delivers between two `done` events, and what
/// a script's `preedit`, `commit_text` and `delete_surrounding` lines stand for. The focused
/// text field applies it in the protocol's order (`TextEditing.apply`): the old preedit goes,
/// the surrounding text is deleted, the commit string is inserted, then the new preedit shows.
///
/// Offsets and lengths are UTF-8 bytes, as the protocol counts them, so that an input method's
/// numbers reach the editing model untranslated.
public struct TextInputUpdate: Hashable, Sendable {
    /// The composing text shown at the caret (empty: none).
    public var preedit: String
    /// The caret inside the preedit as a byte range of it; nil hides the caret (the protocol's
    /// -1, -1).
    public var preeditCursor: ClosedByteRange?
    /// Text inserted at the caret, which ends up after it.
    public var commit: String
    /// Bytes deleted before and after the caret, before the commit string goes in.
    public var deleteBefore: Int
    public var deleteAfter: Int

    public init(
        preedit: String = "", preeditCursor: ClosedByteRange? = nil, commit: String = "", deleteBefore: Int = 0,
        deleteAfter: Int = 0
    ) {
        self.preedit = preedit
        self.preeditCursor = preeditCursor
        self.commit = commit
        self.deleteBefore = deleteBefore
        self.deleteAfter = deleteAfter
    }

    /// A byte range inside the preedit: begin == end is a caret line, otherwise a highlight.
    public struct ClosedByteRange: Hashable, Sendable {
        public var begin: Int
        public var end: Int
        public init(begin: Int, end: Int) {
            self.begin = begin
            self.end = end
        }
    }
}
