import ScrollwayGeometry
import Testing

@testable import ScrollwayWayland

/// The rule that chooses a window's integer buffer scale from the outputs
/// (`WaylandConnection.bufferScale(entered:all:)`).
struct OutputScaleTests {
    /// On a 1× output, a 2× output elsewhere does not count.
    @Test func theOutputsTheSurfaceIsOnChoose() {
        #expect(WaylandConnection.bufferScale(entered: [1], all: [1, 2]) == 1)
        #expect(WaylandConnection.bufferScale(entered: [2], all: [1, 2]) == 2)
    }

    /// Across a 1× and a 2× output, the sharper one wins, as in GTK 4 and Qt.
    @Test func aSurfaceAcrossOutputsTakesTheLargestOfTheirScales() {
        #expect(WaylandConnection.bufferScale(entered: [1, 2], all: [1, 2, 3]) == 2)
    }

    /// Before the surface is on any output, the largest of all, so the first frame is sharp
    /// wherever it lands; with no output at all, 1.
    @Test func beforeItIsOnAnyTheLargestOfAllOutputs() {
        #expect(WaylandConnection.bufferScale(entered: [], all: [1, 3, 2]) == 3)
        #expect(WaylandConnection.bufferScale(entered: [], all: []) == 1)
    }

    /// The room a window has where the compositor gives no bounds is the largest output's
    /// logical size, turned with a panel turned a quarter (90° or 270°): a 1024×600 mode
    /// rotated is 600×1024 of room (it was taken as landscape, so the first window was short).
    @Test func aQuarterTurnedPanelsRoomIsPortrait() {
        #expect(WaylandConnection.largestOutput(of: [(1024, 600, 1, true)]) == Size(width: 600, height: 1024))
        #expect(WaylandConnection.largestOutput(of: [(1024, 600, 1, false)]) == Size(width: 1024, height: 600))
        #expect(WaylandConnection.largestOutput(of: [(2048, 1200, 2, true)]) == Size(width: 600, height: 1024))
        #expect(WaylandConnection.largestOutput(of: [(0, 0, 1, true)]) == nil)
    }
}
