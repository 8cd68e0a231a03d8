import ScrollwayGeometry
import ScrollwayRaster

/// Shows an image (a canvas, e.g. from `ImageFile.decode`: a PNG or a JPEG), scaled per `contentMode`.
open class ImageView: View {
    public enum ContentMode: Sendable {
        /// Stretch to the bounds.
        case scaleToFill
        /// As large as fits, aspect kept, centred.
        case aspectFit
        /// Natural size (image pixels / image scale), centred.
        case center
        /// Natural size at the top-left.
        case topLeft
    }

    public var image: Canvas? {
        didSet {
            setNeedsDisplay()
            if image?.size != oldValue?.size { invalidateIntrinsicContentSize() }
        }
    }
    public var contentMode: ContentMode = .scaleToFill { didSet { setNeedsDisplay() } }

    public init(image: Canvas? = nil, frame: Rect = .zero) {
        self.image = image
        super.init(frame: frame)
    }

    open override var drawsContent: Bool { true }

    /// A picture is an element once it has a label (`accessibilityLabel`): without one a
    /// screen reader has nothing to say of it.
    open override var accessibilityDefaults: AccessibilityDefaults {
        AccessibilityDefaults(role: .image, isElement: accessibilityLabel != nil)
    }

    /// Where the image lands in the bounds (bounds coordinates from the top-left).
    public var imageRect: Rect {
        guard let image else { return .zero }
        let natural = image.size
        let box = Rect(origin: .zero, size: bounds.size)
        switch contentMode {
        case .scaleToFill:
            return box
        case .aspectFit:
            let k = min(box.width / max(natural.width, 1e-9), box.height / max(natural.height, 1e-9))
            let s = natural * k
            return Rect(x: (box.width - s.width) / 2, y: (box.height - s.height) / 2, width: s.width, height: s.height)
        case .center:
            return Rect(
                x: (box.width - natural.width) / 2, y: (box.height - natural.height) / 2, width: natural.width,
                height: natural.height)
        case .topLeft:
            return Rect(origin: .zero, size: natural)
        }
    }

    open override func draw(in canvas: Canvas) {
        guard let image else { return }
        canvas.draw(image, in: imageRect, clip: Rect(origin: .zero, size: bounds.size))
    }

    open override func sizeThatFits(_ size: Size) -> Size { image?.size ?? .zero }

    /// The image's size in points; none without an image.
    open override var intrinsicContentSize: Size {
        image?.size ?? Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    }
}
