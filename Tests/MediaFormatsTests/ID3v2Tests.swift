import Testing

@testable import MediaFormats

/// ID3v2 cases the fixtures do not cover: version 2.2, unsynchronisation, extended
/// headers, iTunes' non-syncsafe sizes, and the text encodings.
@Suite(.timeLimit(.minutes(5))) struct ID3v2Tests {
    static func syncsafe(_ n: Int) -> [UInt8] { [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)] }
    static func be32(_ n: Int) -> [UInt8] { [UInt8((n >> 24) & 0xFF), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] }

    static func tag(version: UInt8, flags: UInt8 = 0, body: [UInt8]) -> [UInt8] {
        Array("ID3".utf8) + [version, 0, flags] + syncsafe(body.count) + body
    }

    static func frame23(_ id: String, _ body: [UInt8], flags: [UInt8] = [0, 0]) -> [UInt8] {
        Array(id.utf8) + be32(body.count) + flags + body
    }

    static func frame24(_ id: String, _ body: [UInt8], flags: [UInt8] = [0, 0]) -> [UInt8] {
        Array(id.utf8) + syncsafe(body.count) + flags + body
    }

    static func read(_ bytes: [UInt8]) throws -> AudioMetadata {
        var meta = AudioMetadata(format: .mp3)
        ID3v2Metadata.apply(try ID3v2Tag(bytes: bytes), to: &meta)
        return meta
    }

    @Test func readsVersion22FramesWithThreeLetterIDs() throws {
        func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [UInt8((body.count >> 16) & 0xFF), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)] + body
        }
        let body =
            frame("TT2", [0] + Array("Old Title".utf8)) + frame("TP1", [0] + Array("Old Artist".utf8))
            + frame("TCO", [0] + Array("(8)".utf8)) + frame("TYE", [0] + Array("1975".utf8))
            + frame("PIC", [0] + Array("JPG".utf8) + [3] + Array("d".utf8) + [0, 0xFF, 0xD8, 0xFF, 0xE0]) + [0, 0, 0, 0]
        let meta = try Self.read(Self.tag(version: 2, body: body))
        #expect(meta.title == "Old Title")
        #expect(meta.artist == "Old Artist")
        #expect(meta.genre == "Jazz")
        #expect(meta.year == 1975)
        #expect(meta.frontCover?.mimeType == "image/jpeg")
        #expect(meta.frontCover?.data == [0xFF, 0xD8, 0xFF, 0xE0])
    }

    @Test func undoesWholeTagUnsynchronisationInVersion23() throws {
        // In 2.3 the frames are built first (sizes count the real bytes), then every FF in
        // the whole tag body is followed by a 00.
        let picture: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0xE0, 0xFF, 0x00, 0x01]
        let apic = [0] + Array("image/png".utf8) + [0, 3, 0] + picture
        let body = Self.frame23("TIT2", [0] + Array("Unsynced".utf8)) + Self.frame23("APIC", apic)
        var stored: [UInt8] = []
        for b in body {
            stored.append(b)
            if b == 0xFF { stored.append(0) }
        }
        let meta = try Self.read(Self.tag(version: 3, flags: 0x80, body: stored))
        #expect(meta.title == "Unsynced")
        #expect(meta.frontCover?.data == picture)
    }

    @Test func readsVersion24PerFrameUnsynchronisationAndDataLengthIndicator() throws {
        let picture: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00]
        let stored: [UInt8] = [0xFF, 0x00, 0xD8, 0xFF, 0x00, 0xE1, 0x00]
        let apic = [3] + Array("image/jpeg".utf8) + [0, 3, 0] + stored
        let dli = Self.syncsafe(apic.count - 2)
        let frame = Self.frame24("APIC", dli + apic, flags: [0, 0x03])
        let meta = try Self.read(Self.tag(version: 4, body: frame + Self.frame24("TIT2", [3] + Array("Four".utf8))))
        #expect(meta.frontCover?.data == picture)
        #expect(meta.title == "Four")
    }

    @Test func skipsExtendedHeaders() throws {
        let ext23: [UInt8] = Self.be32(6) + [0, 0] + [0, 0, 0, 0]
        let meta23 = try Self.read(Self.tag(version: 3, flags: 0x40, body: ext23 + Self.frame23("TIT2", [0] + Array("Ext3".utf8))))
        #expect(meta23.title == "Ext3")
        let ext24: [UInt8] = Self.syncsafe(6) + [1, 0]
        let meta24 = try Self.read(Self.tag(version: 4, flags: 0x40, body: ext24 + Self.frame24("TIT2", [3] + Array("Ext4".utf8))))
        #expect(meta24.title == "Ext4")
    }

    @Test func acceptsTheNonSyncsafeFrameSizesOldITunesWroteInVersion24() throws {
        let longTitle = String(repeating: "a", count: 200)
        let body = [3] + Array(longTitle.utf8)
        // Plain big-endian size 201 = 0x000000C9: read as syncsafe it would be wrong.
        let frame = Array("TIT2".utf8) + Self.be32(body.count) + [0, 0] + body
        let meta = try Self.read(Self.tag(version: 4, body: frame + Self.frame24("TPE1", [3] + Array("After".utf8))))
        #expect(meta.title == longTitle)
        #expect(meta.artist == "After")
    }

    @Test func decodesEveryTextEncoding() throws {
        let utf16BOMLE: [UInt8] = [1, 0xFF, 0xFE] + Array("Zoë".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let utf16BE: [UInt8] = [2] + Array("Zoë".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        let latin1: [UInt8] = [0, 0x5A, 0x6F, 0xEB]
        let utf8: [UInt8] = [3] + Array("Zoë".utf8)
        for body in [utf16BOMLE, utf16BE, latin1, utf8] {
            #expect(ID3v2Metadata.text(body[...]) == "Zoë")
        }
        // Several values in one 2.4 frame: the first non-empty one.
        #expect(ID3v2Metadata.text(([3] + Array("\0First\0Second".utf8))[...]) == "First")
    }

    @Test func resolvesGenreReferences() {
        #expect(Genres.resolveID3("(17)") == "Rock")
        #expect(Genres.resolveID3("(17)Rock & Roll") == "Rock & Roll")
        #expect(Genres.resolveID3("32") == "Classical")
        #expect(Genres.resolveID3("(RX)") == "Remix")
        #expect(Genres.resolveID3("((Parenthetical)") == "(Parenthetical)")
        #expect(Genres.resolveID3("Shoegaze") == "Shoegaze")
        #expect(Genres.resolveID3("(999)") == nil)
    }

    @Test func aFrameLongerThanItsTagIsTruncated() {
        let frame = Array("TIT2".utf8) + Self.syncsafe(500) + [0, 0] + [3, 0x41]
        #expect(throws: MediaFormatError.self) { try Self.read(Self.tag(version: 4, body: frame)) }
    }

    @Test func theWriterAndReaderAgree() throws {
        var writer = ID3v2Writer()
        writer.text("TIT2", "Round Trip ✓")
        writer.text("TPE1", "Writer")
        writer.text("TRCK", "5/7")
        writer.picture(mimeType: "image/png", data: [0x89, 0x50, 0x4E, 0x47])
        let meta = try Self.read(writer.encode(padding: 16))
        #expect(meta.title == "Round Trip ✓")
        #expect(meta.trackNumber == 5 && meta.trackTotal == 7)
        #expect(meta.frontCover?.mimeType == "image/png")
    }

    /// The extended-header flag set with no extended header written (mutagen's issue 21 file):
    /// the frames that follow at once are read, as mutagen and TagLib read them.
    @Test func anExtendedHeaderFlagWithNoExtendedHeaderReadsTheFrames() throws {
        var writer = ID3v2Writer()
        writer.text("TIT2", "Flagged")
        var bytes = writer.encode(padding: 16)
        #expect(bytes[3] == 4)
        bytes[5] |= 0x40
        #expect(try Self.read(bytes).title == "Flagged")
    }
}
