import Foundation
import Testing

@testable import MediaFormats

/// FLAC files whose tag blocks are damaged, read as mutagen and the reference decoder read
/// them: a Vorbis comment or picture block whose declared length lies is read by its own
/// structure; one that cannot be read at all is skipped with a warning, and the rest of the
/// file (the other tags, the duration) is still read.
@Suite(.timeLimit(.minutes(5))) struct LenientFLACTests {
    /// The metadata blocks of a FLAC file: (offset of the header, type, declared length).
    static func blocks(_ bytes: [UInt8]) -> [(offset: Int, type: UInt8, length: Int)] {
        var out: [(Int, UInt8, Int)] = []
        var offset = 4
        while offset + 4 <= bytes.count {
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            out.append((offset, bytes[offset] & 0x7F, length))
            if bytes[offset] & 0x80 != 0 { break }
            offset += 4 + length
        }
        return out
    }

    static func declare(_ length: Int, at header: Int, in bytes: inout [UInt8]) {
        bytes[header + 1] = UInt8((length >> 16) & 0xFF)
        bytes[header + 2] = UInt8((length >> 8) & 0xFF)
        bytes[header + 3] = UInt8(length & 0xFF)
    }

    static func read(_ bytes: [UInt8]) throws -> AudioMetadata { try TagReader.read(MemorySource(bytes)) }

    @Test func aCommentBlockThatDeclaresTooFewBytesIsReadWhole() throws {
        var bytes = try Fixtures.bytes("tagged.flac")
        let intact = try Self.read(bytes)
        let comment = try #require(Self.blocks(bytes).first { $0.type == 4 })
        Self.declare(8, at: comment.offset, in: &bytes)
        let read = try Self.read(bytes)
        #expect(read.title == intact.title && read.artist == intact.artist && read.album == intact.album)
        #expect(read.duration == intact.duration && read.frontCover == intact.frontCover)
        #expect(read.warnings.count == 1 && read.warnings[0].contains("declares 8 bytes"))
        #expect(intact.warnings.isEmpty)
    }

    @Test func aPictureBlockThatDeclaresNothingIsReadWhole() throws {
        var bytes = try Fixtures.bytes("tagged.flac")
        let intact = try Self.read(bytes)
        let picture = try #require(Self.blocks(bytes).first { $0.type == 6 })
        Self.declare(0, at: picture.offset, in: &bytes)
        let read = try Self.read(bytes)
        #expect(read.frontCover == intact.frontCover && read.title == intact.title)
        #expect(read.warnings.count == 1)
    }

    @Test func aCommentBlockOfGarbageIsSkippedAndTheRestIsRead() throws {
        var bytes = try Fixtures.bytes("tagged.flac")
        let intact = try Self.read(bytes)
        let comment = try #require(Self.blocks(bytes).first { $0.type == 4 })
        // A comment count no block can hold.
        let body = comment.offset + 4
        let vendor = Int(bytes[body]) | Int(bytes[body + 1]) << 8 | Int(bytes[body + 2]) << 16 | Int(bytes[body + 3]) << 24
        for i in 0..<4 { bytes[body + 4 + vendor + i] = 0x7F }
        let read = try Self.read(bytes)
        #expect(read.title == nil && read.artist == nil)
        #expect(read.duration == intact.duration && read.sampleRate == intact.sampleRate)
        #expect(read.frontCover == intact.frontCover)
        #expect(read.warnings == ["FLAC Vorbis comment block at byte \(comment.offset) is damaged and was skipped"])
    }
}
