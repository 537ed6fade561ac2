import Testing

@testable import MediaFormats

/// A song's words as each tag format writes them: ID3 USLT (plain) and SYLT (synced, made
/// into LRC), Vorbis LYRICS, MP4 ©lyr, APE Lyrics; and LRC text's timed lines.
@Suite(.timeLimit(.minutes(5))) struct LyricsTagTests {
    @Test func readsID3UnsyncedLyrics() throws {
        var writer = ID3v2Writer()
        writer.text("TIT2", "Song")
        writer.lyrics("First line\r\nSecond line", language: "deu")
        let meta = try ID3v2Tests.read(writer.encode(padding: 0))
        #expect(meta.lyrics == TaggedLyrics(text: "First line\nSecond line", language: "deu"))
        #expect(meta.lyrics?.isSynced == false)
    }

    @Test func readsID3SyncedLyricsAsLRCAndPrefersThem() throws {
        var writer = ID3v2Writer()
        writer.lyrics("Plain words")
        writer.syncedLyrics([(0, "Hello"), (1500, "World"), (62_340, "Again")], language: "eng")
        let meta = try ID3v2Tests.read(writer.encode(padding: 0))
        #expect(meta.lyrics?.text == "[00:00.00]Hello\n[00:01.50]World\n[01:02.34]Again")
        #expect(meta.lyrics?.language == "eng" && meta.lyrics?.isSynced == true)
        #expect(
            LRC.lines(meta.lyrics?.text ?? "") == [.init(millis: 0, text: "Hello"), .init(millis: 1500, text: "World"), .init(millis: 62_340, text: "Again")])
    }

    @Test func readsVorbisMP4AndAPELyrics() throws {
        var flac = AudioMetadata(format: .flac)
        VorbisComments.apply([(key: "UNSYNCEDLYRICS", value: "La la la")], to: &flac)
        #expect(flac.lyrics?.text == "La la la" && flac.lyrics?.language == nil)
        var lrc = AudioMetadata(format: .flac)
        VorbisComments.apply([(key: "LYRICS", value: "[ar:Someone]\n[00:05.2]Five"), (key: "UNSYNCEDLYRICS", value: "Five")], to: &lrc)
        #expect(lrc.lyrics?.isSynced == true)

        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { ID3v2Tests.be32(payload.count + 8) + Array(type.utf8) + payload }
        let data = box("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array("Words in MP4".utf8))
        var mp4 = AudioMetadata(format: .mp4)
        let item = ID3v2Tests.be32(data.count + 8) + [0xA9] + Array("lyr".utf8) + data  // the type is Latin-1: © is one byte
        try ILSTItem.apply(type: "\u{A9}lyr", payload: item[8...], offset: 0, to: &mp4)
        #expect(mp4.lyrics?.text == "Words in MP4")
    }

    @Test func blankLyricsAreNone() {
        var meta = AudioMetadata(format: .flac)
        VorbisComments.apply([(key: "LYRICS", value: " \n ")], to: &meta)
        #expect(meta.lyrics == nil)
        #expect(TaggedLyrics.make(String(repeating: "a", count: TaggedLyrics.maxCharacters + 10))?.text.count == TaggedLyrics.maxCharacters)
    }

    @Test func readsLRCTimesAndOffset() {
        let text = "[offset:+250]\n[00:01]One\n[00:03.5][00:10.25]Chorus\n[00:02.123]Two\nnot a line\n[xx:yy]nor this"
        #expect(
            LRC.lines(text) == [
                .init(millis: 1000, text: "One"), .init(millis: 2123, text: "Two"), .init(millis: 3500, text: "Chorus"),
                .init(millis: 10_250, text: "Chorus"),
            ])
        #expect(LRC.offset(text) == 250 && LRC.offset("[offset:-100]") == -100 && LRC.offset("[00:01]x") == nil)
        #expect(LRC.lines("Just words\nand more").isEmpty)
    }
}
