import Foundation
import Testing

@testable import Feeds

/// Transcripts and chapter files as podcast hosts publish them, with their usual slips, and
/// the cue to highlight at a moment of the episode.
@Suite(.timeLimit(.minutes(5))) struct TranscriptTests {
    @Test func subRipWithItsUsualSlips() throws {
        let srt =
            "\u{FEFF}1\r\n00:00:01,000 --> 00:00:04,500\r\n<i>Once upon</i> a time\r\n&amp; far away\r\n\r\n"
            + "2\n00:00:05.000 --> 00:00:07,250\nthe end\n\n3\nnot a timing line\nlost\n\n00:01:00,000 --> 00:01:02,000\nno number\n"
        let transcript = try TranscriptReader.read(Array(srt.utf8), type: "application/x-subrip")
        #expect(
            transcript.cues == [
                .init(start: 1, end: 4.5, text: "Once upon a time\n& far away"),
                .init(start: 5, end: 7.25, text: "the end"),
                .init(start: 60, end: 62, text: "no number"),
            ])
    }

    @Test func webVTTWithVoicesNotesAndSettings() throws {
        let vtt = """
            WEBVTT - An episode

            NOTE written by hand
            with two lines

            STYLE
            ::cue { color: yellow }

            intro
            00:00.500 --> 00:02.000 align:start position:10%
            <v Ann>Hello &amp; welcome</v>

            00:01:03.250 --> 00:01:05.000
            <v.loud Bob Smith>Thanks, <b>Ann</b>.
            """
        let transcript = try TranscriptReader.read(Array(vtt.utf8))
        #expect(
            transcript.cues == [
                .init(start: 0.5, end: 2, speaker: "Ann", text: "Hello & welcome"),
                .init(start: 63.25, end: 65, speaker: "Bob Smith", text: "Thanks, Ann."),
            ])
        #expect(throws: TranscriptError.self) { try TranscriptReader.read(Array("00:01.000 --> 00:02.000\nhi".utf8), type: "text/vtt") }
    }

    @Test func podcastingJSONKeepsTheReadableSegments() throws {
        let json = #"""
            {"version": "1.0.0", "segments": [
              {"speaker": "Ann", "startTime": 3.5, "endTime": 4.0, "body": "world"},
              {"speaker": "Ann", "startTime": 0.5, "endTime": 3.2, "body": "Hello"},
              {"startTime": "soon", "body": "a broken one"},
              {"startTime": 5, "body": "no end"}
            ]}
            """#
        let transcript = try TranscriptReader.read(Array(json.utf8), type: "application/json")
        #expect(transcript.cues.map(\.text) == ["Hello", "world", "no end"])
        #expect(transcript.cues.first?.speaker == "Ann" && transcript.cues.last?.end == 5)
        #expect(throws: TranscriptError.self) { try TranscriptReader.read(Array(#"{"segments": 3}"#.utf8), type: "application/json") }
        #expect(throws: TranscriptError.self) { try TranscriptReader.read(Array("no times at all".utf8)) }
    }

    @Test func theCueAtAMoment() {
        let transcript = Transcript(cues: [
            .init(start: 5, end: 7, text: "b"), .init(start: 1, end: 4, text: "a"), .init(start: 7, end: 9, text: "c"),
            .init(start: -1, end: 2, text: "before the start"), .init(start: .nan, end: 3, text: "no time"),
        ])
        #expect(transcript.cues.map(\.text) == ["a", "b", "c"])
        #expect([0.5, 1, 3.9, 4, 4.5, 5, 6.99, 7, 8.5, 9, 100].map(transcript.cueIndex(at:)) == [nil, 0, 0, nil, nil, 1, 1, 2, 2, nil, nil])
        #expect(Transcript(cues: []).cueIndex(at: 3) == nil)
    }

    @Test func jsonChaptersInOrderEndingWhereTheNextStarts() throws {
        let json = #"""
            {"version": "1.2.0", "chapters": [
              {"startTime": 65.5, "title": "The poem", "url": "https://example.org/raven", "img": "https://example.org/raven.jpg"},
              {"startTime": 0, "title": " Intro "},
              {"startTime": 120, "endTime": 130, "title": "Sponsor", "toc": false},
              {"title": "no start"},
              {"startTime": 200, "endTime": 150, "title": "ends before it starts"}
            ]}
            """#
        let chapters = try JSONChapters.read(Array(json.utf8))
        #expect(chapters.map(\.title) == ["Intro", "The poem", "Sponsor", "ends before it starts"])
        #expect(chapters.map(\.end) == [65.5, 120, 130, nil])
        #expect(chapters[1].url == "https://example.org/raven" && chapters[1].image == "https://example.org/raven.jpg")
        #expect(chapters[2].listed == false && chapters[0].listed)
        #expect(throws: JSONChapters.ReadError.self) { try JSONChapters.read(Array("[1, 2]".utf8)) }
    }
}
