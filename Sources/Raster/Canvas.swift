import Glibc
import ScrollwayCPixman
import ScrollwayCStreaming
import ScrollwayGeometry

/// A premultiplied ARGB8888 pixman image that views draw into and composite onto.
///
/// Every drawing call takes *logical* coordinates and multiplies them by `scale` (device pixels
/// per logical pixel), so `draw(in:)` code is the same at scale 1, 2 or 1.5. Pixel access
/// (`pixel(x:y:)`) is in device pixels.
///
/// A canvas either owns its memory (pixman allocates and zero-fills it) or wraps external
/// memory such as an shm mapping; then `owner` keeps that memory alive as long as the canvas.
public final class Canvas {
    /// The pixman image (`pixman_image_t *`). Valid for the canvas's lifetime.
    public let image: OpaquePointer
    /// Size in device pixels.
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// Device pixels per logical pixel.
    public let scale: Double
    private let owner: AnyObject?
    /// Whether SRC fills (opaque backgrounds, a `.copy` clear) of rows at least
    /// `streamingFillWidth` pixels wide are written with streaming stores (`sw_fill_streaming`)
    /// instead of pixman's fill: the same pixels, written around the caches. For a window's
    /// buffer, which the compositor reads next, not this process: it saves reading each line in
    /// before writing it. It pays for large frames and costs for small ones, which stay in the
    /// caches anyway, so the platform turns it on for large frames only (the measurements are in
    /// docs/decisions.md). Off for the images views draw into, which composition reads back
    /// soon.
    public var streamsFills = false
    /// The clip `setClip` last set, as pixman got it (nil: none), so a streaming fill keeps to it.
    private(set) var clipBoxes: [pixman_box32_t]?
    /// What this canvas's rows are known to hold (`trackFills`): its row 0 is the tracker's
    /// row `knownFillsRow`. nil for canvases that do not track (every one but a window's
    /// buffers).
    public private(set) var knownFills: KnownFills?
    public private(set) var knownFillsRow = 0

    /// A new, fully transparent canvas of `size` logical pixels at `scale`.
    public convenience init(size: Size, scale: Double = 1) throws {
        try self.init(
            width: Int(clamping: size.width * scale, rounding: .up),
            height: Int(clamping: size.height * scale, rounding: .up),
            scale: scale)
    }

    /// A new, fully transparent canvas of `width`×`height` device pixels.
    public init(width: Int, height: Int, scale: Double = 1) throws {
        precondition(scale > 0 && scale.isFinite, "canvas scale must be positive and finite")
        // pixman limits images to what fits in 32-bit strides; refuse rather than crash.
        guard width >= 0, height >= 0, width <= 32767, height <= 32767,
            let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), nil, 0)
        else { throw RasterError.allocationFailed(width: width, height: height) }
        self.image = image
        self.width = width
        self.height = height
        self.stride = Int(pixman_image_get_stride(image))
        self.scale = scale
        self.owner = nil
    }

    /// Wraps external ARGB8888 memory (for example a wl_shm buffer's mapping). `owner` is
    /// retained for the canvas's lifetime so the memory cannot be unmapped under it.
    public init(
        wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, scale: Double = 1,
        owner: AnyObject? = nil
    ) throws {
        precondition(stride >= width * 4 && stride % 4 == 0, "stride must hold a row of 32-bit pixels")
        guard
            let image = pixman_image_create_bits(
                PIXMAN_a8r8g8b8, Int32(width), Int32(height), memory.assumingMemoryBound(to: UInt32.self),
                Int32(stride))
        else { throw RasterError.allocationFailed(width: width, height: height) }
        self.image = image
        self.width = width
        self.height = height
        self.stride = stride
        self.scale = scale
        self.owner = owner
    }

    deinit { pixman_image_unref(image) }

    /// Size in logical pixels.
    public var size: Size { Size(width: Double(width) / scale, height: Double(height) / scale) }

    /// Bytes in the pixel buffer (what a memory cap counts).
    public var byteCount: Int { stride * height }

    /// The premultiplied ARGB8888 pixel at device coordinates (0 outside the canvas).
    public func pixel(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return pixman_image_get_data(image)![y * (stride / 4) + x]
    }

    /// The colour at device coordinates, un-premultiplied.
    public func color(x: Int, y: Int) -> Color { Color(premultipliedARGB: pixel(x: x, y: y)) }

    /// The first pixel, in rows from the top, where this canvas and `other` differ, or nil when
    /// every pixel is the same (canvases of different sizes differ at (0, 0)). Every pixel is
    /// compared, not samples: a window can be dark where samples would fall (a kiosk's black
    /// margins around its photos) and show itself anywhere else. The padding past each row's
    /// last pixel is not compared.
    public func firstPixel(differingFrom other: Canvas) -> (x: Int, y: Int)? {
        guard width == other.width, height == other.height else { return (0, 0) }
        guard let p = pixman_image_get_data(image), let q = pixman_image_get_data(other.image) else {
            return width > 0 && height > 0 ? (0, 0) : nil
        }
        let rowBytes = width * 4
        for y in 0..<height {
            let a = UnsafeRawPointer(p) + y * stride
            let b = UnsafeRawPointer(q) + y * other.stride
            guard memcmp(a, b, rowBytes) != 0 else { continue }
            let aRow = a.assumingMemoryBound(to: UInt32.self)
            let bRow = b.assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where aRow[x] != bRow[x] { return (x, y) }
        }
        return nil
    }

    /// Raw access to the pixel rows (premultiplied ARGB8888, `stride` bytes apart). On a canvas
    /// that tracks its fills, every row counts as unknown afterwards (the body may write any).
    public func withPixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        forgetKnownFills()
        return try body(UnsafeMutableBufferPointer(start: pixman_image_get_data(image), count: stride / 4 * height))
    }

    // MARK: Known fills

    /// Tracks what this canvas's rows hold in `tracker` (as wide as the canvas), whose row
    /// `row` is this canvas's row 0, from now on: opaque fills (`fill`) write only what the
    /// tracker does not know to hold their colour already, and every other drawing call marks
    /// what it touches as unknown there. For memory that outlives a canvas (a window buffer's
    /// ring, a new canvas wherever the frame moves in it).
    public func trackFills(_ tracker: KnownFills, fromRow row: Int) {
        precondition(tracker.width == width && row >= 0 && row + height <= tracker.rows, "tracked rows out of range")
        knownFills = tracker
        knownFillsRow = row
    }

    /// `box` (device pixels, this canvas's) was drawn over by something other than a tracked
    /// fill.
    func noteDrawn(_ box: PixelRect) {
        guard let known = knownFills, let b = box.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        else { return }
        known.differs((b.y0 + knownFillsRow)..<(b.y1 + knownFillsRow), x0: b.x0, x1: b.x1)
    }

    /// Every row of this canvas counts as unknown in its tracker (drawn by a call that does not
    /// say where).
    func forgetKnownFills() {
        knownFills?.forget(knownFillsRow..<(knownFillsRow + height))
    }

    // MARK: Clipping

    /// Restricts every following drawing call to the union of `rects` (logical coordinates,
    /// widened to whole device pixels). nil removes the clip.
    public func setClip(_ rects: [Rect]?) {
        guard let rects else {
            pixman_image_set_clip_region32(image, nil)
            clipBoxes = nil
            return
        }
        setClip(boxes: rects.compactMap { deviceBox($0) })
    }

    /// Runs `body` with the clip set to `rects`, then removes the clip.
    public func withClip<R>(_ rects: [Rect], _ body: () throws -> R) rethrows -> R {
        setClip(rects)
        defer { setClip(nil) }
        return try body()
    }

    /// Runs `body` with the clip set to the union of `pixels` (device pixels, disjoint or
    /// not), then removes the clip.
    public func withClip<R>(pixels: [PixelRect], _ body: () throws -> R) rethrows -> R {
        setClip(boxes: pixels.compactMap { pixelBox($0) })
        defer { setClip(nil) }
        return try body()
    }

    private func setClip(boxes: [pixman_box32_t]) {
        clipBoxes = boxes
        var boxes = boxes
        var region = pixman_region32_t()
        pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
        pixman_image_set_clip_region32(image, &region)
        pixman_region32_fini(&region)
    }

    /// `r` (device pixels) clamped to the canvas; nil if nothing is left.
    func pixelBox(_ r: PixelRect) -> pixman_box32_t? {
        guard let c = r.intersection(PixelRect(x: 0, y: 0, width: width, height: height)) else { return nil }
        return pixman_box32_t(x1: Int32(c.x0), y1: Int32(c.y0), x2: Int32(c.x1), y2: Int32(c.y1))
    }

    /// The device-pixel box covering a logical rect, clamped to the canvas; nil if empty.
    func deviceBox(_ r: Rect) -> pixman_box32_t? {
        guard r.isFinite, !r.isEmpty else { return nil }
        let d = r.scaled(by: scale).aligned(toScale: 1)
        let x1 = max(0, min(width, Int(clamping: d.minX)))
        let y1 = max(0, min(height, Int(clamping: d.minY)))
        let x2 = max(0, min(width, Int(clamping: d.maxX)))
        let y2 = max(0, min(height, Int(clamping: d.maxY)))
        guard x2 > x1, y2 > y1 else { return nil }
        return pixman_box32_t(x1: Int32(x1), y1: Int32(y1), x2: Int32(x2), y2: Int32(y2))
    }
}

/// How a drawing call combines with what is already there.
public enum BlendMode: Sendable {
    /// Source over destination (alpha blending).
    case over
    /// Replace the destination, alpha included.
    case copy

    var pixmanOp: pixman_op_t { self == .over ? PIXMAN_OP_OVER : PIXMAN_OP_SRC }
}

/// A pixman solid-fill image for `color`, released by the caller.
func solidFill(_ color: Color) -> OpaquePointer {
    let c = color.premultiplied16
    var pc = pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
    return pixman_image_create_solid_fill(&pc)!
}

extension Canvas {
    /// Bytes per pixel that the canvas's operations move through memory when their
    /// destination is not in the caches (a window's buffer at desktop sizes): the weights of
    /// a choice between two ways to the same pixels (a recentred buffer copied, or composited
    /// again: `Window.repaintWork`). An opaque fill's depends on the canvas
    /// (`opaqueFillBytes`).
    public enum Traffic {
        /// Written around the caches without being read: a streamed opaque fill
        /// (`streamsFills`).
        public static let streamedFill = 4
        /// Read once and written around the caches: `copyPixels`'s streamed rows; also an
        /// opaque fill through pixman, which reads each line in before writing it.
        public static let copy = 8
        /// Source read, destination read (for ownership, or to blend) and written: an image
        /// drawn by pixman, copied or blended, or a translucent colour.
        public static let composite = 12
    }
}

extension PixelRect {
    /// A pixman box's pixels.
    init(_ box: pixman_box32_t) {
        self.init(x0: Int(box.x1), y0: Int(box.y1), x1: Int(box.x2), y1: Int(box.y2))
    }
}
