import Synchronization

/// A canvas passed from the thread that drew it to the thread that shows it.
///
/// `Canvas` is not Sendable: it wraps a mutable pixman image. A tile drawn on a worker thread
/// still has to reach the main thread. The initializer takes the canvas as `sending`, so the
/// compiler checks that the drawing thread keeps no reference it could touch afterwards, and
/// `take()` hands it out once: whoever takes it is then its only user. No `@unchecked` needed.
public final class CanvasHandoff: Sendable {
    private let slot: Mutex<Canvas?>

    public init(_ canvas: sending Canvas) { slot = Mutex(canvas) }

    /// The canvas, the first time; nil after that.
    public func take() -> Canvas? {
        slot.withLock { canvas in
            let taken = canvas.take()
            return taken
        }
    }
}
