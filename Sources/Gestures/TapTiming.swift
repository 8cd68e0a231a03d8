/// The timing and distances of taps and presses, shared by the tap and long-press recognizers
/// (and so by the scroll view's double tap to zoom).
public enum TapTiming {
    /// A tap lifts within this time of landing (s).
    public static let maxTapDuration = 0.35
    /// A second tap ending within this time (s) of the first's end, and landing within
    /// `doubleTapDistance` of it, makes a double tap.
    public static let doubleTapInterval = 0.30
    public static let doubleTapDistance = 40.0
    /// A long press holds this long (s).
    public static let longPressDuration = 0.50
}
