/// One player as a device left it: what was loaded (with what the page needs to show and
/// play it), where, and whether it was playing. Stored as JSON per account and player.
struct PlayerSnapshot: Codable, Sendable, Equatable {
    struct Item: Codable, Sendable, Equatable {
        var kind: String
        var id: String
        var title: String
        var subtitle: String?
        var artworkURL: String?
        var audioURL: String
        var chapter: Int?
        /// An episode's show.
        var showID: String?
    }

    var item: Item?
    var position: Double
    var playing: Bool
}
