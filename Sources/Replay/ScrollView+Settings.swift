import ScrollwayGeometry
import ScrollwayPhysics
import ScrollwayScrolling

/// Setting scroll-view properties by name from text: the command line's `--set key=value` (`play`,
/// and the tour's steps). It lives with the command line, not the library: an app sets its
/// properties in Swift, and every one it reaches is public, so this parser needs nothing more.
/// Every public behaviour property is reachable; the names are the Swift ones (UIKit's), with
/// `pagingEnabled`-style aliases for the `is…` booleans.
extension ScrollView {
    public struct SettingError: Error, Equatable, CustomStringConvertible {
        public let key: String
        public let message: String
        public var description: String { "--set \(key): \(message)" }
    }

    /// The largest length or coordinate a setting takes (a billion pixels): far beyond any
    /// content, and small enough that the physics and the trace never meet infinity.
    nonisolated public static let maximumSettingLength = 1e9
    /// Zoom scales a setting takes.
    public static let settingZoomRange = 0.001...1000.0

    /// Applies `settings` (key, value) in order, then checks what only the whole can show
    /// (`minimumZoomScale ≤ maximumZoomScale`). Callers apply them before anything runs and
    /// discard the view on error, so an error never leaves a half-configured view running.
    public func setValues(_ settings: [(key: String, value: String)]) throws {
        for (key, value) in settings { try setValue(value, forSetting: key) }
        if minimumZoomScale > maximumZoomScale {
            let key = settings.last { $0.key == "minimumZoomScale" || $0.key == "maximumZoomScale" }?.key
            throw SettingError(
                key: key ?? "minimumZoomScale",
                message: "minimumZoomScale (\(minimumZoomScale)) is greater than maximumZoomScale (\(maximumZoomScale))"
            )
        }
    }

    /// Every key `setValue(_:forSetting:)` accepts, sorted.
    public static var settingNames: [String] { settingTable.keys.sorted() }

    /// Sets one property from its text form. Booleans: true/false/yes/no/1/0; numbers;
    /// `contentOffset=x,y`; `contentSize=w,h`; insets `top,left,bottom,right`;
    /// `decelerationRate=normal|fast|<0..1>`; enums by case name.
    public func setValue(_ text: String, forSetting key: String) throws {
        guard let setter = Self.settingTable[key] else {
            throw SettingError(
                key: key, message: "unknown property (known: \(Self.settingNames.joined(separator: ", ")))")
        }
        try setter(self, trimmed(text), key)
    }

    private typealias Setter = @MainActor @Sendable (ScrollView, String, String) throws -> Void

    private static let settingTable: [String: Setter] = {
        var t: [String: Setter] = [:]
        func bool(_ names: [String], _ set: @escaping @MainActor @Sendable (ScrollView, Bool) -> Void) {
            for n in names { t[n] = { s, v, k in set(s, try parseBool(v, k)) } }
        }
        func number(
            _ name: String, min: Double? = nil, max: Double? = nil,
            _ set: @escaping @MainActor @Sendable (ScrollView, Double) -> Void
        ) {
            t[name] = { s, v, k in set(s, try parseNumber(v, k, min: min, max: max)) }
        }
        let length = ScrollView.maximumSettingLength
        func insets(_ name: String, _ set: @escaping @MainActor @Sendable (ScrollView, EdgeInsets) -> Void) {
            t[name] = { s, v, k in
                let n = try parseList(v, k, count: 4, shape: "top,left,bottom,right", min: -length, max: length)
                set(s, EdgeInsets(top: n[0], left: n[1], bottom: n[2], right: n[3]))
            }
        }
        bool(["isScrollEnabled", "scrollEnabled"]) { $0.isScrollEnabled = $1 }
        bool(["bounces"]) { $0.bounces = $1 }
        bool(["bouncesHorizontally"]) { $0.bouncesHorizontally = $1 }
        bool(["bouncesVertically"]) { $0.bouncesVertically = $1 }
        bool(["transfersHorizontalScrollingToParent"]) { $0.transfersHorizontalScrollingToParent = $1 }
        bool(["transfersVerticalScrollingToParent"]) { $0.transfersVerticalScrollingToParent = $1 }
        bool(["allowsKeyboardScrolling"]) { $0.allowsKeyboardScrolling = $1 }
        bool(["alwaysBounceVertical"]) { $0.alwaysBounceVertical = $1 }
        bool(["alwaysBounceHorizontal"]) { $0.alwaysBounceHorizontal = $1 }
        bool(["isPagingEnabled", "pagingEnabled"]) { $0.isPagingEnabled = $1 }
        bool(["isDirectionalLockEnabled", "directionalLockEnabled"]) { $0.isDirectionalLockEnabled = $1 }
        bool(["delaysContentTouches"]) { $0.delaysContentTouches = $1 }
        bool(["canCancelContentTouches"]) { $0.canCancelContentTouches = $1 }
        bool(["scrollsToTop"]) { $0.scrollsToTop = $1 }
        bool(["showsVerticalScrollIndicator"]) { $0.showsVerticalScrollIndicator = $1 }
        bool(["showsHorizontalScrollIndicator"]) { $0.showsHorizontalScrollIndicator = $1 }
        bool(["automaticallyAdjustsScrollIndicatorInsets"]) { $0.automaticallyAdjustsScrollIndicatorInsets = $1 }
        bool(["bouncesZoom"]) { $0.bouncesZoom = $1 }
        bool(["doubleTapZooms"]) { $0.doubleTapZooms = $1 }
        bool(["handsOffDragsAtEdges"]) { $0.handsOffDragsAtEdges = $1 }
        bool(["allowsMouseDrag"]) { $0.allowsMouseDrag = $1 }
        bool(["mouseDragMomentum"]) { $0.mouseDragMomentum = $1 }
        let zoom = ScrollView.settingZoomRange
        number("minimumZoomScale", min: zoom.lowerBound, max: zoom.upperBound) { $0.minimumZoomScale = $1 }
        number("maximumZoomScale", min: zoom.lowerBound, max: zoom.upperBound) { $0.maximumZoomScale = $1 }
        number("zoomScale", min: zoom.lowerBound, max: zoom.upperBound) { $0.setZoomScale($1, animated: false) }
        number("touchpadMultiplier", min: 0, max: 100) { $0.touchpadMultiplier = $1 }
        t["contentOffset"] = { s, v, k in
            let n = try parseList(v, k, count: 2, shape: "x,y", min: -length, max: length)
            s.contentOffset = Point(x: n[0], y: n[1])
        }
        t["contentSize"] = { s, v, k in
            let n = try parseList(v, k, count: 2, shape: "width,height", min: 0, max: length)
            // A list sizes its content from its rows at every layout: a size set here would be
            // gone by the first frame.
            guard !(s is ListView) else {
                throw SettingError(key: k, message: "a list sizes its content from its rows; it cannot be set")
            }
            s.contentSize = Size(width: n[0], height: n[1])
        }
        insets("contentInset") { $0.contentInset = $1 }
        insets("safeAreaInsets") { $0.safeAreaInsets = $1 }
        insets("verticalScrollIndicatorInsets") { $0.verticalScrollIndicatorInsets = $1 }
        insets("horizontalScrollIndicatorInsets") { $0.horizontalScrollIndicatorInsets = $1 }
        insets("scrollIndicatorInsets") { $0.scrollIndicatorInsets = $1 }
        t["decelerationRate"] = { s, v, k in
            switch v {
            case "normal": s.decelerationRate = .normal
            case "fast": s.decelerationRate = .fast
            default:
                guard let r = Double(v), r > 0, r < 1 else {
                    throw SettingError(key: k, message: "expected normal, fast or a number in (0, 1), got '\(v)'")
                }
                s.decelerationRate = DecelerationRate(r)
            }
        }
        t["contentInsetAdjustmentBehavior"] = { s, v, k in
            guard let b = ContentInsetAdjustmentBehavior(rawValue: v) else {
                let all = ContentInsetAdjustmentBehavior.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError(key: k, message: "expected one of \(all), got '\(v)'")
            }
            s.contentInsetAdjustmentBehavior = b
        }
        t["indicatorStyle"] = { s, v, k in
            guard let style = IndicatorStyle(rawValue: v) else {
                let all = IndicatorStyle.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError(key: k, message: "expected one of \(all), got '\(v)'")
            }
            s.indicatorStyle = style
        }
        t["keyboardDismissMode"] = { s, v, k in
            guard let m = KeyboardDismissMode(rawValue: v) else {
                let all = KeyboardDismissMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError(key: k, message: "expected one of \(all), got '\(v)'")
            }
            s.keyboardDismissMode = m
        }
        return t
    }()
}

private func parseBool(_ v: String, _ k: String) throws -> Bool {
    switch v.lowercased() {
    case "true", "yes", "1", "on": return true
    case "false", "no", "0", "off": return false
    default: throw ScrollView.SettingError(key: k, message: "expected true or false, got '\(v)'")
    }
}

private func parseNumber(_ v: String, _ k: String, min: Double? = nil, max: Double? = nil) throws -> Double {
    guard let d = Double(v), d.isFinite else {
        throw ScrollView.SettingError(key: k, message: "expected a finite number, got '\(v)'")
    }
    try checkRange(d, k, min: min, max: max)
    return d
}

private func checkRange(_ d: Double, _ k: String, min: Double?, max: Double?) throws {
    if let min, d < min { throw ScrollView.SettingError(key: k, message: "expected a number ≥ \(min), got \(d)") }
    if let max, d > max { throw ScrollView.SettingError(key: k, message: "expected a number ≤ \(max), got \(d)") }
}

private func parseList(
    _ v: String, _ k: String, count: Int, shape: String, min: Double? = nil, max: Double? = nil
) throws -> [Double] {
    let parts = v.split(separator: ",", omittingEmptySubsequences: false).map { Double(trimmed(String($0))) }
    guard parts.count == count, parts.allSatisfy({ $0 != nil && $0!.isFinite }) else {
        throw ScrollView.SettingError(key: k, message: "expected \(shape) (\(count) numbers), got '\(v)'")
    }
    let n = parts.map { $0! }
    for d in n { try checkRange(d, k, min: min, max: max) }
    return n
}

/// The text without surrounding spaces and tabs.
private func trimmed(_ s: String) -> String {
    String(s.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
}
