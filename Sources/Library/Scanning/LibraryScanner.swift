public import Foundation
public import JukeCore
public import Logging
import MediaFormats
public import Storage

/// Scans a watched folder into the library, incrementally.
///
/// A file whose size and modification time match the library is not reopened. A file that
/// disappeared from one path and appeared at another with the same size and time is a
/// move: it keeps its ID (so playlists and game history still point at it). A file that
/// cannot be read is reported with its path and reason and skipped; if the library already
/// had it, the old entry stays. Changes are saved in batches (additions, changes and removals
/// alike), each one short transaction, so that pages and searches never wait long behind one.
public struct LibraryScanner: Sendable {
    let store: LibraryStore
    let clock: WallClock
    let logger: Logger
    let batchSize: Int
    /// Told of each saved batch (the server's search index).
    let observer: (any LibraryChangeObserver)?

    public init(
        store: LibraryStore, clock: WallClock = .system, logger: Logger, batchSize: Int = 500, observer: (any LibraryChangeObserver)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.batchSize = batchSize
        self.observer = observer
    }

    /// Saves one batch, telling the observer before and after.
    func save(_ changes: LibraryStore.ScanChanges, folder: LibraryFolderID, now: Date) async throws {
        await observer?.willApply()
        do {
            let applied = try await store.apply(changes, folder: folder, now: now)
            await observer?.applied(applied)
        } catch {
            await observer?.applied(nil)
            throw error
        }
    }

    public func scan(_ folder: LibraryFolder, progress report: @Sendable (ScanProgress) -> Void = { _ in }) async throws -> ScanReport {
        var progress = ScanProgress(folderPath: folder.path)
        var failures: [ScanFailure] = []
        report(progress)

        let files: [FileWalker.Entry]
        do {
            files = try FileWalker.audioFiles(under: folder.path)
        } catch {
            progress.phase = .failed
            progress.message = String(describing: error)
            report(progress)
            throw error
        }
        progress.filesFound = files.count
        progress.phase = .reading
        report(progress)

        let known = try await store.fileRecords(folder: folder.id)
        var byPath: [String: LibraryStore.FileRecord] = [:]
        for record in known { byPath[record.path] = record }
        let present = Set(files.map(\.path))
        // Records whose file is gone: deleted, unless a new path turns out to be the same file.
        var missingBySignature: [String: [LibraryStore.FileRecord]] = [:]
        for record in known where !present.contains(record.path) {
            missingBySignature["\(record.fileSize):\(record.modifiedMillis)", default: []].append(record)
        }

        var changes = LibraryStore.ScanChanges()
        let now = clock.now()
        var lastReport = ContinuousClock.now
        for file in files {
            progress.filesChecked += 1
            if let record = byPath[file.path], record.fileSize == file.size, record.modifiedMillis == file.modifiedMillis {
                progress.unchanged += 1
                continue
            }
            progress.currentPath = file.path
            let existing = byPath[file.path]
            let signature = "\(file.size):\(file.modifiedMillis)"
            do {
                let meta = try TagReader.read(path: file.path)
                let movedFrom = existing == nil ? Self.takeMoveCandidate(&missingBySignature, signature: signature, for: file, meta: meta) : nil
                let id = existing?.id ?? movedFrom?.id ?? TrackID()
                let built = TrackBuilder.build(meta: meta, file: file, id: id, folder: folder.id, addedAt: now)
                changes.upserts.append(built.track)
                if let art = built.artwork { changes.artwork[art.hash] = (art.mimeType, art.data) }
                changes.lyrics[file.path] = built.lyrics
                changes.resolvedIssuePaths.append(file.path)
                if existing != nil {
                    progress.updated += 1
                } else if let movedFrom {
                    changes.moves.append((movedFrom.id, file.path))
                    progress.moved += 1
                } else {
                    progress.added += 1
                }
            } catch {
                let reason = String(describing: error)
                failures.append(ScanFailure(path: file.path, reason: reason))
                changes.issues.append((file.path, reason))
                progress.failed += 1
                logger.warning("skipped unreadable file", metadata: ["path": "\(file.path)", "reason": "\(reason)"])
            }
            if changes.upserts.count >= batchSize {
                progress.phase = .saving
                try await save(changes, folder: folder.id, now: now)
                changes = LibraryStore.ScanChanges()
                progress.phase = .reading
            }
            if ContinuousClock.now - lastReport > .milliseconds(200) {
                report(progress)
                lastReport = ContinuousClock.now
            }
        }
        progress.phase = .saving
        progress.currentPath = nil
        report(progress)
        for records in missingBySignature.values {
            for record in records {
                changes.deletions.append(record.id)
                changes.resolvedIssuePaths.append(record.path)
                progress.removed += 1
                if changes.deletions.count >= batchSize {
                    try await save(changes, folder: folder.id, now: now)
                    changes = LibraryStore.ScanChanges()
                }
            }
        }
        try await save(changes, folder: folder.id, now: now)
        progress.phase = .done
        report(progress)
        logger.info("scan finished", metadata: ["folder": "\(folder.path)", "summary": "\(progress.summary)"])
        return ScanReport(progress: progress, failures: failures)
    }

    /// The vanished file that `file` most likely is: same size and modification time, and
    /// among several such, the one with the same tags, else the same file name.
    static func takeMoveCandidate(
        _ missing: inout [String: [LibraryStore.FileRecord]], signature: String, for file: FileWalker.Entry, meta: AudioMetadata
    ) -> LibraryStore.FileRecord? {
        guard var candidates = missing[signature], !candidates.isEmpty else { return nil }
        let name = (file.path as NSString).lastPathComponent
        let index =
            candidates.firstIndex { $0.title == meta.title && $0.artist == meta.artist }
            ?? candidates.firstIndex { ($0.path as NSString).lastPathComponent == name }
            ?? candidates.count - 1
        let chosen = candidates.remove(at: index)
        missing[signature] = candidates
        return chosen
    }
}
