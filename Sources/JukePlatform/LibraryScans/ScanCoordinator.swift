import Foundation
import JukeCore
import Library
import Logging
import Storage
import Synchronization

/// Runs library scans in the background (`BackgroundWork`), one at a time per folder, and
/// remembers the latest progress of each for the library page.
actor ScanCoordinator {
    private let scanner: LibraryScanner
    private let store: LibraryStore
    private let background: BackgroundWork
    private let logger: Logger
    /// Written from inside a scan as it goes (the scanner reports synchronously), read by the page.
    private let board = ScanBoard()
    private var running: [String: BackgroundJob] = [:]

    private final class ScanBoard: Sendable {
        struct State {
            var progress: [String: ScanProgress] = [:]
            var scanning: Set<String> = []
        }
        private let state = Mutex(State())
        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// `search`: told of each batch a scan saves, to follow it in place.
    init(store: LibraryStore, clock: WallClock, background: BackgroundWork, logger: Logger, search: CatalogSearch) {
        self.store = store
        self.background = background
        self.scanner = LibraryScanner(store: store, clock: clock, logger: logger, observer: search)
        self.logger = logger
    }

    /// Starts a scan of `folder` unless one is already running.
    func start(_ folder: LibraryFolder) {
        guard running[folder.path] == nil else { return }
        let path = folder.path
        board.withLock {
            $0.progress[path] = ScanProgress(folderPath: path)
            $0.scanning.insert(path)
        }
        let scanner = scanner
        let board = board
        let logger = logger
        running[path] = background.start("library scan") {
            let final: ScanProgress
            do {
                let report = try await scanner.scan(folder) { update in
                    board.withLock { if $0.scanning.contains(path) { $0.progress[path] = update } }
                }
                final = report.progress
            } catch {
                var failed = ScanProgress(folderPath: path)
                failed.phase = .failed
                failed.message = String(describing: error)
                final = failed
                logger.error("scan failed", metadata: ["folder": "\(path)", "error": "\(error)"])
            }
            board.withLock {
                $0.progress[path] = final
                $0.scanning.remove(path)
            }
            await self.ended(path)
        }
    }

    func startAll() async throws {
        for folder in try await store.folders() { start(folder) }
    }

    /// Waits for every running scan (tests and the first start use it).
    func waitForAll() async {
        while let (path, job) = running.first {
            await job.wait()
            // A scan that shutdown kept from starting never reported its end.
            if running[path] === job { ended(path) }
        }
    }

    private func ended(_ path: String) {
        running[path] = nil
        board.withLock { $0.scanning.remove(path) }
    }

    func snapshot() -> [ScanProgress] { board.withLock { $0.progress.values.sorted { $0.folderPath < $1.folderPath } } }
}
