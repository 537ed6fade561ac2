import Back2Back
import Foundation
import JukeCore
import Logging
import Matching
import Providers

/// The AI DJ: an OpenAI-compatible model picks each song in the persona's style (structured
/// output: artist, title, album, rationale). Every answer is resolved to a library track by
/// the matching engine, which needs both artist and title to match; an answer that resolves
/// to nothing, or to a song the session or the persona's memory excludes, is sent back as
/// feedback, up to `attempts` times. Then, or at once on a quota, key or network error, or
/// when the song playing is about to end (`hurry`), Juke's own DJ picks instead, and says so.
actor AIDJ: SessionDJ {
    func usesAI() async -> Bool { true }
    let client: OpenAIClient
    /// An outside catalog to learn a pick's ISRC and length from, if configured.
    let catalog: (any MusicCatalog)?
    let logger: Logger
    /// Tries before Juke's own DJ takes over (the seed's 10).
    let attempts: Int
    /// How many library songs the model is shown to choose from, best for the persona first.
    let shortlist: Int
    private let fallback = JukeDJ()
    private var hurried: Set<AITaskID> = []

    init(client: OpenAIClient, catalog: (any MusicCatalog)? = nil, logger: Logger, attempts: Int = 10, shortlist: Int = 120) {
        self.client = client
        self.catalog = catalog
        self.logger = logger
        self.attempts = attempts
        self.shortlist = shortlist
    }

    func hurry(_ task: AITaskID) { hurried.insert(task) }

    private func isHurried(_ task: AITaskID) -> Bool { hurried.contains(task) }

    private func forget(_ task: AITaskID) { hurried.remove(task) }

    // MARK: - Picks

    func pick(_ context: PickContext) async -> Result<PersonaDJ.Pick, DJFailure> {
        let task = context.request.task
        defer { forget(task) }
        // The model's answer, unless the song playing ends first.
        let outcome = await withTaskGroup(of: AIOutcome.self) { group in
            group.addTask { await self.askModel(context) }
            group.addTask {
                while !Task.isCancelled {
                    if await self.isHurried(task) { return .gaveUp("the song was ending before the AI answered") }
                    try? await Task.sleep(for: .milliseconds(100))
                }
                return .gaveUp("cancelled")
            }
            let first = await group.next() ?? .gaveUp("no answer")
            group.cancelAll()
            return first
        }
        switch outcome {
        case .picked(let pick): return .success(pick)
        case .gaveUp(let reason):
            logger.info("Back2Back: Juke's DJ picks instead of the AI", metadata: ["reason": "\(reason)"])
            // Juke's own DJ aims at a direction's genre, era or pace; an AI's direction in
            // words alone it cannot follow, so its pick must not wear that label.
            let followed = context.request.direction?.isStructured ?? true
            return await fallback.pick(context).map { pick in
                PersonaDJ.Pick(
                    song: pick.song, rationale: pick.rationale + " (Juke's own DJ picked: \(reason).)", score: pick.score,
                    followedDirection: followed)
            }
        }
    }

    enum AIOutcome: Sendable {
        case picked(PersonaDJ.Pick)
        case gaveUp(String)
    }

    /// Asks the model until an answer resolves to an allowed library track.
    private nonisolated func askModel(_ context: PickContext) async -> AIOutcome {
        var generator = SystemRandomNumberGenerator()
        let choices = PersonaDJ().rank(
            for: context.persona, from: context.library, after: context.recent, excluding: context.exclusions, direction: context.request.direction,
            limit: shortlist, using: &generator)
        guard !choices.isEmpty else { return .gaveUp("nothing in the library is left to play") }
        let library = TrackCatalog(songs: context.library)
        let byID = Dictionary(context.library.map { ($0.track, $0) }, uniquingKeysWith: { a, _ in a })
        var failed: [String] = []
        for attempt in 1...attempts {
            if Task.isCancelled { return .gaveUp("cancelled") }
            let answer: String
            do {
                answer = try await client.structured(
                    OpenAIClient.StructuredRequest(
                        model: context.settings.songSelection.model, effort: context.settings.songSelection.effort.rawValue,
                        instructions: PickPrompt.instructions(context.persona), input: PickPrompt.input(context, choices: choices, failed: failed),
                        schemaName: "song_pick", schema: PickPrompt.schema))
            } catch {
                return .gaveUp(describe(error))
            }
            guard let reply = PickPrompt.parse(answer) else {
                failed.append("(attempt \(attempt): the reply was not the JSON asked for)")
                continue
            }
            let named = "\(reply.artist) - \(reply.title)"
            let known = await lookUp(reply)
            let query = TrackResolver.Query(artist: reply.artist, title: reply.title, album: reply.album, duration: known?.duration, isrc: known?.isrc)
            switch library.resolve(query) {
            case .match(let scored):
                guard let song = byID[scored.candidate.id] else { continue }
                if context.exclusions.contains(song) {
                    failed.append("\(named) (already played in this session or in the last 24 hours)")
                    continue
                }
                return .picked(PersonaDJ.Pick(song: song, rationale: String(reply.rationale.prefix(400)), score: scored.confidence))
            case .noMatch:
                failed.append("\(named) (not in the library)")
            }
        }
        return .gaveUp("the AI named no playable library song in \(attempts) tries")
    }

    /// The outside catalog's entry for the song the AI named (both artist and title must
    /// match), for its ISRC and length. Enrichment only: any failure just means no extra facts.
    private nonisolated func lookUp(_ reply: PickPrompt.Reply) async -> CatalogSong? {
        guard let catalog else { return nil }
        guard let page = try? await catalog.search("\(reply.artist) \(reply.title)", limit: 5, offset: 0) else { return nil }
        let candidates = page.songs.enumerated().map { TrackResolver.Candidate(id: $0.offset, artist: $0.element.artist, title: $0.element.title) }
        guard case .match(let best) = TrackResolver().resolve(TrackResolver.Query(artist: reply.artist, title: reply.title), in: candidates) else {
            return nil
        }
        return page.songs[best.candidate.id]
    }

    // MARK: - Directions

    func direction(after recent: [Song], avoiding: [Direction], persona: Persona, library: [Song], settings: DJSettings) async -> Direction? {
        do {
            let answer = try await client.structured(
                OpenAIClient.StructuredRequest(
                    model: settings.directionChange.model, effort: settings.directionChange.effort.rawValue,
                    instructions: DirectionPrompt.instructions, input: DirectionPrompt.input(recent, avoiding: avoiding, persona: persona),
                    schemaName: "direction_change", schema: DirectionPrompt.schema))
            if let direction = DirectionPrompt.parse(answer), !avoiding.contains(where: { $0.sameWay(as: direction) }) { return direction }
            logger.info("Back2Back: the AI's direction label was unusable; Juke's own is used")
        } catch {
            logger.info("Back2Back: no AI direction", metadata: ["error": "\(describe(error))"])
        }
        return await fallback.direction(after: recent, avoiding: avoiding, persona: persona, library: library, settings: settings)
    }
}

extension AIDJ {
    /// A style guide written by the model, with web search for sources, streamed.
    nonisolated func styleGuide(for persona: Persona, settings: DJSettings) -> AsyncThrowingStream<StreamEvent, any Error> {
        client.streamText(
            model: settings.styleGuide.model, effort: settings.styleGuide.effort.rawValue,
            instructions: """
                You write style guides for DJ personas used by an AI that picks songs back to back with a person. \
                Research the kind of DJ or the public figure the persona is inspired by, then write a guide of 300 to 600 words: \
                core genres and eras, signature artists and deep cuts, how they sequence a set (energy, transitions, surprises), \
                and what they would never play. Write about the style; never write as the person.
                """,
            input: "Persona: \(persona.name)\n\(persona.description)", webSearch: true)
    }
}

/// The most useful sentence about an error for a log or the page.
func describe(_ error: any Error) -> String { (error as? OpenAIError)?.message ?? String(describing: error) }
