import Foundation
import ScrollwayRaster
import ScrollwayWestonHarness

extension TestInputClient: SeatInput {}

/// weston with our module offers everything the rigs know but replugging devices: weston keeps
/// a seat's old device objects alive, so it cannot show what a compositor that retires them does.
extension WestonRig: CompositorRig {
    public var compositor: Compositor { .weston }
    public var seat: any SeatInput { input }

    public var output: (width: Int, height: Int, scale: Double) {
        (process.options.width, process.options.height, Double(process.options.scale))
    }

    public func parkPointer() throws { try parkPointer(at: 0) }

    public var textInput: TextInputSnapshot? { input.textInput }
    public var textInputHistory: [TextInputSnapshot] { input.textInputHistory }
    public func idleInhibitors() throws -> Int {
        try input.roundtrip()
        return input.idleInhibitors
    }

    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String], environment: [String: String], to destination: RigClientOutput
    ) throws -> Process {
        try process.launchClient(executable, arguments: arguments, environment: environment, to: destination)
    }
}
