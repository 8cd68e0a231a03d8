import ScrollwayDemoScenes
import ScrollwayGeometry
import ScrollwayHeadless
import ScrollwayReplay
import ScrollwayScrolling
import ScrollwayViews
import Testing

/// Two parties observing one real window, neither knowing of the other: the keyboard scene's
/// on-screen keyboard (focus changes and interactive drags) and a trace recorder (frames).
@MainActor
@Suite struct SceneObserversTests {
    @Test func theKeyboardAndATraceRecorderBothFollowTheKeyboardScene() throws {
        let window = Scene.keyboard.makeWindow()
        let keyboard = try #require(window.firstView(of: OnScreenKeyboard.self))
        let field = try #require(window.view(named: "field1") as? TextField)
        let recorder = TraceRecorder(window: window)
        let driver = FrameDriver(window: window)
        var prepared = 1  // the driver's first frame, recorded too
        driver.afterFrame = { if $0 { prepared += 1 } }
        /// The keyboard height of each frame record of "main", in order.
        func recordedHeights() -> [Double] {
            recorder.writer.lines.compactMap { line in
                guard line.contains("\"frame\": "), line.contains("\"view\": \"main\""),
                    let key = line.range(of: "\"keyboardHeight\": ")
                else { return nil }
                return Double(line[key.upperBound...].dropLast())
            }
        }

        // A tap on the field: the keyboard hears of the focus and slides in; the recorder hears
        // of every frame on the way.
        let p = field.convert(field.bounds, to: nil).center
        driver.send(.touchDown(id: 1, position: p), at: 0.1)
        driver.send(.touchUp(id: 1), at: 0.15)
        driver.settle()
        #expect(field.isFocused && keyboard.visibleFraction == 1)
        #expect(recordedHeights().count == prepared)
        #expect(recordedHeights().last == OnScreenKeyboard.height)

        // The form dragged down to near the window's bottom: the keyboard follows the finger.
        driver.send {
            $0.drag(from: Point(x: 200, y: 400), to: Point(x: 200, y: 830), at: 0, ms: 400, id: 1, lift: false, step: 8)
        }
        driver.advance(by: 1 / 60)
        #expect(keyboard.visibleFraction > 0 && keyboard.visibleFraction < 0.1)
        // Let go below half: the keyboard is dismissed, and focus goes with it.
        driver.send(.touchUp(id: 1))
        driver.settle()
        #expect(!field.isFocused && keyboard.visibleFraction == 0)
        let heights = recordedHeights()
        #expect(heights.count == prepared)
        #expect(heights.contains { $0 > 0 && $0 < 30 })  // the frames that followed the finger
        #expect(heights.last == 0)
    }
}
