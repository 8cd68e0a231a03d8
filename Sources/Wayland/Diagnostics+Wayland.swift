import Logging
import ScrollwayRaster

extension Diagnostics {
    /// The Wayland platform: protocol versions bound, missing globals, buffers, the connection.
    public static var wayland: Logger { Logger(label: "scrollway.wayland") }
}
