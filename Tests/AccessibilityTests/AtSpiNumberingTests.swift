import ScrollwayDBus
import ScrollwayGeometry
import ScrollwayRigs
import ScrollwayViews
import Testing

@testable import ScrollwayAtSpi

/// The bridge numbers each view a reader is told of for its object path: views that come and
/// go (a chat's new bubbles) leave no entries behind, and a view that stays keeps its path.
@MainActor
@Suite struct AtSpiNumberingTests {
    @Test func goneViewsLeaveTheTableAndLiveOnesKeepTheirPaths() throws {
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let window = Window(size: Size(width: 400, height: 300))
        let staying = Label(text: "Staying", frame: Rect(x: 0, y: 0, width: 200, height: 20))
        window.addSubview(staying)
        let connection = try DBusConnection(address: bus.accessibilityAddress)
        let bridge = AtSpiBridge(connection: connection, applicationName: "scrollway-test") { [window] }
        let path = bridge.path(of: staying)
        var firstGone: String?
        var most = 0
        for n in 0..<5_000 {
            let bubble = Label(text: "Message \(n)", frame: Rect(x: 0, y: 40, width: 200, height: 20))
            window.addSubview(bubble)
            let bubblePath = bridge.path(of: bubble)
            #expect(bubblePath != path)
            firstGone = firstGone ?? bubblePath
            bubble.removeFromSuperview()
            most = max(most, bridge.numberedViews)
        }
        // Swept each time the table reached 1,024: never more than that at once.
        #expect(most <= 1_024, "\(most) numbered")
        #expect(bridge.path(of: staying) == path)
        #expect(try bridge.object(at: path) != nil)
        // The first bubble's path, gone, names no object (its number is not given again).
        let gone = try #require(firstGone)
        #expect(try bridge.object(at: gone) == nil)
    }
}
