import Logging

/// Where the library's diagnostics go: swift-log loggers by layer, which an app routes or
/// silences with `LoggingSystem.bootstrap` (the `scrollway` command sends them to standard
/// error at the level `SCROLLWAY_LOG` names, `warning` by default). A logger is made at each
/// use, so one bootstrap routes everything said after it, whenever it happens; nothing is kept.
///
/// Levels: `debug` for what is normal (versions bound, optional globals missing, a third
/// buffer), `warning` for what costs the user (a compositor holding every buffer), `error`
/// for what breaks a feature (no UI font).
/// Each layer adds its own logger where it is used (the Wayland platform's is in
/// `ScrollwayWayland`).
public enum Diagnostics {
    /// Fonts, images and canvases.
    public static var raster: Logger { Logger(label: "scrollway.raster") }
}
