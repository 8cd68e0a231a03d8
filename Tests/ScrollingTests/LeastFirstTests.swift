import ScrollwayTestSupport
import Testing

@testable import ScrollwayScrolling

/// The heap a tiled view's eviction takes its candidates from, against a sort.
@Suite struct LeastFirstTests {
    /// Seeded arrays of every small size and some larger, with repeated values: taken whole,
    /// the elements come out as `sorted()` puts them; taken in part, the first ones are the
    /// sort's first and the rest stay.
    @Test func elementsComeOutLeastFirstAsASortWouldGiveThem() {
        var rng = SeededRandom(state: 7)
        for size in Array(0...40) + [100, 257, 1000] {
            let values = (0..<size).map { _ in Int.random(in: 0..<max(1, size / 3), using: &rng) }
            var whole = LeastFirst(values)
            #expect(whole.count == size)
            var out: [Int] = []
            while let v = whole.popLeast() { out.append(v) }
            #expect(out == values.sorted(), "size \(size)")
            #expect(whole.popLeast() == nil && whole.count == 0)
            let taken = size / 4
            var part = LeastFirst(values)
            let first = (0..<taken).compactMap { _ in part.popLeast() }
            #expect(first == Array(values.sorted().prefix(taken)), "size \(size)")
            #expect(part.count == size - taken)
        }
    }

    /// What eviction orders by: least recently used, ties by another field (here a string).
    @Test func tuplesOrderedByTheirFieldsComeOutInThatOrder() {
        struct Stamp: Comparable {
            let used: Int
            let name: String
            static func < (a: Stamp, b: Stamp) -> Bool { a.used != b.used ? a.used < b.used : a.name < b.name }
        }
        let stamps = [
            Stamp(used: 3, name: "c"), Stamp(used: 1, name: "b"), Stamp(used: 3, name: "a"),
            Stamp(used: 1, name: "a"), Stamp(used: 2, name: "z"),
        ]
        var order = LeastFirst(stamps)
        var names: [String] = []
        while let s = order.popLeast() { names.append("\(s.used)\(s.name)") }
        #expect(names == ["1a", "1b", "2z", "3a", "3c"])
    }
}
