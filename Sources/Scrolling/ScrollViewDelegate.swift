import ScrollwayGeometry
import ScrollwayViews

/// UIScrollViewDelegate's callbacks, all optional (default implementations do nothing).
/// Order for a drag: willBeginDragging (at slop crossing) → didScroll… → willEndDragging →
/// didEndDragging(willDecelerate) → willBeginDecelerating → didEndDecelerating. Programmatic
/// animations end with didEndScrollingAnimation.
@MainActor
public protocol ScrollViewDelegate: AnyObject {
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewDidZoom(_ scrollView: ScrollView)
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// `velocity` in px/ms (UIKit's unit), positive towards larger offsets. Changing
    /// `targetContentOffset` re-aims the deceleration to land there.
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point)
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
    func viewForZooming(in scrollView: ScrollView) -> View?
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double)
    func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool
    func scrollViewDidScrollToTop(_ scrollView: ScrollView)
    func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {}
    public func scrollViewShouldScrollToTop(_ scrollView: ScrollView) -> Bool { true }
    public func scrollViewDidScrollToTop(_ scrollView: ScrollView) {}
    public func scrollViewDidChangeAdjustedContentInset(_ scrollView: ScrollView) {}
}

/// Every delegate callback as a value, in the order they happen: what traces record and tests
/// compare. `didScroll` and `didZoom` are included too.
public enum ScrollEvent: Hashable, Sendable {
    case didScroll
    case didZoom
    case willBeginDragging
    case willEndDragging(velocity: Point, targetContentOffset: Point)
    case didEndDragging(willDecelerate: Bool)
    case willBeginDecelerating
    case didEndDecelerating
    case didEndScrollingAnimation
    case willBeginZooming
    case didEndZooming(scale: Double)
    case didScrollToTop
    case didChangeAdjustedContentInset

    /// UIKit's method name, as traces write it.
    public var delegateName: String {
        switch self {
        case .didScroll: return "scrollViewDidScroll"
        case .didZoom: return "scrollViewDidZoom"
        case .willBeginDragging: return "scrollViewWillBeginDragging"
        case .willEndDragging: return "scrollViewWillEndDragging"
        case .didEndDragging: return "scrollViewDidEndDragging"
        case .willBeginDecelerating: return "scrollViewWillBeginDecelerating"
        case .didEndDecelerating: return "scrollViewDidEndDecelerating"
        case .didEndScrollingAnimation: return "scrollViewDidEndScrollingAnimation"
        case .willBeginZooming: return "scrollViewWillBeginZooming"
        case .didEndZooming: return "scrollViewDidEndZooming"
        case .didScrollToTop: return "scrollViewDidScrollToTop"
        case .didChangeAdjustedContentInset: return "scrollViewDidChangeAdjustedContentInset"
        }
    }
}
