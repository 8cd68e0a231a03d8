import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayRaster
import ScrollwayViews

/// One scroll indicator: a track along an edge of the scroll view with a thumb inside.
///
/// The thumb is 3 px thick, 3 px from the edge, at least 36 px long, shortened by overscroll
/// down to 7 px. Under a touch it fades 500 ms after motion stops, over 250 ms; with a pointer
/// it fades after 1 s, and when the pointer comes within 5 px it widens to 8 px and can be
/// dragged, and a click on the track pages.
public final class ScrollIndicator: View, FrameAnimation {
    public enum Axis: Sendable { case horizontal, vertical }

    public static let thickness = 3.0
    public static let wideThickness = 8.0
    public static let edgeDistance = 3.0
    public static let minimumLength = 36.0
    public static let minimumOverscrolledLength = 7.0
    public static let hoverDistance = 5.0
    public static let touchFadeDelay = 0.5
    public static let pointerFadeDelay = 1.0
    public static let fadeDuration = 0.25

    public let axis: Axis
    /// The thumb, in this track's bounds coordinates.
    public internal(set) var thumb: Rect = .zero { didSet { if thumb != oldValue { setNeedsDisplay() } } }
    public internal(set) var isWide = false {
        didSet {
            isUserInteractionEnabled = isWide
            if isWide != oldValue { setNeedsDisplay() }
        }
    }
    var fadeStart: Double?
    var dragGrab: Double?
    weak var scrollView: ScrollView?
    /// Whether the thumb hugs the track's left side: a vertical indicator stands at the left
    /// edge of a right-to-left scroll view, as UIKit's does.
    var hugsLeft = false { didSet { if hugsLeft != oldValue { setNeedsDisplay() } } }

    init(axis: Axis) {
        self.axis = axis
        super.init()
        alpha = 0
        isUserInteractionEnabled = false
    }

    public override var drawsContent: Bool { true }

    /// The thumb's rect in the track's bounds, as drawn (3 px thick, or 8 px while wide), its
    /// start on the device pixel grid at `scale`: the thumb then looks the same wherever it is
    /// (its rounded ends fall on the same samples), so a thumb that only moved is its last image
    /// moved (`contentsOnlyMoved`), not drawn again every frame of a scroll. Its length, and the
    /// thumb's geometry (`thumb`), stay exact.
    private func drawnThumb(scale: Double) -> Rect {
        let t = isWide ? Self.wideThickness : Self.thickness
        func snapped(_ v: Double) -> Double { scale > 0 ? (v * scale).rounded() / scale : v }
        switch axis {
        case .vertical:
            return Rect(x: hugsLeft ? 0 : bounds.width - t, y: snapped(thumb.minY), width: t, height: thumb.height)
        case .horizontal: return Rect(x: snapped(thumb.minX), y: bounds.height - t, width: thumb.width, height: t)
        }
    }

    /// What the last image was drawn for; the same again means the same pixels.
    private struct Look: Equatable {
        var length: Double
        var across: Double
        var isWide: Bool
        var style: ScrollView.IndicatorStyle
        var scale: Double
        var hugsLeft: Bool
    }

    private var drawnLook: Look?

    private func look(scale: Double) -> Look {
        Look(
            length: axis == .vertical ? thumb.height : thumb.width,
            across: axis == .vertical ? bounds.width : bounds.height, isWide: isWide,
            style: scrollView?.indicatorStyle ?? .default, scale: scale, hugsLeft: hugsLeft)
    }

    /// Only the thumb (with the default style's 1 px border) unless the track is wide and
    /// shaded: the image is the thumb's size, and a thumb that moves damages where it was and
    /// where it is, not the whole track (every row beside it, each frame of a fling).
    public override func drawnRect(scale: Double) -> Rect? {
        isWide ? nil : drawnThumb(scale: scale).insetBy(dx: -1, dy: -1)
    }

    /// A thumb of the same length, style and width that only moved: the same image.
    public override func contentsOnlyMoved(scale: Double) -> Bool {
        !isWide && drawnLook == look(scale: scale)
    }

    public override func draw(in canvas: Canvas) {
        // The canvas starts where `drawnRect` does, on the device grid: whole device pixels
        // from the track's origin, so the thumb's edges fall on the same samples.
        drawnLook = look(scale: canvas.scale)
        let origin = backingOrigin(scale: canvas.scale)
        let t = isWide ? Self.wideThickness : Self.thickness
        let r = drawnThumb(scale: canvas.scale).offsetBy(dx: -origin.x, dy: -origin.y)
        if isWide {
            canvas.fill(Rect(origin: .zero, size: bounds.size), color: Color(red: 0, green: 0, blue: 0, alpha: 0.08))
        }
        switch scrollView?.indicatorStyle ?? .default {
        case .default:
            // UIKit's default: dark with a light border, so it shows on dark and light content.
            canvas.fillRoundedRect(
                r.insetBy(dx: -1, dy: -1), radius: t / 2 + 1, color: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
            canvas.fillRoundedRect(r, radius: t / 2, color: Color(red: 0, green: 0, blue: 0, alpha: 0.45))
        case .black:
            canvas.fillRoundedRect(r, radius: t / 2, color: Color(red: 0, green: 0, blue: 0, alpha: 0.45))
        case .white:
            canvas.fillRoundedRect(r, radius: t / 2, color: Color(red: 1, green: 1, blue: 1, alpha: 0.6))
        }
    }

    /// Fades out from `time` on.
    func beginFade(at time: Double) {
        fadeStart = time
        window?.addAnimation(self)
    }

    func show() {
        fadeStart = nil
        window?.removeAnimation(self)
        alpha = 1
    }

    public func advance(to time: Double) -> Bool {
        guard let start = fadeStart else { return false }
        let a = 1 - (time - start) / Self.fadeDuration
        alpha = min(1, max(0, a))
        if a <= 0 { fadeStart = nil }
        return a > 0
    }

    // Pointer interaction: the track takes mouse presses only while wide.

    public override func touchesBegan(_ touches: [Touch]) {
        guard let sv = scrollView, let t = touches.first else { return }
        let p = convert(t.location, from: nil)
        let along = axis == .vertical ? p.y : p.x
        let thumbStart = axis == .vertical ? thumb.minY : thumb.minX
        let thumbLength = axis == .vertical ? thumb.height : thumb.width
        if along >= thumbStart && along <= thumbStart + thumbLength {
            dragGrab = along - thumbStart
        } else {
            sv.pageFromIndicator(axis: axis, forward: along > thumbStart)
        }
    }

    public override func touchesMoved(_ touches: [Touch]) {
        guard let sv = scrollView, let grab = dragGrab, let t = touches.first else { return }
        let p = convert(t.location, from: nil)
        sv.dragIndicator(axis: axis, thumbStart: (axis == .vertical ? p.y : p.x) - grab)
    }

    public override func touchesEnded(_ touches: [Touch]) { dragGrab = nil }
    public override func touchesCancelled(_ touches: [Touch]) { dragGrab = nil }
}

extension ScrollView {
    func setUpIndicators() {
        for ind in [horizontalIndicator, verticalIndicator] {
            ind.scrollView = self
            addSubview(ind)
        }
    }

    /// The indicator insets in effect: the explicit ones plus, when automatic, the adjusted
    /// inset's automatic parts (safe area, refresh control, keyboard).
    func effectiveIndicatorInsets(_ explicit: EdgeInsets) -> EdgeInsets {
        automaticallyAdjustsScrollIndicatorInsets ? explicit + (adjustedContentInset - contentInset) : explicit
    }

    /// Places both indicators along the visible edges (in bounds coordinates, so they stay put
    /// on screen while the content moves) and keeps them in front of the content.
    func layoutIndicators() {
        // Asked of the indicator, not by scanning the subviews: this runs at every change of the
        // bounds, once per frame of a fling, and a list has a subview per row in view.
        guard verticalIndicator.superview === self else { return }
        let n = subviews.count
        if n < 2 || subviews[n - 1] !== verticalIndicator || subviews[n - 2] !== horizontalIndicator {
            bringSubviewToFront(horizontalIndicator)
            bringSubviewToFront(verticalIndicator)
        }
        let showV = showsVerticalScrollIndicator && scrollsVertically
        let showH = showsHorizontalScrollIndicator && scrollsHorizontally
        verticalIndicator.isHidden = !showV
        horizontalIndicator.isHidden = !showH
        let e = ScrollIndicator.edgeDistance
        // In a right-to-left scroll view the vertical indicator stands at the left edge, as
        // UIKit's does, and the horizontal one leaves the corner room at the left.
        let atLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        verticalIndicator.hugsLeft = atLeft
        if showV {
            let ins = effectiveIndicatorInsets(verticalScrollIndicatorInsets)
            let width = ScrollIndicator.wideThickness + e
            let clear = verticalIndicatorClearance
            let track = Rect(
                x: atLeft ? bounds.minX + ins.left + e + clear : bounds.maxX - width - ins.right - clear,
                y: bounds.minY + ins.top + e,
                width: width - e,
                height: max(0, bounds.height - ins.vertical - 2 * e - (showH ? ScrollIndicator.thickness + e : 0)))
            verticalIndicator.frame = track
            verticalIndicator.thumb = thumb(
                track: track.height, viewport: bounds.height,
                content: contentSize.height + adjustedContentInset.vertical,
                offset: contentOffset.y, range: verticalRange, vertical: true, across: track.width)
        }
        if showH {
            let ins = effectiveIndicatorInsets(horizontalScrollIndicatorInsets)
            let height = ScrollIndicator.wideThickness + e
            let corner = showV ? ScrollIndicator.thickness + e : 0
            let track = Rect(
                x: bounds.minX + ins.left + e + (atLeft ? corner : 0), y: bounds.maxY - height - ins.bottom,
                width: max(0, bounds.width - ins.horizontal - 2 * e - corner), height: height - e)
            horizontalIndicator.frame = track
            horizontalIndicator.thumb = thumb(
                track: track.width, viewport: bounds.width,
                content: contentSize.width + adjustedContentInset.horizontal,
                offset: contentOffset.x, range: horizontalRange, vertical: false, across: track.height)
        }
    }

    /// Thumb length `track·viewport/content` (≥ 36 px), shortened by the overscroll down to
    /// 7 px, placed by where the offset is within its range.
    private func thumb(
        track: Double, viewport: Double, content: Double, offset: Double, range: ClosedRange<Double>, vertical: Bool,
        across: Double
    ) -> Rect {
        guard track > 0, content > 0 else { return .zero }
        var length = min(track, max(ScrollIndicator.minimumLength, track * viewport / content))
        let over =
            offset < range.lowerBound
            ? range.lowerBound - offset : offset > range.upperBound ? offset - range.upperBound : 0
        length = min(length, max(ScrollIndicator.minimumOverscrolledLength, length - over))
        let span = range.upperBound - range.lowerBound
        let fraction = span > 0 ? min(1, max(0, (offset - range.lowerBound) / span)) : 0
        let start = fraction * (track - length)
        return vertical
            ? Rect(x: 0, y: start, width: across, height: length) : Rect(x: start, y: 0, width: length, height: across)
    }

    /// Shows the indicators briefly (UIKit's flashScrollIndicators), then fades them as after
    /// motion.
    public func flashScrollIndicators() {
        showIndicatorsIfScrolling()
        scheduleIndicatorFade()
    }

    /// The vertical indicator (for tests and custom styling).
    public var verticalScrollIndicator: ScrollIndicator { verticalIndicator }
    /// The horizontal indicator.
    public var horizontalScrollIndicator: ScrollIndicator { horizontalIndicator }

    /// Shows the indicators while the content moves.
    func showIndicatorsIfScrolling() {
        if let timer = indicatorFadeTimer { window?.cancelTimer(timer) }
        indicatorFadeTimer = nil
        verticalIndicator.show()
        horizontalIndicator.show()
        layoutIndicators()
    }

    /// Fades the indicators after motion stops: 500 ms under touch, 1 s with a pointer.
    func scheduleIndicatorFade() {
        guard let window, !isTracking, !isDragging, case .idle = motion else { return }
        if verticalIndicator.isWide || horizontalIndicator.isWide { return }
        if let timer = indicatorFadeTimer { window.cancelTimer(timer) }
        let delay = window.pointerPosition != nil ? ScrollIndicator.pointerFadeDelay : ScrollIndicator.touchFadeDelay
        let at = window.now + delay
        indicatorFadeTimer = window.schedule(at: at) { [weak self] in
            self?.indicatorFadeTimer = nil
            self?.verticalIndicator.beginFade(at: at)
            self?.horizontalIndicator.beginFade(at: at)
        }
    }

    /// Widens an indicator when the pointer comes within 5 px of it.
    func handleIndicatorHover(at windowPoint: Point) -> Bool {
        var changed = false
        for ind in [verticalIndicator, horizontalIndicator] where !ind.isHidden {
            let p = ind.convert(windowPoint, from: nil)
            let near: Bool
            switch ind.axis {
            case .vertical where ind.hugsLeft:
                near =
                    p.x <= ScrollIndicator.thickness + ScrollIndicator.hoverDistance
                    && p.x >= -ScrollIndicator.edgeDistance && p.y >= 0 && p.y <= ind.bounds.height
            case .vertical:
                near =
                    p.x >= ind.bounds.width - ScrollIndicator.thickness - ScrollIndicator.hoverDistance
                    && p.x <= ind.bounds.width + ScrollIndicator.edgeDistance && p.y >= 0 && p.y <= ind.bounds.height
            case .horizontal:
                near =
                    p.y >= ind.bounds.height - ScrollIndicator.thickness - ScrollIndicator.hoverDistance
                    && p.y <= ind.bounds.height + ScrollIndicator.edgeDistance && p.x >= 0 && p.x <= ind.bounds.width
            }
            if near != ind.isWide {
                ind.isWide = near
                changed = true
                if near { showIndicatorsIfScrolling() } else { scheduleIndicatorFade() }
            }
        }
        return changed
    }

    /// The pointer left the window: a widened indicator narrows and fades as after the pointer
    /// moved away from it (leaving through the window's edge, where the vertical bar sits, is
    /// the usual way out, and the bar stayed wide and shown for good).
    func pointerDidLeave() {
        var narrowed = false
        for ind in [verticalIndicator, horizontalIndicator] where ind.isWide {
            ind.isWide = false
            narrowed = true
        }
        if narrowed { scheduleIndicatorFade() }
    }

    /// A click on the track: one page towards the click, animated.
    func pageFromIndicator(axis: ScrollIndicator.Axis, forward: Bool) {
        settleZoomAnimation()
        let sign: Double = forward ? 1 : -1
        var target = animationTarget ?? contentOffset
        if axis == .vertical {
            target.y += sign * max(0, bounds.height - Self.pageOverlap)
        } else {
            target.x += sign * max(0, bounds.width - Self.pageOverlap)
        }
        setContentOffset(clampedOffset(target), animated: true)
    }

    /// Dragging the thumb: its start along the track maps linearly onto the offset range.
    func dragIndicator(axis: ScrollIndicator.Axis, thumbStart: Double) {
        let ind = axis == .vertical ? verticalIndicator : horizontalIndicator
        let track = axis == .vertical ? ind.bounds.height : ind.bounds.width
        let length = axis == .vertical ? ind.thumb.height : ind.thumb.width
        let range = axis == .vertical ? verticalRange : horizontalRange
        guard track > length else { return }
        let fraction = min(1, max(0, thumbStart / (track - length)))
        let value = range.lowerBound + fraction * (range.upperBound - range.lowerBound)
        stopMotion()
        contentOffset = axis == .vertical ? Point(x: contentOffset.x, y: value) : Point(x: value, y: contentOffset.y)
    }
}

extension ScrollView {
    /// Where the scroll indicators start in `subviews`: `layoutIndicators` keeps them last, so
    /// that is looked at first (a scan asking each subview whether it is an indicator cost a
    /// dynamic cast per row, twice a frame). A list's pinned headers and a grid's go just
    /// below them.
    var indicatorsFront: Int {
        let n = subviews.count
        if n >= 2, subviews[n - 2] === horizontalIndicator, subviews[n - 1] === verticalIndicator { return n - 2 }
        return subviews.firstIndex { $0 === horizontalIndicator || $0 === verticalIndicator } ?? n
    }
}
