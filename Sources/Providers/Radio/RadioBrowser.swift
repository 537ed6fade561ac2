public import Foundation
import JukeCore
import Synchronization

/// Radio Browser (api.radio-browser.info): a community directory of internet radio run on
/// several mirrored servers, any of which can be down or answer an HTML error page.
///
/// The server list comes from discovery (`/json/servers` on the round-robin name), then the
/// seed's fallback order for any it did not list. A server that times out, fails DNS or
/// the connection, answers an error status, or answers HTML or anything else that is not
/// JSON is skipped for the next. Every request carries a descriptive User-Agent, as Radio
/// Browser asks (its maintainer uses it to reach developers).
public final class RadioBrowser: Sendable {
    /// The seed's order: de1 has the best data; the others are mirrors.
    public static let fallbackServers = [
        "de1.api.radio-browser.info", "de2.api.radio-browser.info", "fi1.api.radio-browser.info", "nl2.api.radio-browser.info",
        "at2.api.radio-browser.info",
    ]
    public static let defaultDiscovery = URL(string: "https://all.api.radio-browser.info/json/servers")
    /// How long a discovered list is trusted before asking again.
    public static let discoveryLifetime: TimeInterval = 3600

    let discoveryURL: URL?
    let fallbackServers: [String]
    let scheme: String
    let userAgent: String
    let timeout: TimeInterval
    /// The server's one outbound client (`Platform.http`).
    let http: HTTPClient
    private let discovered = Mutex<(servers: [String], at: Date)?>(nil)

    /// `scheme` is https in production; tests point discovery at a local fake that lists
    /// `127.0.0.1:<port>/<behaviour>` as its servers, with http.
    public init(
        http: HTTPClient,
        discoveryURL: URL? = RadioBrowser.defaultDiscovery, fallbackServers: [String] = RadioBrowser.fallbackServers, scheme: String = "https",
        userAgent: String = "Juke/1.0 (self-hosted music server; Dual Player radio)", timeout: TimeInterval = 8
    ) {
        self.http = http
        self.discoveryURL = discoveryURL
        self.fallbackServers = fallbackServers
        self.scheme = scheme
        self.userAgent = userAgent
        self.timeout = timeout
    }

    /// Stations matching `query`, most listened first, broken streams left out.
    public func search(_ query: RadioQuery) async throws(RadioBrowserError) -> [RadioStation] {
        var items: [URLQueryItem] = [
            .init(name: "hidebroken", value: "true"), .init(name: "order", value: "clickcount"), .init(name: "reverse", value: "true"),
            .init(name: "limit", value: String(max(1, min(500, query.limit)))), .init(name: "offset", value: String(max(0, query.offset))),
        ]
        func add(_ name: String, _ value: String?) {
            if let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty { items.append(.init(name: name, value: value)) }
        }
        add("name", query.name)
        add("tag", query.tag)
        if let country = query.country?.trimmingCharacters(in: .whitespaces), country.count == 2, country.allSatisfy(\.isLetter) {
            add("countrycode", country.uppercased())
        } else {
            add("country", query.country)
        }
        add("language", query.language?.lowercased())
        let body = try await firstAnswer(path: "json/stations/search", query: items)
        guard let rows = (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] else {
            throw .allServersFailed(["the answer was not a list of stations"])
        }
        return rows.compactMap(Self.station)
    }

    /// Counts a listen, as Radio Browser asks clients to when a station starts playing, and
    /// returns the stream URL it resolved.
    public func countClick(stationID: String) async throws(RadioBrowserError) -> String? {
        guard !stationID.isEmpty, stationID.allSatisfy({ ($0.isASCII && $0.isHexDigit) || $0 == "-" }) else { throw .invalid("not a station id") }
        let body = try await firstAnswer(path: "json/url/\(stationID)", query: [])
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        return object?["url"] as? String
    }

    /// The servers to try, in order.
    func servers() async -> [String] {
        if let cached = discovered.withLock({ $0 }), Date().timeIntervalSince(cached.at) < Self.discoveryLifetime {
            return Self.merge(cached.servers, fallbackServers)
        }
        var found: [String] = []
        if let discoveryURL {
            var request = OutboundRequest(url: discoveryURL)
            request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
            if let reply = try? await http.send(request, timeout: timeout), reply.status == 200, !Self.looksLikeHTML(reply.body),
                let rows = (try? JSONSerialization.jsonObject(with: reply.body)) as? [[String: Any]]
            {
                found = rows.compactMap { $0["name"] as? String }.filter { !$0.isEmpty }
            }
        }
        if !found.isEmpty { discovered.withLock { $0 = (found, Date()) } }
        return Self.merge(found, fallbackServers)
    }

    static func merge(_ first: [String], _ then: [String]) -> [String] {
        var seen: Set<String> = []
        return (first + then).filter { seen.insert($0.lowercased()).inserted }
    }

    /// The first server's JSON answer, trying each in turn.
    private func firstAnswer(path: String, query: [URLQueryItem]) async throws(RadioBrowserError) -> Data {
        var failures: [String] = []
        let servers = await servers()
        if servers.isEmpty {
            throw .allServersFailed(["no server to ask: the list at \(discoveryURL?.absoluteString ?? "(none)") could not be read"])
        }
        for server in servers {
            guard var components = URLComponents(string: "\(scheme)://\(server)/\(path)") else {
                failures.append("\(server): not a server name")
                continue
            }
            if !query.isEmpty { components.queryItems = query }
            guard let url = components.url else { continue }
            var request = OutboundRequest(url: url)
            request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            do {
                let reply = try await http.send(request, timeout: timeout)
                if reply.status != 200 {
                    failures.append("\(server): HTTP \(reply.status)")
                } else if Self.looksLikeHTML(reply.body) {
                    failures.append("\(server): answered an HTML page")
                } else if (try? JSONSerialization.jsonObject(with: reply.body)) == nil {
                    failures.append("\(server): answered something that is not JSON")
                } else {
                    return reply.body
                }
            } catch {
                switch error {
                case .timeout(let seconds): failures.append("\(server): no answer in \(Int(seconds)) s")
                case .unreachable(let why): failures.append("\(server): \(why)")
                case .tooLarge(let limit): failures.append("\(server): answered more than \(limit) bytes")
                }
            }
        }
        throw .allServersFailed(failures)
    }

    /// An error page, not data: the seed's test, the first non-blank byte is '<'.
    static func looksLikeHTML(_ body: Data) -> Bool {
        body.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "<")
    }

    static func station(_ row: [String: Any]) -> RadioStation? {
        func text(_ key: String) -> String? {
            (row[key] as? String).flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        }
        func number(_ key: String) -> Int {
            (row[key] as? Int) ?? (row[key] as? String).flatMap { Int($0) } ?? (row[key] as? Double).map { Int($0) } ?? 0
        }
        func list(_ key: String) -> [String] {
            (text(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        guard let id = text("stationuuid"), let name = text("name"), let stream = (text("url_resolved") ?? text("url")).flatMap({ WebAddress($0) })?.text
        else { return nil }
        return RadioStation(
            id: id, name: name, streamURL: stream, homepage: text("homepage"), favicon: text("favicon"), tags: list("tags"), country: text("country"),
            countryCode: text("countrycode"), languages: list("language"), codec: text("codec"), bitrate: number("bitrate"),
            isHLS: number("hls") == 1, lastCheckOK: number("lastcheckok") == 1, votes: number("votes"), clickCount: number("clickcount"))
    }
}
