import Foundation
import Testing

@testable import MediaFormats

/// Every fixture read by Juke agrees with what mutagen read from the same file.
@Suite(.timeLimit(.minutes(5))) struct FixtureOracleTests {
    @Test(arguments: Fixtures.goodNames)
    func readsTheSameTagsAsMutagen(name: String) throws {
        let expected = try #require(try Fixtures.expectations()[name])
        let meta = try TagReader.read(path: Fixtures.url(name).path)

        func check(_ key: String, _ actual: String?) {
            if let want = expected[key]?.string { #expect(actual == want, "\(name): \(key)") }
        }
        func checkInt(_ key: String, _ actual: Int?) {
            if let want = expected[key]?.number { #expect(actual == Int(want), "\(name): \(key)") }
        }
        check("format", meta.format.rawValue)
        check("title", meta.title)
        check("artist", meta.artist)
        check("album", meta.album)
        check("album_artist", meta.albumArtist)
        check("composer", meta.composer)
        check("genre", meta.genre)
        check("isrc", meta.isrc)
        check("musicbrainz", meta.musicBrainzRecordingID)
        check("artwork_mime", meta.frontCover?.mimeType)
        checkInt("artwork_size", meta.frontCover?.data.count)
        checkInt("year", meta.year)
        checkInt("track", meta.trackNumber)
        checkInt("track_total", meta.trackTotal)
        checkInt("disc", meta.discNumber)
        checkInt("disc_total", meta.discTotal)
        checkInt("sample_rate", meta.sampleRate)
        checkInt("channels", meta.channels)
        if let want = expected["duration"]?.number {
            let got = try #require(meta.duration, "\(name): duration")
            // For CBR MP3 without a Xing header both estimate from the bitrate, but mutagen
            // counts a trailing ID3v1 tag as audio (128 bytes, 32 ms at 32 kbit/s) and Juke does not.
            #expect(abs(got - want) < max(0.04, want * 0.02), "\(name): duration \(got) vs mutagen \(want)")
        }
    }

    @Test func theSameFileReadsTheSameFromMemoryAndFromDisk() throws {
        for name in Fixtures.goodNames {
            let fromDisk = try TagReader.read(path: Fixtures.url(name).path)
            let fromMemory = try TagReader.read(MemorySource(Fixtures.bytes(name)))
            #expect(fromDisk == fromMemory, "\(name)")
        }
    }
}
