import Testing

@testable import ScrollwayRaster

/// `isLiterally`: the same bytes, not canonical equivalence.
@Suite struct LiteralTextTests {
    @Test func theSameBytesAndNothingElse() {
        let long = String(repeating: "Row 12, a longer text than a small string holds ", count: 4)
        let pairs: [(String, String, Bool)] = [
            ("", "", true),
            ("Row 1", "Row 1", true),
            ("Row 1", "Row 2", false),
            ("Row 1", "Row 10", false),
            ("", "a", false),
            (long, long, true),
            // Equal lengths, one byte apart at the end.
            (long + "a", long + "b", false),
            // Canonically equivalent, equal Strings, other bytes.
            ("caf\u{E9}", "cafe\u{301}", false),
            ("\u{5E9}\u{5DC}\u{5D5}\u{5DD}", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}", true),
            // A String built up piece by piece against a literal.
            (["Ro", "w ", "1"].joined(), "Row 1", true),
        ]
        for (a, b, same) in pairs {
            #expect(a.isLiterally(b) == same, "\(a.debugDescription) against \(b.debugDescription)")
            #expect(b.isLiterally(a) == same)
        }
        #expect("caf\u{E9}" == "cafe\u{301}")
    }
}
