import ScrollwayGeometry
import ScrollwayViews

/// Heights of section bands that fit their titles (`automaticDimension`, a list's and a grid's):
/// a band made by the host's factory, given the title, measured by its `sizeThatFits` at the
/// host's width, inside the host, hidden, at the window's scale, as a row's cell is measured
/// (text is measured in device pixels: a band out of the tree measures at scale 1, a line
/// short at another scale). Heights are kept by title for one width and scale: every update
/// asks every section, and most titles are the ones measured last time.
///
/// A class, not a value in the host: measuring runs app code (the factory, an app band's
/// `sizeThatFits`), which may use the host, while the host's stored state is not being
/// accessed.
@MainActor
final class BandMeasurer {
    private struct Key: Hashable {
        let title: String
        let footer: Bool
    }
    private var width = 0.0
    private var scale = 1.0
    private var measured: [Key: Double] = [:]
    /// Made when first measured with: most lists and grids never do.
    private var headerBand: ListSectionHeader?
    private var footerBand: ListSectionFooter?

    /// The height of a band showing `title` across `host` (0 for no title); `makeHeader` and
    /// `makeFooter` are the host's factories.
    func height(
        of title: String, footer: Bool, in host: View, makeHeader: () -> ListSectionHeader,
        makeFooter: () -> ListSectionFooter
    ) -> Double {
        let scale = host.window?.scale ?? 1
        if width != host.bounds.width || self.scale != scale {
            (width, self.scale) = (host.bounds.width, scale)
            measured = [:]
        }
        guard !title.isEmpty else { return 0 }
        let key = Key(title: title, footer: footer)
        if let h = measured[key] { return h }
        let band: ListSectionHeader
        if footer {
            let made = footerBand ?? makeFooter()
            footerBand = made
            band = made
        } else {
            let made = headerBand ?? makeHeader()
            headerBand = made
            band = made
        }
        band.textLabel.text = title
        let outside = band.superview !== host
        if outside {
            band.isHidden = true
            host.insertSubview(band, at: 0)
        }
        let h = band.sizeThatFits(Size(width: host.bounds.width, height: .infinity)).height
        if outside { band.removeFromSuperview() }
        measured[key] = h
        return h
    }
}
