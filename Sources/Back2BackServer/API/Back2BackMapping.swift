import Back2Back
import Back2BackAPI
import Foundation
import JukeCore
import JukePlatform
import Storage

/// Back2Back values as the contract's JSON (and back): only shapes, no rules.
enum Back2BackMapping {
    typealias S = Components.Schemas

    static func session(_ loaded: Back2BackService.Loaded, viewer: UserID, names: [UserID: String], personaName: String, crossfade: Double)
        -> S.B2BSession
    {
        var view = sessionBody(loaded, viewer: viewer, names: names, personaName: personaName, crossfade: crossfade)
        let s = loaded.session
        view.turnSeconds = s.turnLimit
        view.turnEndsAtMs = s.turnEndsAt.map(Milliseconds.since1970)
        view.player = s.player.map { player in
            S.B2BPlayer(
                userId: player.user.description, displayName: names[player.user], deviceId: player.device,
                deviceKind: s.playerKind.flatMap { S.B2BDeviceKind(rawValue: $0.rawValue) },
                tookOverFrom: s.handover.map {
                    S.B2BHandover(
                        userId: $0.from.user.description, displayName: names[$0.from.user],
                        deviceKind: $0.fromKind.flatMap { S.B2BDeviceKind(rawValue: $0.rawValue) }, atMs: Milliseconds.since1970($0.at))
                })
        }
        view.playhead = s.playhead.map {
            S.B2BPlayhead(entryId: $0.entry.description, position: $0.position, atMs: Milliseconds.since1970($0.at), paused: $0.paused)
        }
        return view
    }

    private static func sessionBody(
        _ loaded: Back2BackService.Loaded, viewer: UserID, names: [UserID: String], personaName: String, crossfade: Double
    ) -> S.B2BSession {
        let s = loaded.session
        let turn: S.B2BTurn
        switch s.turn {
        case .ai: turn = S.B2BTurn(kind: .ai, isYou: false)
        case .person(let user): turn = S.B2BTurn(kind: .person, userId: user.description, displayName: names[user], isYou: user == viewer)
        }
        return S.B2BSession(
            id: s.id.description, title: loaded.title, hostId: s.host.description, isHost: s.host == viewer, inviteToken: loaded.inviteToken,
            personaId: s.persona.description, personaName: personaName,
            members: s.members.map {
                S.B2BMember(id: $0.description, displayName: names[$0] ?? "Someone", isHost: $0 == s.host, online: s.isPresent($0))
            },
            turn: turn, history: s.history.map { entry($0, names: names) }, nowPlaying: s.nowPlaying.map { entry($0, names: names) },
            queue: s.queue.map { entry($0, names: names) }, aiThinking: s.isAIThinking,
            directionLabel: s.turn == .person(viewer) ? s.direction?.label : nil, problem: s.problem, version: loaded.version,
            crossfadeSeconds: crossfade, createdAt: s.createdAt, updatedAt: s.updatedAt)
    }

    static func entry(_ e: SessionEntry, names: [UserID: String]) -> S.B2BEntry {
        var pickerID: String?
        var pickerName: String?
        if case .person(let user) = e.pickedBy {
            pickerID = user.description
            pickerName = names[user]
        }
        return S.B2BEntry(
            id: e.id.description, song: song(e.song), pickedBy: e.pickedBy == .ai ? .ai : .person, pickerId: pickerID, pickerName: pickerName,
            pickedAt: e.pickedAt, status: S.B2BEntry.StatusPayload(rawValue: e.status.rawValue) ?? .played, rationale: e.rationale,
            direction: e.direction, startedAt: e.startedAt, skipped: e.skipped)
    }

    static func song(_ s: Song) -> S.B2BSong {
        S.B2BSong(
            trackId: s.track.description, title: s.title, artist: s.artist, album: s.album, duration: s.duration.isFinite ? s.duration : 0,
            genre: s.genre, year: s.year, bpm: s.tempo.flatMap { $0.isFinite ? $0 : nil })
    }

    static func catalogPage(_ found: Back2BackService.CatalogResults) -> S.B2BCatalogPage {
        S.B2BCatalogPage(
            provider: found.provider,
            items: found.results.map { result in
                let s = result.song
                return S.B2BCatalogSong(
                    title: s.title, artist: s.artist, album: s.album, year: s.year, genre: s.genre,
                    duration: s.duration.flatMap { $0.isFinite ? $0 : nil }, isrc: s.isrc, url: s.url, librarySong: result.librarySong.map(song))
            },
            hasMore: found.hasMore)
    }

    static func summary(_ s: Back2BackStore.Summary, viewer: UserID) -> S.B2BSessionSummary {
        S.B2BSessionSummary(id: s.id.description, title: s.title, isHost: s.host == viewer, songCount: s.songCount, updatedAt: s.updatedAt)
    }

    static func persona(_ p: Persona) -> S.B2BPersona {
        S.B2BPersona(
            id: p.id.description, name: p.name, description: p.description, styleGuide: p.styleGuide,
            taste: S.B2BTaste(
                genres: p.taste.genres, artists: p.taste.artists, yearFrom: p.taste.years?.lowerBound, yearTo: p.taste.years?.upperBound,
                adventure: p.taste.adventure),
            updatedAt: p.updatedAt)
    }

    /// A persona from what a person typed; throws a 422 naming the field at fault.
    static func persona(_ input: S.B2BPersonaInput, id: PersonaID, owner: UserID, now: Date) throws -> Persona {
        if let problem = Persona.problem(name: input.name, description: input.description, styleGuide: input.styleGuide ?? "") {
            throw APIError.unprocessable(problem.message, field: problem.field)
        }
        let trimmed = input.name.trimmingCharacters(in: .whitespacesAndNewlines)
        let taste = try Self.taste(input.taste)
        return Persona(
            id: id, owner: owner, name: trimmed.isEmpty ? input.name : trimmed, description: input.description, styleGuide: input.styleGuide ?? "",
            taste: taste, updatedAt: now)
    }

    /// A taste within the contract's limits; an era given by one end runs to the other limit,
    /// and one given backwards is read forwards.
    static func taste(_ t: S.B2BTaste) throws -> Taste {
        let limits = 1000...3000
        guard t.genres.count <= 30, t.artists.count <= 50 else { throw APIError.unprocessable("At most 30 genres and 50 artists.", field: "taste") }
        guard t.genres.allSatisfy({ $0.unicodeScalars.count <= 60 }), t.artists.allSatisfy({ $0.unicodeScalars.count <= 120 }) else {
            throw APIError.unprocessable("A genre has at most 60 characters and an artist at most 120.", field: "taste")
        }
        for year in [t.yearFrom, t.yearTo].compactMap({ $0 }) where !limits.contains(year) {
            throw APIError.unprocessable("Years are from 1000 to 3000.", field: "taste")
        }
        guard t.adventure.isFinite, (0...1).contains(t.adventure) else { throw APIError.unprocessable("Adventure is 0 to 1.", field: "taste") }
        var years: ClosedRange<Int>?
        switch (t.yearFrom, t.yearTo) {
        case (let from?, let to?): years = min(from, to)...max(from, to)
        case (let from?, nil): years = from...limits.upperBound
        case (nil, let to?): years = limits.lowerBound...to
        case (nil, nil): years = nil
        }
        let clean = { (list: [String]) in list.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty } }
        return Taste(genres: clean(t.genres), years: years, artists: clean(t.artists), adventure: t.adventure)
    }

    static func settings(_ s: DJSettings, aiConfigured: Bool) -> S.B2BSettings {
        S.B2BSettings(
            songSelection: choice(s.songSelection), directionChange: choice(s.directionChange), styleGuide: choice(s.styleGuide),
            crossfadeSeconds: s.crossfadeSeconds, personaId: s.persona?.description, aiConfigured: aiConfigured)
    }

    static func choice(_ c: DJSettings.ModelChoice) -> S.B2BModelChoice {
        S.B2BModelChoice(model: c.model, effort: S.B2BModelChoice.EffortPayload(rawValue: c.effort.rawValue) ?? .low)
    }

    static func settings(_ input: S.B2BSettingsInput) throws -> DJSettings {
        func choice(_ c: S.B2BModelChoice) -> DJSettings.ModelChoice {
            DJSettings.ModelChoice(model: c.model.trimmingCharacters(in: .whitespaces), effort: DJSettings.Effort(rawValue: c.effort.rawValue) ?? .low)
        }
        var persona: PersonaID?
        if let raw = input.personaId { persona = try parseID(raw, field: "persona_id") }
        let settings = DJSettings(
            songSelection: choice(input.songSelection), directionChange: choice(input.directionChange), styleGuide: choice(input.styleGuide),
            crossfadeSeconds: input.crossfadeSeconds, persona: persona)
        if let problem = settings.problem { throw APIError.unprocessable(problem.message, field: problem.field) }
        return settings
    }
}
