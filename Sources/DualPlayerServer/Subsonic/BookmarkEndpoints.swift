import DualPlayer
import JukePlatform

/// getBookmarks, createBookmark and deleteBookmark: the caller's places in audiobooks and
/// podcast episodes (`Bookmarks`), the same ones Dual Player's page resumes from.
enum BookmarkEndpoints {
    /// A position of more than a year is no place in any book.
    static let maxPosition = 366 * 86_400 * 1000

    static func all(_ bookmarks: Bookmarks) -> [SubsonicEndpoint] {
        [
            SubsonicEndpoint("getBookmarks") { call in
                let user = try call.user
                let list = try await bookmarks.list(for: user.id)
                var answer = SubsonicElement()
                answer.add("bookmark", list: list.map { element($0, username: user.username) })
                return .element("bookmarks", answer)
            },
            SubsonicEndpoint("createBookmark") { call in
                let user = try call.user
                let id = try DualSubsonicID.read(call.parameters)
                guard let millis = try call.parameters.int("position", in: 0...maxPosition) else { throw SubsonicError.missing("position") }
                try await bookmarks.set(id, seconds: Double(millis) / 1000, comment: call.parameters.string("comment"), for: user.id)
                return .empty
            },
            SubsonicEndpoint("deleteBookmark") { call in
                try await bookmarks.delete(try DualSubsonicID.read(call.parameters), for: try call.user.id)
                return .empty
            },
        ]
    }

    static func element(_ bookmark: Bookmarks.Bookmark, username: String) -> SubsonicElement {
        let millis = Int((bookmark.seconds * 1000).rounded())
        var entry: SubsonicElement
        switch bookmark.target {
        case .book(let book): entry = DualSubsonicItems.book(book)
        case .episode(let episode, let show): entry = DualSubsonicItems.episode(episode, show: show)
        }
        entry.add("bookmarkPosition", millis)
        var e = SubsonicElement()
        e.add("position", millis)
        e.add("username", username)
        e.add("comment", bookmark.comment)
        e.add("created", DualSubsonicItems.date(millis: bookmark.created))
        e.add("changed", DualSubsonicItems.date(millis: bookmark.changed))
        e.add("entry", element: entry)
        return e
    }
}
