import ScrollwayGeometry
import ScrollwayGestures
import ScrollwayScrolling
import ScrollwayTestSupport
import ScrollwayViews
import Testing

@MainActor
@Suite struct RandomStreamTests {
    @Test func a100000EventStreamStaysFiniteAndInsideTheRubberBand() {
        let rig = ScrollBench(viewport: Size(width: 390, height: 844), content: Size(width: 1200, height: 20000))
        rig.zoomsContent(minimum: 0.5, maximum: 3)
        var recent: [String] = []
        var rng = SeededRandom(state: 42)
        var down: Set<Int> = []
        func point() -> Point {
            Point(x: Double.random(in: -50...440, using: &rng), y: Double.random(in: -50...900, using: &rng))
        }
        for n in 0..<100_000 {
            let dt = Double.random(in: 0...0.02, using: &rng)
            let kind: InputEvent.Kind
            switch Int.random(in: 0..<16, using: &rng) {
            case 0, 1:
                let id = Int.random(in: 1...3, using: &rng)
                down.insert(id)
                kind = .touchDown(id: id, position: point())
            case 2, 3, 4, 5:
                kind = .touchMotion(id: down.sorted().randomElement(using: &rng) ?? 1, position: point())
            case 6, 7:
                let id = down.sorted().randomElement(using: &rng) ?? 1
                down.remove(id)
                kind = .touchUp(id: id)
            case 8:
                kind = .pointerMotion(position: point())
            case 9:
                kind = .axis(
                    Bool.random(using: &rng) ? .vertical : .horizontal, value: Double.random(in: -40...40, using: &rng),
                    source: [.wheel, .finger, .continuous, .wheelTilt].randomElement(using: &rng)!,
                    value120: Bool.random(using: &rng) ? Double.random(in: -240...240, using: &rng) : nil)
            case 10: kind = .axisStop(.vertical)
            case 11:
                kind = .key(
                    [.up, .down, .pageUp, .pageDown, .home, .end, .space, .left, .right].randomElement(using: &rng)!,
                    pressed: true, modifiers: Bool.random(using: &rng) ? [] : .shift)
            case 12:
                kind = [.pinchBegin(fingers: 2), .pinchEnd(cancelled: false), .holdBegin(fingers: 2)].randomElement(
                    using: &rng)!
            case 13: kind = .pinchUpdate(scale: Double.random(in: 0.1...10, using: &rng), dx: 3, dy: -2)
            case 14:
                down.removeAll()
                kind = .touchCancel
            default:
                if Int.random(in: 0..<50, using: &rng) == 0 {
                    rig.scroll.contentInset = EdgeInsets(
                        top: Double.random(in: 0...100, using: &rng), left: 0,
                        bottom: Double.random(in: 0...300, using: &rng),
                        right: 0)
                }
                kind = .touchFrame
            }
            let before = (rig.scroll.contentOffset, rig.scroll.phase, rig.scroll.zoomScale)
            rig.send(kind, at: rig.time + dt)
            recent.append(
                "\(n) \(kind) → \(rig.scroll.contentOffset) \(rig.scroll.motionDescription) zoom \(rig.scroll.zoomScale)"
            )
            if recent.count > 12 { recent.removeFirst() }
            let o = rig.scroll.contentOffset
            let s = rig.scroll
            #expect(o.isFinite && s.zoomScale.isFinite && s.contentSize.width.isFinite, "non-finite state")
            let h = s.horizontalRange
            let v = s.verticalRange
            // Never beyond the rubber band: the shown overscroll is always < d (the viewport).
            let inside =
                o.x > h.lowerBound - s.bounds.width && o.x < h.upperBound + s.bounds.width
                && o.y > v.lowerBound - s.bounds.height && o.y < v.upperBound + s.bounds.height
            if !inside || !o.isFinite {
                let message =
                    "event \(n) \(kind): offset \(o) outside the band of \(h) × \(v), zoom \(s.zoomScale), "
                    + "phase \(s.phase), size \(s.contentSize); before \(before)\n" + recent.joined(separator: "\n")
                Issue.record(Comment(rawValue: message))
                return
            }
        }
    }
}
