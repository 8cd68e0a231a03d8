// One import for an app: `import Scrollway` brings the whole public API. The layers stay
// separate modules (the pure core imports no C; only the platform and raster layers touch it),
// and each carries the `Scrollway` prefix so no name collides with another package's modules.
@_exported import ScrollwayGeometry
@_exported import ScrollwayGestures
@_exported import ScrollwayHeadless
@_exported import ScrollwayLayout
@_exported import ScrollwayPhysics
@_exported import ScrollwayRaster
@_exported import ScrollwayReplay
@_exported import ScrollwayScripts
@_exported import ScrollwayScrolling
@_exported import ScrollwayViews
@_exported import ScrollwayWayland

// The monotonic deadline every wait of the platform measures against, for an app's own waits.
@_exported import struct ScrollwayWaylandCore.Deadline
