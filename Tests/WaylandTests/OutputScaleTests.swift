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
}
