import Foundation
import Testing

@testable import MediaFormats

/// Chapters of audiobooks: ffmpeg's files checked against ffprobe and mutagen, the choice
/// between QuickTime and Nero lists, ID3 CHAP/CTOC, the read budget, and damaged input.
@Suite(.timeLimit(.minutes(5))) struct ChapterReaderTests {
    struct Expected: Decodable {
        struct Probe: Decodable {
            let duration: Double
            let chapters: [Mark]
        }
        struct Mark: Decodable {
            let title: String
            let start: Double
            let end: Double?
        }
        let source: String
        let ffprobe: Probe?
        let mutagen_chpl: [Mark]?
        let titles: [String]?
    }

    static let fixtureNames = [
        "both.m4b", "quicktime-only.m4b", "nero-only.m4b", "placeholder-quicktime.m4b", "no-chapters.m4b", "chapters.mp3",
    ]

    static func expected() throws -> [String: Expected] {
        try JSONDecoder().decode([String: Expected].self, from: Data(contentsOf: Fixtures.url("chapters/expected.json")))
    }

    @Test(arguments: fixtureNames)
    func readsWhatFFprobeAndMutagenRead(name: String) throws {
        let expected = try #require(try Self.expected()[name])
        let list = try ChapterReader.read(path: try Fixtures.url("chapters/\(name)").path)
        #expect(list.source.rawValue == expected.source)
        if let probe = expected.ffprobe {
            #expect(abs(list.duration - probe.duration) < 0.08, "\(name): duration \(list.duration), ffprobe \(probe.duration)")
            if probe.chapters.isEmpty {
                #expect(list.chapters == [Chapter(title: "Chapter 1", start: 0, end: list.duration)])
            } else {
                #expect(list.chapters.map(\.title) == probe.chapters.map(\.title))
                for (ours, theirs) in zip(list.chapters, probe.chapters) {
                    #expect(abs(ours.start - theirs.start) < 0.001, "\(name) \(ours.title): start \(ours.start), ffprobe \(theirs.start)")
                }
                // Every chapter but the last ends where ffprobe says; the last ends with the file.
                for (ours, theirs) in zip(list.chapters.dropLast(), probe.chapters) {
                    #expect(abs(ours.end - (theirs.end ?? -1)) < 0.001)
                }
                #expect(list.chapters.last?.end == list.duration)
            }
        }
        if let chpl = expected.mutagen_chpl, list.source == .nero {
            #expect(list.chapters.map(\.title) == chpl.map(\.title))
            #expect(zip(list.chapters, chpl).allSatisfy { abs($0.start - $1.start) < 0.000_001 })
        }
        if let titles = expected.titles { #expect(list.chapters.map(\.title) == titles) }
    }

    /// An audiobook with a cover, as ffmpeg attaches one (the `covr` atom): the tag reader gives
    /// the picture back byte for byte, and the chapters read as without it.
    @Test func anAudiobooksCoverIsReadBesideItsChapters() throws {
        let path = try Fixtures.url("chapters/covered.m4b").path
        let tags = try TagReader.read(path: path)
        let cover = try #require(tags.frontCover, "covered.m4b's covr is read")
        #expect(cover.mimeType == "image/png")
        #expect(cover.data == (try Fixtures.bytes("chapters/covered.png")))
        let chapters = try ChapterReader.read(path: path)
        let expected = try #require(try Self.expected()["both.m4b"]?.ffprobe)
        #expect(chapters.chapters.map(\.title) == expected.chapters.map(\.title))
    }

    @Test func theNeroListOfAFileWithBothMatchesMutagen() throws {
        let expected = try #require(try Self.expected()["both.m4b"]?.mutagen_chpl)
        let source = try FileSource(path: try Fixtures.url("chapters/both.m4b").path)
        let top = try MP4Box.children(of: source, from: 0, to: source.size)
        let moov = try #require(top.first { $0.type == "moov" })
        let udta = try #require(try MP4ChapterReader.children(of: moov, in: source).first { $0.type == "udta" })
        let chpl = try #require(try MP4ChapterReader.children(of: udta, in: source).first { $0.type == "chpl" })
        let marks = try NeroChapters.parse(try MP4ChapterReader.payload(of: chpl, in: source), offset: chpl.payloadOffset)
        #expect(marks.map(\.title) == expected.map(\.title))
        #expect(zip(marks, expected).allSatisfy { abs($0.start - $1.start) < 0.000_001 })
    }

    // MARK: The read budget

    @Test func aTenHourBookWith120ChaptersCostsUnder64KB() throws {
        let chapters = (0..<120).map { (title: "Chapter \($0 + 1): The Part Where Something Happens", start: Double($0) * 300) }
        let book = MP4BookBuilder(quickTime: chapters, nero: chapters).build()
        #expect(book.count > 6_000_000, "the audio sample table alone is megabytes")
        let source = CountingSource(MemorySource(book))
        let list = try ChapterReader.read(source)
        #expect(list.source == .quicktime)
        #expect(list.chapters.count == 120)
        #expect(list.chapters[119] == Chapter(title: chapters[119].title, start: 35_700, end: 36_000))
        #expect(source.bytesRead <= 64 * 1024, "read \(source.bytesRead) bytes in \(source.reads) reads")
    }

    // MARK: Choosing a list

    @Test func quickTimeTitlesWinWhenTheyAreNames() throws {
        let book = MP4BookBuilder(
            duration: 100, audioSampleCount: 10, quickTime: [("Prologue", 0), ("The Road", 40)], nero: [("Nero One", 0), ("Nero Two", 40)]
        ).build()
        let list = try ChapterReader.read(MemorySource(book))
        #expect(list.source == .quicktime)
        #expect(list.chapters.map(\.title) == ["Prologue", "The Road"])
    }

    @Test func neroNamesWinOverQuickTimePlaceholders() throws {
        let book = MP4BookBuilder(
            duration: 100, audioSampleCount: 10, quickTime: [("", 0), ("", 40)], nero: [("Prologue", 0), ("The Road", 40)]
        ).build()
        #expect(try ChapterReader.read(MemorySource(book)).source == .nero)
        let numbered = MP4BookBuilder(
            duration: 100, audioSampleCount: 10, quickTime: [("Chapter 1", 0), ("Chapter 2", 40)], nero: [("Prologue", 0), ("The Road", 40)]
        ).build()
        #expect(try ChapterReader.read(MemorySource(numbered)).chapters.map(\.title) == ["Prologue", "The Road"])
    }

    @Test func placeholdersOnBothSidesKeepQuickTime() throws {
        let book = MP4BookBuilder(
            duration: 100, audioSampleCount: 10, quickTime: [("1", 0), ("2", 40)], nero: [("Track 1", 0), ("Track 2", 40)]
        ).build()
        let list = try ChapterReader.read(MemorySource(book))
        #expect(list.source == .quicktime)
        #expect(list.chapters.map(\.title) == ["1", "2"])
    }

    @Test func placeholderTitles() {
        for title in ["", "  ", "3", "Chapter 3", "chapter 03", "Track 12", "Ch. 4", "Part 2", "Kapitel 7"] {
            #expect(MP4ChapterReader.isPlaceholder(title), "\(title)")
        }
        for title in ["Prologue", "Chapter 3: The Storm", "1984", "Part Two", "Letter 4, to Mrs. Saville"] where title != "1984" {
            #expect(!MP4ChapterReader.isPlaceholder(title), "\(title)")
        }
    }

    @Test func utf16TitlesWithAByteOrderMarkAreRead() throws {
        let book = MP4BookBuilder(duration: 60, audioSampleCount: 10, quickTime: [("Überfahrt", 0), ("第二章", 30)], quickTimeUTF16: true).build()
        #expect(try ChapterReader.read(MemorySource(book)).chapters.map(\.title) == ["Überfahrt", "第二章"])
    }

    @Test func aFileWithNoChaptersIsOneWholeChapter() throws {
        let list = try ChapterReader.read(MemorySource(MP4BookBuilder(duration: 42.5, audioSampleCount: 10).build()))
        #expect(list.source == .none)
        #expect(list.chapters == [Chapter(title: "Chapter 1", start: 0, end: 42.5)])
        let flac = try ChapterReader.read(path: try Fixtures.url("tagged.flac").path)
        #expect(flac.source == .none && flac.chapters.count == 1 && flac.chapters[0].end == flac.duration && flac.duration > 0)
    }

    // MARK: The timeline

    @Test func marksAreSortedDedupedAndKeptInsideTheFile() {
        let marks: [ChapterTimeline.Mark] = [
            .init(title: "B", start: 50), .init(title: "A", start: 0), .init(title: "dup", start: 50), .init(title: "past", start: 120),
            .init(title: "nan", start: .nan), .init(title: "neg", start: -1), .init(title: "", start: 80),
        ]
        let chapters = ChapterTimeline.chapters(from: marks, duration: 100)
        #expect(
            chapters == [
                Chapter(title: "A", start: 0, end: 50), Chapter(title: "B", start: 50, end: 80), Chapter(title: "Chapter 3", start: 80, end: 100),
            ])
    }

    @Test func aDeclaredEndOnlyMattersWhenTheLengthIsUnknown() {
        let marks: [ChapterTimeline.Mark] = [.init(title: "A", start: 0, end: 10), .init(title: "B", start: 20, end: 30)]
        #expect(ChapterTimeline.chapters(from: marks, duration: nil) == [Chapter(title: "A", start: 0, end: 20), Chapter(title: "B", start: 20, end: 30)])
        #expect(ChapterTimeline.chapters(from: marks, duration: 40).last?.end == 40)
    }

    // MARK: ID3

    static func mp3(with tag: ID3v2Writer) throws -> [UInt8] {
        let original = try Fixtures.bytes("chapters/chapters.mp3")
        let tagSize = try #require(ID3v2Tag.declaredSize(header: Array(original.prefix(10))))
        return tag.encode(padding: 32) + original[tagSize...]
    }

    @Test func anID3TableOfContentsDecidesWhichChaptersCount() throws {
        var tag = ID3v2Writer()
        tag.text("TIT2", "Book")
        tag.tableOfContents(id: "toc", topLevel: true, children: ["c1", "part2"])
        tag.tableOfContents(id: "part2", topLevel: false, children: ["c2", "c3"])
        tag.chapter(id: "c3", startMilliseconds: 4000, endMilliseconds: 6000, title: "Three")
        tag.chapter(id: "c1", startMilliseconds: 0, endMilliseconds: 2000, title: "One")
        tag.chapter(id: "c2", startMilliseconds: 2000, endMilliseconds: 4000, title: "Two")
        tag.chapter(id: "orphan", startMilliseconds: 1000, endMilliseconds: 1500, title: "Not in the book")
        let list = try ChapterReader.read(MemorySource(try Self.mp3(with: tag)))
        #expect(list.source == .id3)
        #expect(list.chapters.map(\.title) == ["One", "Two", "Three"])
        #expect(list.chapters.map(\.start) == [0, 2, 4])
    }

    @Test func withoutATableEveryChapterCountsInTimeOrder() throws {
        var tag = ID3v2Writer()
        tag.chapter(id: "b", startMilliseconds: 3000, endMilliseconds: 6000, title: nil)
        tag.chapter(id: "a", startMilliseconds: 0, endMilliseconds: 3000, title: "First")
        let list = try ChapterReader.read(MemorySource(try Self.mp3(with: tag)))
        #expect(list.chapters.map(\.title) == ["First", "Chapter 2"])
    }

    @Test func aTableThatListsItselfDoesNotLoop() throws {
        var tag = ID3v2Writer()
        tag.tableOfContents(id: "toc", topLevel: true, children: ["toc", "loop", "c1"])
        tag.tableOfContents(id: "loop", topLevel: false, children: ["toc", "loop"])
        tag.chapter(id: "c1", startMilliseconds: 0, endMilliseconds: 3000, title: "Only")
        #expect(try ChapterReader.read(MemorySource(try Self.mp3(with: tag))).chapters.map(\.title) == ["Only"])
    }

    @Test func aDamagedEmbeddedFrameCostsTheTitleNotTheChapter() throws {
        var tag = ID3v2Writer()
        tag.chapter(id: "c1", startMilliseconds: 0, endMilliseconds: 3000, title: "Fine")
        tag.chapter(id: "c2", startMilliseconds: 3000, endMilliseconds: 6000, title: nil)
        // c2's embedded frame declares 200 bytes it does not have.
        tag.frames[1].body += Array("TIT2".utf8) + ID3v2Writer.syncsafe(200) + [0, 0, 3, 0x41]
        #expect(try ChapterReader.read(MemorySource(try Self.mp3(with: tag))).chapters.map(\.title) == ["Fine", "Chapter 2"])
    }

    // MARK: Damaged input

    @Test(arguments: fixtureNames)
    func everyTruncationIsReadOrRefusedCleanly(name: String) throws {
        let bytes = try Fixtures.bytes("chapters/\(name)")
        var cuts = Array(stride(from: 0, to: bytes.count, by: 7))
        // The moov and its chapter boxes are at the end of ffmpeg's files: cut there densely.
        cuts += Array(max(0, bytes.count - 3000)..<bytes.count)
        for cut in cuts {
            do {
                let list = try ChapterReader.read(MemorySource(Array(bytes[0..<cut])))
                #expect(!list.chapters.isEmpty)
            } catch {
                #expect(error.offset >= 0 && !error.message.isEmpty, "\(name) cut at \(cut): \(error)")
            }
        }
    }

    @Test(arguments: fixtureNames)
    func randomByteDamageNeverCrashes(name: String) throws {
        let original = try Fixtures.bytes("chapters/\(name)")
        var rng = SplitMix64(seed: UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for _ in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                // The chapter boxes sit in the last few kilobytes of these files.
                let from = Bool.random(using: &rng) ? max(0, bytes.count - 2500) : 0
                let i = Int.random(in: from..<bytes.count, using: &rng)
                bytes[i] = Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : [0x00, 0xFF, 0x7F, 0x80][Int.random(in: 0...3, using: &rng)]
            }
            if let list = try? ChapterReader.read(MemorySource(bytes)) {
                #expect(!list.chapters.isEmpty)
                #expect(list.chapters.allSatisfy { $0.start.isFinite && $0.end >= $0.start })
            }
        }
    }

    @Test func lyingChapterTablesAreRefused() throws {
        var book = MP4BookBuilder(duration: 60, audioSampleCount: 10, quickTime: [("One", 0), ("Two", 30)]).build()
        // The text track's stsz claims a million samples its 8 bytes of table cannot hold.
        let stsz = Array("stsz".utf8)
        let at = try #require((0..<book.count - 4).last { book[$0..<$0 + 4].elementsEqual(stsz) })
        book.replaceSubrange(at + 12..<at + 16, with: MP4BookBuilder.be32(1_000_000))
        #expect(throws: MediaFormatError.self) { try ChapterReader.read(MemorySource(book)) }
    }
}
