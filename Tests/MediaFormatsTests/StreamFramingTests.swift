import Foundation
import Testing

@testable import MediaFormats

/// What the radio relay reads off a station's connection: the answer's head (HTTP and
/// SHOUTcast's ICY), chunked coding, ICY metadata, Ogg pages, the kind of stream, and
/// playlists. Each is fed whole and cut at every byte, since a connection cuts anywhere.
@Suite(.timeLimit(.minutes(5))) struct StreamFramingTests {
    @Test func httpAndICYHeads() throws {
        let http = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: audio/mpeg; charset=x\r\nicy-metaint: 8192\r\nIcy-Name: Caf\u{e9} FM\r\nX-A: 1\r\nx-a: 2\r\n\r\nAUDIO".utf8)
        let (head, length) = try #require(try StreamResponseHead.parse(http[...]))
        #expect(head.status == 200 && !head.isICY && head.contentType == "audio/mpeg" && head.metadataInterval == 8192)
        #expect(head.headers["icy-name"] == "Caf\u{e9} FM" && head.headers["x-a"] == "1, 2")
        #expect(Array(http[length...]) == Array("AUDIO".utf8))
        // SHOUTcast v1: an ICY status line, bare LFs, Latin-1 in a header.
        let icy = Array("ICY 200 OK\nicy-name:Caf".utf8) + [0xE9] + Array("\nicy-metaint:16000\n\nxx".utf8)
        let shout = try #require(try StreamResponseHead.parse(icy[...]))
        #expect(shout.head.isICY && shout.head.status == 200 && shout.head.headers["icy-name"] == "Caf\u{e9}" && shout.head.metadataInterval == 16000)
        // Incomplete: nil, at every cut.
        for cut in 0..<(length - 1) { #expect(try StreamResponseHead.parse(http[0..<cut]) == nil) }
        // Broken heads are refused with a reason.
        for bad in [
            "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 2OO OK\r\n\r\n", "SIP/2.0 200 OK\r\n\r\n", "HTTP/1.1 200 OK\r\n: x\r\n\r\n", "HTTP/1.1 200 OK\r\nA B: x\r\n\r\n",
        ] {
            #expect(throws: MediaFormatError.self) { try StreamResponseHead.parse(Array(bad.utf8)[...]) }
        }
        let endless = [UInt8]("HTTP/1.1 200 OK\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 20_000)
        #expect(throws: MediaFormatError.self) { try StreamResponseHead.parse(endless[...]) }
        #expect(StreamResponseHead(status: 200, headers: ["icy-metaint": "-5"]).metadataInterval == nil)
    }

    @Test func chunkedCodingCutAnywhere() throws {
        let body = Array("HTTP chunked radio bytes, in pieces of any size".utf8)
        var wire: [UInt8] = []
        for piece in [body[0..<5], body[5..<30], body[30...]] {
            wire += Array(String(piece.count, radix: 16).utf8) + Array(";ext=1\r\n".utf8) + piece + Array("\r\n".utf8)
        }
        wire += Array("0\r\nTrailer: x\r\n\r\n".utf8)
        for cut in 0...wire.count {
            var decoder = ChunkedBodyDecoder()
            let out = try decoder.feed(wire[0..<cut]) + decoder.feed(wire[cut...])
            #expect(out.flatMap { $0 } == body && decoder.isFinished)
        }
        var bad = ChunkedBodyDecoder()
        #expect(throws: MediaFormatError.self) { try bad.feed(Array("zz\r\n".utf8)[...]) }
        var overlong = ChunkedBodyDecoder()
        #expect(throws: MediaFormatError.self) { try overlong.feed(Array("2\r\nabc\r\n".utf8)[...]) }
    }

    @Test func icyMetadataIsTakenOutOfTheAudio() {
        let interval = 10
        let title = Array("StreamTitle='Guns N' Roses - Patience';StreamUrl='http://x';".utf8)
        let padded = title + [UInt8](repeating: 0, count: (16 - title.count % 16) % 16)
        let audio = (0..<35).map { UInt8($0) }
        // 10 audio, a block, 10 audio, an empty block, 10 audio, a block, 5 audio.
        let wire =
            Array(audio[0..<10]) + [UInt8(padded.count / 16)] + padded + Array(audio[10..<20]) + [0] + Array(audio[20..<30])
            + [UInt8(padded.count / 16)] + padded + Array(audio[30...])
        for cut in 0...wire.count {
            var demuxer = ICYDemuxer(interval: interval)
            let parts = demuxer.feed(wire[0..<cut]) + demuxer.feed(wire[cut...])
            var heard: [UInt8] = []
            var titles: [String?] = []
            for part in parts {
                switch part {
                case .audio(let bytes): heard += bytes
                case .metadata(let metadata): titles.append(metadata.streamTitle)
                }
            }
            #expect(heard == audio && titles == ["Guns N' Roses - Patience", "Guns N' Roses - Patience"], "cut at \(cut)")
        }
        #expect(ICYMetadata(Array("StreamTitle='';".utf8)[...]).streamTitle == nil)
        #expect(ICYMetadata(Array("StreamTitle='Caf".utf8)[...] + [0xE9] + Array("';".utf8)).streamTitle == "Caf\u{e9}")
        #expect(ICYMetadata(Array("StreamTitle='No end".utf8)[...]).streamTitle == "No end")
        #expect(ICYMetadata(Array("StreamTitle='a\u{1}b';".utf8)[...]).streamTitle == "ab", "no control characters reach a page")
    }

    @Test func oggPagesAreWholeAndMarked() throws {
        for name in ["tagged.ogg", "tagged.opus"] {
            let file = try Fixtures.bytes(name)
            var whole = OggPageSplitter()
            let pages = whole.feed(file[...])
            #expect(pages.count >= 2 && pages[0].isFirst && pages.flatMap(\.bytes) == file && whole.skipped == 0, "\(name)")
            #expect(pages[0].couldBeHeader && pages[1].couldBeHeader, "the first pages carry headers")
            // Cut into odd pieces, with garbage before: the same pages.
            var splitter = OggPageSplitter()
            var again: [OggPageSplitter.Page] = splitter.feed(Array("garbage".utf8)[...])
            var offset = 0
            while offset < file.count {
                let end = min(file.count, offset + 777)
                again += splitter.feed(file[offset..<end])
                offset = end
            }
            #expect(again == pages && splitter.skipped == 7, "\(name)")
        }
    }

    @Test func whatAStreamIs() {
        let mpeg: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0, count: 600)
        let adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80] + [UInt8](repeating: 0, count: 600)
        #expect(StreamKind.sniff(contentType: "audio/mpeg", firstBytes: mpeg[...]) == .mpeg)
        #expect(StreamKind.sniff(contentType: nil, firstBytes: adts[...]) == .aac)
        #expect(StreamKind.sniff(contentType: "application/octet-stream", firstBytes: Array("OggS\0\u{2}".utf8)[...]) == .ogg)
        #expect(StreamKind.sniff(contentType: "audio/aacp", firstBytes: [1, 2, 3][...]) == .aac)
        #expect(StreamKind.sniff(contentType: "text/html", firstBytes: mpeg[...]) == .notAudio, "a declared page is refused whatever follows")
        #expect(StreamKind.sniff(contentType: "audio/mpeg", firstBytes: Array("<html>".utf8)[...]) == .mpeg)
        #expect(StreamKind.sniff(contentType: nil, firstBytes: Array("<!DOCTYPE html><html>".utf8)[...]) == .notAudio)
        #expect(StreamKind.sniff(contentType: "audio/x-mpegurl", firstBytes: Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n".utf8)[...]) == .hls)
        #expect(StreamKind.sniff(contentType: "audio/x-mpegurl", firstBytes: Array("#EXTM3U\nhttp://a/b.mp3\n".utf8)[...]) == .playlist)
        #expect(StreamKind.sniff(contentType: nil, firstBytes: Array("[playlist]\nFile1=http://a/b\n".utf8)[...]) == .playlist)
        #expect(StreamKind.sniff(contentType: "image/png", firstBytes: [0x89, 0x50, 0x4E, 0x47][...]) == .notAudio)
    }

    @Test func playlistsNameTheirStreams() {
        let pls = "[playlist]\r\nNumberOfEntries=2\r\nFile1=http://a.example/live\r\nTitle1=A\r\nFile2=https://b.example/x.mp3\r\nFile3=javascript:alert(1)\r\n"
        #expect(StationPlaylist.streams(in: Array(pls.utf8)[...]) == ["http://a.example/live", "https://b.example/x.mp3"])
        let m3u = "#EXTM3U\n#EXTINF:-1,Radio\nhttp://c.example/stream\nfile:///etc/passwd\n"
        #expect(StationPlaylist.streams(in: Array(m3u.utf8)[...]) == ["http://c.example/stream"])
    }
}
