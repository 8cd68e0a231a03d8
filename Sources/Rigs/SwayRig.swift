import Foundation
import ScrollwayRaster
import ScrollwayWestonHarness

/// sway 1.7 headless, as a rig: `SwayProcess` plus the rig's own wlroots connection
/// (`WlrootsSeat`) for input, a real input method and captures.
///
/// Not offered: touch (wlroots 0.15 has no virtual touch device), value120 (its wl_seat is
/// version 7: wheel clicks reach clients as discrete steps), configuring a window to a size,
/// and counting idle inhibitors other than through sway's IPC (`idleInhibitors()` reads the
/// tree's `inhibit_idle`).
public final class SwayRig: WlrootsRig {
    public let process: SwayProcess
    public let control: WlrootsSeat
    public let pacer = RealTimePacer()
    public let keys: KeyCodes

    public init(width: Int = 800, height: Int = 600, scale: Int = 1) throws {
        process = try SwayProcess(width: width, height: height, scale: scale)
        do {
            keys = try KeyCodes(.us)
            control = try WlrootsSeat(
                socketPath: process.socketPath, compositor: "sway", output: "HEADLESS-1",
                layoutSize: process.layoutSize, keys: keys)
        } catch let error as RigError {
            let log = process.log
            process.stop()
            if case .startupFailed(let reason, _) = error { throw RigError.startupFailed(reason: reason, log: log) }
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .sway }
    public var socketPath: String { process.socketPath }
    public var clientEnvironment: [String: String] { process.clientEnvironment }
    public var output: (width: Int, height: Int, scale: Double) {
        (process.width, process.height, Double(process.scale))
    }

    public var features: Set<RigFeature> {
        control.hasInputMethod ? compositor.features : compositor.features.subtracting([.inputMethod, .textInputState])
    }

    /// Moves the pointer onto the parking output, off every window (a headless output draws its
    /// cursor into what screencopy captures, so it cannot stay on the rig's output).
    public func parkPointer() throws {
        let p = process.parkingPoint
        control.pointerMotion(x: p.x, y: p.y, time: 0)
        control.pointerFrame()
        try control.roundtrip()
    }

    /// The windows sway's tree marks `inhibit_idle` (an inhibitor in effect on a visible view).
    public func idleInhibitors() throws -> Int {
        let json = try process.message(["-t", "get_tree", "-r"])
        guard let tree = try? JSONSerialization.jsonObject(with: Data(json.utf8)) else {
            throw RigError.system("swaymsg get_tree printed no JSON")
        }
        func count(_ node: Any) -> Int {
            guard let n = node as? [String: Any] else { return 0 }
            let own = (n["inhibit_idle"] as? Bool) == true ? 1 : 0
            let children = ((n["nodes"] as? [Any]) ?? []) + ((n["floating_nodes"] as? [Any]) ?? [])
            return own + children.map(count).reduce(0, +)
        }
        return count(tree)
    }

    @discardableResult
    public func launchClient(
        _ executable: String, arguments: [String] = [], environment: [String: String] = [:],
        to destination: RigClientOutput = .null
    ) throws -> Process {
        try process.launchClient(executable, arguments: arguments, environment: environment, to: destination)
    }

    /// Runs a sway command (`swaymsg` syntax: "[app_id=x] focus").
    @discardableResult
    public func command(_ text: String) throws -> String { try process.message([text]) }

    public func stop() { process.stop() }
}
