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

    /// A band height a data source asked for, as it is laid out: `automaticDimension`, the
    /// height that fits `title` (asked only then); else negative or not finite, 0.
    func resolve(
        _ requested: Double, footer: Bool, title: () -> String, in host: View, makeHeader: () -> ListSectionHeader,
        makeFooter: () -> ListSectionFooter
    ) -> Double {
        guard requested == ListView.automaticDimension else { return requested.isFinite ? max(0, requested) : 0 }
        return height(of: title(), footer: footer, in: host, makeHeader: makeHeader, makeFooter: makeFooter)
    }

    /// The height of a band showing `title` across `host` (0 for no title); `makeHeader` and
    /// `makeFooter` are the host's factories.
    private func height(
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

/// What a list and a collection share in showing their section bands.
@MainActor
enum SectionBands {
    /// Section `s`'s band: the one `host` shows in `bands`, else one from `pool` (or `make`),
    /// given its section by `prepare` (its title, the app's configuration) and recorded as
    /// shown. The key paths are read and written a step at a time, never across `make` and
    /// `prepare` (app code that may read the host).
    static func band<Host: AnyObject, Band: ListSectionHeader>(
        _ s: Int, of host: Host, in bands: ReferenceWritableKeyPath<Host, [Int: Band]>,
        pool: ReferenceWritableKeyPath<Host, [Band]>, make: () -> Band, prepare: (Band, Int) -> Void
    ) -> Band {
        if let shown = host[keyPath: bands][s] { return shown }
        let band = host[keyPath: pool].popLast() ?? make()
        prepare(band, s)
        host[keyPath: bands][s] = band
        return band
    }
}
