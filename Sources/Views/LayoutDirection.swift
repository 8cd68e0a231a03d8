/// Which way a view's content runs (UIKit's `UIUserInterfaceLayoutDirection`): in a right-to-left
/// layout (Hebrew, Arabic) a leading edge is the right one and a trailing edge the left one, so
/// constraints written with leading and trailing anchors lay a screen out mirrored.
public enum UserInterfaceLayoutDirection: Hashable, Sendable {
    case leftToRight, rightToLeft
}

/// Whether a view's content flips with the layout direction (UIKit's
/// `UISemanticContentAttribute`). Playback controls and spatial content (a map, a D-pad) read
/// left to right in every language.
public enum SemanticContentAttribute: Hashable, Sendable {
    /// Follows the view's superview, and at the top the window's direction.
    case unspecified
    /// Media controls: always left to right.
    case playback
    /// Directions on screen: always left to right.
    case spatial
    case forceLeftToRight
    case forceRightToLeft
}

extension View {
    /// The direction this view's leading and trailing anchors resolve by: the nearest
    /// `semanticContentAttribute` that says one, on this view or its ancestors, else the
    /// window's `userInterfaceLayoutDirection` (left to right for a view in no window). A
    /// subtree keeps its ancestor's forced direction, as UIKit's trait collection carries it
    /// down.
    public var effectiveUserInterfaceLayoutDirection: UserInterfaceLayoutDirection {
        var view: View? = self
        while let v = view {
            switch v.semanticContentAttribute {
            case .forceRightToLeft: return .rightToLeft
            case .forceLeftToRight, .playback, .spatial: return .leftToRight
            case .unspecified: view = v.superview
            }
        }
        return window?.userInterfaceLayoutDirection ?? .leftToRight
    }
}
