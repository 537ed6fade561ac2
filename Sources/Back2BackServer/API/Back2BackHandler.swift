import Back2Back
import Back2BackAPI
import Foundation
import JukeCore
import JukePlatform

/// Back2Back's operations from the contract. Each handler is thin: read the input, call
/// the service, map the result.
struct Back2BackHandler: APIProtocol {
    let back2back: Back2BackService
    let djSelector: DJSelector
    let clock: WallClock

    /// The session as `user` sees it: names, the persona's name, their own crossfade.
    func back2backView(_ loaded: Back2BackService.Loaded, for user: UserID) async throws -> Components.Schemas.B2BSession {
        let s = loaded.session
        let names = await back2back.names(s.members + s.entries.compactMap { if case .person(let u) = $0.pickedBy { u } else { nil } })
        let persona = try await back2back.store.persona(s.persona)
        let settings = try await back2back.store.settings(of: user, now: clock.now())
        return Back2BackMapping.session(
            loaded, viewer: user, names: names, personaName: persona?.name ?? "Juke's DJ", crossfade: settings.crossfadeSeconds)
    }

    private func sessionID(_ raw: String) throws -> DJSessionID { try parseID(raw, field: "session_id") }

    private func entryID(_ raw: String) throws -> EntryID { try parseID(raw, field: "entry_id") }

    /// Runs a person's event and answers with the session as they now see it.
    private func run(_ raw: String, _ event: (UserID) async throws -> SessionEvent) async throws -> Components.Schemas.B2BSession {
        let user = try CurrentRequest.requireUser()
        let loaded = try await back2back.run(try sessionID(raw), try await event(user.id))
        return try await back2backView(loaded, for: user.id)
    }

    func listB2BSessions(_ input: Operations.ListB2BSessions.Input) async throws -> Operations.ListB2BSessions.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let page = try Paging(limit: input.query.limit, offset: input.query.offset)
            let (items, total) = try await back2back.sessions(for: user.id, limit: page.limit, offset: page.offset)
            return .ok(
                .init(
                    body: .json(
                        .init(items: items.map { Back2BackMapping.summary($0, viewer: user.id) }, total: total, limit: page.limit, offset: page.offset))))
        }
    }

    func createB2BSession(_ input: Operations.CreateB2BSession.Input) async throws -> Operations.CreateB2BSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let persona: PersonaID? = try body.personaId.map { try parseID($0, field: "persona_id") }
            let loaded = try await back2back.create(title: body.title, host: user, persona: persona, turnSeconds: body.turnSeconds)
            return .created(.init(body: .json(try await back2backView(loaded, for: user.id))))
        }
    }

    func joinB2BSession(_ input: Operations.JoinB2BSession.Input) async throws -> Operations.JoinB2BSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let loaded = try await back2back.join(token: body.inviteToken, user: user.id)
            return .ok(.init(body: .json(try await back2backView(loaded, for: user.id))))
        }
    }

    func getB2BSession(_ input: Operations.GetB2BSession.Input) async throws -> Operations.GetB2BSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let loaded = try await back2back.session(try sessionID(input.path.sessionId), for: user.id)
            return .ok(.init(body: .json(try await back2backView(loaded, for: user.id))))
        }
    }

    func deleteB2BSession(_ input: Operations.DeleteB2BSession.Input) async throws -> Operations.DeleteB2BSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            try await back2back.delete(try sessionID(input.path.sessionId), by: user.id)
            return .noContent(.init())
        }
    }

    func pickB2BSong(_ input: Operations.PickB2BSong.Input) async throws -> Operations.PickB2BSong.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let track: TrackID = try parseID(body.trackId, field: "track_id")
            return .ok(.init(body: .json(try await run(input.path.sessionId) { .pick(try await back2back.song(track), by: $0) })))
        }
    }

    func startB2BWithAI(_ input: Operations.StartB2BWithAI.Input) async throws -> Operations.StartB2BWithAI.Output {
        try await respond {
            .ok(.init(body: .json(try await run(input.path.sessionId) { .letAIStart(by: $0) })))
        }
    }

    func skipB2BSong(_ input: Operations.SkipB2BSong.Input) async throws -> Operations.SkipB2BSong.Output {
        try await respond {
            .ok(.init(body: .json(try await run(input.path.sessionId) { .skip(by: $0) })))
        }
    }

    func skipToB2BEntry(_ input: Operations.SkipToB2BEntry.Input) async throws -> Operations.SkipToB2BEntry.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let entry = try entryID(body.entryId)
            return .ok(.init(body: .json(try await run(input.path.sessionId) { .skipTo(entry, by: $0) })))
        }
    }

    func reportB2BProgress(_ input: Operations.ReportB2BProgress.Input) async throws -> Operations.ReportB2BProgress.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let entry = try entryID(body.entryId)
            try await requireMember(input.path.sessionId)
            return .ok(
                .init(
                    body: .json(
                        try await run(input.path.sessionId) { user in
                            .progress(entry, fraction: body.fraction, from: try Self.device(body.deviceId, user: user))
                        })))
        }
    }

    func finishB2BEntry(_ input: Operations.FinishB2BEntry.Input) async throws -> Operations.FinishB2BEntry.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let entry = try entryID(body.entryId)
            try await requireMember(input.path.sessionId)
            return .ok(
                .init(body: .json(try await run(input.path.sessionId) { user in .finished(entry, from: try Self.device(body.deviceId, user: user)) })))
        }
    }

    func claimB2BPlayer(_ input: Operations.ClaimB2BPlayer.Input) async throws -> Operations.ClaimB2BPlayer.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            return .ok(
                .init(
                    body: .json(
                        try await run(input.path.sessionId) { user in
                            .claimPlayer(PlayingDevice(user: user, device: body.deviceId), kind: body.deviceKind.flatMap { DeviceKind(rawValue: $0.rawValue) })
                        })))
        }
    }

    func moveB2BPlayhead(_ input: Operations.MoveB2BPlayhead.Input) async throws -> Operations.MoveB2BPlayhead.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let entry = try entryID(body.entryId)
            return .ok(
                .init(
                    body: .json(
                        try await run(input.path.sessionId) { user in
                            .movePlayhead(entry, position: body.position, paused: body.paused, by: PlayingDevice(user: user, device: body.deviceId))
                        })))
        }
    }

    /// The page a report came from, checked like every page id.
    private static func device(_ raw: String?, user: UserID) throws -> PlayingDevice? {
        guard let raw else { return nil }
        guard PlayingDevice.isValidID(raw) else { throw APIError.badRequest("A device id has 1 to 64 letters, digits and dashes.", field: "device_id") }
        return PlayingDevice(user: user, device: raw)
    }

    /// The player's reports carry no person in the rules; only members may send them.
    private func requireMember(_ raw: String) async throws {
        let user = try CurrentRequest.requireUser()
        _ = try await back2back.session(try sessionID(raw), for: user.id)
    }

    func takeB2BDirection(_ input: Operations.TakeB2BDirection.Input) async throws -> Operations.TakeB2BDirection.Output {
        try await respond {
            .ok(.init(body: .json(try await run(input.path.sessionId) { .takeDirection(by: $0) })))
        }
    }

    func leaveB2BSession(_ input: Operations.LeaveB2BSession.Input) async throws -> Operations.LeaveB2BSession.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let loaded = try await back2back.run(try sessionID(input.path.sessionId), .leave(user.id))
            // They are no longer a member; they see the session as it was left.
            return .ok(.init(body: .json(try await back2backView(loaded, for: user.id))))
        }
    }

    func passB2BTurn(_ input: Operations.PassB2BTurn.Input) async throws -> Operations.PassB2BTurn.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let loaded = try await back2back.run(try sessionID(input.path.sessionId), .passTurn(by: user.id))
            return .ok(.init(body: .json(try await back2backView(loaded, for: user.id))))
        }
    }

    func setB2BPersona(_ input: Operations.SetB2BPersona.Input) async throws -> Operations.SetB2BPersona.Output {
        try await respond {
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let user = try CurrentRequest.requireUser()
            let persona: PersonaID = try parseID(body.personaId, field: "persona_id")
            guard let found = try await back2back.store.persona(persona), found.owner == user.id else {
                throw APIError.notFound("persona of yours")
            }
            return .ok(.init(body: .json(try await run(input.path.sessionId) { .changePersona(persona, by: $0) })))
        }
    }

    // MARK: Personas

    private func ownPersona(_ raw: String, of user: UserID) async throws -> Persona {
        let id: PersonaID = try parseID(raw, field: "persona_id")
        guard let persona = try await back2back.store.persona(id), persona.owner == user else { throw APIError.notFound("persona") }
        return persona
    }

    func searchB2BCatalog(_ input: Operations.SearchB2BCatalog.Input) async throws -> Operations.SearchB2BCatalog.Output {
        try await respond {
            _ = try CurrentRequest.requireUser()
            // The outside catalogs page 25 at a time and no deeper than 1,000.
            let page = try Paging(limit: input.query.limit, offset: input.query.offset, defaultLimit: 20, maxLimit: 25, maxOffset: 1_000)
            let found = try await back2back.searchCatalog(input.query.q, limit: page.limit, offset: page.offset)
            return .ok(.init(body: .json(Back2BackMapping.catalogPage(found))))
        }
    }

    func listB2BPersonas(_ input: Operations.ListB2BPersonas.Input) async throws -> Operations.ListB2BPersonas.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let personas = try await back2back.store.personas(of: user.id, now: clock.now())
            return .ok(.init(body: .json(.init(items: personas.map(Back2BackMapping.persona)))))
        }
    }

    func createB2BPersona(_ input: Operations.CreateB2BPersona.Input) async throws -> Operations.CreateB2BPersona.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            // Made once per account on first use, so the built-ins do not come back after this one.
            _ = try await back2back.store.personas(of: user.id, now: clock.now())
            let persona = try Back2BackMapping.persona(body, id: PersonaID(), owner: user.id, now: clock.now())
            try await back2back.store.save(persona)
            return .created(.init(body: .json(Back2BackMapping.persona(persona))))
        }
    }

    func getB2BPersona(_ input: Operations.GetB2BPersona.Input) async throws -> Operations.GetB2BPersona.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            return .ok(.init(body: .json(Back2BackMapping.persona(try await ownPersona(input.path.personaId, of: user.id)))))
        }
    }

    func updateB2BPersona(_ input: Operations.UpdateB2BPersona.Input) async throws -> Operations.UpdateB2BPersona.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let existing = try await ownPersona(input.path.personaId, of: user.id)
            let persona = try Back2BackMapping.persona(body, id: existing.id, owner: user.id, now: clock.now())
            try await back2back.store.save(persona)
            return .ok(.init(body: .json(Back2BackMapping.persona(persona))))
        }
    }

    func deleteB2BPersona(_ input: Operations.DeleteB2BPersona.Input) async throws -> Operations.DeleteB2BPersona.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let persona = try await ownPersona(input.path.personaId, of: user.id)
            try await back2back.store.deletePersona(persona.id)
            return .noContent(.init())
        }
    }

    // MARK: Settings and memory

    func getB2BSettings(_ input: Operations.GetB2BSettings.Input) async throws -> Operations.GetB2BSettings.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let settings = try await back2back.store.settings(of: user.id, now: clock.now())
            return .ok(.init(body: .json(Back2BackMapping.settings(settings, aiConfigured: await back2back.aiConfigured()))))
        }
    }

    func updateB2BSettings(_ input: Operations.UpdateB2BSettings.Input) async throws -> Operations.UpdateB2BSettings.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            let settings = try Back2BackMapping.settings(body)
            if let persona = settings.persona {
                guard let found = try await back2back.store.persona(persona), found.owner == user.id else {
                    throw APIError.notFound("persona of yours")
                }
            }
            try await back2back.store.save(settings, of: user.id, now: clock.now())
            return .ok(.init(body: .json(Back2BackMapping.settings(settings, aiConfigured: await back2back.aiConfigured()))))
        }
    }

    func clearB2BMemory(_ input: Operations.ClearB2BMemory.Input) async throws -> Operations.ClearB2BMemory.Output {
        try await respond {
            let user = try CurrentRequest.requireUser()
            let persona: PersonaID? = try input.query.personaId.map { try parseID($0, field: "persona_id") }
            try await back2back.clearMemory(owner: user.id, persona: persona)
            return .noContent(.init())
        }
    }

    // MARK: The AI endpoint (admins)

    private func requireAdmin() throws -> User {
        let user = try CurrentRequest.requireUser()
        guard user.isAdmin else { throw APIError.adminOnly }
        return user
    }

    /// The endpoint in use; the key itself never leaves the server.
    private func aiEndpointView() async -> Components.Schemas.B2BAIEndpoint {
        let (settings, source) = await djSelector.endpoint()
        let payload = Components.Schemas.B2BAIEndpoint.SourcePayload(rawValue: source.rawValue) ?? .off
        return .init(source: payload, baseUrl: settings?.baseURL.absoluteString, keySet: settings != nil)
    }

    func getB2BAIEndpoint(_ input: Operations.GetB2BAIEndpoint.Input) async throws -> Operations.GetB2BAIEndpoint.Output {
        try await respond {
            _ = try requireAdmin()
            return .ok(.init(body: .json(await aiEndpointView())))
        }
    }

    func setB2BAIEndpoint(_ input: Operations.SetB2BAIEndpoint.Input) async throws -> Operations.SetB2BAIEndpoint.Output {
        try await respond {
            _ = try requireAdmin()
            guard case .json(let body) = input.body else { throw APIError.badRequest("Send JSON.") }
            guard AIEndpointRules.isBaseURL(body.baseUrl) else {
                throw APIError.unprocessable("Give the service's address, such as https://api.openai.com/v1.", field: "base_url")
            }
            guard AIEndpointRules.isKey(body.apiKey) else { throw APIError.unprocessable("A key is 1 to 500 visible ASCII characters.", field: "api_key") }
            try await back2back.store.saveAIEndpoint(baseURL: body.baseUrl, apiKey: body.apiKey, at: clock.now())
            return .ok(.init(body: .json(await aiEndpointView())))
        }
    }

    func clearB2BAIEndpoint(_ input: Operations.ClearB2BAIEndpoint.Input) async throws -> Operations.ClearB2BAIEndpoint.Output {
        try await respond {
            _ = try requireAdmin()
            try await back2back.store.clearAIEndpoint()
            return .ok(.init(body: .json(await aiEndpointView())))
        }
    }
}

/// The contract's rules for an AI endpoint, checked the same way here:
/// base_url ^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?$, up to 500 characters;
/// api_key 1 to 500 characters from ! to ~.
enum AIEndpointRules {
    static func isBaseURL(_ text: String) -> Bool {
        guard text.unicodeScalars.count <= 500 else { return false }
        let rest: Substring
        if text.hasPrefix("https://") {
            rest = text.dropFirst(8)
        } else if text.hasPrefix("http://") {
            rest = text.dropFirst(7)
        } else {
            return false
        }
        let hostChars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        let pathChars = hostChars.union("._~/")
        let host = rest.prefix { hostChars.contains($0) }
        guard !host.isEmpty else { return false }
        var tail = rest.dropFirst(host.count)
        if tail.first == ":" {
            let digits = tail.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard (1...5).contains(digits.count) else { return false }
            tail = tail.dropFirst(1 + digits.count)
        }
        if tail.isEmpty { return true }
        return tail.first == "/" && tail.allSatisfy { pathChars.contains($0) }
    }

    static func isKey(_ text: String) -> Bool {
        (1...500).contains(text.unicodeScalars.count) && text.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
    }
}
