import Glibc

extension String {
    /// Whether this text is `other` byte for byte. `==` is true of canonically equivalent texts
    /// ("é" and "e" + U+0301), which are shaped into different glyphs, so whatever keeps or
    /// reuses a text's layout compares this way (UILabel, too, compares literally). One
    /// `memcmp` of the UTF-8, not a generic walk of the two `utf8` views, which a label set to
    /// its row's text pays every time a recycled cell is configured.
    package func isLiterally(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var a = self
        var b = other
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }  // both empty
                return p == q || memcmp(p, q, x.count) == 0
            }
        }
    }
}
