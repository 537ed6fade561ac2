import Back2Back
import Foundation
import JukeCore
import Logging
import Providers
import Storage

/// Which DJ answers, decided at each request: the AI DJ on the endpoint an admin set on the
/// settings page, else on the one the server was started with (flags or environment), else
/// Juke's own DJ. One AI DJ is kept per endpoint, so a hurry reaches the pick it is for.
actor DJSelector: SessionDJ {
    private let environment: OpenAISettings?
    private let store: Back2BackStore
    private let catalog: (any MusicCatalog)?
    private let http: HTTPClient
    private let logger: Logger
    private var cached: (key: String, dj: AIDJ)?

    init(environment: OpenAISettings?, store: Back2BackStore, catalog: (any MusicCatalog)?, http: HTTPClient, logger: Logger) {
        self.environment = environment
        self.http = http
        self.store = store
        self.catalog = catalog
        self.logger = logger
    }

    /// Where the AI is, and whether the settings page or the environment said so.
    enum Source: String, Sendable { case settings, environment, off }

    func endpoint() async -> (settings: OpenAISettings?, source: Source) {
        if let stored = try? await store.aiEndpoint(), let url = URL(string: stored.baseURL) {
            return (OpenAISettings(baseURL: url, apiKey: stored.apiKey), .settings)
        }
        return (environment, environment == nil ? .off : .environment)
    }

    private func current() async -> any SessionDJ {
        guard let settings = await endpoint().settings else { return JukeDJ() }
        let key = "\(settings.baseURL.absoluteString)\n\(settings.apiKey)"
        if let cached, cached.key == key { return cached.dj }
        let dj = AIDJ(
            client: OpenAIClient(http: http, baseURL: settings.baseURL, apiKey: settings.apiKey, timeout: max(settings.timeout, 90)), catalog: catalog,
            logger: logger)
        cached = (key, dj)
        return dj
    }

    func usesAI() async -> Bool { await endpoint().settings != nil }

    func pick(_ context: PickContext) async -> Result<PersonaDJ.Pick, DJFailure> { await current().pick(context) }

    func direction(after recent: [Song], avoiding: [Direction], persona: Persona, library: [Song], settings: DJSettings) async -> Direction? {
        await current().direction(after: recent, avoiding: avoiding, persona: persona, library: library, settings: settings)
    }

    func hurry(_ task: AITaskID) async { await current().hurry(task) }

    nonisolated func styleGuide(for persona: Persona, settings: DJSettings) -> AsyncThrowingStream<StreamEvent, any Error> {
        AsyncThrowingStream { continuation in
            let work = Task {
                do {
                    for try await event in await self.current().styleGuide(for: persona, settings: settings) { continuation.yield(event) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }
}
