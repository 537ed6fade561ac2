/// The library as the track resolver searches it: a catalog index over "artist title" that
/// proposes a few hundred likely tracks, which the resolver then judges one by one. Kept
/// current with `upsert` and `remove` as the library changes, so resolving an AI's pick in a
/// library of a million tracks costs about as much as in a library of a thousand.
public struct TrackCatalog<ID: Hashable & Sendable>: Sendable {
    public typealias Candidate = TrackResolver.Candidate<ID>

    private var index = CatalogIndex<ID>()
    private var tracks: [ID: Candidate] = [:]
    private var byISRC: [String: ID] = [:]
    /// Tracks handed to the resolver per query.
    public var candidateCount = 200

    public init() {}

    public init(_ candidates: [Candidate]) {
        for c in candidates { upsert(c) }
    }

    public var count: Int { tracks.count }

    public mutating func upsert(_ track: Candidate) {
        remove(track.id)
        tracks[track.id] = track
        index.upsert(track.id, text: Self.text(artist: track.artist, title: track.title))
        if let isrc = TrackResolver.isrcKey(track.isrc), byISRC[isrc] == nil { byISRC[isrc] = track.id }
    }

    public mutating func remove(_ id: ID) {
        guard let old = tracks.removeValue(forKey: id) else { return }
        index.remove(id)
        if let isrc = TrackResolver.isrcKey(old.isrc), byISRC[isrc] == id { byISRC[isrc] = nil }
    }

    public func track(_ id: ID) -> Candidate? { tracks[id] }

    /// The best track for the query, or no match with the nearest tracks (see TrackResolver).
    public func resolve(_ query: TrackResolver.Query, resolver: TrackResolver = TrackResolver(), nearest: Int = 3) -> TrackResolver.Result<ID> {
        var ids = index.candidates(Self.text(artist: query.artist, title: query.title), count: candidateCount)
        if let isrc = TrackResolver.isrcKey(query.isrc), let id = byISRC[isrc], !ids.contains(id) { ids.append(id) }
        return resolver.resolve(query, in: ids.compactMap { tracks[$0] }, nearest: nearest)
    }

    static func text(artist: String, title: String) -> String { artist + " " + title }
}
