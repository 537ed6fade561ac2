extension StorageKey {
    /// The key of a file Juke once recorded by its absolute path in a data folder
    /// (`/srv/juke/data/dual/books/<id>.mp3` → `dual/books/<id>.mp3`): the path from the
    /// last place one of `roots` ("dual/books", …) starts a segment. Nil when the path holds
    /// none of them, or what follows is no key.
    ///
    /// The last place, not the first: a data folder may itself be named like a root
    /// (`/home/dual/books/juke-data/dual/books/x.mp3`), but the part a server wrote after its
    /// data folder never repeats a root.
    public init?(legacyPath path: String, roots: [String]) {
        var best: String.Index?
        for root in roots {
            guard let found = path.range(of: "/" + root + "/", options: .backwards) else { continue }
            let start = path.index(after: found.lowerBound)
            if best.map({ start > $0 }) ?? true { best = start }
        }
        guard let best else { return nil }
        self.init(String(path[best...]))
    }
}
