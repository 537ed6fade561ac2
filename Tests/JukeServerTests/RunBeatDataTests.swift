import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JukeCore
import JukeTestSupport
import NIOCore
import RunBeat
import Testing
import Workouts

@testable import JukeServer
@testable import RunBeatServer

/// RunBeat's history holds what happened, once: a damaged file's impossible heart rates are
/// left out (and said), the same file imported again is the workout it made, a delete can be
/// undone for 30 seconds and is real after, and a workout exports as GPX too.
@Suite(.timeLimit(.minutes(5))) struct RunBeatDataTests {
    /// A 10-minute run as FIT whose checksum no longer matches: bytes flipped in transit,
    /// three samples reading 249 bpm and one 12 bpm.
    static func flippedFIT() -> [UInt8] {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = (0..<600).map { i in
            HeartRateSample(time: start.addingTimeInterval(Double(i)), bpm: [100, 101, 102].contains(i) ? 249 : i == 300 ? 12 : 130 + i / 20)
        }
        var bytes = FITEncoder.encode(RecordedWorkout(format: .fit, sport: "running", start: start, duration: 600, samples: samples))
        bytes[bytes.count - 1] ^= 0xFF
        return bytes
    }

    static func post(_ client: any TestClientProtocol, _ bytes: [UInt8], name: String, token: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        let response = try await client.execute(
            uri: "/api/v1/runbeat/workouts/files?filename=\(name)", method: .post,
            headers: [.authorization: "Bearer \(token)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: bytes))
        return (response.status, (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:])
    }

    @Test(arguments: TestBackend.available)
    func impossibleHeartRatesAreLeftOutAndTheSameFileIsImportedOnce(backend: TestBackend) async throws {
        try await TestApp.run(backend) { _, client in
            let ann = try await client.register("ann")
            let (status, workout) = try await Self.post(client, Self.flippedFIT(), name: "flipped.fit", token: ann)
            #expect(status == .created, "\(workout)")
            let summary = workout["summary"] as? [String: Any] ?? [:]
            #expect(summary["peak_heart_rate"] as? Int == 159)
            #expect(summary["dropped_samples"] as? Int == 4)
            #expect(workout["samples"] as? Int == 596)
            #expect((workout["damage"] as? String)?.contains("checksum") == true)
            // The parts of the summary add up to the workout.
            let parts =
                (summary["zone_seconds"] as? [Double] ?? []).reduce(0, +) + (summary["below_zones_seconds"] as? Double ?? 0)
                + (summary["above_zones_seconds"] as? Double ?? 0) + (summary["no_heart_rate_seconds"] as? Double ?? 0)
            #expect(abs(parts - (workout["seconds"] as? Double ?? 0)) < 0.001)
            let id = workout["id"] as? String ?? ""
            let detail = try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann)
            #expect((detail.json["heart_rate"] as? [[String: Any]])?.allSatisfy { (30...240).contains($0["bpm"] as? Int ?? 0) } == true)

            // The same bytes again: the workout they made, not a copy. Someone else's import is theirs.
            let (again, same) = try await Self.post(client, Self.flippedFIT(), name: "flipped (1).fit", token: ann)
            #expect(again == .ok && same["id"] as? String == id && same["existing"] as? Bool == true)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts", token: ann).json["total"] as? Int == 1)
            let bob = try await client.register("bob")
            let (theirs, other) = try await Self.post(client, Self.flippedFIT(), name: "flipped.fit", token: bob)
            #expect(theirs == .created && other["id"] as? String != id)

            // Replayed as a strap, the recording leaves them out too.
            let replay = try await client.execute(
                uri: "/api/v1/runbeat/recordings", method: .post,
                headers: [.authorization: "Bearer \(ann)", .contentType: "application/octet-stream"], body: ByteBuffer(bytes: Self.flippedFIT()))
            let recording = (try? JSONSerialization.jsonObject(with: Data(buffer: replay.body))) as? [String: Any] ?? [:]
            #expect((recording["heart_rate"] as? [[String: Any]])?.count == 596)

            // No positions (a FIT of heart rate only): no GPX, said in the contract's words, with TCX and FIT offered.
            for uri in ["/runbeat/workouts/\(id)/export.gpx", "/api/v1/runbeat/workouts/\(id)/export.gpx"] {
                let gpx = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(ann)"])
                let refusal = (try? JSONSerialization.jsonObject(with: Data(buffer: gpx.body))) as? [String: Any] ?? [:]
                #expect(gpx.status == .conflict && refusal["error"] as? String == "no_positions", "\(uri)")
                #expect((refusal["message"] as? String).map { $0.contains("TCX") && $0.contains("FIT") } == true)
            }
            let imported = try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann).json
            #expect(imported["has_positions"] as? Bool == false)
        }
    }

    @Test(arguments: TestBackend.available)
    func aDeleteCanBeUndoneForThirtySecondsAndIsRealAfter(backend: TestBackend) async throws {
        let clock = HandClock()
        try await TestApp.run(backend, clock: clock.wall) { app, client in
            let ann = try await client.register("ann")
            let (_, workout) = try await Self.post(client, Self.flippedFIT(), name: "run.fit", token: ann)
            let id = workout["id"] as? String ?? ""
            #expect(try await client.json(.delete, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .noContent)
            // Gone at once, wherever it is looked for.
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts", token: ann).json["total"] as? Int == 0)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .notFound)
            #expect(
                try await client.execute(uri: "/runbeat/workouts/\(id)/export.fit", method: .get, headers: [.authorization: "Bearer \(ann)"]).status
                    == .notFound)
            // Another account cannot bring it back.
            let bob = try await client.register("bob")
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/restore", token: bob).status == .notFound)
            // Undo within the window.
            clock.advance(20)
            let restored = try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/restore", token: ann)
            #expect(restored.status == .ok && restored.json["id"] as? String == id)
            #expect(try await client.json(.get, "/api/v1/runbeat/workouts", token: ann).json["total"] as? Int == 1)
            // A deleted file can be imported again as new; but first delete and let the window pass.
            #expect(try await client.json(.delete, "/api/v1/runbeat/workouts/\(id)", token: ann).status == .noContent)
            clock.advance(31)
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/restore", token: ann).status == .notFound)
            try await app.services.runBeatApp.service.purgeDeleted()
            let store = app.services.runBeatApp.store
            #expect(try await store.workout(try #require(WorkoutID(id))) == nil)
            #expect(try await store.samples(of: try #require(WorkoutID(id))).isEmpty)
            let (status, fresh) = try await Self.post(client, Self.flippedFIT(), name: "run.fit", token: ann)
            #expect(status == .created && fresh["id"] as? String != id)
        }
    }

    @Test(arguments: TestBackend.available)
    func aCoachIsToldHowLongAgoARunnerWasLastHeardOnTheServersClock(backend: TestBackend) async throws {
        let clock = HandClock()
        try await TestApp.run(backend, clock: clock.wall) { _, client in
            let coach = try await client.register("coach")
            let runner = try await client.register("runner")
            let code = try #require(
                try await client.json(.post, "/api/v1/runbeat/classes", token: coach, body: #"{"name":"Track night"}"#).json["code"] as? String)
            let started = try await client.json(.post, "/api/v1/runbeat/workouts", token: runner, body: #"{"plan_id":"free","class_code":"\#(code)"}"#)
            let id = try #require(started.json["id"] as? String)
            // 20 seconds of samples, then the runner's page goes; the server's clock moves on a minute.
            let samples = (0..<20).map { #"{"seq":\#($0),"t":\#($0),"bpm":144}"# }.joined(separator: ",")
            #expect(try await client.json(.post, "/api/v1/runbeat/workouts/\(id)/samples", token: runner, body: #"{"samples":[\#(samples)]}"#).status == .ok)
            clock.advance(59)
            let state = try await client.json(.get, "/api/v1/runbeat/classes/\(code)", token: coach)
            let card = try #require((state.json["runners"] as? [[String: Any]])?.first)
            #expect(card["sample_age"] as? Double == 40)  // last sample at 19 s of a workout started 59 s ago
        }
    }

    @Test func aRunnersSampleAgeIsMeasuredWhenTheFrameIsSent() {
        let heard = RunnerState(
            workoutID: "w", runner: "ann", bpm: 144, zone: 3, phase: 0, phaseKind: "free", elapsed: 60, status: "running", strapLive: true,
            updatedAt: 0, lastSampleAt: 1_800_000_000_000)
        #expect(heard.aged(at: Date(timeIntervalSince1970: 1_800_000_040)).sampleAge == 40)
        var never = heard
        never.lastSampleAt = nil
        #expect(never.aged(at: Date(timeIntervalSince1970: 1_800_000_040)).sampleAge == nil)
    }
}
