/// Hands out its elements least first, taking only as many as are asked for: a binary min-heap,
/// built in place in linear time, each element taken in logarithmic time. What a cache's
/// eviction needs, where a few of a hundred or more candidates go at a time and sorting them
/// all would cost the whole sort (`TiledView.evict`).
struct LeastFirst<Element: Comparable> {
    private var heap: [Element]

    /// A heap of `elements`, in linear time.
    init(_ elements: [Element]) {
        heap = elements
        var i = heap.count / 2
        while i > 0 {
            i -= 1
            siftDown(i)
        }
    }

    /// Elements not yet taken.
    var count: Int { heap.count }

    /// Takes the least element left (of equal ones, any); nil when none is left.
    mutating func popLeast() -> Element? {
        guard let last = heap.popLast() else { return nil }
        guard !heap.isEmpty else { return last }
        let least = heap[0]
        heap[0] = last
        siftDown(0)
        return least
    }

    /// Moves the element at `i` down until neither child is less than it.
    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let left = 2 * i + 1
            guard left < heap.count else { return }
            var least = left
            let right = left + 1
            if right < heap.count && heap[right] < heap[left] { least = right }
            guard heap[least] < heap[i] else { return }
            heap.swapAt(i, least)
            i = least
        }
    }
}
