import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import Providers
import Synchronization
import Testing

@testable import DualPlayer
@testable import DualPlayerServer
@testable import JukePlatform
@testable import JukeServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Dual Player's part of the Subsonic API, on SQLite and PostgreSQL: bookmarks that are the
/// page's places in books and episodes (both ways), podcasts over its feed reader, and its
/// favourite stations with signed relay addresses; each account's things out of another's
/// reach, and bad input answered with Subsonic's codes.
@Suite(.timeLimit(.minutes(5))) struct DualPlayerSubsonicTests {
    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var wall: WallClock { WallClock { self.now.withLock { $0 } } }
        var millis: Int64 { Int64(now.withLock { $0 }.timeIntervalSince1970 * 1000) }
        func advance(_ seconds: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    static func listened(_ client: any TestClientProtocol, _ token: String, book: BookID) async throws -> Double? {
        let shelf = try await client.json(.get, "/api/v1/dual/books", token: token).json["items"] as? [[String: Any]] ?? []
        let row = shelf.first { $0["id"] as? String == book.description }
        return (row?["listened"] as? [String: Any])?["position"] as? Double
    }

    @Test(arguments: TestBackend.available)
    func bookmarksAreThePagesPlacesInBooks(backend: TestBackend) async throws {
        let clock = Clock()
        try await TestApp.run(backend, clock: clock.wall) { app, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let (annKey, bobKey) = (try await client.apiKey(token: ann), try await client.apiKey(token: bob))
            let annID = try #require(try await app.services.users.credentials(username: "ann")?.user.id)
            let key = "dual/books/fixture.m4b"
            try FileManager.default.createDirectory(atPath: DualPlayerBooksTests.booksFolder(app), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: DualPlayerBooksTests.fixture.path, toPath: app.services.configuration.dataDirectory + "/" + key)
            let book = DualPlayerBooksTests.book(owner: annID, title: "Ann's", file: key)
            let shared = DualPlayerBooksTests.book(owner: nil, title: "Everyone's", file: key)
            try await app.services.dualPlayerApp.service.books.add(book)
            try await app.services.dualPlayerApp.service.books.add(shared)
            let id = "bk-\(book.id)"

            // The speech player holds the book at its start: a bookmark made in a player moves it.
            let state =
                #"{"item":{"kind":"book","id":"\#(book.id)","title":"Ann's","audio_url":"/api/v1/dual/books/\#(book.id)/audio","chapter":0},"position":1,"playing":true,"updated_at":\#(clock.millis - 5000)}"#
            #expect(try await client.json(.put, "/api/v1/dual/players/speech", token: ann, body: state).status == .ok)

            // A place set in a player is where the page resumes.
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)&position=3500&comment=Half%20way").status == "ok")
            #expect(try await Self.listened(client, ann, book: book.id) == 3.5)
            let speech = try await client.json(.get, "/api/v1/dual/state", token: ann).json["speech"] as? [String: Any]
            #expect(speech?["position"] as? Double == 3.5 && speech?["playing"] as? Bool == false, "\(String(describing: speech))")
            #expect((speech?["item"] as? [String: Any])?["chapter"] as? Int == 1, "the chapter the place is in")

            // A place the page saves later is the bookmark, in the book's time, with its comment kept.
            clock.advance(10)
            let saved = #"{"positions":[{"item":"book:\#(book.id)#1","seconds":4.25,"updated_at":\#(clock.millis)}]}"#
            #expect(try await client.json(.put, "/api/v1/dual/positions", token: ann, body: saved).status == .ok)
            let list = try await client.rest("getBookmarks", "apiKey=\(annKey)")
            let marks = try #require((list.body["bookmarks"] as? [String: Any])?["bookmark"] as? [[String: Any]])
            #expect(marks.count == 1)
            let mark = try #require(marks.first)
            #expect(mark["position"] as? Int == 4250 && mark["username"] as? String == "ann" && mark["comment"] as? String == "Half way")
            #expect(mark["created"] as? String == Date(timeIntervalSince1970: 1_800_000_000).formatted(.iso8601))
            #expect(mark["changed"] as? String == Date(timeIntervalSince1970: 1_800_000_010).formatted(.iso8601))
            let entry = try #require(mark["entry"] as? [String: Any])
            #expect(entry["id"] as? String == id && entry["title"] as? String == "Ann's" && entry["artist"] as? String == "Someone")
            #expect(entry["type"] as? String == "audiobook" && entry["bookmarkPosition"] as? Int == 4250 && entry["duration"] as? Int == 6)
            #expect(entry["contentType"] as? String == "audio/mp4" && entry["suffix"] as? String == "m4b" && entry["isDir"] as? Bool == false)
            let xml = String(buffer: try await client.execute(uri: "/rest/getBookmarks.view?v=1.16.1&c=t&apiKey=\(annKey)", method: .get).body)
            #expect(xml.contains(#"<bookmarks><bookmark position="4250" username="ann" comment="Half way""#) && xml.contains(#"<entry id="\#(id)""#), "\(xml)")

            // What a bookmark's entry hands a player plays, by range too, and downloads.
            let whole = try await client.execute(uri: "/rest/stream?v=1.16.1&c=t&apiKey=\(annKey)&id=\(id)", method: .get)
            #expect(whole.status == .ok && whole.headers[.contentType] == "audio/mp4")
            #expect(whole.body.readableBytes == (try Data(contentsOf: DualPlayerBooksTests.fixture)).count)
            let part = try await client.execute(uri: "/rest/stream?v=1.16.1&c=t&apiKey=\(annKey)&id=\(id)", method: .get, headers: [.range: "bytes=0-99"])
            #expect(part.status == .partialContent && part.body.readableBytes == 100)
            let download = try await client.execute(uri: "/rest/download?v=1.16.1&c=t&apiKey=\(annKey)&id=\(id)", method: .get)
            #expect(download.status == .ok && download.headers[.contentDisposition]?.contains("Ann") == true)
            #expect(try await client.rest("getCoverArt", "apiKey=\(annKey)&id=\(id)").code == 70, "a book without a cover")

            // Another account: none of ann's places, and ann's own book is not theirs to know of.
            #expect(((try await client.rest("getBookmarks", "apiKey=\(bobKey)").body["bookmarks"] as? [String: Any])?["bookmark"] as? [Any])?.isEmpty == true)
            #expect(try await client.rest("createBookmark", "apiKey=\(bobKey)&id=\(id)&position=1000").code == 70)
            #expect(try await client.rest("deleteBookmark", "apiKey=\(bobKey)&id=\(id)").code == 70)
            #expect(try await client.rest("stream", "apiKey=\(bobKey)&id=\(id)").code == 70)
            #expect(try await client.rest("createBookmark", "apiKey=\(bobKey)&id=bk-\(shared.id)&position=1000").status == "ok")
            #expect(try await Self.listened(client, ann, book: shared.id) == nil, "bob's place in the shared book is bob's")
            #expect(try await Self.listened(client, bob, book: shared.id) == 1)

            // Bad input: Subsonic's codes, never a 500.
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&position=1000").code == 10)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)").code == 10)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)&position=-1").code == 0)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)&position=abc").code == 0)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)&position=60000").code == 0, "past the book's end")
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=bk-nope&position=1").code == 70)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=tr-\(UUID())&position=1").code == 70)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=pc-\(UUID())&position=1").code == 70)
            let long = String(repeating: "a", count: 1001)
            #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(id)&position=1&comment=\(long)").code == 0)
            #expect(try await client.rest("deleteBookmark", "apiKey=\(annKey)").code == 10)

            // Deleted: gone from the list and from the shelf's progress, and a second time not found.
            #expect(try await client.rest("deleteBookmark", "apiKey=\(annKey)&id=\(id)").status == "ok")
            #expect(((try await client.rest("getBookmarks", "apiKey=\(annKey)").body["bookmarks"] as? [String: Any])?["bookmark"] as? [Any])?.isEmpty == true)
            #expect(try await Self.listened(client, ann, book: book.id) == nil)
            #expect(try await client.rest("deleteBookmark", "apiKey=\(annKey)&id=\(id)").code == 70)
        }
    }

    @Test(arguments: TestBackend.available)
    func podcastsThroughTheFeedReader(backend: TestBackend) async throws {
        let host = FakePodcastHost()
        let clock = Clock()
        try await host.run { base in
            try await TestApp.run(
                backend, clock: clock.wall,
                configure: {
                    $0.groups[DualPlayerSettings.self].webAllowPrivateNetworks = true; $0.groups[DualPlayerSettings.self].podcastSearchURL = nil
                }
            ) { _, client in
                let ann = try await client.register("ann")
                let bob = try await client.register("bob")
                let (annKey, bobKey) = (try await client.apiKey(token: ann), try await client.apiKey(token: bob))
                let feed = base.absoluteString + "/feed.xml"
                let encoded = feed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? feed
                #expect(try await client.rest("createPodcastChannel", "apiKey=\(annKey)&url=\(encoded)").status == "ok")
                #expect(try await client.rest("createPodcastChannel", "apiKey=\(bobKey)&url=\(encoded)").status == "ok")
                #expect(try await client.rest("createPodcastChannel", "apiKey=\(annKey)").code == 10)
                #expect(
                    try await client.rest(
                        "createPodcastChannel", "apiKey=\(annKey)&url=\(encoded.replacingOccurrences(of: "feed%2Exml", with: "broken%2Exml"))"
                    ).code == 0)

                let all = try await client.rest("getPodcasts", "apiKey=\(annKey)")
                let channels = try #require((all.body["podcasts"] as? [String: Any])?["channel"] as? [[String: Any]])
                #expect(channels.count == 1)
                let channel = try #require(channels.first)
                let channelID = try #require(channel["id"] as? String)
                #expect(channelID.hasPrefix("pc-") && channel["url"] as? String == feed && channel["title"] as? String == "The Fake Show")
                #expect(channel["status"] as? String == "completed" && channel["coverArt"] as? String == channelID)
                #expect(channel["originalImageUrl"] as? String == base.absoluteString + "/image.png")
                let episodes = try #require(channel["episode"] as? [[String: Any]])
                #expect(episodes.compactMap { $0["title"] as? String } == ["Episode 2: the fake & its tests", "Episode 1: the fake & its tests"])
                #expect(
                    episodes.allSatisfy { $0["channelId"] as? String == channelID && $0["status"] as? String == "new" && $0["type"] as? String == "podcast" })
                let episodeID = try #require(episodes.last?["id"] as? String)
                #expect(episodes.last?["streamId"] as? String == episodeID && episodes.last?["publishDate"] != nil)
                let bare = try await client.rest("getPodcasts", "apiKey=\(annKey)&includeEpisodes=false&id=\(channelID)")
                let only = try #require((bare.body["podcasts"] as? [String: Any])?["channel"] as? [[String: Any]])
                #expect(only.count == 1 && only.first?["episode"] == nil)
                #expect(try await client.rest("getPodcasts", "apiKey=\(annKey)&id=pc-\(UUID())").code == 70)
                #expect(try await client.rest("getPodcasts", "apiKey=\(annKey)&id=\(episodeID)").code == 70)

                let newest = try await client.rest("getNewestPodcasts", "apiKey=\(annKey)&count=1")
                let latest = try #require((newest.body["newestPodcasts"] as? [String: Any])?["episode"] as? [[String: Any]])
                #expect(
                    latest.compactMap { $0["title"] as? String } == ["Episode 2: the fake & its tests"] && latest.first?["album"] as? String == "The Fake Show")
                #expect(try await client.rest("getNewestPodcasts", "apiKey=\(annKey)&count=100000").code == 0)

                let one = try await client.rest("getPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)")
                let episode = try #require(one.body["podcastEpisode"] as? [String: Any])
                #expect(episode["title"] as? String == "Episode 1: the fake & its tests" && episode["parent"] as? String == channelID)
                #expect(try await client.rest("getPodcastEpisode", "apiKey=\(annKey)").code == 10)
                #expect(try await client.rest("getPodcastEpisode", "apiKey=\(annKey)&id=pe-\(UUID())").code == 70)

                // The episode plays from its host through Juke, and its place is the page's.
                let audio = try await client.execute(uri: "/rest/stream?v=1.16.1&c=t&apiKey=\(annKey)&id=\(episodeID)", method: .get)
                #expect(audio.status == .ok && audio.body.readableBytes == FakePodcastHost.episodeSize)
                let cover = try await client.execute(uri: "/rest/getCoverArt?v=1.16.1&c=t&apiKey=\(annKey)&id=\(channelID)", method: .get)
                #expect(cover.status == .found && cover.headers[.location] == base.absoluteString + "/image.png")
                #expect(try await client.rest("createBookmark", "apiKey=\(annKey)&id=\(episodeID)&position=120000").status == "ok")
                let page = try await client.json(.get, "/api/v1/dual/podcasts/\(channelID.dropFirst(3))/episodes", token: ann)
                let heard = (page.json["items"] as? [[String: Any]])?.first { "pe-" + ($0["id"] as? String ?? "") == episodeID }
                #expect(heard?["position"] as? Double == 120 && heard?["played"] as? Bool == false)
                let marks = (try await client.rest("getBookmarks", "apiKey=\(annKey)").body["bookmarks"] as? [String: Any])?["bookmark"] as? [[String: Any]]
                #expect(marks?.count == 1 && (marks?.first?["entry"] as? [String: Any])?["id"] as? String == episodeID)

                // The server's copy: made, then removed (the episode stays and still streams).
                #expect(try await client.rest("downloadPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").status == "ok")
                var status = ""
                for _ in 0..<200 {
                    status =
                        (try await client.rest("getPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").body["podcastEpisode"] as? [String: Any])?["status"]
                        as? String ?? ""
                    if status == "completed" || status == "error" { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(status == "completed")
                #expect(try await client.rest("deletePodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").status == "ok")
                #expect(
                    (try await client.rest("getPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").body["podcastEpisode"] as? [String: Any])?["status"]
                        as? String == "new")
                #expect(try await client.rest("deletePodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").code == 70)

                // Refreshing reads the feed again, in the background: a new episode appears.
                host.publish()
                clock.advance(60)
                #expect(try await client.rest("refreshPodcasts", "apiKey=\(annKey)").status == "ok")
                var count = 0
                for _ in 0..<200 {
                    let again = try await client.rest("getPodcasts", "apiKey=\(annKey)&id=\(channelID)")
                    count = (((again.body["podcasts"] as? [String: Any])?["channel"] as? [[String: Any]])?.first?["episode"] as? [Any])?.count ?? 0
                    if count == 3 { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(count == 3)

                // Deleting the channel unsubscribes ann alone.
                #expect(try await client.rest("deletePodcastChannel", "apiKey=\(annKey)&id=\(channelID)").status == "ok")
                #expect(((try await client.rest("getPodcasts", "apiKey=\(annKey)").body["podcasts"] as? [String: Any])?["channel"] as? [Any])?.isEmpty == true)
                #expect(try await client.rest("getPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").code == 70)
                #expect(try await client.rest("deletePodcastChannel", "apiKey=\(annKey)&id=\(channelID)").code == 70)
                #expect(try await client.rest("getPodcastEpisode", "apiKey=\(bobKey)&id=\(episodeID)").status == "ok")
                #expect(try await client.rest("downloadPodcastEpisode", "apiKey=\(annKey)&id=\(episodeID)").code == 70)
            }
        }
    }

    @Test(arguments: TestBackend.available)
    func favouriteStationsPlayThroughTheRelayBySignedLinks(backend: TestBackend) async throws {
        let station = try await FakeStation.start()
        defer { Task { await station.stop() } }
        // Radio Browser unreachable: a station added by its address plays from that address.
        let nowhere = try #require(URL(string: "http://127.0.0.1:1/json/servers"))
        try await TestApp.run(
            backend, mode: .live,
            configure: {
                $0.groups[DualPlayerSettings.self].radioBrowserDiscovery = nowhere; $0.groups[DualPlayerSettings.self].radioAllowPrivateStreams = true
            }
        ) { _, client in
            let ann = try await client.register("ann")
            let bob = try await client.register("bob")
            let (annKey, bobKey) = (try await client.apiKey(token: ann), try await client.apiKey(token: bob))
            let stream = station.url("/icy.mp3").absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            #expect(
                try await client.rest("createInternetRadioStation", "apiKey=\(annKey)&name=Test%20FM&streamUrl=\(stream)&homepageUrl=https%3A%2F%2Ffm.example")
                    .status == "ok")
            #expect(try await client.rest("createInternetRadioStation", "apiKey=\(annKey)&name=X").code == 10)
            #expect(try await client.rest("createInternetRadioStation", "apiKey=\(annKey)&name=X&streamUrl=javascript%3Aalert(1)").code == 0)
            #expect(try await client.rest("createInternetRadioStation", "apiKey=\(annKey)&name=X&streamUrl=\(stream)&homepageUrl=ftp%3A%2F%2Fx").code == 0)

            let list = try await client.rest("getInternetRadioStations", "apiKey=\(annKey)")
            let stations = try #require((list.body["internetRadioStations"] as? [String: Any])?["internetRadioStation"] as? [[String: Any]])
            #expect(stations.count == 1)
            let found = try #require(stations.first)
            let id = try #require(found["id"] as? String)
            #expect(found["name"] as? String == "Test FM" && found["homePageUrl"] as? String == "https://fm.example")
            let address = try #require(found["streamUrl"] as? String)
            #expect(address.contains("/api/v1/dual/radio/stations/\(id)/listen?user=") && address.contains("&signature="), "\(address)")
            #expect(
                ((try await client.rest("getInternetRadioStations", "apiKey=\(bobKey)").body["internetRadioStations"] as? [String: Any])?[
                    "internetRadioStation"] as? [Any])?.isEmpty == true)

            // The signed address plays without a login, through the relay; altered, it is refused.
            let port = try #require(client.port)
            let start = try #require(address.range(of: "/api/v1/"))
            let path = String(address[start.lowerBound...])
            let heard = try await Self.get(port: port, path: path, bytes: 4000)
            #expect(heard.status == 200 && heard.type == "audio/mpeg" && heard.audio.count >= 4000)
            #expect(try await Self.get(port: port, path: path.replacingOccurrences(of: "signature=", with: "signature=x"), bytes: 1).status == 403)
            // A link missing a part, or with one not shaped as the contract says, is a bad request.
            #expect(try await Self.get(port: port, path: path.replacingOccurrences(of: "user=", with: "nobody="), bytes: 1).status == 400)
            #expect(try await Self.get(port: port, path: path.replacingOccurrences(of: "expires=", with: "expires=-"), bytes: 1).status == 400)

            // Another account cannot change or remove it; its owner can.
            #expect(try await client.rest("updateInternetRadioStation", "apiKey=\(bobKey)&id=\(id)&name=Mine&streamUrl=\(stream)").code == 70)
            #expect(try await client.rest("deleteInternetRadioStation", "apiKey=\(bobKey)&id=\(id)").code == 70)
            #expect(try await client.rest("updateInternetRadioStation", "apiKey=\(annKey)&id=\(id)&name=Renamed%20FM&streamUrl=\(stream)").status == "ok")
            #expect(try await client.rest("updateInternetRadioStation", "apiKey=\(annKey)&id=\(id)&streamUrl=\(stream)").code == 10)
            let renamed = try await client.rest("getInternetRadioStations", "apiKey=\(annKey)")
            let after = (renamed.body["internetRadioStations"] as? [String: Any])?["internetRadioStation"] as? [[String: Any]]
            #expect(after?.first?["name"] as? String == "Renamed FM" && after?.first?["homePageUrl"] == nil)
            #expect(try await client.rest("deleteInternetRadioStation", "apiKey=\(annKey)&id=\(id)").status == "ok")
            #expect(try await client.rest("deleteInternetRadioStation", "apiKey=\(annKey)&id=\(id)").code == 70)
            #expect(try await Self.get(port: port, path: path, bytes: 1).status == 403, "no longer a favourite: the link no longer plays")
        }
    }

    @Test(arguments: TestBackend.available)
    func theExtensionIsListed(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let answer = try await client.rest("getOpenSubsonicExtensions", "")
            let names = (answer.body["openSubsonicExtensions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(names.contains("getPodcastEpisode"))
        }
    }

    /// A GET without a login, read until `bytes` arrived (a station never ends).
    static func get(port: Int, path: String, bytes: Int) async throws -> (status: Int, type: String?, audio: [UInt8]) {
        let request = OutboundRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        var status = 0
        var type: String?
        var audio: [UInt8] = []
        for try await part in HTTPClient.tests.stream(request, idleTimeout: 60) {
            switch part {
            case .head(let code, let headers):
                status = code
                type = headers["content-type"]
                if code != 200 { return (status, type, audio) }
            case .bytes(let data):
                audio += data
                if audio.count >= bytes { return (status, type, audio) }
            }
        }
        return (status, type, audio)
    }
}
