public import Foundation
import MediaFormats

/// Writes the demo library: every piece of `DemoCatalog` synthesized into a tagged WAV file
/// (ID3v2.4 in an "id3 " chunk with a cover, plus RIFF INFO for players that read only that).
public enum DemoLibrary {
    public static let albumArtist = "Juke Demo Ensemble"
    public static let sampleRate = 22050
    public static let minimumSeconds = 20.0
    /// Bumped when the files gain something (version 2: the TBPM tempo tag), so a demo
    /// library written by an older Juke is written again once instead of staying behind.
    static let formatVersion = "2"
    static let versionFileName = ".juke-demo-version"

    /// Creates the files that are missing under `folder`; existing ones are left alone unless
    /// an older Juke wrote them. Returns the paths of all demo files. `shouldStop` is asked
    /// before each piece (a minute of synthesis on a busy machine): when it says so, the
    /// files written so far stay and `CancellationError` is thrown.
    @discardableResult
    public static func generate(into folder: String, pieces: [DemoPiece] = DemoCatalog.pieces, shouldStop: () -> Bool = { false }) throws
        -> [String]
    {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let versionPath = (folder as NSString).appendingPathComponent(versionFileName)
        let writtenVersion = (try? String(contentsOfFile: versionPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        let rewrite = writtenVersion != formatVersion
        var paths: [String] = []
        let byAlbum = Dictionary(grouping: pieces.enumerated(), by: { $0.element.album })
        for (album, entries) in byAlbum {
            for (number, entry) in entries.enumerated() {
                let piece = entry.element
                let name = fileName(for: piece, number: number + 1)
                let directory = (folder as NSString).appendingPathComponent(safe(album))
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = (directory as NSString).appendingPathComponent(name)
                paths.append(path)
                if !rewrite, FileManager.default.fileExists(atPath: path) { continue }
                if shouldStop() { throw CancellationError() }
                let bytes = try encode(piece, trackNumber: number + 1, trackTotal: entries.count, shouldStop: shouldStop)
                // Write beside, then rename: a scan never sees a half-written file.
                let partial = path + ".partial"
                try Data(bytes).write(to: URL(fileURLWithPath: partial))
                // rename(2) replaces an older file in one step.
                guard rename(partial, path) == 0 else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
            }
        }
        if rewrite { try Data((formatVersion + "\n").utf8).write(to: URL(fileURLWithPath: versionPath)) }
        return paths.sorted()
    }

    public static func encode(_ piece: DemoPiece, trackNumber: Int, trackTotal: Int, shouldStop: () -> Bool = { false }) throws -> [UInt8] {
        let samples = try Synthesizer.render(piece, sampleRate: sampleRate, minimumSeconds: minimumSeconds, shouldStop: shouldStop)
        var tag = ID3v2Writer()
        tag.text("TIT2", piece.title)
        tag.text("TPE1", piece.composer)
        tag.text("TPE2", albumArtist)
        tag.text("TALB", piece.album)
        tag.text("TCOM", piece.composer)
        tag.text("TCON", piece.genre)
        tag.text("TDRC", String(piece.year))
        tag.text("TRCK", "\(trackNumber)/\(trackTotal)")
        tag.text("TBPM", String(Int(piece.tempo.rounded())))
        tag.comment(piece.fact)
        tag.picture(mimeType: "image/png", data: CoverArt.png(title: piece.title, genre: piece.genre))
        var wav = WAVWriter(sampleRate: sampleRate)
        wav.info = [
            ("INAM", piece.title), ("IART", piece.composer), ("IPRD", piece.album),
            ("IGNR", piece.genre), ("ICRD", String(piece.year)), ("ITRK", String(trackNumber)),
        ]
        wav.id3 = tag.encode(padding: 64)
        return wav.encode(samples: samples)
    }

    static func fileName(for piece: DemoPiece, number: Int) -> String {
        let n = number < 10 ? "0\(number)" : "\(number)"
        return "\(n) - \(safe(piece.composer)) - \(safe(piece.title)).wav"
    }

    /// A name safe on every file system: no slashes, colons or quotes.
    static func safe(_ text: String) -> String {
        String(text.map { "/\\:*?\"<>|".contains($0) ? "-" : $0 })
    }
}
