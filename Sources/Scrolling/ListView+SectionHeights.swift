import ScrollwayGeometry
import ScrollwayViews

/// Each section's own header and footer height (UITableView's `heightForHeaderInSection` and
/// `heightForFooterInSection`), read with the sections, and the heights that fit a title
/// (`automaticDimension`): the band's title laid out at the list's width, wrapped, with the
/// band's padding above and below (`ListSectionHeader.sizeThatFits`).
extension ListView {
    /// A header or footer height that fits the section's title (UITableView's
    /// `automaticDimension`): the text wrapped at the list's width, with the band's padding;
    /// none for an empty title. Measured at the window's scale, and again when the width or
    /// the scale changes.
    public static let automaticDimension = -1.0

    /// Each section's header and footer height from the data source, in header order.
    func sectionHeights() -> (headers: [Double], footers: [Double]) {
        guard let dataSource else { return ([], []) }
        let scale = window?.scale ?? 1
        if bandHeights.width != bounds.width || bandHeights.scale != scale {
            bandHeights.reset(width: bounds.width, scale: scale)
        }
        func valid(_ h: Double, footer: Bool, _ section: Int) -> Double {
            if h == Self.automaticDimension {
                let title =
                    footer
                    ? dataSource.list(self, titleForFooterInSection: section)
                    : dataSource.list(self, titleForSection: section)
                return fittingHeight(title, footer: footer)
            }
            return h.isFinite ? max(0, h) : 0
        }
        return (
            headerOrder.map { valid(dataSource.list(self, heightForHeaderInSection: $0), footer: false, $0) },
            headerOrder.map { valid(dataSource.list(self, heightForFooterInSection: $0), footer: true, $0) }
        )
    }

    /// The height of a band showing `title` at the list's width (0 for no title), from the
    /// cache while the width stays.
    private func fittingHeight(_ title: String, footer: Bool) -> Double {
        guard !title.isEmpty else { return 0 }
        let key = BandHeights.Key(title: title, footer: footer)
        if let h = bandHeights.measured[key] { return h }
        // Made outside any access to `bandHeights`: the factory is the app's code.
        let band: ListSectionHeader
        if footer {
            let made = bandHeights.footerBand ?? sectionFooterFactory()
            bandHeights.footerBand = made
            band = made
        } else {
            let made = bandHeights.headerBand ?? sectionHeaderFactory()
            bandHeights.headerBand = made
            band = made
        }
        band.textLabel.text = title
        // Measured in the window, at its scale, as a row's cell is (`measure`): text is measured
        // in device pixels, and a band out of the tree measures at 1, a line short at 1.25.
        let outside = band.superview !== self
        if outside {
            band.isHidden = true
            insertSubview(band, at: 0)
        }
        let h = band.sizeThatFits(Size(width: bounds.width, height: .infinity)).height
        if outside { band.removeFromSuperview() }
        bandHeights.measured[key] = h
        return h
    }
}

/// The heights of titles measured for `automaticDimension` at one width and scale (an update asks every
/// section's height, and most titles are the same as last time), and the bands that measure
/// them, made by the list's factories (a band of the app's own measures as it is drawn).
@MainActor
struct BandHeights {
    struct Key: Hashable {
        let title: String
        let footer: Bool
    }
    private(set) var width = 0.0
    private(set) var scale = 1.0
    var measured: [Key: Double] = [:]
    /// Made when first measured with: most lists never do.
    var headerBand: ListSectionHeader?
    var footerBand: ListSectionFooter?

    /// Nothing measured at a new width or scale.
    mutating func reset(width: Double, scale: Double) {
        self.width = width
        self.scale = scale
        measured = [:]
    }
}
