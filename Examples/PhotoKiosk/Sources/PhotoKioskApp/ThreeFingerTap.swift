import Scrollway

/// The staff's way out of the kiosk: a tap with three fingers at once, as a tap recognizer on
/// the window (so it works on every page and at any zoom). All three must be down together,
/// none may move more than `slop`, and the last must lift within `maximumDuration` of the first
/// landing. Visitors swipe with one finger and pinch with two, so they never end the show by
/// accident; and it takes fingers only: a mouse (the left button acts as a finger) has one
/// "finger", so a kiosk with a mouse attached cannot be quit from it either.
///
/// It recognizes alongside the pages' own gestures (two of its fingers may well start a zoom)
/// and takes nothing from them: no view's touch is cancelled or held back for it.
final class ThreeFingerTap: TapGestureRecognizer, GestureRecognizerDelegate {
    static let fingers = 3
    static let maximumDuration = 0.6
    static let slop = 30.0

    init(onRecognize: @escaping @MainActor () -> Void) {
        super.init { _ in onRecognize() }
        numberOfTouchesRequired = Self.fingers
        maximumTapDuration = Self.maximumDuration
        allowableMovement = Self.slop
        allowedTouchSources = [.finger]
        cancelsTouchesInView = false
        delaysTouchesEnded = false
        name = "exit"
        delegate = self
    }

    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { true }
}
