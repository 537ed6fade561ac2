import LiveUpdates

extension Back2BackService {
    /// After the relay's listener lost its connection and listens again: what the other
    /// servers changed meanwhile was not heard, so every session watched here is told its
    /// current version (a page already up to date ignores it) or that it is gone.
    func resync() async {
        for id in await live.watched {
            do {
                guard let found = try await store.load(id) else {
                    await live.deleted(id)
                    continue
                }
                await live.changed(id, version: found.version)
            } catch {
                logger.error("Back2Back session not resynced", metadata: ["session": "\(id)", "error": "\(error)"])
            }
        }
    }
}
