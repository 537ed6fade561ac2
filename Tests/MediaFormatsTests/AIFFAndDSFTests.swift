import Foundation
import Testing

@testable import MediaFormats

/// AIFF (beyond the ffmpeg fixture the oracle test reads) and DSF, built byte by byte: the
/// duration from their headers, the tags from their ID3 chunk or tag, and damage met by
/// reading on with a warning, or by a clear refusal when the audio's facts are missing.
@Suite(.timeLimit(.minutes(5))) struct AIFFAndDSFTests {
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }
    static func le64(_ v: Int) -> [UInt8] { le32(v & 0xFFFF_FFFF) + le32(v >> 32) }

    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + be32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    static func id3(title: String) -> [UInt8] {
        var tag = ID3v2Writer()
        tag.text("TIT2", title)
        return tag.encode()
    }

    /// COMM for 8000 frames at 16 kHz (half a second), stereo, 16-bit: 16000 as an 80-bit extended.
    static let common: [UInt8] = [0, 2] + be32(8000) + [0, 16] + [0x40, 0x0C, 0xFA, 0, 0, 0, 0, 0, 0, 0]

    static func aiff(_ chunks: [[UInt8]], declaredSize: Int? = nil) -> [UInt8] {
        let body = Array("AIFF".utf8) + chunks.flatMap { $0 }
        return Array("FORM".utf8) + be32(declaredSize ?? body.count) + body
    }

    @Test func anAIFFWithTextChunksAndAnID3Chunk() throws {
        let file = Self.aiff([
            Self.chunk("COMM", Self.common), Self.chunk("NAME", Array("Name Title".utf8)), Self.chunk("AUTH", Array("Auth Artist".utf8)),
            Self.chunk("ID3 ", Self.id3(title: "ID3 Title")), Self.chunk("SSND", [UInt8](repeating: 0, count: 8 + 64)),
        ])
        let meta = try TagReader.read(MemorySource(file))
        #expect(meta.format == .aiff && meta.duration == 0.5 && meta.sampleRate == 16000 && meta.channels == 2)
        #expect(meta.title == "ID3 Title" && meta.artist == "Auth Artist")  // the ID3 chunk wins; AUTH fills in
        #expect(meta.warnings.isEmpty)
        #expect(AIFFReader.extended80(ArraySlice([0x40, 0x0E, 0xAC, 0x44, 0, 0, 0, 0, 0, 0])) == 44100)
    }

    @Test func aDamagedID3ChunkIsSkippedAndAMissingCommonChunkRefused() throws {
        var broken = Self.id3(title: "Lost")
        broken[3] = 9  // an ID3 version no one writes
        let file = Self.aiff([Self.chunk("COMM", Self.common), Self.chunk("ID3 ", broken), Self.chunk("SSND", [UInt8](repeating: 0, count: 16))])
        let meta = try TagReader.read(MemorySource(file))
        #expect(meta.duration == 0.5 && meta.title == nil)
        #expect(meta.warnings.count == 1 && meta.warnings[0].contains("ID3 chunk"))
        // A FORM size that lies (a streaming writer's) gives way to the file's size.
        #expect(try TagReader.read(MemorySource(Self.aiff([Self.chunk("COMM", Self.common)], declaredSize: 0xFFFF_FFF0))).duration == 0.5)
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(Self.aiff([Self.chunk("SSND", [0, 0, 0, 0])]))) }
    }

    static func dsf(samples: Int, rate: Int, channels: Int, tag: [UInt8]?) -> [UInt8] {
        let data = [UInt8](repeating: 0x69, count: 4096 * channels)
        let dataChunk = Array("data".utf8) + Self.le64(12 + data.count) + data
        let fmt =
            Array("fmt ".utf8) + Self.le64(52) + Self.le32(1) + Self.le32(0) + Self.le32(2) + Self.le32(channels) + Self.le32(rate) + Self.le32(1)
            + Self.le64(samples) + Self.le32(4096) + Self.le32(0)
        let metadataAt = tag == nil ? 0 : 28 + fmt.count + dataChunk.count
        let total = 28 + fmt.count + dataChunk.count + (tag?.count ?? 0)
        let header = Array("DSD ".utf8) + Self.le64(28) + Self.le64(total) + Self.le64(metadataAt)
        return header + fmt + dataChunk + (tag ?? [])
    }

    @Test func aDSFWithItsID3TagAtTheEnd() throws {
        let meta = try TagReader.read(MemorySource(Self.dsf(samples: 2_822_400 * 3, rate: 2_822_400, channels: 2, tag: Self.id3(title: "DSD Title"))))
        #expect(meta.format == .dsf && meta.duration == 3 && meta.sampleRate == 2_822_400 && meta.channels == 2)
        #expect(meta.title == "DSD Title" && meta.warnings.isEmpty)
        // A metadata pointer past the end: the audio's facts stand, with a warning.
        var lying = Self.dsf(samples: 2_822_400, rate: 2_822_400, channels: 1, tag: nil)
        lying.replaceSubrange(20..<28, with: Self.le64(lying.count + 100))
        let read = try TagReader.read(MemorySource(lying))
        #expect(read.duration == 1 && read.warnings.count == 1)
        // No fmt chunk: refused.
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(Array(lying.prefix(40)))) }
    }
}

/// APEv2 tags and the formats that carry them: Monkey's Audio (built byte by byte; no encoder
/// for it is in Debian) and an MP3 whose only tag is APEv2.
@Suite(.timeLimit(.minutes(5))) struct APEv2Tests {
    static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }

    static func apeTag(_ items: [(String, String)], brokenLast: Bool = false) -> [UInt8] {
        var body: [UInt8] = []
        for (i, (key, value)) in items.enumerated() {
            let bytes = Array(value.utf8)
            let declared = brokenLast && i == items.count - 1 ? 100_000 : bytes.count
            body += le32(declared) + le32(0) + Array(key.utf8) + [0] + bytes
        }
        let footer = Array("APETAGEX".utf8) + le32(2000) + le32(body.count + 32) + le32(items.count) + le32(0) + [UInt8](repeating: 0, count: 8)
        return body + footer
    }

    /// Monkey's Audio 3.99: descriptor, then 3 frames of 73728*4 blocks, the last of 1000, at 44.1 kHz.
    static func monkeys(tag: [UInt8]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 76)
        header.replaceSubrange(0..<4, with: Array("MAC ".utf8))
        header.replaceSubrange(4..<6, with: [0x9E, 0x0F])  // 3998
        header.replaceSubrange(56..<60, with: le32(73728 * 4))
        header.replaceSubrange(60..<64, with: le32(1000))
        header.replaceSubrange(64..<68, with: le32(3))
        header.replaceSubrange(68..<70, with: [16, 0])
        header.replaceSubrange(70..<72, with: [2, 0])
        header.replaceSubrange(72..<76, with: le32(44100))
        return header + [UInt8](repeating: 0x55, count: 512) + tag
    }

    @Test func monkeysAudioWithAnAPEv2Tag() throws {
        let meta = try TagReader.read(MemorySource(Self.monkeys(tag: Self.apeTag([("Title", "Ape Title"), ("Artist", "A\u{0}B"), ("Track", "3/12")]))))
        #expect(meta.format == .monkeysAudio && meta.channels == 2 && meta.sampleRate == 44100)
        #expect(meta.duration == Double(2 * 73728 * 4 + 1000) / 44100)
        #expect(meta.title == "Ape Title" && meta.artist == "A" && meta.trackNumber == 3 && meta.trackTotal == 12)
    }

    @Test func anAPEv2ItemThatRunsPastTheTagKeepsTheOnesBefore() throws {
        let meta = try TagReader.read(MemorySource(Self.monkeys(tag: Self.apeTag([("Title", "Kept"), ("Album", "Lost")], brokenLast: true))))
        #expect(meta.title == "Kept" && meta.album == nil)
        #expect(meta.warnings.count == 1 && meta.warnings[0].contains("ALBUM"))
    }

    @Test func musepackSV8AndSV7Durations() throws {
        // SV8: MPCK, an SH packet (CRC, version 8, 88200 samples with 0 skipped as SV8 sizes, 44.1 kHz, stereo), then AP.
        let sh: [UInt8] = [0, 0, 0, 0, 8] + [0x85, 0xB1, 0x08] + [0] + [0x00, 0x10]
        let sv8 = Array("MPCK".utf8) + Array("SH".utf8) + [UInt8(2 + 1 + sh.count)] + sh + Array("AP".utf8) + [4, 0, 0]
        let meta = try TagReader.read(MemorySource(sv8 + Self.apeTag([("Title", "SV8")])))
        #expect(meta.format == .musepack && meta.sampleRate == 44100 && meta.channels == 2 && meta.duration == 2 && meta.title == "SV8")
        // SV7: 100 frames of 1152 samples at 48 kHz.
        var sv7 = Array("MP+".utf8) + [0x17] + Self.le32(100) + Self.le32(1 << 16) + [UInt8](repeating: 0, count: 20)
        sv7 += [UInt8](repeating: 0, count: 64)
        let seven = try TagReader.read(MemorySource(sv7))
        #expect(seven.sampleRate == 48000 && seven.duration == Double(100 * 1152 - 576) / 48000)
        // A packet that claims more than the file: refused with where.
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(Array("MPCKSH".utf8) + [0x7F])) }
    }

    @Test func anMP3WhoseOnlyTagIsAPEv2() throws {
        let mp3 = try Fixtures.bytes("vbr-xing.mp3")
        // Without its ID3v2 tag (if any), then with an APEv2 tag appended.
        let bare = ID3v2Tag.declaredSize(header: Array(mp3.prefix(10))).map { Array(mp3[$0...]) } ?? mp3
        let plain = try TagReader.read(MemorySource(bare))
        #expect(plain.title == nil && plain.artist == nil)
        let meta = try TagReader.read(MemorySource(bare + Self.apeTag([("Title", "From APE"), ("Artist", "Ape Artist")])))
        #expect(meta.title == "From APE" && meta.artist == "Ape Artist")
        #expect(meta.duration == plain.duration)
    }
}

/// MP4's codec told apart (ALAC needs a transcode where AAC plays), and an MP4 cut short in
/// its media data read as mutagen and players read it.
@Suite(.timeLimit(.minutes(5))) struct MP4CodecTests {
    @Test func alacAndAACAreToldApart() throws {
        // alac.m4a: ffmpeg's ALAC with its moov first (-movflags +faststart).
        let alac = try TagReader.read(MemorySource(try Fixtures.bytes("alac.m4a")))
        #expect(alac.format == .mp4 && alac.codec == "alac" && alac.title == "ALAC Title" && alac.duration == 0.5)
        #expect(try TagReader.read(MemorySource(try Fixtures.bytes("itunes.m4a"))).codec == "aac")
    }

    @Test func anMP4CutShortInItsMediaDataIsReadWithAWarning() throws {
        let bytes = try Fixtures.bytes("alac.m4a")
        let mdat = try #require(bytes.indices.dropLast(4).first { bytes[$0..<($0 + 4)].elementsEqual("mdat".utf8) })
        let cut = Array(bytes[..<(mdat + 100)])
        let meta = try TagReader.read(MemorySource(cut))
        #expect(meta.title == "ALAC Title" && meta.duration == 0.5)
        #expect(meta.warnings.count == 1 && meta.warnings[0].contains("mdat"))
    }
}
