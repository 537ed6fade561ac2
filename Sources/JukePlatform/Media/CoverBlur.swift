import ExternalTools
import Foundation

/// A cover shrunk to a few pixels (ffmpeg), for a page to show blurred before a reveal: the
/// colours of the real cover, not its picture. Made once per picture and kept, as clips are:
/// in memory by the picture's hash and, given a folder, on disk (a restarted server starts no
/// ffmpeg for a cover it blurred before); two asking for the same cover at once share one
/// ffmpeg, which takes one of the server's tool slots. Without ffmpeg there is none, and pages
/// fall back to a plain gradient.
public actor CoverBlur {
    /// Pixels on each side: enough for the colours, too few for a face or a word.
    public static let side = 8
    private let ffmpeg: ExternalTool?
    private let slots: ToolSlots
    /// Where blurred covers are kept, by hash; nil: in memory only.
    private let folder: String?
    /// Made covers, and nil for pictures ffmpeg could not read (asking again changes nothing).
    private var made: [String: Data?] = [:]
    private var order: [String] = []
    private var making: [String: Task<Data?, any Error>] = [:]
    private let capacity: Int

    public init(ffmpeg: ExternalTool? = ExternalTool.locate("ffmpeg"), slots: ToolSlots = ToolSlots(), folder: String? = nil, capacity: Int = 256) {
        self.ffmpeg = ffmpeg
        self.slots = slots
        self.folder = folder
        self.capacity = capacity
        if let folder { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    }

    /// The tiny PNG of the picture `data` (hash `key`), or nil when it cannot be made. Throws
    /// the tool slots' refusal (503) when every slot is taken and the line is full.
    public func tiny(_ data: Data, key: String) async throws -> Data? {
        if let done = made[key] { return done }
        if let kept = kept(key) {
            remember(key, kept)
            return kept
        }
        guard let ffmpeg else { return nil }
        let task: Task<Data?, any Error>
        if let running = making[key] {
            task = running
        } else {
            task = Task { [slots] in try await slots.run { try await Self.shrink(data, with: ffmpeg) } }
            making[key] = task
        }
        let png: Data?
        do {
            png = try await task.value
        } catch {
            if making[key] == task { making[key] = nil }
            // Busy: the 503. A deadline passed or a start failed: none this time, and the
            // next asking tries again.
            if error is APIError { throw error }
            return nil
        }
        if making[key] == task {
            making[key] = nil
            remember(key, png)
            if let png { keep(key, png) }
        }
        return png
    }

    private func remember(_ key: String, _ png: Data?) {
        if made.updateValue(png, forKey: key) == nil { order.append(key) }
        if order.count > capacity { made[order.removeFirst()] = nil }
    }

    /// The file a blurred cover is kept in: the hash names it, and only a plain hash does.
    private func file(_ key: String) -> String? {
        guard let folder, !key.isEmpty, key.count <= 128, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return (folder as NSString).appendingPathComponent(key + ".png")
    }

    private func kept(_ key: String) -> Data? {
        guard let path = file(key), let data = FileManager.default.contents(atPath: path), Self.isPNG(data) else { return nil }
        return data
    }

    /// Written beside, then renamed: a reader never sees half a file.
    private func keep(_ key: String, _ png: Data) {
        guard let path = file(key) else { return }
        let partial = path + ".partial-\(UUID().uuidString.lowercased())"
        guard FileManager.default.createFile(atPath: partial, contents: png), rename(partial, path) == 0 else {
            try? FileManager.default.removeItem(atPath: partial)
            return
        }
    }

    static func isPNG(_ data: Data) -> Bool { data.starts(with: [0x89, 0x50, 0x4E, 0x47]) }

    /// nil when ffmpeg cannot read the picture; throws when it could not finish (its
    /// deadline, a start that failed), which says nothing about the picture.
    private static func shrink(_ data: Data, with ffmpeg: ExternalTool) async throws -> Data? {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("juke-cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        try data.write(to: input)
        do {
            let png = Data(
                try await ffmpeg.run(
                    [
                        "-v", "error", "-i", input.path, "-vf", "scale=\(side):\(side):flags=area", "-frames:v", "1", "-f", "image2pipe", "-c:v",
                        "png", "-",
                    ], limits: .init(deadline: .seconds(30), outputBytes: 1 << 20)))
            return isPNG(png) ? png : nil
        } catch let failure as ExternalTool.Failure where failure.kind == .failed {
            return nil
        }
    }
}
