import Foundation
import JukeTestSupport
import MediaFormats
import Synchronization
import Testing

@testable import Providers

/// The relay's connection to a station, against a local station on raw TCP: the audio with
/// its ICY titles taken out, SHOUTcast's ICY status line, chunked coding, redirects and
/// playlists followed, and what is refused: pages that are not audio, error statuses, and any
/// address inside a private or local network unless the server allows them.
@Suite(.timeLimit(.minutes(5))) struct StreamConnectorTests {
    @Test func addressPolicy() {
        let refused: [[UInt8]] = [
            [127, 0, 0, 1], [10, 1, 2, 3], [172, 16, 0, 1], [172, 31, 255, 255], [192, 168, 1, 1], [169, 254, 169, 254], [100, 64, 0, 1],
            [0, 0, 0, 0], [224, 0, 0, 1], [255, 255, 255, 255], [192, 0, 2, 5], [198, 18, 0, 1],
            ipv6("::1"), ipv6("::"), ipv6("fe80::1"), ipv6("fd00::1"), ipv6("ff02::1"), ipv6("::ffff:192.168.0.1"), ipv6("::ffff:127.0.0.1"),
            ipv6("64:ff9b::10.0.0.1"), ipv6("2002:c0a8:0101::1"), ipv6("2001:db8::1"),
        ]
        for address in refused { #expect(!NetworkAddressPolicy.isPublic(address), "\(address)") }
        let allowed: [[UInt8]] = [
            [8, 8, 8, 8], [172, 15, 0, 1], [172, 32, 0, 1], [100, 128, 0, 1], [192, 169, 0, 1], ipv6("2a00:1450::1"), ipv6("::ffff:8.8.8.8"),
        ]
        for address in allowed { #expect(NetworkAddressPolicy.isPublic(address), "\(address)") }
        #expect(!NetworkAddressPolicy.isPublic([1, 2, 3]))
    }

    /// 16 bytes of an IPv6 address in its text form (with an IPv4 tail where given).
    func ipv6(_ text: String) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        _ = text.withCString { inet_pton(AF_INET6, $0, &bytes) }
        return bytes
    }

    final class Heard: Sendable {
        let opening = Mutex<StreamOpening?>(nil)
        let audio = Mutex<[UInt8]>([])
        let titles = Mutex<[String?]>([])
    }

    /// Streams `path` until `enough` audio bytes have come, then stops.
    func listen(_ station: FakeStation, _ path: String, enough: Int = 3000, allowPrivate: Bool = true) async throws -> (
        StreamOpening?, [UInt8], [String?], StreamEnd?
    ) {
        let heard = Heard()
        let connector = StreamConnector(allowPrivateNetworks: allowPrivate)
        let url = station.url(path)
        var end: StreamEnd?
        do {
            end = try await connector.stream(
                url, opened: { found in heard.opening.withLock { $0 = found } },
                received: { parts in
                    for part in parts {
                        switch part {
                        case .audio(let bytes): heard.audio.withLock { $0 += bytes }
                        case .title(let title): heard.titles.withLock { $0.append(title) }
                        }
                    }
                    if heard.audio.withLock({ $0.count }) >= enough { throw CancellationError() }
                })
        } catch is CancellationError {
            end = nil
        }
        return (heard.opening.withLock { $0 }, heard.audio.withLock { $0 }, heard.titles.withLock { $0 }, end)
    }

    @Test(arguments: ["/live.mp3", "/icy.mp3", "/chunked.mp3", "/moved", "/list.pls"])
    func audioWithItsTitlesTakenOut(path: String) async throws {
        var options = FakeStation.Options()
        options.bytesPerSecond = 40_000
        options.writesPerSecond = 20
        options.titleEvery = 2
        let station = try await FakeStation.start(options)
        defer { Task { await station.stop() } }
        let (opening, audio, titles, _) = try await listen(station, path, enough: 6000)
        #expect(
            opening?.kind == .mpeg && opening?.stationName == "Test FM" && opening?.url.path == (path == "/moved" || path == "/list.pls" ? "/live.mp3" : path))
        // What came through is the station's audio and nothing else: no metadata blocks.
        #expect(audio.count >= 6000 && audio == FakeStation.mpegBytes(audio.count, from: 0))
        #expect(titles.contains("Artist 1 - Song 1"), "\(titles)")
        let asked = station.requests.withLock { $0 }
        #expect(asked.last?.headers["icy-metadata"] == "1" && asked.last?.headers["user-agent"]?.hasPrefix("Juke/") == true)
    }

    @Test func refusals() async throws {
        let station = try await FakeStation.start()
        defer { Task { await station.stop() } }
        await #expect(throws: StreamRelayError.notAudio("text/html")) { try await listen(station, "/page.html") }
        await #expect(throws: StreamRelayError.status(404)) { try await listen(station, "/gone") }
        await #expect(throws: StreamRelayError.privateNetwork("127.0.0.1")) { try await listen(station, "/live.mp3", allowPrivate: false) }
        #expect(station.requests.withLock { $0.count } == 2, "a private address is refused before any connection")
        let (_, _, _, end) = try await listen(station, "/hls.m3u8")
        guard case .hlsPlaylist(let url, let body)? = end else { Issue.record("an HLS playlist is reported, not relayed"); return }
        #expect(url.path == "/hls.m3u8" && String(decoding: body, as: UTF8.self).hasPrefix("#EXTM3U"))
        let ftp = try #require(URL(string: "ftp://127.0.0.1/x"))
        await #expect(throws: StreamRelayError.self) {
            try await StreamConnector(allowPrivateNetworks: true).stream(ftp, opened: { _ in }, received: { _ in })
        }
        let nowhere = try #require(URL(string: "http://no-such-host.invalid/stream"))
        await #expect(throws: StreamRelayError.self) { try await StreamConnector().stream(nowhere, opened: { _ in }, received: { _ in }) }
        let closed = try #require(URL(string: "http://127.0.0.1:1/stream"))
        await #expect(throws: StreamRelayError.self) {
            try await StreamConnector(allowPrivateNetworks: true).stream(closed, opened: { _ in }, received: { _ in })
        }
    }
}
