import ExternalTools
import Foundation

/// A cover shrunk to a few pixels (ffmpeg), for a page to show blurred before a reveal: the
/// colours of the real cover, not its picture. Small, so kept in memory by the picture's
/// hash; without ffmpeg there is none, and pages fall back to a plain gradient.
public actor CoverBlur {
    /// Pixels on each side: enough for the colours, too few for a face or a word.
    public static let side = 8
    private let ffmpeg: ExternalTool?
    private var made: [String: Data] = [:]
    private var order: [String] = []
    private let capacity: Int

    public init(ffmpeg: ExternalTool? = ExternalTool.locate("ffmpeg"), capacity: Int = 256) {
        self.ffmpeg = ffmpeg
        self.capacity = capacity
    }

    /// The tiny PNG of the picture `data` (hash `key`), or nil when it cannot be made.
    public func tiny(_ data: Data, key: String) async -> Data? {
        if let done = made[key] { return done }
        guard let ffmpeg else { return nil }
        guard let png = await Self.shrink(data, with: ffmpeg) else { return nil }
        made[key] = png
        order.append(key)
        if order.count > capacity { made[order.removeFirst()] = nil }
        return png
    }

    private static func shrink(_ data: Data, with ffmpeg: ExternalTool) async -> Data? {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("juke-cover-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: input) }
        do {
            try data.write(to: input)
            let png = try await ffmpeg.run(
                [
                    "-v", "error", "-i", input.path, "-vf", "scale=\(side):\(side):flags=area", "-frames:v", "1", "-f", "image2pipe", "-c:v", "png",
                    "-",
                ], limits: .init(deadline: .seconds(30), outputBytes: 1 << 20))
            return png.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? Data(png) : nil
        } catch {
            return nil
        }
    }
}
