import ScrollwayGeometry
import ScrollwayViews

/// How items come and go in an animated update (UITableView.RowAnimation's role): inserted
/// rows or items come in this way, deleted ones go out this way, a reloaded one's old cell
/// goes as its new one comes. Whatever the animation, the cells that stay slide from where
/// they stood on screen to their new places.
public enum RowAnimation: Sendable, Hashable {
    /// At once: everything is in its new place at the next frame.
    case none
    /// Fading in, or out, where they stand.
    case fade
    /// Sliding in from beyond the view's left edge, or out past it.
    case left
    /// Sliding in from beyond the view's right edge, or out past it.
    case right
    /// Sliding down into place from behind what stands above, or up behind it (UIKit's
    /// `.top`): a row inserted comes out from under the row above, glued to the rows below as
    /// they make room; a row deleted goes up under the row above as the rows below close up.
    case top
    /// Sliding up into place from behind what stands below, or down behind it (UIKit's
    /// `.bottom`).
    case bottom
    /// The view's choice (UIKit's `.automatic`): a fade.
    case automatic
}

/// An animated update of a list or a collection, noted before the update and run after it:
/// every cell and header that stays slides from where it stood on screen (its frame's origin
/// less the scroll view's bounds origin, kept however the update moved the offset) to its
/// new place; a cell new to the view that does not arrive (brought in by cells that went or
/// shrank) moves with the nearest cell that stayed, the one before it in order if any; cells
/// that arrive come in by the animation; cells that leave were kept out of the view's cells,
/// and go out from where they stood, behind the others, by the animation. Only
/// re-composited (`View.animate`).
@MainActor
struct ChangeAnimation {
    let animation: RowAnimation
    private let container: ScrollView
    private let origin: Point
    private var stood: [ObjectIdentifier: Point] = [:]
    private var headersStood: [Int: Point] = [:]
    private(set) var leaving: [View] = []

    /// How long an animated update takes (UITableView's row animations take about as long),
    /// on UIKit's ease-in-out curve.
    static let duration = 0.3

    init(_ animation: RowAnimation, in container: ScrollView) {
        self.animation = animation
        self.container = container
        origin = container.bounds.origin
    }

    /// Whether the update animates at all: not `.none`, in a window, in a view with a size.
    var animates: Bool { animation != .none && container.window != nil && container.bounds.width > 0 }

    mutating func noteCell(_ view: View) { stood[ObjectIdentifier(view)] = view.frame.origin - origin }
    mutating func noteHeader(_ view: View, section: Int) { headersStood[section] = view.frame.origin - origin }
    /// A footer is noted by its section's complement (`~section`), so neither band takes the
    /// other's place.
    mutating func noteFooter(_ view: View, section: Int) { noteHeader(view, section: ~section) }

    /// The headers and footers in view as `run` follows them: headers by section, footers by
    /// its complement, as they were noted.
    static func bands(headers: [Int: some View], footers: [Int: some View]) -> [Int: View] {
        var all: [Int: View] = headers
        for (s, footer) in footers { all[~s] = footer }
        return all
    }

    /// A cell taken out of the view's cells (its item gone or reloaded): it goes out from where
    /// it stands, untouchable meanwhile, and a screen reader passes over it (it has been told
    /// the cell went).
    mutating func noteLeaving(_ view: View) {
        view.isUserInteractionEnabled = false
        view.accessibilityElementsHidden = true
        leaving.append(view)
    }

    /// What a cell in view after the update was before it.
    enum Past {
        /// It showed the same item before (renumbered, perhaps), noted with `noteCell`.
        case stayed
        /// Its item is new, or reloaded.
        case arrives
        /// Its item was there but had no cell in view (or had another: a cell may have gone
        /// through the pool during the update, and where it stood says nothing of this item).
        case cameIntoView
    }

    /// After the update: `cells` are the view's cells with their order (a row, an item's
    /// index counting every item before it) and their past; `headers` and footers as `bands`
    /// keys them, nil when the sections changed (their numbers name others now). Once it is
    /// over (at once when nothing moves) the leaving cells are put back opaque, touchable and
    /// where they stood, and each still in the view goes to its pool (`shelve`), then `done`
    /// runs.
    func run(
        cells: [(order: Int, view: View, past: Past)], headers: [Int: View]?, shelve: @escaping (View) -> Void,
        done: @escaping (_ finished: Bool) -> Void
    ) {
        let now = container.bounds.origin
        var starts: [(view: View, by: Point)] = []
        var displacements: [(order: Int, by: Point)] = []
        var coming: [View] = []
        var newcomers: [(order: Int, view: View)] = []
        for (order, view, past) in cells {
            if past == .arrives {
                coming.append(view)
            } else if past == .stayed, let at = stood[ObjectIdentifier(view)] {
                let by = at + now - view.frame.origin
                displacements.append((order, by))
                starts.append((view, by))
            } else {
                newcomers.append((order, view))
            }
        }
        displacements.sort { $0.order < $1.order }
        for (order, view) in newcomers {
            let i = displacements.firstIndex { $0.order > order } ?? displacements.count
            let by = i > 0 ? displacements[i - 1].by : displacements.first?.by ?? .zero
            starts.append((view, by))
        }
        for (section, view) in headers ?? [:] {
            guard let at = headersStood[section] else { continue }
            starts.append((view, at + now - view.frame.origin))
        }
        // A view whose new place is where it stands (an earlier update of this turn, or one
        // still running, took it away from there) is not on its way elsewhere any more.
        for (view, by) in starts where by == .zero { view.removeCenterAnimation() }
        starts.removeAll { $0.by == .zero }
        let shift = now - origin
        // Those still going out from an earlier update stay where they stand on screen, as
        // this update's own do, however it moved the offset.
        for view in container.departingViews { view.moveWithAnimation(by: shift) }
        container.departingViews += leaving
        let homes = leaving.map { $0.center + shift }
        for view in leaving {
            // Still where it stood on screen, behind the others.
            view.center = view.center + shift
            container.insertSubview(view, at: 0)
        }
        let leaving = self.leaving
        let container = self.container
        func putBack(_ finished: Bool) {
            container.departingViews.removeAll { view in leaving.contains { $0 === view } }
            for (view, home) in zip(leaving, homes) {
                view.removeAllAnimations()
                view.alpha = 1
                view.center = home
                view.isUserInteractionEnabled = true
                view.accessibilityElementsHidden = false
                if view.superview === container { shelve(view) } else { view.removeFromSuperview() }
            }
            done(finished)
        }
        guard !starts.isEmpty || !coming.isEmpty || !leaving.isEmpty else { return putBack(true) }
        let width = container.bounds.width
        let animation = self.animation
        // Where a cell comes in from, or goes out to, from its place; nil: it fades.
        func away(_ view: View) -> Point? {
            switch animation {
            case .left: Point(x: -width, y: 0)
            case .right: Point(x: width, y: 0)
            case .top: Point(x: 0, y: -view.bounds.height)
            case .bottom: Point(x: 0, y: view.bounds.height)
            case .none, .fade, .automatic: nil
            }
        }
        // Each to its exact place (not back by the same amount: a sum and a difference can
        // land a rounding off it, where a list that leaves unmoved rows alone would keep it).
        let places = starts.map(\.view.center)
        for (view, by) in starts { view.center = view.center + by }
        let arrivals = coming.map(\.center)
        for view in coming {
            guard let by = away(view) else {
                view.alpha = 0
                continue
            }
            view.center = view.center + by
            // Up or down, it comes out from behind its neighbours.
            if by.x == 0 { container.insertSubview(view, at: 0) }
        }
        container.animate(withDuration: Self.duration) {
            for ((view, _), place) in zip(starts, places) { view.center = place }
            for (view, place) in zip(coming, arrivals) {
                if away(view) == nil { view.alpha = 1 } else { view.center = place }
            }
            for view in leaving {
                if let by = away(view) { view.center = view.center + by } else { view.alpha = 0 }
            }
        } completion: { finished in
            putBack(finished)
        }
    }
}
