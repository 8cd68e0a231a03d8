import ScrollwayGeometry
import Testing

@testable import ScrollwayGeometry

/// `PixelRegion` against the plainest model there is, a set of pixels: random rects (some
/// empty, some inside others, some partly off the grid) added, subtracted and intersected
/// give exactly the model's pixels, as disjoint non-empty rects.
@Suite struct PixelRegionTests {
    struct Pixel: Hashable {
        var x: Int
        var y: Int
    }

    /// A fixed-seed generator (xorshift), so a failure names its seed and repeats.
    struct Rng {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return range.lowerBound + Int(state % UInt64(range.count))
        }
        mutating func rect() -> PixelRect {
            let x0 = next(-2...24)
            let y0 = next(-2...24)
            return PixelRect(x0: x0, y0: y0, x1: x0 + next(0...12), y1: y0 + next(0...12))
        }
    }

    static func pixels(_ r: PixelRect) -> Set<Pixel> {
        guard !r.isEmpty else { return [] }
        var out = Set<Pixel>()
        for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { out.insert(Pixel(x: x, y: y)) } }
        return out
    }

    /// The region's pixels, after checking its rects are non-empty and disjoint.
    static func pixels(_ region: PixelRegion) -> Set<Pixel> {
        var out = Set<Pixel>()
        for r in region.rects {
            #expect(!r.isEmpty, "an empty rect in \(region)")
            let p = pixels(r)
            #expect(out.isDisjoint(with: p), "overlapping rects in \(region)")
            out.formUnion(p)
        }
        return out
    }

    /// A region of `rects` random rects added one by one, and the pixels they cover.
    static func randomRegion(rects: Int, _ rng: inout Rng) -> (PixelRegion, Set<Pixel>) {
        var region = PixelRegion()
        var model = Set<Pixel>()
        for _ in 0..<rects {
            let r = rng.rect()
            region.add(r)
            model.formUnion(pixels(r))
        }
        return (region, model)
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func operationsMatchAPixelSet(seed: UInt64) {
        var rng = Rng(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        for _ in 0..<200 {
            let (region, model) = Self.randomRegion(rects: rng.next(0...6), &rng)
            #expect(Self.pixels(region) == model, "add gave \(region)")
            let r = rng.rect()
            let rp = Self.pixels(r)
            #expect(Self.pixels(region.subtracting(r)) == model.subtracting(rp), "\(region) − \(r)")
            #expect(Self.pixels(region.intersection(r)) == model.intersection(rp), "\(region) ∩ \(r)")
            #expect(region.intersects(r) == !model.isDisjoint(with: rp), "\(region) meets \(r)")
            let (other, otherModel) = Self.randomRegion(rects: rng.next(0...4), &rng)
            #expect(
                Self.pixels(region.subtracting(other)) == model.subtracting(otherModel), "\(region) − \(other)")
            var both = region
            both.add(other)
            #expect(Self.pixels(both) == model.union(otherModel), "\(region) ∪ \(other)")
            #expect(region.area == model.count)
        }
    }
}
