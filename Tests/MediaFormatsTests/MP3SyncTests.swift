import Foundation
import Testing

@testable import MediaFormats

/// Finding MP3 audio by its frame sync: two frames in a row, so that two bytes of another
/// format (OptimFROG, say) are not taken for a millisecond of MP3.
@Suite(.timeLimit(.minutes(5))) struct MP3SyncTests {
    /// An MPEG-1 Layer III header, 128 kbit/s at 44.1 kHz: a 417-byte frame.
    static let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]

    @Test func aLoneSyncInOtherBytesIsNotAnMP3() {
        // Another format's header, then bytes with one frame header near the end.
        var bytes = Array("OFR ".utf8) + [UInt8](repeating: 0x11, count: 300)
        bytes += Self.header + [UInt8](repeating: 0, count: 100)
        #expect(throws: MediaFormatError.self) { try TagReader.read(MemorySource(bytes)) }
    }

    @Test func twoFramesInARowAreFoundAfterJunkAndOneFrameAloneCountsAtTheStart() throws {
        let frame = Self.header + [UInt8](repeating: 0, count: 413)
        let found = try TagReader.read(MemorySource([UInt8](repeating: 0x11, count: 300) + frame + frame))
        #expect(found.format == .mp3 && found.sampleRate == 44_100)
        let single = try TagReader.read(MemorySource(frame))
        #expect(single.format == .mp3 && abs((single.duration ?? 0) - 417.0 * 8 / 128_000) < 0.001)
    }
}
