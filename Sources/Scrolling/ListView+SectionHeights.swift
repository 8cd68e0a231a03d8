import ScrollwayGeometry
import ScrollwayViews

/// Each section's own header and footer height (UITableView's `heightForHeaderInSection` and
/// `heightForFooterInSection`), read with the sections, and the heights that fit a title
/// (`automaticDimension`): the band's title laid out at the list's width, wrapped, with the
/// band's padding above and below (`ListSectionHeader.sizeThatFits`, `BandMeasurer`).
extension ListView {
    /// A header or footer height that fits the section's title (UITableView's
    /// `automaticDimension`): the text wrapped at the list's width, with the band's padding;
    /// none for an empty title. Measured at the window's scale, and again when the width or
    /// the scale changes.
    public static let automaticDimension = -1.0

    /// Each section's header and footer height from the data source, in header order.
    func sectionHeights() -> (headers: [Double], footers: [Double]) {
        guard let dataSource else { return ([], []) }
        func valid(_ h: Double, footer: Bool, _ section: Int) -> Double {
            bandMeasurer.resolve(
                h, footer: footer,
                title: {
                    footer
                        ? dataSource.list(self, titleForFooterInSection: section)
                        : dataSource.list(self, titleForSection: section)
                }, in: self, makeHeader: sectionHeaderFactory, makeFooter: sectionFooterFactory)
        }
        return (
            headerOrder.map { valid(dataSource.list(self, heightForHeaderInSection: $0), footer: false, $0) },
            headerOrder.map { valid(dataSource.list(self, heightForFooterInSection: $0), footer: true, $0) }
        )
    }
}
