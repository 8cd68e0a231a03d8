import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayViews

@MainActor
/// The `bounds` demo scene (the bounds article's four views in a 320×480 viewport "main"),
/// with its colours at hand.
struct BoundsScene {
    static let red = color("red")
    static let green = color("green")
    static let blue = color("blue")
    static let yellow = color("yellow")
    static let rects: [(String, Rect, Color)] = BoundsColors.views

    let window = ScrollwayDemoScenes.Scene.bounds.makeWindow()
    var container: View { window.view(named: "main")! }

    static func color(_ name: String) -> Color { BoundsColors.views.first { $0.0 == name }!.2 }
}

@MainActor
extension Color {
    var argb: UInt32 { premultipliedARGB }
}

@MainActor
/// A view that counts its draws and paints one flat colour.
final class CountingView: View {
    var color: Color
    init(frame: Rect, color: Color) {
        self.color = color
        super.init(frame: frame)
    }
    override var drawsContent: Bool { true }
    override func draw(in canvas: Canvas) { canvas.clear(color) }
}

@MainActor
/// A platform stand-in that counts the window's frame requests.
final class CountingHost: WindowHost {
    private(set) var requests = 0
    func windowNeedsFrame(_ window: Window) { requests += 1 }
}
