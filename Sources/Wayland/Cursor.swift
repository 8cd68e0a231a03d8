import Foundation
import ScrollwayCWaylandClient

/// The pointer's cursor over our surfaces: the theme's `left_ptr` (from $XCURSOR_THEME and
/// $XCURSOR_SIZE; libwayland-cursor falls back to its built-in theme), loaded at the output
/// scale so it is crisp on HiDPI.
@MainActor
final class Cursor {
    private let connection: WaylandConnection
    private var theme: OpaquePointer?
    private var themeScale = 0
    private var surface: OpaquePointer?

    init(connection: WaylandConnection) { self.connection = connection }

    isolated deinit {
        if let surface { wl_surface_destroy(surface) }
        if let theme { wl_cursor_theme_destroy(theme) }
    }

    /// Shows the cursor for the pointer that entered with `serial`.
    func set(pointer: OpaquePointer?, serial: UInt32) {
        let scale = connection.bufferScale
        if theme == nil || themeScale != scale {
            if let theme { wl_cursor_theme_destroy(theme) }
            let env = ProcessInfo.processInfo.environment
            // XCURSOR_SIZE is anyone's to set: kept to sizes cursors have (1–512 px).
            let size = min(max(env["XCURSOR_SIZE"].flatMap(Int.init) ?? 24, 1), 512)
            theme = wl_cursor_theme_load(env["XCURSOR_THEME"], Int32(clamping: size * max(scale, 1)), connection.shm)
            themeScale = scale
        }
        guard let theme,
            let cursor = wl_cursor_theme_get_cursor(theme, "left_ptr") ?? wl_cursor_theme_get_cursor(theme, "default"),
            cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image)
        else {
            wl_pointer_set_cursor(pointer, serial, nil, 0, 0)
            return
        }
        if surface == nil { surface = wl_compositor_create_surface(connection.compositor) }
        let s = Int32(clamping: max(scale, 1))
        let hx = Int32(clamping: image.pointee.hotspot_x) / s
        let hy = Int32(clamping: image.pointee.hotspot_y) / s
        wl_pointer_set_cursor(pointer, serial, surface, hx, hy)
        wl_surface_set_buffer_scale(surface, s)
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(
            surface, 0, 0, Int32(clamping: image.pointee.width), Int32(clamping: image.pointee.height))
        wl_surface_commit(surface)
    }
}
