import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaFormats
import Providers

/// Dual Player's radio: Radio Browser's directory searched by the server (with its server
/// fallbacks and a User-Agent), each account's favourites, and a station's stream when it is
/// played (which counts the listen, as Radio Browser asks).
public struct RadioService: Sendable {
    let directory: RadioBrowser
    let favorites: RadioFavoritesStore
    let relays: RadioRelays
    let clock: WallClock
    /// What failed, in the words of the network: the person is told in plain ones.
    let logger: Logger

    init(directory: RadioBrowser, favorites: RadioFavoritesStore, relays: RadioRelays, clock: WallClock, logger: Logger) {
        self.directory = directory
        self.favorites = favorites
        self.relays = relays
        self.clock = clock
        self.logger = logger
    }

    /// Stations matching `query`; with no filter, the most listened ones.
    func search(_ query: RadioQuery) async throws -> [RadioStation] {
        for (field, value, limit) in [("name", query.name, 200), ("tag", query.tag, 100), ("country", query.country, 100), ("language", query.language, 100)] {
            guard (value ?? "").unicodeScalars.count <= limit else { throw RuleRefusal.invalid(field, "\(field) is at most \(limit) characters") }
        }
        do {
            // Radio Browser's records are anyone's: cleaned before a page shows them (and
            // sends them back as a favourite).
            return try await directory.search(query).map(Self.cleaned)
        } catch {
            throw gatewayError(error)
        }
    }

    /// The stream to play, once Radio Browser has counted the listen. When Radio Browser
    /// cannot be reached, a favourite still plays from the stream address kept with it.
    func streamAddress(_ stationID: String, for user: UserID) async throws -> URL {
        let resolved: String?
        do {
            resolved = try await directory.countClick(stationID: stationID)
        } catch {
            guard let kept = try await favorites.favorites(of: user).first(where: { $0.id == stationID }), let url = WebAddress(kept.streamURL)?.url else {
                throw gatewayError(error)
            }
            return url
        }
        guard let url = resolved.flatMap({ WebAddress($0) })?.url else {
            // A station added by its address (from a Subsonic player) is none of Radio
            // Browser's: the address kept with it plays.
            if let kept = try await favorites.favorites(of: user).first(where: { $0.id == stationID }), let url = WebAddress(kept.streamURL)?.url {
                return url
            }
            throw RuleRefusal.notFound("Radio Browser has no stream for this station.")
        }
        return url
    }

    /// A listener of the station through this server's relay.
    func listen(_ stationID: String, for user: UserID, closeConnection: @escaping @Sendable () -> Void) async throws -> RelayedListener {
        let url = try await streamAddress(stationID, for: user)
        do {
            let (opening, outlet, relay) = try await relays.listen(station: stationID, url: url, closeConnection: closeConnection)
            return RelayedListener(opening: opening, outlet: outlet, relay: relay)
        } catch let error as StreamRelayError {
            throw relayError(error, station: stationID)
        } catch is RelayFull {
            throw APIError(
                status: .serviceUnavailable, code: "radio_relay_full", message: "The radio relay has as many listeners as it takes; try again later.")
        }
    }

    /// The relay's address for an HLS station's playlist (or segment) at `url`.
    static func hlsAddress(station: String, url: URL) -> String {
        "/api/v1/dual/radio/stations/\(station)/hls?u=" + (url.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// An HLS station found by `listen`: its playlist's host is where its relayed addresses may go.
    func startHLS(_ stationID: String, playlist: URL) -> String {
        relays.allowHLS(station: stationID, hosts: [playlist.host ?? ""])
        return Self.hlsAddress(station: stationID, url: playlist)
    }

    /// One HLS playlist or segment of `stationID`, through the relay: a playlist comes back with
    /// every address it names on Juke's origin; a segment comes back as it is, unless it is
    /// not media.
    func hls(_ stationID: String, url: URL?) async throws -> (contentType: String, body: [UInt8]) {
        guard let url, relays.isAllowedHLS(station: stationID, url: url) else {
            throw RuleRefusal.notFound("This address is not one of the station's: play the station again.")
        }
        let resource: FetchedResource
        do {
            resource = try await relays.connector.fetch(url, limit: Self.hlsLimit)
        } catch let error as StreamRelayError {
            throw relayError(error, station: stationID)
        }
        if let (text, named) = HLSPlaylist.rewrite(resource.body, base: resource.url, address: { Self.hlsAddress(station: stationID, url: $0) }) {
            relays.allowHLS(station: stationID, hosts: named.compactMap(\.host) + [resource.url.host ?? ""])
            return ("application/vnd.apple.mpegurl", Array(text.utf8))
        }
        let type = resource.contentType ?? "application/octet-stream"
        guard !(type.hasPrefix("text/") || type.contains("html") || type.contains("json") || type.hasPrefix("image/")) else {
            throw relayError(.notAudio(type), station: stationID)
        }
        return (type, resource.body)
    }

    /// A segment is seconds of audio; anything near this is not one.
    static let hlsLimit = 16 << 20

    /// What the station is playing, when this server relays it.
    func nowPlaying(_ stationID: String) -> (title: String?, listeners: Int, kind: StreamKind?)? {
        relays.nowPlaying(station: stationID)
    }

    /// A stream the relay could not open, as the contract answers it: said to the listener in
    /// plain words (what the station answered is in the log).
    func relayError(_ error: StreamRelayError, station: String) -> any Error {
        if case .hlsStation(let url) = error { return HLSStation(url: url) }
        logger.notice("radio stream refused", metadata: ["station": "\(station)", "why": "\(error)"])
        return Self.said(error)
    }

    static func said(_ error: StreamRelayError) -> any Error {
        switch error {
        case .privateNetwork:
            return APIError(
                status: .forbidden, code: "radio_private_network",
                message: "This station streams from inside a private network, which Juke does not play stations from.")
        case .notAudio:
            return APIError(
                status: .badGateway, code: "radio_not_audio",
                message: "This station does not send audio: its address leads to a web page or a file, not to a radio stream. Try another station.")
        case .hlsStation(let url):
            return HLSStation(url: url)
        case .invalidAddress, .unreachable, .status, .tooManyHops, .malformed:
            return APIError(
                status: .badGateway, code: "radio_stream_unavailable",
                message: "This station is not broadcasting right now: its stream could not be reached. Try again later, or another station.")
        }
    }

    func favorites(of user: UserID) async throws -> [RadioStation] { try await favorites.favorites(of: user) }

    /// Radio Browser's station ids are UUIDs: hexadecimal digits and hyphens.
    static func validated(stationID: String) throws -> String {
        guard !stationID.isEmpty, stationID.count <= 64, stationID.allSatisfy({ ($0.isASCII && $0.isHexDigit) || $0 == "-" }) else {
            throw RuleRefusal.invalid("station_id", "A station's id is Radio Browser's UUID.")
        }
        return stationID
    }

    func addFavorite(_ station: RadioStation, for user: UserID) async throws -> RadioStation {
        let valid = try Self.validated(station)
        try await favorites.add(valid, for: user, now: clock.now())
        return valid
    }

    static func cleaned(_ station: RadioStation) -> RadioStation {
        var station = station
        station.name = TextRules.cleanedOrNil(station.name, limit: 300) ?? "Unnamed station"
        station.homepage = TextRules.cleanedOrNil(station.homepage, limit: 2000)
        station.favicon = TextRules.cleanedOrNil(station.favicon, limit: 2000)
        station.country = TextRules.cleanedOrNil(station.country, limit: 100)
        station.countryCode = TextRules.cleanedOrNil(station.countryCode, limit: 10)
        station.codec = TextRules.cleanedOrNil(station.codec, limit: 50)
        station.tags = station.tags.prefix(50).compactMap { TextRules.cleanedOrNil($0, limit: 100) }
        station.languages = station.languages.prefix(20).compactMap { TextRules.cleanedOrNil($0, limit: 100) }
        return station
    }

    /// A station a page sent, held to the contract's limits: it is shown again on every
    /// device, so no control characters, no address but http(s), no absurd numbers.
    static func validated(_ station: RadioStation) throws -> RadioStation {
        _ = try validated(stationID: station.id)
        func text(_ value: String?, _ field: String, max: Int) throws {
            guard let value else { return }
            guard value.unicodeScalars.count <= max, TextRules.isAllowed(value) else {
                throw RuleRefusal.invalid(field, "\(field) is at most \(max) characters, with no control characters")
            }
        }
        try text(station.name, "name", max: 300)
        guard station.name.contains(where: { !$0.isWhitespace }) else { throw RuleRefusal.invalid("name", "A station needs a name.") }
        // Kept as given, so no space or control character anywhere (WebAddress would trim).
        guard WebAddress(station.streamURL, limit: 2000) != nil,
            !station.streamURL.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { throw RuleRefusal.invalid("stream_url", "A station's stream is an http(s) address.") }
        try text(station.homepage, "homepage", max: 2000)
        try text(station.favicon, "favicon", max: 2000)
        try text(station.country, "country", max: 100)
        try text(station.countryCode, "country_code", max: 10)
        try text(station.codec, "codec", max: 50)
        guard station.tags.count <= 50, station.languages.count <= 20 else { throw RuleRefusal.invalid("tags", "At most 50 tags and 20 languages.") }
        for tag in station.tags { try text(tag, "tags", max: 100) }
        for language in station.languages { try text(language, "languages", max: 100) }
        guard (0...100_000).contains(station.bitrate), (0...1_000_000_000_000).contains(station.votes),
            (0...1_000_000_000_000).contains(station.clickCount)
        else {
            throw RuleRefusal.invalid("bitrate", "bitrate is 0 to 100,000 kbit/s; votes and clicks are not negative")
        }
        return station
    }

    /// A station added by its stream's address (a Subsonic player's "add station"): a
    /// favourite of its own, with an id made here in Radio Browser's form.
    func addOwnStation(name: String, streamURL: String, homepage: String?, for user: UserID) async throws -> RadioStation {
        try await addFavorite(
            RadioStation(id: UUID().uuidString.lowercased(), name: name, streamURL: streamURL, homepage: homepage), for: user)
    }

    /// Renames a favourite or changes its addresses; the rest of what Radio Browser said of it
    /// stays. Not found unless it is one of `user`'s favourites.
    func updateFavorite(_ stationID: String, name: String, streamURL: String, homepage: String?, for user: UserID) async throws -> RadioStation {
        let id = try Self.validated(stationID: stationID)
        guard var station = try await favorites.favorites(of: user).first(where: { $0.id == id }) else {
            throw RuleRefusal.notFound("No such station among your favourites.")
        }
        station.name = name
        station.streamURL = streamURL
        station.homepage = homepage
        return try await addFavorite(station, for: user)
    }

    func removeFavorite(_ stationID: String, for user: UserID) async throws {
        try await favorites.remove(try Self.validated(stationID: stationID), for: user)
    }

    /// Radio Browser unreachable: 502 in plain words; what each of its servers answered goes
    /// to the log.
    func gatewayError(_ error: any Error) -> any Error {
        switch error as? RadioBrowserError {
        case .allServersFailed(let reasons):
            logger.warning("Radio Browser did not answer", metadata: ["servers": "\(reasons.joined(separator: "; "))"])
            return APIError(status: .badGateway, code: "radio_unavailable", message: Self.directoryUnreachable)
        case .invalid(let why): return RuleRefusal.invalid("station_id", why)
        case nil: return error
        }
    }

    static let directoryUnreachable =
        "Radio Browser, the directory of stations, cannot be reached right now. Check that this server is online, then try again."
}

/// A station listened to through the relay.
struct RelayedListener: Sendable {
    let opening: StreamOpening
    let outlet: ListenerOutlet
    let relay: StationRelay
}

/// An HLS station: the relay carries continuous streams, and sends the player to HLS playlists.
struct HLSStation: Error {
    let url: URL
}
