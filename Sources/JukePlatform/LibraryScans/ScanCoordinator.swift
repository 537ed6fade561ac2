import Foundation
import JukeCore
import Library
import Logging
import Storage

/// Runs library scans in the background, one at a time per folder, and remembers the
/// latest progress of each for the library page.
actor ScanCoordinator {
    private let scanner: LibraryScanner
    private let store: LibraryStore
    private let logger: Logger
    private var progress: [String: ScanProgress] = [:]
    private var running: [String: Task<Void, Never>] = [:]

    init(store: LibraryStore, clock: WallClock, logger: Logger) {
        self.store = store
        self.scanner = LibraryScanner(store: store, clock: clock, logger: logger)
        self.logger = logger
    }

    /// Starts a scan of `folder` unless one is already running.
    func start(_ folder: LibraryFolder) {
        guard running[folder.path] == nil else { return }
        progress[folder.path] = ScanProgress(folderPath: folder.path)
        running[folder.path] = Task {
            do {
                let report = try await scanner.scan(folder) { update in Task { await self.record(update) } }
                self.complete(report.progress)
            } catch {
                var failed = ScanProgress(folderPath: folder.path)
                failed.phase = .failed
                failed.message = String(describing: error)
                self.complete(failed)
                self.logger.error("scan failed", metadata: ["folder": "\(folder.path)", "error": "\(error)"])
            }
        }
    }

    func startAll() async throws {
        for folder in try await store.folders() { start(folder) }
    }

    /// Waits for every running scan (tests and the first start use it).
    func waitForAll() async {
        while let task = running.values.first { await task.value }
    }

    /// A report from inside a scan. Reports hop here in tasks of their own and can arrive
    /// after the scan ended; those are stale and dropped.
    private func record(_ update: ScanProgress) {
        guard running[update.folderPath] != nil else { return }
        progress[update.folderPath] = update
    }

    private func complete(_ final: ScanProgress) {
        progress[final.folderPath] = final
        running[final.folderPath] = nil
    }

    func snapshot() -> [ScanProgress] { progress.values.sorted { $0.folderPath < $1.folderPath } }
}
