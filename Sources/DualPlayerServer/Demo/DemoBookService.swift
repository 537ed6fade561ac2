import DualPlayer
import Foundation
import JukeCore
import JukePlatform
import Logging
import MediaFormats
import ServiceLifecycle

/// Dual Player's offline default: on a server that installs the demo library, the spoken demo
/// audiobook is made once (in the background, so the server starts at once) and put on
/// everyone's shelf. Without espeak-ng or ffmpeg the server runs on and says what is missing.
///
/// Servers sharing one database shelve the demo once; each makes its own copy of the file in
/// its own data folder, which is the one it serves (`localPath`).
struct DemoBookService: Service {
    let platform: Platform
    let books: BookStore

    /// The demo's key in each server's own data folder (`Platform.ownFiles`), never in a
    /// shared bucket: every server makes and serves its own copy.
    static let key = "dual/demo/aesops-fables.m4b"

    var path: String { platform.configuration.dataDirectory + "/" + Self.key }

    func run() async throws {
        if platform.configuration.installDemoLibrary {
            do {
                // Seconds of espeak-ng and ffmpeg: a shutdown meanwhile ends them rather than
                // waiting (the next start makes the book again).
                try await cancelWhenGracefulShutdown { try await ensureDemo() }
            } catch let error where Task.isShuttingDownGracefully || Task.isCancelled {
                platform.logger.info("Dual Player's spoken demo is unfinished: the server is stopping", metadata: ["error": "\(error)"])
            } catch {
                platform.logger.error("could not make Dual Player's spoken demo", metadata: ["error": "\(error)"])
            }
        }
        // A service that returns would stop the whole group: wait for the server to stop.
        try? await gracefulShutdown()
    }

    func ensureDemo() async throws {
        let shelved = try await books.first(origin: .demo)
        if shelved != nil && FileManager.default.fileExists(atPath: path) { return }
        if !FileManager.default.fileExists(atPath: path) {
            switch DemoBookMaker.find(slots: platform.tools) {
            case .failure(let missing):
                platform.logger.warning(
                    "Dual Player's spoken demo audiobook is skipped: \(missing). Install espeak-ng and ffmpeg (Scripts/run.sh does) to have it.")
                return
            case .success(let maker):
                platform.logger.info("making Dual Player's spoken demo audiobook", metadata: ["path": "\(path)"])
                let target = path
                // Seconds of espeak-ng and ffmpeg: on a thread of its own, not the task pool's.
                try await maker.write(to: target)
            }
        }
        guard shelved == nil else { return }
        let list = try ChapterReader.read(path: path)
        let book = Book(
            id: BookID(rawValue: UUID()), owner: nil, origin: .demo, title: DemoBookText.title, author: DemoBookText.author, file: Self.key,
            format: "mp4", duration: list.duration, chapterSource: list.source.rawValue,
            chapters: list.chapters.map { Book.Chapter(title: $0.title, start: $0.start, end: $0.end) }, addedAt: platform.clock.now())
        try await books.add(book)
    }
}
