import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import NIOCore
import ServiceLifecycle

/// A station's stream, relayed through this server: the player keeps this address (as it
/// keeps every media address), its audio comes from Juke's own origin (so Boost's Web Audio
/// may take it), and each play counts the listen with Radio Browser.
struct RadioListenRoutes {
    let radio: RadioService
    let links: RadioLinks
    /// About 4 s of a 128 kbit/s stream in the kernel (which doubles it for its bookkeeping).
    static let sendBuffer: SocketOptionValue = 64 * 1024

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/radio/stations/:station_id/hls") { request, context in
            _ = try CurrentRequest.requireUser()
            let id = try RadioService.validated(stationID: context.parameters.get("station_id") ?? "")
            guard let raw = request.uri.queryParameters.get("u"), (1...2000).contains(raw.unicodeScalars.count) else {
                throw RuleRefusal.invalid("u", "u is the address of one of the station's playlists or segments")
            }
            // Anything but an address the station's playlists named is not found here.
            let (type, body) = try await radio.hls(id, url: URL(string: String(raw)))
            return Response(
                status: .ok, headers: [.contentType: type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/api/v1/dual/radio/stations/:station_id/listen") { request, context in
            let (user, signed) = try await listener(request, context)
            let listener: RelayedListener
            do {
                let id = try RadioService.validated(stationID: context.parameters.get("station_id") ?? "")
                let channel = context.channel
                // The kernel would otherwise grow this socket's send buffer to megabytes for a
                // phone that stopped reading (minutes of audio), hiding it from the relay's own
                // backlog limit. A fixed buffer keeps what a stalled listener holds bounded.
                try? await channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: Self.sendBuffer).get()
                listener = try await radio.listen(id, for: user, closeConnection: { channel.close(promise: nil) })
            } catch let hls as HLSStation where signed {
                // A player outside Juke's pages, with no login for the relayed playlist's
                // segments: it plays the station's own playlist.
                return Response(status: .found, headers: [.location: hls.url.absoluteString, .cacheControl: "no-store"])
            } catch let hls as HLSStation {
                // The player follows to the relayed playlist, still on Juke's origin.
                let id = (try? RadioService.validated(stationID: context.parameters.get("station_id") ?? "")) ?? ""
                return Response(status: .found, headers: [.location: radio.startHLS(id, playlist: hls.url), .cacheControl: "no-store"])
            }
            return Response(
                status: .ok, headers: [.contentType: listener.opening.kind.mediaType, .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
                body: ResponseBody { writer in
                    let (outlet, relay) = (listener.outlet, listener.relay)
                    defer { relay.leave(outlet.id) }
                    // A station never ends, and Hummingbird's graceful shutdown waits for every
                    // response in flight: the listener's outlet is finished when the server is
                    // told to stop (its wait then ends), or a listener would keep `juke serve`
                    // running after SIGTERM.
                    try await withGracefulShutdownHandler {
                        while let chunks = await outlet.next() {
                            try await writer.write(contentsOf: chunks)
                            relay.wrote(outlet.id, size: chunks.reduce(0) { $0 + $1.readableBytes })
                        }
                    } onGracefulShutdown: {
                        outlet.finish()
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// Who listens: the signed-in account, or the one a signed link (`RadioLinks`, a Subsonic
    /// player's `streamUrl`) was made for, while the station is still among its favourites.
    func listener(_ request: Request, _ context: JukeRequestContext) async throws -> (user: UserID, signed: Bool) {
        let query = request.uri.queryParameters
        let signedParts = (user: query.get("user"), expires: query.get("expires"), signature: query.get("signature"))
        guard signedParts.user != nil || signedParts.expires != nil || signedParts.signature != nil else {
            return (try CurrentRequest.requireUser().id, false)
        }
        // A signed link's parts are checked as the contract states them, whoever asks: a malformed
        // one is a bad request (400), a well-formed one that does not verify a refused link (403).
        guard let user = signedParts.user.flatMap({ UserID(String($0)) }) else {
            throw APIError.badRequest("user is the account id a signed station link carries.", field: "user")
        }
        guard let expires = signedParts.expires.flatMap({ Int64(String($0)) }), expires >= 0 else {
            throw APIError.badRequest("expires is seconds since 1970.", field: "expires")
        }
        guard let signature = signedParts.signature, signature.utf8.count <= 100,
            signature.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { throw APIError.badRequest("signature is the one a station link carries.", field: "signature") }
        let station = try RadioService.validated(stationID: context.parameters.get("station_id") ?? "")
        guard try await links.isValid(station: station, user: user, expires: expires, signature: String(signature), now: radio.clock.now()),
            try await radio.favorites(of: user).contains(where: { $0.id == station })
        else {
            throw APIError(status: .forbidden, code: "forbidden", message: "This link is not valid or has expired; list the stations again.")
        }
        return (user, true)
    }
}
