import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// A spinner as UIKit's UIActivityIndicatorView: hidden while stopped (unless told not to), a
/// turn a second while it spins, the darkest segment leading; its two sizes; busy to a reader.
@MainActor
@Suite struct ActivityIndicatorTests {
    /// A large spinner (37 across) at the window's top left: its centre (18.5, 18.5) falls on
    /// a pixel's centre, and each segment runs from 9.25 to 18.5 out, 3 wide.
    func make() -> (Window, FrameDriver, ActivityIndicatorView) {
        let window = Window(size: Size(width: 100, height: 100))
        let spinner = ActivityIndicatorView(style: .large)
        spinner.frame = Rect(origin: .zero, size: spinner.intrinsicContentSize)
        window.addSubview(spinner)
        return (window, FrameDriver(window: window), spinner)
    }

    func rgb(_ canvas: Canvas, _ x: Int, _ y: Int) -> UInt32 { canvas.pixel(x: x, y: y) & 0xFF_FFFF }

    @Test func itSpinsATurnASecondAndHidesWhenStopped() throws {
        let (window, driver, spinner) = make()
        #expect(spinner.isHidden && !spinner.isAnimating)
        #expect(spinner.intrinsicContentSize == Size(width: 37, height: 37))
        #expect(ActivityIndicatorView.Style.medium.diameter == 20)
        spinner.startAnimating()
        driver.advance(by: 1 / 60)
        #expect(!spinner.isHidden && spinner.isAnimating)
        let full = spinner.color.premultipliedARGB & 0xFF_FFFF
        // The first frame: the darkest segment points up (14 px above the centre).
        var canvas = try Offscreen.render(window)
        #expect(rgb(canvas, 18, 4) == full)
        #expect(rgb(canvas, 32, 18) != full)
        // A quarter of a second on, it points right, and the top one is faint.
        driver.advance(by: 0.25)
        canvas = try Offscreen.render(window)
        #expect(rgb(canvas, 32, 18) == full)
        #expect(rgb(canvas, 18, 4) != full)
        spinner.stopAnimating()
        #expect(spinner.isHidden && !window.hasActiveAnimations)
        spinner.hidesWhenStopped = false
        #expect(!spinner.isHidden)
    }

    @Test func aReaderHearsAProgressIndicatorBusyWhileItSpins() throws {
        let (window, _, spinner) = make()
        spinner.hidesWhenStopped = false
        var node = try #require(window.accessibilityTree().all.first { $0.view === spinner })
        #expect(node.role == .progressIndicator && node.label == "In progress" && !node.states.contains(.busy))
        spinner.startAnimating()
        node = try #require(window.accessibilityTree().all.first { $0.view === spinner })
        #expect(node.states.contains(.busy))
    }

    /// Started before it has a window, it spins once it joins one.
    @Test func startedOutOfAWindowItSpinsInOne() {
        let spinner = ActivityIndicatorView()
        spinner.startAnimating()
        let window = Window(size: Size(width: 100, height: 100))
        window.addSubview(spinner)
        #expect(window.hasActiveAnimations)
    }
}
