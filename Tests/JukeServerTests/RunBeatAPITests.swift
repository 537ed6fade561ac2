import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import JukeTestSupport
import Logging
import NIOCore
import Synchronization
import Testing

@testable import JukePlatform
@testable import JukeServer
@testable import RunBeatServer

/// RunBeat over HTTP on both databases: the profile and zones (edited both ways, refused
/// under 5 bpm), plans, one workout at a time, samples stored once whatever is resent, the
/// end and its summary, import and replay of recorded files, export, classes; and the live
/// connection: samples in, cues and acknowledgements out.
@Suite(.timeLimit(.minutes(5))) struct RunBeatAPITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../WorkoutsTests/Fixtures")

    static func body(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }

    @Test(arguments: TestBackend.available)
    func profileZonesAndPlans(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let profile = try await client.json(.get, "/api/v1/runbeat/profile", token: ann)
            #expect(profile.status == .ok)
            #expect(profile.json["maximum"] as? Int == 190 && profile.json["manual_zones"] as? Bool == false)
            #expect((profile.json["zones"] as? [[String: Any]])?.first?["low"] as? Int == 125)
            // Karvonen for 40 and 60: 120, 132, 144, 156, 168, 180.
            var update = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":60,"formula":"fox","warmup_seconds":600}"#)
            #expect(update.status == .ok)
            #expect((update.json["zones"] as? [[String: Any]])?.map { $0["low"] as? Int } == [120, 132, 144, 156, 168])
            // A warm-up of a few seconds is refused: none, or at least 10 seconds.
            let blink = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":60,"formula":"fox","warmup_seconds":2}"#)
            #expect(blink.status == .unprocessableContent && blink.json["field"] as? String == "warmup_seconds")
            #expect((update.json["bound_ranges"] as? [[Int]])?[2] == [137, 151])
            // Bound 2 up to 150: zone 2 wider, zone 3 narrower.
            update = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":60,"formula":"fox","zones":[120,132,150,156,168,180]}"#)
            #expect(update.json["manual_zones"] as? Bool == true)
            #expect((update.json["zones"] as? [[String: Any]])?[2]["low"] as? Int == 150)
            let narrow = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":60,"formula":"fox","zones":[120,132,153,156,168,180]}"#)
            #expect(narrow.status == .unprocessableContent && narrow.json["field"] as? String == "zones")
            let impossible = try await client.json(.put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":110,"formula":"fox","max":150}"#)
            #expect(impossible.status == .unprocessableContent)
            let auto = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":40,"resting":60,"formula":"tanaka","automatic_zones":true}"#)
            #expect(auto.json["manual_zones"] as? Bool == false && auto.json["maximum"] as? Int == 180)

            var plans = try await client.json(.get, "/api/v1/runbeat/plans", token: ann)
            let list = try #require(plans.json["plans"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["free", "vo2max_4x4"])
            #expect(list[1]["total_seconds"] as? Double == Double(600 + 28 * 60 + 300))
            let custom = try await client.json(
                .post, "/api/v1/runbeat/plans", token: ann,
                body: try Self.body([
                    "name": "Hills",
                    "steps": [
                        ["repeats": 1, "phases": [["kind": "warmup", "seconds": 300]]],
                        [
                            "repeats": 5,
                            "phases": [
                                ["kind": "work", "seconds": 90, "target_kind": "zones", "target_low": 4, "target_high": 5],
                                ["kind": "recovery", "seconds": 120],
                            ],
                        ],
                    ],
                ]))
            #expect(custom.status == .created, "\(custom.json)")
            let customPhases = try #require(custom.json["phases"] as? [[String: Any]])
            #expect(customPhases.count == 11 && customPhases[1]["target_kind"] as? String == "zones" && customPhases[1]["target_high"] as? Int == 5)
            let noLow = try await client.json(
                .post, "/api/v1/runbeat/plans", token: ann,
                body: #"{"name":"x","steps":[{"repeats":1,"phases":[{"kind":"work","seconds":60,"target_kind":"zones"}]}]}"#)
            #expect(noLow.status == .unprocessableContent)
            let bad = try await client.json(
                .post, "/api/v1/runbeat/plans", token: ann, body: #"{"name":"x","steps":[{"repeats":1,"phases":[{"kind":"free","seconds":60}]}]}"#)
            #expect(bad.status == .unprocessableContent)
            plans = try await client.json(.get, "/api/v1/runbeat/plans", token: ann)
            #expect((plans.json["plans"] as? [Any])?.count == 3)
            let id = try #require(custom.json["id"] as? String)
            let bob = try await client.register("bob")
            #expect(try await client.json(.delete, "/api/v1/runbeat/plans/\(id)", token: bob).status == .notFound)
            #expect(try await client.json(.delete, "/api/v1/runbeat/plans/\(id)", token: ann).status == .noContent)
            #expect(try await client.json(.delete, "/api/v1/runbeat/plans/\(id)", token: ann).status == .notFound)
        }
    }

    @Test(arguments: TestBackend.available)
    func oneWorkoutAtATimeSamplesOnceAndTheSummary(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
            #expect(started.status == .created)
            let id = try #require(started.json["id"] as? String)
            let phases = try #require(started.json["phases"] as? [[String: Any]])
            #expect(phases.count == 10 && phases[1]["low"] as? Int == 162 && phases[1]["high"] as? Int == 181 && phases[1]["interval"] as? Int == 1)
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"free"}"#).status == .conflict)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts/running", token: ann).json["id"] as? String == id)
            let bob = try await client.register("bob")
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts", token: bob, body: #"{"plan_id":"nonsense"}"#).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: bob).status == .notFound)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts/running", token: bob).status == .notFound)

            // Ten minutes of samples over HTTP, in pieces, one piece sent twice and one out of order.
            let samples: [[String: Any]] = (0..<600).map { (i: Int) -> [String: Any] in
                let bpm: Int = i < 300 ? 120 + i / 10 : 170
                return ["seq": i, "t": Double(i), "bpm": bpm]
            }
            let pieces = stride(from: 0, to: 600, by: 100).map { Array(samples[$0..<($0 + 100)]) }
            for piece in [pieces[0], pieces[2], pieces[1], pieces[1], pieces[3], pieces[4], pieces[5]] {
                let receipt = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/samples", token: ann, body: try Self.body(["samples": piece]))
                #expect(receipt.status == .ok)
            }
            let receipt = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/samples", token: ann, body: try Self.body(["samples": pieces[5]]))
            #expect(receipt.json["acked_seq"] as? Int == 599 && receipt.json["samples"] as? Int == 600)
            let badSample = try await client.json(
                .post, "/api/v1/runbeat/workouts/\(id)/samples", token: ann, body: #"{"samples":[{"seq":600,"t":600,"bpm":0}]}"#)
            #expect(badSample.status == .badRequest)
            #expect(try await client.json(.delete, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .conflict)

            // The end: the summary from every sample.
            let ended = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/end", token: ann, body: #"{"elapsed":600}"#)
            #expect(ended.status == .ok, "\(ended.json)")
            #expect(ended.json["status"] as? String == "ended")
            let summary = try #require(ended.json["summary"] as? [String: Any])
            #expect(summary["samples"] as? Int == 600 && summary["peak_heart_rate"] as? Int == 170)
            let zoneSeconds = try #require(summary["zone_seconds"] as? [Double])
            #expect(abs(zoneSeconds.reduce(0, +) + (summary["below_zones_seconds"] as? Double ?? 0) - 600) < 1.5)
            let intervals = try #require(summary["intervals"] as? [[String: Any]])
            // The first interval (300-540 s) at 170, in its 162-181 target: hit.
            #expect(intervals.count == 1 && intervals.first?["hit"] as? Bool == true)
            let again = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/end", token: ann, body: #"{"elapsed":900}"#)
            #expect(again.json["seconds"] as? Double == 600)
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/samples", token: ann, body: #"{"samples":[]}"#).status == .conflict)
            let detail = try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann)
            #expect((detail.json["heart_rate"] as? [Any])?.count == 600)
            let history = try await client.json(.get, "/api/v1/runbeat/workouts?limit=10", token: ann)
            #expect(history.json["total"] as? Int == 1)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts?limit=0", token: ann).status == .badRequest)

            // Exported for other apps.
            let fit = try await client.execute(uri: "/runbeat/workouts/\(id)/export.fit", method: .get, headers: [.authorization: "Bearer \(ann)"])
            #expect(fit.status == .ok && Array(Data(buffer: fit.body)[8..<12]) == Array(".FIT".utf8))
            let tcx = try await client.execute(uri: "/runbeat/workouts/\(id)/export.tcx", method: .get, headers: [.authorization: "Bearer \(ann)"])
            #expect(String(buffer: tcx.body).components(separatedBy: "<Trackpoint>").count == 601)
            #expect(
                try await client.execute(uri: "/runbeat/workouts/\(id)/export.fit", method: .get, headers: [.authorization: "Bearer \(bob)"]).status
                    == .notFound)
            #expect(try await client.json(.delete, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .noContent)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .notFound)
        }
    }

    /// A page offline when its timed plan ran out ends it afterwards: completed, not ended early.
    @Test(arguments: TestBackend.available)
    func endingAfterThePlanRanOutCompletesIt(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            _ = try await client.json(
                .put, "/api/v1/runbeat/profile", token: ann, body: #"{"age":30,"resting":60,"formula":"fox","warmup_seconds":0,"cooldown_seconds":0}"#)
            let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
            let id = try #require(started.json["id"] as? String)
            let early = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
            #expect(early.status == .conflict)
            let ended = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/end", token: ann, body: #"{"elapsed":1700}"#)
            #expect(ended.json["status"] as? String == "completed")
            let second = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"vo2max_4x4"}"#)
            let secondID = try #require(second.json["id"] as? String)
            let stopped = try await client.json(.post, "/api/v1/runbeat/workouts/\(secondID)/end", token: ann, body: #"{"elapsed":600}"#)
            #expect(stopped.json["status"] as? String == "ended")
        }
    }

    @Test(arguments: TestBackend.available)
    func recordedFilesAreImportedAndReplayed(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let fit = try Data(contentsOf: Self.fixtures.appendingPathComponent("fitparse/activity-small-fenix2-run.fit"))
            let headers: HTTPFields = [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"]
            let imported = try await client.execute(
                uri: "/api/v1/runbeat/workouts/files?filename=morning.fit", method: .post, headers: headers, body: ByteBuffer(bytes: fit))
            let workout = try JSONSerialization.jsonObject(with: Data(buffer: imported.body)) as? [String: Any] ?? [:]
            #expect(imported.status == .created, "\(workout)")
            #expect(workout["name"] as? String == "morning" && workout["samples"] as? Int == 2808 && workout["source"] as? String == "import")
            #expect((workout["summary"] as? [String: Any])?["peak_heart_rate"] as? Int == 178)
            let cut = try Data(contentsOf: Self.fixtures.appendingPathComponent("fitparse/nick.fit"))
            let salvaged = try await client.execute(
                uri: "/api/v1/runbeat/workouts/files?filename=nick.fit", method: .post, headers: headers, body: ByteBuffer(bytes: cut))
            let salvagedJSON = try JSONSerialization.jsonObject(with: Data(buffer: salvaged.body)) as? [String: Any] ?? [:]
            #expect(salvaged.status == .created && (salvagedJSON["damage"] as? String)?.contains("cut short") == true)
            for (name, bytes) in [("junk.fit", Array("not a workout".utf8)), ("empty.gpx", Array("<gpx><trk/></gpx>".utf8))] {
                let refused = try await client.execute(
                    uri: "/api/v1/runbeat/workouts/files?filename=\(name)", method: .post, headers: headers, body: ByteBuffer(bytes: bytes))
                #expect(refused.status == .unprocessableContent, "\(name)")
            }
            let gpx = try Data(contentsOf: Self.fixtures.appendingPathComponent("workouts/sample.gpx"))
            let replay = try await client.execute(uri: "/api/v1/runbeat/recordings", method: .post, headers: headers, body: ByteBuffer(bytes: gpx))
            let recording = try JSONSerialization.jsonObject(with: Data(buffer: replay.body)) as? [String: Any] ?? [:]
            #expect(replay.status == .ok && recording["format"] as? String == "gpx")
            #expect((recording["heart_rate"] as? [[String: Any]])?.map { $0["t"] as? Double } == [0, 5, 15])
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts", token: ann).json["total"] as? Int == 2)
        }
    }

    @Test(arguments: TestBackend.available)
    func classesAreTheirCoachesAndMusicFollowsTheChoice(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let coach = try await client.register("coach")
            let runner = try await client.register("runner")
            let opened = try await client.json(.post, "/api/v1/runbeat/classes", token: coach, body: #"{"name":"Tuesday track"}"#)
            #expect(opened.status == .created)
            let code = try #require(opened.json["code"] as? String)
            #expect(code.count == 6)
            #expect(
                try await client.json(.post, "/api/v1/runbeat/workouts", token: runner, body: #"{"plan_id":"free","class_code":"ZZZZZZ"}"#).status == .notFound)
            let started = try await client.json(
                .post, "/api/v1/runbeat/workouts", token: runner, body: #"{"plan_id":"free","class_code":"\#(code.lowercased())"}"#)
            #expect(started.status == .created && started.json["class_code"] as? String == code)
            let state = try await client.json(.get, "/api/v1/runbeat/classes/\(code)", token: coach)
            #expect(state.status == .ok && (state.json["runners"] as? [[String: Any]])?.first?["runner"] as? String == "runner")
            #expect(try await client.json(.get, "/api/v1/runbeat/classes/\(code)", token: runner).status == .forbidden)
            #expect(try await client.json(.get, "/api/v1/runbeat/classes/ABCDEF", token: coach).status == .notFound)

            let music = try await client.json(.get, "/api/v1/runbeat/music/work", token: runner)
            #expect(music.status == .ok && music.json["mode"] as? String == "auto" && (music.json["tracks"] as? [Any])?.isEmpty == true)
            let quiet = #"{"mode":"none","track_ids":[]}"#
            let update = try await client.json(
                .put, "/api/v1/runbeat/profile/music", token: runner,
                body: #"{"warmup":\#(quiet),"work":\#(quiet),"recovery":\#(quiet),"cooldown":\#(quiet)}"#)
            #expect(update.status == .ok)
            let tooMany = try await client.json(
                .put, "/api/v1/runbeat/profile/music", token: runner,
                body: #"{"warmup":\#(quiet),"work":{"mode":"tracks","track_ids":["x"]},"recovery":\#(quiet),"cooldown":\#(quiet)}"#)
            #expect(tooMany.status == .badRequest)
            let rules = try await client.json(
                .put, "/api/v1/runbeat/profile/rules", token: runner,
                body:
                    #"{"smoothing_seconds":10,"trim_fraction":0.2,"dead_band":3,"dwell_seconds":5,"cooldown_seconds":60,"phase_grace_seconds":60,"minimum_gap_seconds":4,"stale_sample_seconds":10,"silent_strap_seconds":10,"reminder_seconds":0}"#
            )
            #expect(rules.status == .ok && (rules.json["rules"] as? [String: Any])?["cooldown_seconds"] as? Double == 60)
            let storm = try await client.json(
                .put, "/api/v1/runbeat/profile/rules", token: runner,
                body:
                    #"{"smoothing_seconds":10,"trim_fraction":0.2,"dead_band":3,"dwell_seconds":5,"cooldown_seconds":60,"phase_grace_seconds":60,"minimum_gap_seconds":4,"stale_sample_seconds":10,"silent_strap_seconds":10,"reminder_seconds":5}"#
            )
            #expect(storm.status == .unprocessableContent)
            #expect(try await client.json(.get, "/api/v1/runbeat/music/work", token: runner).json["mode"] as? String == "none")
        }
    }

    /// The live connection: the hello, the first phase said, samples (as heart rates and as
    /// the strap's raw notifications) acknowledged once stored, a cue, the end and its summary.
    @Test func theLiveConnectionCarriesSamplesCuesAndTheEnd() async throws {
        try await TestApp.run(.sqlite, mode: .live) { _, client in
            let ann = try await client.register("ann")
            let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: ann, body: #"{"plan_id":"free"}"#)
            let id = try #require(started.json["id"] as? String)
            let port = try #require(client.port)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ann)"
            let seen = Mutex<[String]>([])
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/api/v1/runbeat/workouts/\(id)/live",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers), logger: Logger(label: "test")
            ) { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                func next(until predicate: (String) -> Bool) async throws -> String? {
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        seen.withLock { $0.append(text) }
                        if predicate(text) { return text }
                    }
                    return nil
                }
                let hello = try await next { $0.contains(#""type":"hello""#) }
                #expect(hello?.contains(#""acked_seq":-1"#) == true)
                #expect(try await next { $0.contains(#""kind":"phase""#) }?.contains(#""phase":"free""#) == true)
                // A minute at 140 (zone 2 for a 190 maximum): half as heart rates, half as raw notifications.
                for second in 0..<60 {
                    let sample = second % 2 == 0 ? #"{"seq":\#(second),"t":\#(second),"bpm":140}"# : #"{"seq":\#(second),"t":\#(second),"m":"068c"}"#
                    try await outbound.write(.text(#"{"type":"samples","t":\#(second),"samples":[\#(sample)]}"#))
                }
                let zone = try await next { $0.contains(#""kind":"zone""#) }
                #expect(zone?.contains(#""zone":2"#) == true)
                #expect(try await next { $0.contains(#""seq":59,"type":"ack""#) } != nil)
                try await outbound.write(.text(#"{"type":"end","t":60}"#))
                #expect(try await next { $0.contains(#""type":"finished""#) }?.contains(#""reason":"ended""#) == true)
            }
            let detail = try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann)
            #expect(detail.json["status"] as? String == "ended")
            #expect((detail.json["summary"] as? [String: Any])?["samples"] as? Int == 60)
            #expect((detail.json["summary"] as? [String: Any])?["average_heart_rate"] as? Int == 140)
        }
    }
}
