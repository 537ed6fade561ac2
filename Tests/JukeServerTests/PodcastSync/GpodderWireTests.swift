import Foundation
import JukeCore
import Testing

@testable import DualPlayerServer

/// gpodder.net's wire format read and written without a server: device ids, sanitized
/// addresses, subscription and action uploads, times and Basic credentials.
@Suite(.timeLimit(.minutes(5))) struct GpodderWireTests {
    @Test func deviceIDs() throws {
        #expect(try GpodderWire.deviceID("antennapod_phone-1.2") == "antennapod_phone-1.2")
        for bad in ["", "a b", "a/b", "é", String(repeating: "x", count: 65)] {
            #expect(throws: RuleRefusal.self) { try GpodderWire.deviceID(bad) }
        }
    }

    @Test func addressesAreSanitizedAsGpodderNetDoes() {
        #expect(GpodderWire.sanitized(" http://example.org/podcast.rss ") == "http://example.org/podcast.rss")
        #expect(GpodderWire.sanitized("HTTPS://example.org/f") == "HTTPS://example.org/f")
        for ignored in [
            "ftp://example.org/f", "example.org/f", "http://exämple.org/f", "http:///f", "http://a b/f", "https://" + String(repeating: "a", count: 2000),
        ] {
            #expect(GpodderWire.sanitized(ignored) == "", "\(ignored.prefix(40))")
        }
    }

    @Test func subscriptionUploads() throws {
        let upload = try GpodderWire.subscriptionUpload(Data(#"{"add":["http://a.org/f"," http://b.org/f","gopher://c"],"remove":null}"#.utf8))
        #expect(upload.add == ["http://a.org/f", "http://b.org/f"] && upload.remove == [])
        #expect(upload.updated.map { [$0.0, $0.1] } == [[" http://b.org/f", "http://b.org/f"], ["gopher://c", ""]])
        for bad in [#"{"add":["http://a.org/f"],"remove":[" http://a.org/f"]}"#, #"{"add":[1]}"#, "[]", "", #"{"remove":"x"}"#] {
            #expect(throws: RuleRefusal.self, "\(bad)") { try GpodderWire.subscriptionUpload(Data(bad.utf8)) }
        }
    }

    @Test func actionsAsAntennaPodAndMygpoclientSendThem() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let body = """
            [{"podcast":"http://a.org/f","episode":"http://a.org/1.mp3","guid":"g1","device":"phone","action":"PLAY","timestamp":"2009-12-12T09:00:00",
              "started":15,"position":120.9,"total":500},
             {"podcast":"http://a.org/f","episode":"http://a.org/2.mp3","action":"download"}]
            """
        let read = try GpodderWire.actionUpload(Data(body.utf8), now: now)
        #expect(read.actions.count == 2 && read.updated.isEmpty)
        let play = read.actions[0]
        #expect(play.action == "play" && play.guid == "g1" && play.device == "phone" && play.started == 15 && play.position == 120 && play.total == 500)
        #expect(GpodderWire.formatTime(play.timestamp) == "2009-12-12T09:00:00")
        #expect(read.actions[1].timestamp == now && read.actions[1].position == nil, "no time: the upload's")
        let json = GpodderWire.json(play)
        #expect(json["timestamp"] as? String == "2009-12-12T09:00:00" && json["position"] as? Int == 120 && json["device"] as? String == "phone")
        #expect(GpodderWire.json(read.actions[1])["position"] == nil)
    }

    @Test func timesInTheFormsClientsWrite() {
        let expected = Date(timeIntervalSince1970: 1_260_608_400)
        for text in ["2009-12-12T09:00:00", "2009-12-12T09:00:00Z", "2009-12-12T10:00:00+01:00", "2009-12-12T09:00:00.000Z", "2009-12-12T09:00:00.000000"] {
            #expect(GpodderWire.parseTime(text) == expected, "\(text)")
        }
        for bad in ["yesterday", "", "2009-13-45T99:00:00", String(repeating: "9", count: 50)] { #expect(GpodderWire.parseTime(bad) == nil, "\(bad)") }
    }

    @Test func sinceAndBasicCredentials() throws {
        #expect(try GpodderWire.since(nil) == 0 && GpodderWire.since("") == 0 && GpodderWire.since("1337") == 1337)
        for bad in ["-1", "x", "1.5", "99999999999999999999"] { #expect(throws: RuleRefusal.self) { try GpodderWire.since(bad) } }
        let header = "Basic " + Data("ann:pass:word".utf8).base64EncodedString()
        #expect(GpodderWire.basicCredentials(header).map { [$0.username, $0.password] } == ["ann", "pass:word"])
        #expect(GpodderWire.basicCredentials("Bearer x") == nil && GpodderWire.basicCredentials("Basic !!") == nil && GpodderWire.basicCredentials(nil) == nil)
    }
}
