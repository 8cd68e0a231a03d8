import Dispatch
import Glibc
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayScrolling
import ScrollwayViews
import Synchronization
import Testing

/// The calling thread's CPU seconds.
private func threadCPU() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

private func monotonic() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// A source whose every tile costs `cost` seconds of its worker's CPU (a busy loop on the
/// thread's CPU clock), noting when each draw began and ended.
final class BurningSource: TileSource {
    let cost: Double
    private let draws = Mutex<[(start: Double, end: Double, cpu: Double)]>([])
    private let done = DispatchSemaphore(value: 0)

    init(cost: Double) { self.cost = cost }

    var drawn: [(start: Double, end: Double, cpu: Double)] { draws.withLock { $0 } }

    /// Waits until `count` draws have ended (at most `timeout` seconds in all); false on a timeout.
    func waitForDraws(_ count: Int, timeout: Double) -> Bool {
        let end = DispatchTime.now() + timeout
        for _ in 0..<count where done.wait(timeout: end) == .timedOut { return false }
        return true
    }

    func draw(_ rect: Rect, in canvas: Canvas) {
        let start = monotonic()
        let cpu0 = threadCPU()
        var x = 0.0
        while threadCPU() - cpu0 < cost { x += 1 }
        canvas.fill(Rect(origin: .zero, size: rect.size), color: Color(rgb: 200, 80, x < 0 ? 0 : 40))
        let cpu = threadCPU() - cpu0
        draws.withLock { $0.append((start, monotonic(), cpu)) }
        done.signal()
    }
}

@MainActor
struct PacedTileTests {
    /// Two workers under a budget of 5% of one core keep to it: the draws they make spend no
    /// more than the budget's rate over the time they took, plus its burst and the first
    /// tile's overdraw per worker; unpaced, the same ten 4 ms tiles take two workers about 20 ms.
    /// Both bounds hold however loaded the machine is (load only stretches the time).
    @Test func workersUnderABudgetKeepToItsShare() {
        let source = BurningSource(cost: 0.004)
        let rig = TiledRig(
            source: source, workers: 2, window: Size(width: 1200, height: 900),
            viewport: Rect(x: 0, y: 0, width: 1200, height: 900))
        let budget = BackgroundBudget(
            share: 0.05, period: 0.1, wallClock: { monotonic() }, threadCPUClock: { threadCPU() })
        rig.window.backgroundBudget = budget
        rig.tiled.updateTiles()
        #expect(rig.tiled.pendingTileCount >= 10, "tiles asked for: \(rig.tiled.pendingTileCount)")
        #expect(source.waitForDraws(10, timeout: 120))
        let draws = source.drawn.sorted { $0.end < $1.end }.prefix(10)
        guard let first = draws.map(\.start).min(), let last = draws.last?.end else { return }
        let elapsed = last - first
        let spent = draws.reduce(0) { $0 + $1.cpu }
        // The burst, the first two pieces (no estimate yet) and a millisecond per piece for
        // the clocks' reading around them.
        let allowance = budget.share * 0.1 + 2 * 0.004 + 0.010
        #expect(spent >= 10 * 0.004)
        #expect(spent <= budget.share * elapsed + allowance, "spent \(spent) s in \(elapsed) s")
        // The lower bound on the time: what was spent beyond the allowance, at the rate.
        #expect(elapsed >= (spent - allowance) / budget.share, "spent \(spent) s in \(elapsed) s")
        rig.tiled.removeFromSuperview()
    }

    /// Without a budget (the default, and what headless platforms keep), workers are not paced.
    @Test func noBudgetByDefault() {
        let rig = TiledRig(source: BurningSource(cost: 0))
        #expect(rig.window.backgroundBudget == nil)
    }
}
