import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayWaylandCore

/// The pointer's cursor over our surfaces: the theme's `left_ptr` (`WaylandWindow.cursorTheme`,
/// from $XCURSOR_THEME, $XCURSOR_SIZE and $XCURSOR_PATH by default), at the scale of the outputs
/// it is shown on, so it is crisp on HiDPI and no larger than it needs to be beside it.
///
/// Its scale follows its own surface's wl_surface.enter and leave, as a window's does
/// (`WaylandConnection.bufferScale(entered:all:)`): a pointer moving from a 1× monitor to a 2×
/// one gets the 2× image when its surface enters that output. Until its surface has entered any,
/// the outputs of the window it is over stand in (the pointer is over the window, so on one of
/// them): the largest scale of all outputs had drawn a 1× monitor's cursor from a 2× image,
/// four times the pixels, scaled down by the compositor.
///
/// The image is read from its one file (`CursorTheme`), little enough work to set it as the
/// pointer enters. Where no theme file has it, libwayland-cursor's theme is loaded (its built-in
/// cursors, where it finds no file either): `wl_cursor_theme_load` reads a whole theme, so that
/// path waits for the window to be idle (`set`'s `allowFallback`). An image that cannot be put in
/// shared memory falls back the same way.
@MainActor
final class Cursor {
    private let connection: WaylandConnection
    private var surface: OpaquePointer?
    /// The buffer shown, and what it was made for.
    private var shown: Shown?
    /// A buffer the last `set` replaced: destroyed at the next, once the surface has been
    /// committed with the new one (a buffer destroyed while attached leaves the surface's
    /// contents undefined).
    private var retired: Shown?
    /// Whether the theme's files were looked in for this theme and scale and had no cursor.
    private var notInFiles: (theme: CursorTheme, scale: Int)?
    /// The outputs the cursor's surface is on (its enters less its leaves).
    private var enteredOutputs: [OpaquePointer] = []
    /// Called when the scale the cursor should have changed (its surface entered or left an
    /// output): the pointer shows it again if it is over the window.
    var scaleChanged: (() -> Void)?

    private struct Shown {
        let theme: CursorTheme
        let scale: Int
        let buffer: OpaquePointer
        let hotspot: (x: Int32, y: Int32)
        let size: (width: Int32, height: Int32)
        /// The pixels' memory, when the buffer is ours (nil: libwayland-cursor's theme owns it).
        let memory: SharedMemory?
        /// libwayland-cursor's theme, when the buffer is one of its.
        let fallbackTheme: OpaquePointer?

        func destroy() {
            if memory != nil { wl_buffer_destroy(buffer) }
            if let fallbackTheme { wl_cursor_theme_destroy(fallbackTheme) }
        }
    }

    /// The names looked for, in order.
    static let names = ["left_ptr", "default"]

    init(connection: WaylandConnection) { self.connection = connection }

    isolated deinit {
        retired?.destroy()
        shown?.destroy()
        if let surface { wl_surface_destroy(surface) }
    }

    /// The scale of the outputs the cursor is on, or of the window's while it is on none yet.
    var scale: Int {
        connection.bufferScale(
            entered: enteredOutputs.isEmpty ? connection.window?.enteredOutputs ?? [] : enteredOutputs)
    }

    /// The scale of the image shown, nil before one is.
    var shownScale: Int? { shown?.scale }

    /// wl_surface.enter of the cursor's surface.
    func surfaceEntered(_ output: OpaquePointer?) {
        guard let output, !enteredOutputs.contains(output) else { return }
        outputsChanging { enteredOutputs.append(output) }
    }

    /// wl_surface.leave of the cursor's surface.
    func surfaceLeft(_ output: OpaquePointer?) {
        outputsChanging { enteredOutputs.removeAll { $0 == output } }
    }

    /// An output was forgotten (no leave may come for it), or an output's scale changed.
    func outputsChanged(removing output: OpaquePointer? = nil) {
        outputsChanging { if let output { enteredOutputs.removeAll { $0 == output } } }
    }

    /// Applies `change`, and asks for the cursor again if its scale is no longer the shown one's.
    private func outputsChanging(_ change: () -> Void) {
        change()
        if let shown, shown.scale != scale { scaleChanged?() }
    }

    /// Shows the cursor for the pointer that entered with `serial`; reads the theme's file the
    /// first time (and after a change of theme or scale). `allowFallback`: whether
    /// libwayland-cursor's theme may be loaded now when no file has the cursor (false: nothing
    /// is set, and the caller asks again when the window is idle).
    /// Returns whether the cursor was set.
    @discardableResult
    func set(pointer: OpaquePointer?, serial: UInt32, theme: CursorTheme, allowFallback: Bool) -> Bool {
        let scale = self.scale
        if shown.map({ $0.theme != theme || $0.scale != scale }) ?? true {
            guard let made = make(theme: theme, scale: scale, allowFallback: allowFallback) else {
                // Nothing at all (not even libwayland-cursor's built-in cursors): no cursor.
                if allowFallback { wl_pointer_set_cursor(pointer, serial, nil, 0, 0) }
                return allowFallback
            }
            retired?.destroy()
            retired = shown
            shown = made
        }
        guard let shown else { return false }
        if surface == nil {
            surface = wl_compositor_create_surface(connection.compositor)
            if let surface {
                wl_surface_add_listener(surface, Listeners.cursorSurface, Unmanaged.passUnretained(self).toOpaque())
            }
        }
        wl_pointer_set_cursor(pointer, serial, surface, shown.hotspot.x, shown.hotspot.y)
        wl_surface_set_buffer_scale(surface, Int32(scale))
        wl_surface_attach(surface, shown.buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, shown.size.width, shown.size.height)
        wl_surface_commit(surface)
        return true
    }

    /// The buffer for `theme` at `scale`: from the theme's file, or (when allowed) from
    /// libwayland-cursor's theme; nil when neither can be had now.
    private func make(theme: CursorTheme, scale: Int, allowFallback: Bool) -> Shown? {
        let pixelSize = theme.size * scale
        if notInFiles.map({ $0.theme != theme || $0.scale != scale }) ?? true {
            if let image = theme.image(for: Self.names, pixelSize: pixelSize),
                let made = upload(image, theme: theme, scale: scale)
            {
                notInFiles = nil
                return made
            }
            notInFiles = (theme, scale)
        }
        guard allowFallback else { return nil }
        guard let loaded = wl_cursor_theme_load(theme.name, Int32(clamping: pixelSize), connection.shm) else {
            return nil
        }
        guard
            let cursor = Self.names.lazy.compactMap({ wl_cursor_theme_get_cursor(loaded, $0) }).first,
            cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image)
        else {
            wl_cursor_theme_destroy(loaded)
            return nil
        }
        let s = Int32(scale)
        return Shown(
            theme: theme, scale: scale, buffer: buffer,
            hotspot: (Int32(clamping: image.pointee.hotspot_x) / s, Int32(clamping: image.pointee.hotspot_y) / s),
            size: (Int32(clamping: image.pointee.width), Int32(clamping: image.pointee.height)), memory: nil,
            fallbackTheme: loaded)
    }

    /// `image` in a shared-memory buffer of its own, widened and heightened with transparent
    /// pixels to whole multiples of `scale` (a buffer scale must divide a buffer's size).
    private func upload(_ image: XcursorImage, theme: CursorTheme, scale: Int) -> Shown? {
        let width = (image.width + scale - 1) / scale * scale
        let height = (image.height + scale - 1) / scale * scale
        let stride = width * 4
        guard let memory = try? SharedMemory(name: "scrollway-cursor", size: stride * height),
            let pool = try? memory.makePool(shm: connection.shm)
        else { return nil }
        defer { wl_shm_pool_destroy(pool) }
        // A new file reads as zeros: the padding is transparent as it is.
        image.pixels.withUnsafeBytes { source in
            for row in 0..<image.height {
                (memory.mapping + row * stride).copyMemory(
                    from: source.baseAddress! + row * image.width * 4, byteCount: image.width * 4)
            }
        }
        guard
            let buffer = wl_shm_pool_create_buffer(
                pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_ARGB8888.rawValue)
        else { return nil }
        let s = Int32(scale)
        return Shown(
            theme: theme, scale: scale, buffer: buffer,
            hotspot: (Int32(image.hotspotX) / s, Int32(image.hotspotY) / s),
            size: (Int32(width), Int32(height)), memory: memory, fallbackTheme: nil)
    }
}
