import ScrollwayCWaylandClient
import ScrollwayGeometry
import ScrollwayRaster
import ScrollwayWaylandCore

/// A shared-memory wl_buffer a compositor copies its output into, and the canvas made of what it
/// copied: written once for every rig's capture (weston's module, wlroots' screencopy).
package final class CaptureBuffer {
    package let buffer: OpaquePointer
    private let memory: SharedMemory
    private let width: Int
    private let height: Int
    private let stride: Int
    private let format: UInt32

    /// A `width`×`height` buffer of 32-bit `format` pixels, `stride` bytes a row, on `shm`.
    package init(shm: OpaquePointer?, width: Int, height: Int, stride: Int, format: UInt32) throws {
        do {
            memory = try SharedMemory(name: "scrollway-capture", size: stride * height)
            let pool = try memory.makePool(shm: shm)
            buffer = wl_shm_pool_create_buffer(pool, 0, Int32(width), Int32(height), Int32(stride), format)
            wl_shm_pool_destroy(pool)
        } catch {
            throw RigError.system("capture buffer: \(error.description)")
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.format = format
    }

    deinit { wl_buffer_destroy(buffer) }

    /// What the compositor copied, as a canvas at `scale` (the output's): rows flipped when the
    /// copy is upside down (`yInverted`), alpha made opaque for an XRGB copy.
    package func canvas(scale: Double, yInverted: Bool = false) throws -> Canvas {
        let canvas = try Canvas(width: width, height: height, scale: scale)
        let opaque = format == WL_SHM_FORMAT_XRGB8888.rawValue
        let rowWords = stride / 4
        let (w, h) = (width, height)
        canvas.withPixels { px in
            let src = memory.mapping.assumingMemoryBound(to: UInt32.self)
            for y in 0..<h {
                let sy = yInverted ? h - 1 - y : y
                for x in 0..<w {
                    let p = src[sy * rowWords + x]
                    px[y * (canvas.stride / 4) + x] = opaque ? p | 0xFF00_0000 : p
                }
            }
        }
        return canvas
    }
}
