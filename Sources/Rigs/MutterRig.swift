import Foundation
import ScrollwayCWaylandClient
import ScrollwayRaster
import ScrollwayWaylandCore
import ScrollwayWestonHarness

/// mutter 43 headless as a rig: `mutter --headless --wayland --no-x11 --virtual-monitor WxH` in a
/// D-Bus session of its own (`SessionCompositor`).
///
/// What it offers is what a client does there on its own: mutter sends configure_bounds
/// (xdg_wm_base 4) and no xdg-decoration. Input and captures go through mutter's D-Bus APIs
/// (RemoteDesktop, ScreenCast with PipeWire), which the rig does not speak yet: they are
/// declared missing (`Compositor.missing`), and the seat only makes roundtrips.
public final class MutterRig: SessionRig {
    public let session: SessionCompositor
    public let pacer = RealTimePacer()
    public let keys: KeyCodes
    private let width: Int
    private let height: Int
    private let scale: Int
    private let control: RoundtripSeat

    public init(width: Int = 800, height: Int = 600, scale: Int = 1, startupTimeout: Double = 15) throws {
        for tool in ["mutter", "dbus-run-session"] where RigProcesses.findExecutable(tool) == nil {
            throw RigError.compositorNotFound(name: tool, install: Compositor.mutter.installCommand)
        }
        self.width = width
        self.height = height
        self.scale = scale
        keys = try KeyCodes(.us)
        session = try SessionCompositor(
            name: "mutter", directoryPrefix: "scrollway-mutter-",
            command: { _ in
                "mutter --headless --wayland --no-x11 --virtual-monitor \(width * scale)x\(height * scale) "
                    + "--wayland-display=wayland-mutter"
            },
            environment: { _ in ["GSETTINGS_BACKEND": "memory"] }, socketPrefix: "wayland-mutter",
            startupTimeout: startupTimeout)
        do {
            control = try RoundtripSeat(socketPath: session.socketPath, compositor: "mutter")
        } catch {
            session.stop()
            throw error
        }
    }

    deinit { stop() }

    public var compositor: Compositor { .mutter }
    public var seat: any SeatInput { control }
    public var output: (width: Int, height: Int, scale: Double) { (width, height, Double(scale)) }
    public var textInput: TextInputSnapshot? { nil }
    public var textInputHistory: [TextInputSnapshot] { [] }

    public func capture() throws -> Canvas { throw RigError.notOffered(compositor.missing(.capture)!) }
    public func parkPointer() throws {}
    public func idleInhibitors() throws -> Int { throw RigError.notOffered(compositor.missing(.idleInhibitorCount)!) }
}

/// A seat that carries no input (the rig cannot inject into this compositor yet): its
/// connection only makes roundtrips, so that "everything sent has been handled" still means
/// something. `SeatInjector` refuses input events for such a rig before they get here.
final class RoundtripSeat: SeatInput {
    private let core: WaylandDisplay
    private let compositorName: String

    init(socketPath: String, compositor: String) throws {
        compositorName = compositor
        do {
            core = try WaylandDisplay(socket: socketPath)
            try core.roundtrip(timeout: 10)
        } catch {
            throw RigError.connectionLost("cannot connect to \(compositor): \(RigError(error, compositor: compositor))")
        }
    }

    func pointerMotion(x: Double, y: Double, time: UInt32) {}
    func pointerButton(_ button: UInt32, pressed: Bool, time: UInt32) {}
    func axisSource(_ source: UInt32) {}
    func axis(_ axis: UInt32, value: Double, discrete: Int32, value120: Int32, time: UInt32) {}
    func axisStop(_ axis: UInt32, time: UInt32) {}
    func pointerFrame() {}
    func touchDown(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchMotion(id: Int32, x: Double, y: Double, time: UInt32) {}
    func touchUp(id: Int32, time: UInt32) {}
    func touchFrame() {}
    func touchCancel() {}
    func key(_ key: UInt32, pressed: Bool, time: UInt32) {}
    func textInputPreedit(_ text: String, cursor: ClosedRange<Int>?) {}
    func textInputCommit(_ text: String) {}
    func textInputDeleteSurrounding(before: Int, after: Int) {}
    func textInputDone() {}

    func flush() throws {
        do { try core.flush() } catch { throw RigError(error, compositor: compositorName) }
    }

    func roundtrip() throws {
        do { try core.roundtrip(timeout: 10) } catch { throw RigError(error, compositor: compositorName) }
    }
}
