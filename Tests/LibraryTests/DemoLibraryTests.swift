import Foundation
import MediaFormats
import Testing

@testable import Library

@Suite(.timeLimit(.minutes(5))) struct DemoLibraryTests {
    @Test func theCatalogIsBigAndVariedEnoughForAGame() throws {
        let pieces = DemoCatalog.pieces
        #expect(pieces.count >= 40)
        #expect(Set(pieces.map(\.title)).count == pieces.count)
        #expect(Set(pieces.map(\.genre)).count >= 6)
        #expect(Set(pieces.map(\.album)).count >= 6)
        #expect(pieces.contains { $0.composer == "Traditional" })
        #expect((pieces.map(\.year).min() ?? 0) < 1700 && (pieces.map(\.year).max() ?? 0) > 1900)
        for piece in pieces {
            let notes = try MelodyParser.parse(piece.notes)
            #expect(notes.count >= 8, "\(piece.title)")
            #expect(!piece.fact.isEmpty)
        }
    }

    @Test func parsesNotes() throws {
        #expect(
            try MelodyParser.parse("C4 A4:0.5 Bb3:2 R:1 F#5") == [
                Note(midi: 60, beats: 1), Note(midi: 69, beats: 0.5), Note(midi: 58, beats: 2), Note(midi: nil, beats: 1), Note(midi: 78, beats: 1),
            ])
        #expect(throws: MelodyParser.ParseError.self) { try MelodyParser.parse("H4") }
        #expect(throws: MelodyParser.ParseError.self) { try MelodyParser.parse("C4:0") }
    }

    @Test func generatedFilesCarryTheirFactsAndACover() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pieces = Array(DemoCatalog.pieces.prefix(2))
        let paths = try DemoLibrary.generate(into: folder, pieces: pieces)
        #expect(paths.count == 2)
        for path in paths {
            let meta = try TagReader.read(path: path)
            let piece = try #require(pieces.first { $0.title == meta.title })
            #expect(meta.artist == piece.composer)
            #expect(meta.composer == piece.composer)
            #expect(meta.year == piece.year)
            #expect(meta.genre == piece.genre)
            #expect(meta.album == piece.album)
            #expect(meta.albumArtist == DemoLibrary.albumArtist)
            #expect((meta.duration ?? 0) >= DemoLibrary.minimumSeconds)
            #expect(meta.frontCover?.mimeType == "image/png")
            #expect(meta.bpm == piece.tempo.rounded())
        }
        // A second run leaves the files alone.
        let before = try FileManager.default.attributesOfItem(atPath: paths[0])[.modificationDate] as? Date
        _ = try DemoLibrary.generate(into: folder, pieces: pieces)
        #expect(try FileManager.default.attributesOfItem(atPath: paths[0])[.modificationDate] as? Date == before)
    }

    @Test func aDemoLibraryFromAnOlderJukeIsWrittenAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("juke-demo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pieces = Array(DemoCatalog.pieces.prefix(1))
        let paths = try DemoLibrary.generate(into: folder, pieces: pieces)
        // What an older Juke left: the file without its tempo tag, and no version mark.
        try Data("old".utf8).write(to: URL(fileURLWithPath: paths[0]))
        try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(DemoLibrary.versionFileName))
        _ = try DemoLibrary.generate(into: folder, pieces: pieces)
        #expect(try TagReader.read(path: paths[0]).bpm == pieces[0].tempo.rounded())
    }

    @Test func coversAreValidPNGs() {
        let png = CoverArt.png(title: "Ode to Joy", genre: "Classical")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(CoverArt.crc32(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
