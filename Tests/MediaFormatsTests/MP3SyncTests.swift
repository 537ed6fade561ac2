import Foundation
import Testing

@testable import MediaFormats

/// Finding MP3 audio by its frame sync: four frames in a row (fewer only where they end with
/// the file), as mutagen judges it, so that bytes of another format (OptimFROG, a program)
/// are not taken for MP3.
@Suite(.timeLimit(.minutes(5))) struct MP3SyncTests {
    /// An MPEG-1 Layer III header, 128 kbit/s at 44.1 kHz: a 417-byte frame.
    static let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]

    @Test func aLoneSyncInOtherBytesIsNotAnMP3() {
        // Another format's header, then bytes with one frame header near the end.
        var bytes = Array("OFR ".utf8) + [UInt8](repeating: 0x11, count: 300)
        bytes += Self.header + [UInt8](repeating: 0, count: 100)
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(bytes)) }
    }

    /// 200 KB of a program named x.mp3 was accepted as a 16.9 s book: two headers one frame
    /// apart turn up by chance in a binary's bytes. Four in a row do not.
    /// Programs are not MP3s: 200 KB slices of the system's own programs (bash and perl are on
    /// every Debian machine, and do not change with Juke's code, as the test binary did: a
    /// slice of it could hold a real MP3 that a test embeds).
    @Test func aProgramIsNotAnMP3() throws {
        var refused = 0
        var slices = 0
        for path in ["/usr/bin/bash", "/usr/bin/perl"] {
            let program = try #require(FileManager.default.contents(atPath: path))
            var start = 0
            while start + 200_000 <= program.count && slices < 40 {
                slices += 1
                if (try? TagReader.read(MemorySource(Array(program[start..<start + 200_000])))) == nil { refused += 1 }
                start += 200_000
            }
        }
        #expect(slices > 20)
        #expect(refused == slices)
    }

    @Test func twoFramesAfterJunkAreNotEnoughUnlessTheFileEndsThere() throws {
        let frame = Self.header + [UInt8](repeating: 0, count: 413)
        let junk = [UInt8](repeating: 0x11, count: 300)
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(junk + frame + frame + junk)) }
        let four = try TagReader.read(MemorySource(junk + frame + frame + frame + frame + junk))
        #expect(four.format == .mp3)
    }

    @Test func twoFramesInARowAreFoundAfterJunkAndOneFrameAloneCountsAtTheStart() throws {
        let frame = Self.header + [UInt8](repeating: 0, count: 413)
        let found = try TagReader.read(MemorySource([UInt8](repeating: 0x11, count: 300) + frame + frame))
        #expect(found.format == .mp3 && found.sampleRate == 44_100)
        let single = try TagReader.read(MemorySource(frame))
        #expect(single.format == .mp3 && abs((single.duration ?? 0) - 417.0 * 8 / 128_000) < 0.001)
    }

    /// A 417-byte Info frame declaring `frames`, with a LAME tag saying its delay and padding.
    static func infoFrame(frames: Int, encoder: String, delay: Int, padding: Int) -> [UInt8] {
        var bytes = Self.header + [UInt8](repeating: 0, count: 32)  // stereo MPEG-1: side info
        bytes += Array("Info".utf8) + [0, 0, 0, 1]
        bytes += [UInt8(frames >> 24 & 0xFF), UInt8(frames >> 16 & 0xFF), UInt8(frames >> 8 & 0xFF), UInt8(frames & 0xFF)]
        var lame = Array(encoder.utf8.prefix(9)) + [UInt8](repeating: 0x20, count: max(0, 9 - encoder.utf8.count))
        lame += [UInt8](repeating: 0, count: 12)
        lame += [UInt8(delay >> 4), UInt8((delay & 0x0F) << 4 | padding >> 8), UInt8(padding & 0xFF)]
        bytes += lame
        return bytes + [UInt8](repeating: 0, count: 417 - bytes.count)
    }

    @Test func lamesDelayAndPaddingAreLeftOutOfTheDuration() throws {
        let audio = Self.header + [UInt8](repeating: 0, count: 413)
        // 100 frames of 1152 samples; LAME 3.98 added 576 before and 1000 after.
        let lame = try TagReader.read(MemorySource(Self.infoFrame(frames: 100, encoder: "LAME3.98r", delay: 576, padding: 1000) + audio + audio))
        #expect(abs((lame.duration ?? 0) - Double(100 * 1152 - 1576) / 44_100) < 1e-9)
        // Another encoder's tag (ffmpeg's "Lavc") and LAME before 3.90 are not read, as mutagen.
        let lavc = try TagReader.read(MemorySource(Self.infoFrame(frames: 100, encoder: "Lavc60.31", delay: 576, padding: 1000) + audio + audio))
        #expect(abs((lavc.duration ?? 0) - Double(100 * 1152) / 44_100) < 1e-9)
        let old = try TagReader.read(MemorySource(Self.infoFrame(frames: 100, encoder: "LAME3.88 ", delay: 576, padding: 1000) + audio + audio))
        #expect(abs((old.duration ?? 0) - Double(100 * 1152) / 44_100) < 1e-9)
        // More trimmed than there is (old LAMEs on short files): ignored.
        let bogus = try TagReader.read(MemorySource(Self.infoFrame(frames: 1, encoder: "LAME3.99r", delay: 4000, padding: 4000) + audio + audio))
        #expect(abs((bogus.duration ?? 0) - 1152.0 / 44_100) < 1e-9)
    }
}
