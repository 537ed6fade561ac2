import ExternalTools
import Foundation
import Testing
import Workouts

/// RunBeat's GPX export against the published schemas: GPX 1.1 (TopoGrafix) and Garmin's
/// TrackPointExtension v1 for the heart rate, both kept as fixtures
/// (Tests/WorkoutsTests/Fixtures/gpx-schema, sources in its SOURCE.md) and checked with
/// xmllint (libxml2-utils, installed by Scripts/test.sh), offline.
@Suite(.timeLimit(.minutes(5))) struct RunBeatGPXSchemaTests {
    static let schemas = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WorkoutsTests/Fixtures/gpx-schema")

    /// xmllint's verdict on `bytes`: nil when valid, else what it said.
    static func validate(_ bytes: [UInt8]) async throws -> String? {
        let xmllint = try #require(ExternalTool.locate("xmllint"), "xmllint (libxml2-utils) is installed by Scripts/test.sh")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runbeat-\(UUID().uuidString).gpx")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let schema = schemas.appendingPathComponent("gpx-with-trackpointextension.xsd").path
        do {
            try await xmllint.run(["--noout", "--nonet", "--schema", schema, file.path])
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func workout(points: Int) -> RecordedWorkout {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = (0..<points).map { HeartRateSample(time: start.addingTimeInterval(Double($0)), bpm: 120 + $0 % 60) }
        let positions = (0..<points).map {
            TrackPosition(
                time: start.addingTimeInterval(Double($0)), latitude: 48.8566 + Double($0) * 0.00002, longitude: 2.3522 - Double($0) * 0.00001, elevation: 35)
        }
        return RecordedWorkout(format: .fit, sport: "running", start: start, duration: Double(points), samples: samples, positions: positions)
    }

    @Test func theExportIsValidGPXWithGarminHeartRate() async throws {
        let bytes = try GPXWriter.encode(Self.workout(points: 2219))
        let verdict = try await Self.validate(bytes)
        #expect(verdict == nil, "\(verdict ?? "")")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "<gpxtpx:hr>").count - 1 == 2219)
    }

    @Test func theSchemaCheckRefusesTrackPointsWithoutAPosition() async throws {
        // What the old export wrote: a track point of time and heart rate alone.
        let old = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Juke RunBeat" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
              <trk><trkseg><trkpt><time>2023-11-14T22:13:20Z</time><extensions><gpxtpx:TrackPointExtension>\
            <gpxtpx:hr>140</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt></trkseg></trk>
            </gpx>
            """
        let verdict = try await Self.validate(Array(old.utf8))
        #expect(verdict?.contains("lat") == true, "\(verdict ?? "valid")")
        // And a heart rate the extension's schema cannot hold is caught too (the extension is validated, not skipped).
        let bad = old.replacingOccurrences(of: "<trkpt>", with: "<trkpt lat=\"1\" lon=\"2\">").replacingOccurrences(of: ">140<", with: ">abc<")
        #expect(try await Self.validate(Array(bad.utf8)) != nil)
    }
}
