extension Array where Element == Int {
    /// How many of this ascending array's elements are below `value`: the index `value` would
    /// be inserted at, found by binary search (O(log n)). The renumbering of rows and items
    /// that updates move, and the sections a row range meets, all count this way.
    func countBelow(_ value: Int) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
