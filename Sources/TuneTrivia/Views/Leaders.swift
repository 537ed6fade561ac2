/// The first `count` items by a key, kept in order as items are offered: what a screen that
/// lists the first hundred of ten thousand needs, without sorting the ten thousand. Items
/// with equal keys keep the order they were offered in.
struct Leaders<Key, Item> {
    let count: Int
    let before: (Key, Key) -> Bool
    private(set) var entries: [(key: Key, item: Item)] = []

    init(count: Int, before: @escaping (Key, Key) -> Bool) {
        self.count = count
        self.before = before
        entries.reserveCapacity(count + 1)
    }

    var items: [Item] { entries.map(\.item) }

    mutating func offer(_ key: Key, _ item: Item) {
        guard count > 0 else { return }
        // Most offers lose to the last of a full list: one comparison.
        if entries.count == count, let last = entries.last, !before(key, last.key) { return }
        // The first place whose key comes after this one (binary search).
        var low = 0
        var high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if before(key, entries[mid].key) { high = mid } else { low = mid + 1 }
        }
        entries.insert((key, item), at: low)
        if entries.count > count { entries.removeLast() }
    }
}
