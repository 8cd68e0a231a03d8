import ScrollwayGeometry
import ScrollwayRaster

/// How far a task of known length has gone, as UIKit's UIProgressView: a thin track filled with
/// the tint from its leading end (the right, right to left) to `progress`, 0 to 1.
///
/// The fill is a view of its own: `setProgress(_:animated:)` slides its edge over
/// `animationDuration` with a view animation (re-composited, nothing drawn again but the
/// fill's new width), while `progress` reads the new value at once, as UIKit's does.
///
/// A screen reader hears a progress bar with its value in whole percent, as UIKit's says it,
/// through AT-SPI's Value, told as it changes; a reader cannot set it.
open class ProgressView: View {
    /// UIKit's two looks: `.default`, a 4-point track with round ends; `.bar`, a 2.5-point one
    /// with square ends and no track colour of its own, for the edge of a bar.
    public enum Style: Sendable {
        case `default`, bar
    }

    public var progressViewStyle: Style {
        didSet {
            invalidateIntrinsicContentSize()
            appearanceDidChange()
            setNeedsLayout()
        }
    }
    /// How far along, from 0 to 1: set, it is clamped there (a value that is not a number is
    /// ignored), and the fill shows it at once.
    public var progress: Double {
        get { storedProgress }
        set { setProgress(newValue, animated: false) }
    }
    /// The fill (the tint by default).
    public var progressTintColor: Color = .tint { didSet { appearanceDidChange() } }
    /// The track under the fill (nil: the style's, a light grey for `.default`, none for `.bar`).
    public var trackTintColor: Color? { didSet { appearanceDidChange() } }
    /// How long `setProgress(_:animated:)` slides the fill, on the ease-in-out curve.
    public static let animationDuration = 0.25

    private var storedProgress: Double
    private let fill = ProgressFill()

    public init(progressViewStyle: Style = .default, frame: Rect = .zero) {
        self.progressViewStyle = progressViewStyle
        storedProgress = 0
        super.init(frame: frame)
        isUserInteractionEnabled = false
        addSubview(fill)
        appearanceDidChange()
    }

    /// As wide as its container makes it, as tall as its style's track.
    open override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: trackHeight) }

    open override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: trackHeight) }

    /// The track's height for the style.
    public var trackHeight: Double { progressViewStyle == .default ? 4 : 2.5 }

    /// Sets `progress` (clamped to 0…1); `animated`, in a window, the fill slides to it.
    public func setProgress(_ progress: Double, animated: Bool) {
        guard progress.isFinite else { return }
        let clamped = min(max(progress, 0), 1)
        guard clamped != storedProgress else { return }
        storedProgress = clamped
        window?.postAccessibilityNotification(.valueChanged(self))
        let rect = fillRect()
        if animated {
            animate(withDuration: Self.animationDuration) { self.fill.frame = rect }
        } else {
            fill.frame = rect
        }
    }

    /// The fill's rect for the progress: from the leading end of the track.
    private func fillRect() -> Rect {
        let track = trackRect
        let width = (track.width * storedProgress * 256).rounded() / 256
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        return Rect(x: rtl ? track.maxX - width : track.minX, y: track.minY, width: width, height: track.height)
    }

    /// The track: the whole width, the style's height, centred.
    private var trackRect: Rect {
        Rect(x: bounds.minX, y: bounds.midY - trackHeight / 2, width: bounds.width, height: trackHeight)
    }

    /// The fill follows a new size or direction. A layout that leaves its end where it was
    /// leaves a slide under way alone; one that moves it puts the fill there at once, ending
    /// the slide (a frame set outside an animation ends it).
    open override func layoutSubviews() {
        super.layoutSubviews()
        let rect = fillRect()
        let heading = fill.animationTargets.map {
            Rect(
                x: $0.center.x - $0.bounds.width / 2, y: $0.center.y - $0.bounds.height / 2,
                width: $0.bounds.width, height: $0.bounds.height)
        }
        if (heading ?? fill.frame) != rect { fill.frame = rect }
    }

    open override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        setNeedsLayout()
    }

    /// The fill and the track take the colours and the style's shape.
    private func appearanceDidChange() {
        fill.color = progressTintColor
        fill.isRounded = progressViewStyle == .default
        setNeedsDisplay()
    }

    // MARK: Drawing

    open override var drawsContent: Bool { true }

    open override func draw(in canvas: Canvas) {
        let track = trackRect
        let color = trackTintColor ?? (progressViewStyle == .default ? Color(rgb: 229, 229, 234) : nil)
        guard let color, track.width > 0 else { return }
        if progressViewStyle == .default {
            canvas.fillRoundedRect(track, radius: track.height / 2, color: color)
        } else {
            canvas.fill(track, color: color)
        }
    }

    // MARK: Accessibility

    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .progressIndicator, label: "Progress", isElement: true)
    }

    /// The progress as UIKit's says it: in whole percent.
    open override var accessibilityValue: AccessibilityValue? {
        let percent = Int(clamping: storedProgress * 100, rounding: .toNearestOrAwayFromZero)
        return AccessibilityValue(current: storedProgress, minimum: 0, maximum: 1, step: 0.01, text: "\(percent)%")
    }
}

/// The progress view's fill: the tint, with round ends in the default style.
final class ProgressFill: View {
    var color: Color = .tint { didSet { setNeedsDisplay() } }
    var isRounded = true { didSet { setNeedsDisplay() } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    override var drawsContent: Bool { true }

    override func draw(in canvas: Canvas) {
        guard bounds.width > 0 else { return }
        if isRounded {
            canvas.fillRoundedRect(bounds, radius: min(bounds.height, bounds.width) / 2, color: color)
        } else {
            canvas.fill(bounds, color: color)
        }
    }
}
