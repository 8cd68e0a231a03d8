import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScripts
import ScrollwayScrolling
import ScrollwayViews
import Testing

@MainActor
@Suite struct RefreshSceneTests {
    static let pull = """
        {"t": 0, "type": "touch.down", "id": 0, "x": 200, "y": 100}
        {"t": 0, "type": "touch.frame"}
        {"t": 100, "type": "touch.motion", "id": 0, "x": 200, "y": 200}
        {"t": 100, "type": "touch.frame"}
        {"t": 200, "type": "touch.motion", "id": 0, "x": 200, "y": 300}
        {"t": 200, "type": "touch.frame"}
        {"t": 300, "type": "touch.motion", "id": 0, "x": 200, "y": 330}
        {"t": 300, "type": "touch.frame"}
        {"t": 500, "type": "touch.up", "id": 0}
        {"t": 3500, "type": "screenshot", "name": "after"}
        """

    @Test func newRowsArriveAtTheTopWhileTheRowsInViewStayStill() throws {
        let window = Scene.refresh.makeWindow()
        let main = try #require(window.view(named: "main") as? ScrollView)
        let firstPost = main.subviews.first { ($0.subviews.first as? Label)?.text == "Post 1" }!
        let player = try HeadlessPlayer(window: window)
        let watch = PostWatch(main: main, post: firstPost)
        window.addObserver(watch)
        let script = try ScriptParser(file: "pull", isKeysym: { _ in true }).parse(Self.pull)
        try player.play(script)
        #expect(watch.sawRefreshing)
        #expect(watch.before == 60)  // resting at −adjusted.top: the 60 px control above Post 1
        #expect(watch.after == watch.before)
        #expect(main.contentOffset.y == 5 * 64 - 60)
        #expect(main.adjustedContentInset.top == 0)
        #expect(player.recorder.text.contains("\"refreshing\": true"))
        #expect(player.recorder.text.contains("\"refreshing\": false"))
    }
}

@MainActor
/// Where "Post 1" is on screen in the last frame before the new rows land, and in the first
/// frame after.
final class PostWatch: WindowObserver {
    let main: ScrollView
    let post: View
    private(set) var before: Double?
    private(set) var after: Double?
    private(set) var sawRefreshing = false

    init(main: ScrollView, post: View) {
        self.main = main
        self.post = post
    }

    func window(_ window: Window, didPrepareFrameAt time: Double) {
        if main.refreshControl?.isRefreshing == true {
            sawRefreshing = true
            before = post.convert(Point.zero, to: nil).y
        } else if sawRefreshing && after == nil {
            after = post.convert(Point.zero, to: nil).y
        }
    }
}

@MainActor
@Suite struct TraceFormatTests {
    @Test func numbersAreFixedAndKeysStable() {
        let window = Window(size: Size(width: 100, height: 100))
        let s = ScrollView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        s.contentSize = Size(width: 100, height: 1000)
        s.contentOffset = Point(x: -0.0, y: 12.3456789)
        window.addSubview(s)
        var w = TraceWriter()
        w.frame(t: 16.666666, number: 1, view: "main", s)
        w.delegate(t: 20, view: "main", .didEndDragging(willDecelerate: false))
        #expect(
            w.lines[0]
                == "{\"t\": 16.667, \"frame\": 1, \"view\": \"main\", \"contentOffset\": {\"x\": 0, \"y\": 12.346}, "
                + "\"contentSize\": {\"width\": 100, \"height\": 1000}, \"bounds\": {\"x\": 0, \"y\": 12.346, \"width\": 100, "
                + "\"height\": 100}, \"contentInset\": {\"top\": 0, \"left\": 0, \"bottom\": 0, \"right\": 0}, "
                + "\"adjustedContentInset\": {\"top\": 0, \"left\": 0, \"bottom\": 0, \"right\": 0}, \"zoomScale\": 1, "
                + "\"phase\": \"idle\", \"refreshing\": false, \"keyboardHeight\": 0}")
        #expect(
            w.lines[1]
                == "{\"t\": 20, \"view\": \"main\", \"delegate\": \"scrollViewDidEndDragging\", \"willDecelerate\": false}"
        )
    }
}
