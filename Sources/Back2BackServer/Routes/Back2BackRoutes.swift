import Back2Back
import Foundation
import HTTPTypes
import Hummingbird
import JukeCore
import JukePlatform
import LiveUpdates
import Providers

/// Back2Back's routes that are not JSON: the live session as server-sent events (the same
/// JSON as GET /api/v1/back2back/sessions/{id}, pushed after every change) and the session's
/// export as a playlist file.
struct Back2BackRoutes {
    typealias Context = JukeRequestContext
    let handler: Back2BackHandler
    /// Signs the exported audio links, so the playlist plays in other players without a login.
    let links: MediaLinks
    var service: Back2BackService { handler.back2back }

    func register(on router: Router<Context>) {
        router.get("/api/v1/back2back/sessions/:session_id/events") { request, context in try await events(request, context) }
        router.get("/api/v1/back2back/sessions/:session_id/export") { request, context in try await export(request, context) }
        router.post("/api/v1/back2back/personas/:persona_id/style-guide") { request, context in try await styleGuide(request, context) }
    }

    /// Writes the persona's style guide and streams it as server-sent events: `progress`
    /// (a step, such as searching the web), `text` (the next piece), `source` (a cited page),
    /// then `done` with the whole guide (saved to the persona), or `failed` with the reason.
    func styleGuide(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: PersonaID = try parseID(context.parameters.get("persona_id") ?? "", field: "persona_id")
        let events = try await service.styleGuide(id, for: user.id)
        let body = ResponseBody { writer in
            func send(_ type: String, _ object: [String: String]) async throws {
                let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
                try await writer.write(ServerSentEvent.event(type, data: String(decoding: data, as: UTF8.self)).buffer)
            }
            do {
                for try await event in events {
                    switch event {
                    case .progress(let message): try await send("progress", ["message": message])
                    case .text(let text): try await send("text", ["text": text])
                    case .source(let source): try await send("source", ["title": source.title, "url": source.url])
                    case .done(let text): try await send("done", ["style_guide": text])
                    }
                }
            } catch {
                try await send("failed", ["message": describe(error)])
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    func events(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: DJSessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        let first = try await service.session(id, for: user.id)  // 403/404 before the stream starts
        let live = service.live
        let (token, signals) = await live.subscribe(id)
        let handler = self.handler
        let service = self.service
        // Who has the session open decides whose turn is skipped (TurnTimers); which page
        // (`?device_id=`, the id it plays under) tells when the playing one goes (PlayerPresence).
        let page = try Self.page(request, user: user.id)
        let kind = try Self.kind(request)
        await service.connected(id, user: user.id)
        if let page { await service.pageConnected(id, device: page, kind: kind) }
        // Told when the stream ends however it ends (awaited here, not in a task of its own).
        let left: @Sendable () async -> Void = {
            await service.disconnected(id, user: user.id)
            if let page { await service.pageDisconnected(id, device: page) }
        }
        let body = ResponseBody { writer in
            do {
                var sent = first.version
                try await writer.write(ServerSentEvent.event("state", data: try Self.json(try await handler.back2backView(first, for: user.id))).buffer)
                for await signal in signals {
                    switch signal {
                    case .heartbeat:
                        try await writer.write(ServerSentEvent.keepAlive.buffer)
                    case .deleted:
                        try await writer.write(ServerSentEvent.event("deleted", data: "{}").buffer)
                        await live.unsubscribe(id, token)
                    case .changed(let version):
                        guard version > sent else { continue }
                        let current = try await handler.back2back.session(id, for: user.id)
                        sent = current.version
                        try await writer.write(
                            ServerSentEvent.event("state", data: try Self.json(try await handler.back2backView(current, for: user.id))).buffer)
                    }
                }
            } catch {
                await live.unsubscribe(id, token)
                await left()
                throw error
            }
            await live.unsubscribe(id, token)
            await left()
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
    }

    /// What the page runs on, if it says (`?device_kind=phone`).
    static func kind(_ request: Request) throws -> DeviceKind? {
        guard let raw = request.uri.queryParameters.get("device_kind") else { return nil }
        guard let kind = DeviceKind(rawValue: String(raw)) else {
            throw APIError.badRequest("A device kind is phone, tablet or computer.", field: "device_kind")
        }
        return kind
    }

    /// The page a live connection comes from, if it names itself.
    static func page(_ request: Request, user: UserID) throws -> PlayingDevice? {
        guard let raw = request.uri.queryParameters.get("device_id") else { return nil }
        guard PlayingDevice.isValidID(raw) else { throw APIError.badRequest("A device id has 1 to 64 letters, digits and dashes.", field: "device_id") }
        return PlayingDevice(user: user, device: raw)
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `?format=m3u8` (default) or `xspf`: the songs that played and the one playing, with
    /// links to their audio on this server and the AI's reasons as annotations. The links are
    /// signed and good for a week (`MediaLinks`): VLC, a phone's player or a friend's laptop
    /// plays them without a Juke login.
    func export(_ request: Request, _ context: Context) async throws -> Response {
        let user = try CurrentRequest.requireUser()
        let id: DJSessionID = try parseID(context.parameters.get("session_id") ?? "", field: "session_id")
        let raw = request.uri.queryParameters.get("format") ?? "m3u8"
        guard let format = PlaylistExport.Format(rawValue: raw) else { throw APIError.badRequest("format is m3u8 or xspf.", field: "format") }
        let loaded = try await service.session(id, for: user.id)
        // The configured public URL, or the address this connection reached: never the Host
        // header, which the client writes.
        let origin = CurrentRequest.linkOrigin
        // What really played: a pick passed over (in the history, never started) is not.
        let played = (loaded.session.history + (loaded.session.nowPlaying.map { [$0] } ?? [])).filter { $0.startedAt != nil }
        let now = handler.clock.now()
        var items: [PlaylistExport.Item] = []
        for entry in played {
            let signed = try await links.query(for: entry.song.track, now: now)
            items.append(
                PlaylistExport.Item(
                    song: entry.song, location: "\(origin)/api/v1/catalog/tracks/\(entry.song.track)/audio?\(signed)",
                    annotation: entry.pickedBy == .ai ? entry.rationale : nil))
        }
        let text = PlaylistExport.render(items, title: loaded.title, as: format)
        return Response(
            status: .ok,
            headers: [.contentType: format.mediaType, .contentDisposition: Self.attachment(loaded.title, extension: format.rawValue)],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The download's name: the session's title, with the export's extension.
    static func attachment(_ title: String, extension ext: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        return ContentDisposition.attachment(named: (trimmed.isEmpty ? "back2back" : String(trimmed.prefix(120))) + "." + ext)
    }
}
