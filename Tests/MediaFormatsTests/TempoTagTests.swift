import Testing

@testable import MediaFormats

/// Beats per minute as each tag format writes it: ID3 TBPM text, a Vorbis BPM comment, and
/// MP4's binary tmpo item.
@Suite(.timeLimit(.minutes(5))) struct TempoTagTests {
    @Test func readsID3TBPM() throws {
        var writer = ID3v2Writer()
        writer.text("TIT2", "Tempo")
        writer.text("TBPM", "128")
        let meta = try ID3v2Tests.read(writer.encode(padding: 0))
        #expect(meta.bpm == 128)
    }

    @Test func readsAVorbisBPMComment() {
        var meta = AudioMetadata(format: .flac)
        VorbisComments.apply([(key: "BPM", value: "92.5")], to: &meta)
        #expect(meta.bpm == 92.5)
    }

    @Test func readsMP4TmpoAsABigEndianInteger() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ID3v2Tests.be32(payload.count + 8) + Array(type.utf8) + payload }
        // data box: type indicator 21 (signed integer), locale 0, then the 16-bit value 174.
        let data = box("data", [0, 0, 0, 21, 0, 0, 0, 0, 0x00, 0xAE])
        var meta = AudioMetadata(format: .mp4)
        let item = box("tmpo", data)
        try ILSTItem.apply(type: "tmpo", payload: item[8...], offset: 0, to: &meta)
        #expect(meta.bpm == 174)
    }

    @Test(arguments: [
        ("120", 120.0), ("127.98", 127.98), ("128 BPM", 128.0), ("99,5", 99.5),
    ])
    func parsesWhatTaggersWrite(text: String, bpm: Double) {
        #expect(parseBPM(text) == bpm)
    }

    @Test(arguments: ["", "0", "fast", "-120", "12000", "nan", "inf"])
    func refusesWhatIsNotATempo(text: String) {
        #expect(parseBPM(text) == nil)
    }
}
