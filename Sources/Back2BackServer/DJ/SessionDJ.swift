import Back2Back
import JukeCore
import Providers

/// Who answers a session's requests: picks and direction changes. Juke's own DJ answers with
/// no network; an AI DJ answers through a provider and falls back to Juke's own.
protocol SessionDJ: Sendable {
    /// Whether an AI answers (the settings page says so).
    func usesAI() async -> Bool
    func pick(_ context: PickContext) async -> Result<PersonaDJ.Pick, DJFailure>
    /// `avoiding`: where the session already goes; a direction leading there is not offered.
    func direction(after recent: [Song], avoiding: [Direction], persona: Persona, library: [Song], settings: DJSettings) async -> Direction?
    /// The song playing is about to end with nothing queued: the pick for `task` is needed now.
    func hurry(_ task: AITaskID) async
    /// A style guide for the persona, streamed as it is written.
    func styleGuide(for persona: Persona, settings: DJSettings) -> AsyncThrowingStream<StreamEvent, any Error>
}

/// Everything a DJ needs to pick the next song.
struct PickContext: Sendable {
    let request: AIRequest
    let persona: Persona
    let library: [Song]
    /// The session's songs in playing order (history, now playing, queue).
    let recent: [Song]
    /// The session's songs and the persona's song memory: never to be picked.
    let exclusions: SongExclusions
    /// The persona's memory, for prompts.
    let memory: [SongMemory.Remembered]
    /// The host's settings: which model and effort picks use.
    let settings: DJSettings
}

struct DJFailure: Error, Sendable, Equatable {
    let message: String
}

/// Juke's own DJ: the persona engine over the library. Instant, offline, always available.
struct JukeDJ: SessionDJ {
    func usesAI() async -> Bool { false }

    func pick(_ context: PickContext) async -> Result<PersonaDJ.Pick, DJFailure> {
        var generator = SystemRandomNumberGenerator()
        guard
            let pick = PersonaDJ().pick(
                for: context.persona, from: context.library, after: context.recent, excluding: context.exclusions,
                direction: context.request.direction, using: &generator)
        else {
            let message =
                context.library.isEmpty
                ? "The library is empty: add music first."
                : "Every song in the library has played in this session or in the persona's last 24 hours; clear the song memory to hear them again."
            return .failure(DJFailure(message: message))
        }
        return .success(pick)
    }

    func direction(after recent: [Song], avoiding: [Direction], persona: Persona, library: [Song], settings: DJSettings) async -> Direction? {
        var generator = SystemRandomNumberGenerator()
        return DirectionPlanner().suggest(after: recent, library: library, avoiding: avoiding, using: &generator)
    }

    func hurry(_ task: AITaskID) async {}  // its picks are instant

    func styleGuide(for persona: Persona, settings: DJSettings) -> AsyncThrowingStream<StreamEvent, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(.progress("Writing from the persona's taste (no AI is configured)"))
            var all = ""
            for paragraph in StyleGuideWriter.paragraphs(for: persona) {
                let piece = (all.isEmpty ? "" : "\n\n") + paragraph
                all += piece
                continuation.yield(.text(piece))
            }
            continuation.yield(.done(all))
            continuation.finish()
        }
    }
}
