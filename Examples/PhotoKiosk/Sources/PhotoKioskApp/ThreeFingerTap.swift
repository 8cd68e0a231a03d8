import Scrollway

/// The staff's way out of the kiosk: a tap with three fingers at once. All three must be down
/// together, none may move more than `slop`, and the last must lift within `maximumDuration` of
/// the first landing. Visitors swipe with one finger and pinch with two, so they never end the
/// show by accident; and it is touch only: a mouse (the left button acts as a finger) has one
/// "finger", so a kiosk with a mouse attached cannot be quit from it either.
///
/// It watches the window's input as an observer, before any view sees it, so it works on
/// every page and at any zoom; it changes nothing itself, it only calls `onRecognize`.
final class ThreeFingerTap: WindowObserver {
    static let fingers = 3
    static let maximumDuration = 0.6
    static let slop = 30.0

    var onRecognize: (() -> Void)?
    /// Where each finger now down landed.
    private var landed: [Int: Point] = [:]
    /// When the first finger of this sequence landed, and the most fingers down at once.
    private var began = 0.0
    private var mostFingers = 0
    /// A finger moved too far, or the compositor cancelled the touches.
    private var failed = false

    func window(_ window: Window, willHandle event: InputEvent) {
        switch event.kind {
        case .touchDown(let id, let p):
            if landed.isEmpty {
                began = event.time
                mostFingers = 0
                failed = false
            }
            landed[id] = p
            mostFingers = max(mostFingers, landed.count)
        case .touchMotion(let id, let p):
            if let start = landed[id], (p - start).length > Self.slop { failed = true }
        case .touchUp(let id):
            guard landed.removeValue(forKey: id) != nil, landed.isEmpty else { return }
            if !failed && mostFingers == Self.fingers && event.time - began <= Self.maximumDuration {
                onRecognize?()
            }
        case .touchCancel:
            landed.removeAll()
            failed = true
        default:
            break
        }
    }
}
