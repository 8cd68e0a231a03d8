/// A window's clipboard (UIPasteboard.general's role, text only): where Ctrl+C and Ctrl+X put
/// the selected text and Ctrl+V takes it from. The platform installs its own in
/// `Window.pasteboard` (part of the `WindowHost` contract); the default is a `MemoryPasteboard`.
///
/// Reading is asynchronous because on a desktop the clipboard's text belongs to whichever client
/// copied last, and arrives through a pipe from it, which may be this very app: waiting for it
/// on the main thread would wait for ourselves.
@MainActor
public protocol Pasteboard: AnyObject {
    /// Offers `text` as the clipboard's content, replacing what it had.
    func setText(_ text: String)
    /// Asks for the clipboard's text; `completion` runs once on the main thread with it, or nil
    /// when the clipboard holds no text. It may run before this returns (memory) or later (a
    /// pipe from another client).
    func requestText(_ completion: @escaping @MainActor (String?) -> Void)
}

/// A clipboard that lives in the process: what an offscreen window uses, and a window before its
/// platform installs the system's. It answers at once, so tests stay deterministic.
@MainActor
public final class MemoryPasteboard: Pasteboard {
    /// What was copied last, nil before anything was.
    public var text: String?

    public init(text: String? = nil) { self.text = text }

    public func setText(_ text: String) { self.text = text }

    public func requestText(_ completion: @escaping @MainActor (String?) -> Void) { completion(text) }
}
