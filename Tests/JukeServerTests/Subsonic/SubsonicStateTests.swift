import Foundation
import HTTPTypes
import HummingbirdTesting
import JukeTestSupport
import MediaFormats
import NIOCore
import Testing

@testable import JukePlatform
@testable import JukeServer

/// What each account keeps through Subsonic players, on SQLite and PostgreSQL, against a
/// known library: stars and ratings, plays and what is playing, top and similar songs,
/// playlists and the play queue; each account's out of another's reach; bad input answered
/// with the protocol's errors.
@Suite(.timeLimit(.minutes(5))) struct SubsonicStateTests {
    static let songs: [(title: String, artist: String, genre: String, year: Int)] = [
        ("Ode to Joy", "Ludwig van Beethoven", "Classical", 1824),
        ("Für Elise", "Ludwig van Beethoven", "Classical", 1810),
        ("Canon in D", "Johann Pachelbel", "Classical", 1680),
        ("Greensleeves", "Traditional", "Folk", 1580),
        ("The Entertainer", "Scott Joplin", "Ragtime", 1902),
    ]

    /// A signed-in account's calls.
    struct Player {
        let client: any TestClientProtocol
        let key: String

        func call(_ method: String, _ query: String = "") async throws -> [String: Any] {
            let r = try await client.rest(method, "apiKey=\(key)" + (query.isEmpty ? "" : "&" + query))
            #expect(r.status == "ok", "\(method)?\(query): \(r.body)")
            return r.body
        }

        func code(_ method: String, _ query: String = "") async throws -> Int? {
            try await client.rest(method, "apiKey=\(key)" + (query.isEmpty ? "" : "&" + query)).code
        }

        func list(_ method: String, _ query: String, _ element: String, _ field: String) async throws -> [[String: Any]] {
            ((try await call(method, query))[element] as? [String: Any])?[field] as? [[String: Any]] ?? []
        }
    }

    static func player(_ name: String, _ client: any TestClientProtocol) async throws -> Player {
        let token = try await client.register(name)
        return Player(client: client, key: try await client.apiKey(token: token))
    }

    /// Song ids by title.
    static func songIDs(_ player: Player) async throws -> [String: String] {
        let songs = try await player.list("search3", "query=%22%22&songCount=50", "searchResult3", "song")
        return Dictionary(uniqueKeysWithValues: songs.compactMap { s in (s["title"] as? String).flatMap { t in (s["id"] as? String).map { (t, $0) } } })
    }

    @Test(arguments: TestBackend.available)
    func starsAndRatingsAreEachAccountsOwn(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            let bob = try await Self.player("bob", client)
            _ = try await app.addSongs(Self.songs)
            let ids = try await Self.songIDs(ann)
            let ode = try #require(ids["Ode to Joy"])
            let song = try #require(try await ann.call("getSong", "id=\(ode)")["song"] as? [String: Any])
            let album = try #require(song["albumId"] as? String)
            let artist = try #require(song["artistId"] as? String)
            #expect(song["starred"] == nil && song["userRating"] == nil)

            _ = try await ann.call("star", "id=\(ode)&albumId=\(album)&artistId=\(artist)")
            _ = try await ann.call("setRating", "id=\(ode)&rating=4")
            _ = try await ann.call("setRating", "id=\(album)&rating=5")
            let starred = try #require(try await ann.call("getStarred2")["starred2"] as? [String: Any])
            #expect((starred["song"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Ode to Joy"])
            #expect((starred["album"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ludwig van Beethoven Hits"])
            #expect((starred["artist"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ludwig van Beethoven"])
            #expect((starred["song"] as? [[String: Any]])?.first?["starred"] is String)
            #expect((starred["song"] as? [[String: Any]])?.first?["userRating"] as? Int == 4)
            let folderStyle = try #require(try await ann.call("getStarred")["starred"] as? [String: Any])
            #expect((folderStyle["album"] as? [[String: Any]])?.first?["isDir"] as? Bool == true)
            #expect((folderStyle["artist"] as? [[String: Any]])?.first?["name"] as? String == "Ludwig van Beethoven")
            // Every answer carries the caller's stars and ratings.
            let again = try #require(try await ann.call("getAlbum", "id=\(album)")["album"] as? [String: Any])
            #expect(again["starred"] is String && again["userRating"] as? Int == 5)
            #expect((again["song"] as? [[String: Any]])?.first { $0["id"] as? String == ode }?["userRating"] as? Int == 4)
            let lists = try await ann.list("getAlbumList2", "type=starred", "albumList2", "album")
            #expect(lists.map { $0["name"] as? String } == ["Ludwig van Beethoven Hits"])
            #expect(try await ann.list("getAlbumList2", "type=highest", "albumList2", "album").map { $0["name"] as? String } == ["Ludwig van Beethoven Hits"])
            #expect(try await ann.list("getAlbumList", "type=starred", "albumList", "album").count == 1)

            // Bob sees none of it, and his stars are his.
            let bobs = try #require(try await bob.call("getStarred2")["starred2"] as? [String: Any])
            #expect((bobs["song"] as? [Any])?.isEmpty == true && (bobs["album"] as? [Any])?.isEmpty == true)
            #expect((try await bob.call("getSong", "id=\(ode)")["song"] as? [String: Any])?["starred"] == nil)
            #expect(try await bob.list("getAlbumList2", "type=starred", "albumList2", "album").isEmpty)
            #expect(try await bob.list("getAlbumList2", "type=highest", "albumList2", "album").isEmpty)

            // Unstar and a rating of 0 take them away.
            _ = try await ann.call("unstar", "id=\(ode)")
            _ = try await ann.call("setRating", "id=\(album)&rating=0")
            let after = try #require(try await ann.call("getStarred2")["starred2"] as? [String: Any])
            #expect((after["song"] as? [Any])?.isEmpty == true && (after["album"] as? [Any])?.count == 1)
            #expect(try await ann.list("getAlbumList2", "type=highest", "albumList2", "album").isEmpty)
            #expect((try await ann.call("getSong", "id=\(ode)")["song"] as? [String: Any])?["userRating"] as? Int == 4)

            // Bad input.
            #expect(try await ann.code("star") == 10)
            #expect(try await ann.code("star", "id=tr-\(UUID())") == 70)
            #expect(try await ann.code("star", "albumId=\(artist)") == 70)
            #expect(try await ann.code("star", "id=banana") == 70)
            #expect(try await ann.code("unstar") == 10)
            #expect(try await ann.code("setRating", "id=\(ode)") == 10)
            #expect(try await ann.code("setRating", "rating=3") == 10)
            #expect(try await ann.code("setRating", "id=\(ode)&rating=6") == 0)
            #expect(try await ann.code("setRating", "id=\(ode)&rating=x") == 0)
            #expect(try await ann.code("setRating", "id=al-\(UUID())&rating=3") == 70)
            #expect(try await ann.code("getAlbumList2", "type=starred&size=100000") == 0)
        }
    }

    @Test(arguments: TestBackend.available)
    func playsNowPlayingAndNeighbours(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            let bob = try await Self.player("bob", client)
            _ = try await app.addSongs(Self.songs)
            let ids = try await Self.songIDs(ann)
            let ode = try #require(ids["Ode to Joy"])
            let elise = try #require(ids["Für Elise"])
            let canon = try #require(ids["Canon in D"])

            // Now playing: per account and player, with who and where.
            _ = try await ann.call("scrobble", "id=\(ode)&submission=false")
            let playing = try await bob.list("getNowPlaying", "", "nowPlaying", "entry")
            #expect(playing.count == 1 && playing.first?["username"] as? String == "ann" && playing.first?["title"] as? String == "Ode to Joy")
            #expect(playing.first?["playerName"] as? String == "tests" && playing.first?["minutesAgo"] as? Int == 0 && playing.first?["playerId"] is Int)
            #expect(try await ann.list("getAlbumList2", "type=frequent", "albumList2", "album").isEmpty, "now playing is not a play")

            // Submissions are plays: the frequent and recent lists and the song's count.
            let now = Int(Date().timeIntervalSince1970 * 1000)
            _ = try await ann.call("scrobble", "id=\(elise)&id=\(elise)&time=\(now - 60000)&time=\(now)")
            _ = try await bob.call("scrobble", "id=\(ode)")
            let frequent = try await ann.list("getAlbumList2", "type=frequent", "albumList2", "album")
            #expect(frequent.map { $0["name"] as? String } == ["Ludwig van Beethoven Hits"] && frequent.first?["playCount"] as? Int == 3)
            #expect(try await ann.list("getAlbumList2", "type=recent", "albumList2", "album").count == 1)

            // Top songs: the artist's most played first, by name or id.
            let top = try await ann.list("getTopSongs", "artist=Ludwig%20van%20Beethoven", "topSongs", "song")
            #expect(top.map { $0["title"] as? String } == ["Für Elise", "Ode to Joy"])
            let artistID = try #require(top.first?["artistId"] as? String)
            #expect(try await ann.list("getTopSongs", "id=\(artistID)&count=1", "topSongs", "song").map { $0["title"] as? String } == ["Für Elise"])
            #expect(try await ann.list("getTopSongs", "artist=Nobody%20Known", "topSongs", "song").isEmpty)

            // Similar songs: the same artist's, then the same genre's (Pachelbel), never the seed.
            let similar = try await ann.list("getSimilarSongs", "id=\(ode)&count=2", "similarSongs", "song")
            #expect(similar.map { $0["title"] as? String } == ["Für Elise", "Canon in D"])
            let similar2 = try await ann.list("getSimilarSongs2", "id=\(artistID)&count=10", "similarSongs2", "song")
            // An artist's: its own songs, its genre's, its years' (1819-1829): nothing of Folk or Ragtime.
            #expect(Set(similar2.compactMap { $0["title"] as? String }) == ["Ode to Joy", "Für Elise", "Canon in D"] && similar2.count == 3)

            // Artist info: similar artists share genres; album info is known albums only.
            let info = try #require(try await ann.call("getArtistInfo2", "id=\(artistID)")["artistInfo2"] as? [String: Any])
            #expect((info["similarArtist"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Johann Pachelbel"])
            let info1 = try #require(try await ann.call("getArtistInfo", "id=\(canon)")["artistInfo"] as? [String: Any])
            #expect((info1["similarArtist"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ludwig van Beethoven"])
            let albumID = try #require(top.first?["albumId"] as? String)
            #expect(try await ann.call("getAlbumInfo", "id=\(albumID)")["albumInfo"] != nil)
            #expect(try await ann.call("getAlbumInfo2", "id=\(ode)")["albumInfo"] != nil)

            // Bad input.
            #expect(try await ann.code("scrobble") == 10)
            #expect(try await ann.code("scrobble", "id=tr-\(UUID())") == 70)
            #expect(try await ann.code("scrobble", "id=\(albumID)") == 70)
            #expect(try await ann.code("scrobble", "id=\(ode)&time=-5") == 0)
            #expect(try await ann.code("scrobble", "id=\(ode)&time=99999999999999") == 0)
            #expect(try await ann.code("getTopSongs") == 10)
            #expect(try await ann.code("getTopSongs", "artist=x&count=100000") == 0)
            #expect(try await ann.code("getTopSongs", "id=al-\(UUID())") == 70)
            #expect(try await ann.code("getSimilarSongs2") == 10)
            #expect(try await ann.code("getSimilarSongs2", "id=ar-\(UUID())") == 70)
            #expect(try await ann.code("getSimilarSongs", "id=\(ode)&count=-1") == 0)
            #expect(try await ann.code("getArtistInfo2", "id=ar-\(UUID())") == 70)
            #expect(try await ann.code("getArtistInfo2", "id=\(artistID)&count=99999") == 0)
            #expect(try await ann.code("getAlbumInfo2", "id=\(artistID)") == 70)
            #expect(try await ann.code("getAlbumInfo") == 10)
        }
    }

    @Test(arguments: TestBackend.available)
    func playlistsAreTheirOwnersToChange(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            let bob = try await Self.player("bob", client)
            _ = try await app.addSongs(Self.songs)
            let ids = try await Self.songIDs(ann)
            let ode = try #require(ids["Ode to Joy"])
            let canon = try #require(ids["Canon in D"])
            let green = try #require(ids["Greensleeves"])

            let made = try #require(
                try await ann.call("createPlaylist", "name=Morning&songId=\(ode)&songId=\(canon)&songId=\(ode)")["playlist"] as? [String: Any])
            let id = try #require(made["id"] as? String)
            #expect(id.hasPrefix("pl-") && made["name"] as? String == "Morning" && made["owner"] as? String == "ann")
            #expect(made["songCount"] as? Int == 3 && made["public"] as? Bool == false && made["readonly"] as? Bool == false)
            #expect((made["entry"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Ode to Joy", "Canon in D", "Ode to Joy"])
            #expect(made["created"] is String && made["changed"] is String && made["duration"] is Int)

            // Rename, comment, remove the first song, add one.
            _ = try await ann.call("updatePlaylist", "playlistId=\(id)&name=Dawn&comment=Quiet&songIndexToRemove=0&songIdToAdd=\(green)")
            let got = try #require(try await ann.call("getPlaylist", "id=\(id)")["playlist"] as? [String: Any])
            #expect(got["name"] as? String == "Dawn" && got["comment"] as? String == "Quiet")
            #expect((got["entry"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Canon in D", "Ode to Joy", "Greensleeves"])
            // createPlaylist with an id replaces the songs.
            let replaced = try #require(try await ann.call("createPlaylist", "playlistId=\(id)&songId=\(green)")["playlist"] as? [String: Any])
            #expect(replaced["songCount"] as? Int == 1 && replaced["name"] as? String == "Dawn")
            #expect(try await ann.list("getPlaylists", "", "playlists", "playlist").map { $0["name"] as? String } == ["Dawn"])

            // Private: Bob neither sees nor changes it.
            #expect(try await bob.list("getPlaylists", "", "playlists", "playlist").isEmpty)
            #expect(try await bob.code("getPlaylist", "id=\(id)") == 70)
            #expect(try await bob.code("updatePlaylist", "playlistId=\(id)&name=Mine") == 70)
            #expect(try await bob.code("deletePlaylist", "id=\(id)") == 70)
            // Public: Bob reads it (read-only), still cannot change it.
            _ = try await ann.call("updatePlaylist", "playlistId=\(id)&public=true")
            let shared = try await bob.list("getPlaylists", "", "playlists", "playlist")
            #expect(shared.map { $0["name"] as? String } == ["Dawn"] && shared.first?["readonly"] as? Bool == true && shared.first?["public"] as? Bool == true)
            #expect((try await bob.call("getPlaylist", "id=\(id)")["playlist"] as? [String: Any])?["songCount"] as? Int == 1)
            #expect(try await bob.code("updatePlaylist", "playlistId=\(id)&name=Mine") == 50)
            #expect(try await bob.code("createPlaylist", "playlistId=\(id)&songId=\(ode)") == 50)
            #expect(try await bob.code("deletePlaylist", "id=\(id)") == 50)
            #expect(try await bob.code("getPlaylists", "username=ann") == 50)

            // Bad input.
            #expect(try await ann.code("createPlaylist") == 10)
            #expect(try await ann.code("createPlaylist", "name=x&songId=tr-\(UUID())") == 70)
            #expect(try await ann.code("createPlaylist", "name=" + String(repeating: "x", count: 201)) == 0)
            #expect(try await ann.code("getPlaylist") == 10)
            #expect(try await ann.code("getPlaylist", "id=pl-\(UUID())") == 70)
            #expect(try await ann.code("getPlaylist", "id=banana") == 70)
            #expect(try await ann.code("updatePlaylist") == 10)
            #expect(try await ann.code("updatePlaylist", "playlistId=\(id)&songIndexToRemove=5") == 0)
            #expect(try await ann.code("updatePlaylist", "playlistId=\(id)&songIndexToRemove=-1") == 0)
            #expect(try await ann.code("updatePlaylist", "playlistId=\(id)&public=maybe") == 0)
            #expect(try await ann.code("updatePlaylist", "playlistId=\(id)&songIdToAdd=\(ids["Für Elise"] ?? "")x") == 70)
            #expect(try await ann.code("deletePlaylist") == 10)

            _ = try await ann.call("deletePlaylist", "id=\(id)")
            #expect(try await ann.list("getPlaylists", "", "playlists", "playlist").isEmpty)
            #expect(try await ann.code("getPlaylist", "id=\(id)") == 70)
        }
    }

    @Test(arguments: TestBackend.available)
    func thePlayQueueFollowsItsAccount(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            let bob = try await Self.player("bob", client)
            _ = try await app.addSongs(Self.songs)
            let ids = try await Self.songIDs(ann)
            let ode = try #require(ids["Ode to Joy"])
            let canon = try #require(ids["Canon in D"])

            #expect(try await ann.call("getPlayQueue")["playQueue"] == nil, "nothing saved yet")
            _ = try await ann.call("savePlayQueue", "id=\(ode)&id=\(canon)&id=\(ode)&current=\(canon)&position=1500")
            let queue = try #require(try await ann.call("getPlayQueue")["playQueue"] as? [String: Any])
            #expect(queue["current"] as? String == canon && queue["position"] as? Int == 1500 && queue["username"] as? String == "ann")
            #expect(queue["changedBy"] as? String == "tests" && queue["changed"] is String)
            #expect((queue["entry"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Ode to Joy", "Canon in D", "Ode to Joy"])
            let byIndex = try #require(try await ann.call("getPlayQueueByIndex")["playQueueByIndex"] as? [String: Any])
            #expect(byIndex["currentIndex"] as? Int == 1 && byIndex["position"] as? Int == 1500 && (byIndex["entry"] as? [Any])?.count == 3)

            // By index: the second copy of a song is the current one.
            _ = try await ann.call("savePlayQueueByIndex", "id=\(ode)&id=\(canon)&id=\(ode)&currentIndex=2")
            let second = try #require(try await ann.call("getPlayQueueByIndex")["playQueueByIndex"] as? [String: Any])
            #expect(second["currentIndex"] as? Int == 2 && second["position"] as? Int == 0)
            #expect((try await ann.call("getPlayQueue")["playQueue"] as? [String: Any])?["current"] as? String == ode)

            // Bob's queue is his own.
            #expect(try await bob.call("getPlayQueue")["playQueue"] == nil)
            #expect(try await bob.call("getPlayQueueByIndex")["playQueueByIndex"] == nil)

            // Bad input: the extension's error 10 for an index outside the queue.
            #expect(try await ann.code("savePlayQueueByIndex", "id=\(ode)&currentIndex=1") == 10)
            #expect(try await ann.code("savePlayQueueByIndex", "id=\(ode)") == 10)
            #expect(try await ann.code("savePlayQueueByIndex", "currentIndex=0") == 0)
            #expect(try await ann.code("savePlayQueue", "id=\(ode)") == 10)
            #expect(try await ann.code("savePlayQueue", "id=\(ode)&current=\(canon)") == 0)
            #expect(try await ann.code("savePlayQueue", "id=tr-\(UUID())&current=\(ode)") == 70)
            #expect(try await ann.code("savePlayQueue", "id=\(ode)&current=\(ode)&position=-1") == 0)

            // No songs: the queue is cleared.
            _ = try await ann.call("savePlayQueue")
            #expect(try await ann.call("getPlayQueue")["playQueue"] == nil)
        }
    }

    @Test(arguments: TestBackend.available)
    func lyricsFromTheFilesTags(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            let folder = app.services.configuration.dataDirectory + "/lyrics"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (i, title) in ["Plain", "Synced", "Silent"].enumerated() {
                var tag = ID3v2Writer()
                tag.text("TIT2", title)
                tag.text("TPE1", "Singer")
                tag.text("TALB", "Words")
                if title == "Plain" { tag.lyrics("First line\nSecond line", language: "eng") }
                if title == "Synced" { tag.syncedLyrics([(0, "Hello"), (2500, "World")], language: "fra") }
                var wav = WAVWriter(sampleRate: 8000)
                wav.id3 = tag.encode()
                try Data(wav.encode(samples: Array(repeating: Int16(0), count: 800))).write(to: URL(fileURLWithPath: "\(folder)/\(i).wav"))
            }
            _ = try await app.services.platform.addFolder(path: folder)
            await app.services.platform.waitForScans()
            let ids = try await Self.songIDs(ann)

            let plain = try await ann.list("getLyricsBySongId", "id=\(ids["Plain"] ?? "")", "lyricsList", "structuredLyrics")
            #expect(plain.count == 1 && plain.first?["synced"] as? Bool == false && plain.first?["lang"] as? String == "eng")
            #expect(plain.first?["displayArtist"] as? String == "Singer" && plain.first?["displayTitle"] as? String == "Plain")
            let plainLines = try #require(plain.first?["line"] as? [[String: Any]])
            #expect(plainLines.map { $0["value"] as? String } == ["First line", "Second line"] && plainLines.allSatisfy { $0["start"] == nil })

            let synced = try await ann.list("getLyricsBySongId", "id=\(ids["Synced"] ?? "")", "lyricsList", "structuredLyrics")
            #expect(synced.first?["synced"] as? Bool == true && synced.first?["lang"] as? String == "fra")
            let syncedLines = try #require(synced.first?["line"] as? [[String: Any]])
            #expect(syncedLines.map { $0["start"] as? Int } == [0, 2500] && syncedLines.map { $0["value"] as? String } == ["Hello", "World"])
            #expect(try await ann.list("getLyricsBySongId", "id=\(ids["Silent"] ?? "")", "lyricsList", "structuredLyrics").isEmpty)

            let byName = try #require(try await ann.call("getLyrics", "artist=singer&title=synced")["lyrics"] as? [String: Any])
            #expect(byName["value"] as? String == "Hello\nWorld" && byName["artist"] as? String == "Singer" && byName["title"] as? String == "Synced")
            let none = try #require(try await ann.call("getLyrics", "artist=Nobody&title=Nothing")["lyrics"] as? [String: Any])
            #expect(none["value"] == nil)
            #expect(try await ann.call("getLyrics")["lyrics"] != nil)
            let xml = String(
                buffer: try await client.execute(uri: "/rest/getLyricsBySongId?v=1.16.1&c=t&apiKey=\(ann.key)&id=\(ids["Synced"] ?? "")", method: .get).body)
            #expect(xml.contains(#"<line start="2500">World</line>"#), "\(xml)")

            #expect(try await ann.code("getLyricsBySongId") == 10)
            #expect(try await ann.code("getLyricsBySongId", "id=tr-\(UUID())") == 70)
            #expect(try await ann.code("getLyrics", "artist=" + String(repeating: "a", count: 501)) == 0)

            // A retag without the words takes them away at the next scan.
            var tag = ID3v2Writer()
            tag.text("TIT2", "Plain")
            tag.text("TPE1", "Singer")
            tag.text("TALB", "Words")
            var wav = WAVWriter(sampleRate: 8000)
            wav.id3 = tag.encode()
            try Data(wav.encode(samples: Array(repeating: Int16(1), count: 900))).write(to: URL(fileURLWithPath: "\(folder)/0.wav"))
            try await app.services.platform.scans.startAll()
            await app.services.platform.waitForScans()
            #expect(try await ann.list("getLyricsBySongId", "id=\(ids["Plain"] ?? "")", "lyricsList", "structuredLyrics").isEmpty)
        }
    }

    @Test(arguments: TestBackend.available)
    func answersInXMLToo(backend: TestBackend) async throws {
        try await TestApp.run(backend) { app, client in
            let ann = try await Self.player("ann", client)
            _ = try await app.addSongs(Self.songs)
            let ode = try #require(try await Self.songIDs(ann)["Ode to Joy"])
            _ = try await ann.call("star", "id=\(ode)")
            _ = try await ann.call("createPlaylist", "name=Mix&songId=\(ode)")
            func xml(_ method: String) async throws -> String {
                String(buffer: try await client.execute(uri: "/rest/\(method)?v=1.16.1&c=test&apiKey=\(ann.key)", method: .get).body)
            }
            let starred = try await xml("getStarred2")
            #expect(starred.contains("<starred2><song id=\"\(ode)\"") && starred.contains("starred=\""))
            let lists = try await xml("getPlaylists")
            #expect(lists.contains("<playlists><playlist id=\"pl-") && lists.contains("name=\"Mix\"") && lists.contains("songCount=\"1\""))
            let playing = try await xml("getNowPlaying")
            #expect(playing.contains("<nowPlaying></nowPlaying>") || playing.contains("<nowPlaying/>"), "\(playing)")
        }
    }
}
