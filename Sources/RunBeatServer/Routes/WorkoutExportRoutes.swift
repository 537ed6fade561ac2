import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import RunBeat
import Workouts

/// A workout as a file for other apps (Garmin Connect, Strava, TrainingPeaks):
/// `/runbeat/workouts/<id>/export.fit`, `export.tcx` (a lap per phase) or `export.gpx`
/// (a route with heart rate, no laps: GPX has none; refused for a workout without positions).
struct WorkoutExportRoutes {
    let service: RunBeatService

    static let formats: [String: WorkoutFormat] = ["export.fit": .fit, "export.tcx": .tcx, "export.gpx": .gpx]

    func register(on router: Router<JukeRequestContext>) {
        router.get("/runbeat/workouts/:workout_id/:file") { _, context in
            let user = try CurrentRequest.requireUser()
            let id: WorkoutID = try parseID(context.parameters.get("workout_id") ?? "", field: "workout_id")
            let file = context.parameters.get("file") ?? ""
            guard let format = Self.formats[file] else { throw APIError.notFound("Export as export.fit, export.tcx or export.gpx.") }
            let workout = try await service.workout(id, of: user.id)
            let recorded = try await service.export(workout)
            let bytes: [UInt8]
            switch format {
            case .fit: bytes = FITEncoder.encode(recorded)
            case .tcx: bytes = TCXWriter.encode(recorded)
            case .gpx:
                guard let gpx = try? Self.gpx(recorded) else { return Self.noPositions.response() }
                bytes = gpx
            }
            let day = ISO8601DateFormatter.string(from: workout.startedAt, timeZone: .gmt, formatOptions: [.withFullDate])
            let name = "runbeat-\(day)-\(workout.mode.rawValue).\(format.rawValue)"
            let type =
                switch format {
                case .fit: "application/vnd.ant.fit"
                case .tcx: "application/vnd.garmin.tcx+xml"
                case .gpx: "application/gpx+xml"
                }
            return Response(
                status: .ok,
                headers: [
                    .contentType: type,
                    .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "private, no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }

    /// The workout as GPX, or the contract's refusal when it has no route to write.
    static func gpx(_ recorded: RecordedWorkout) throws(APIError) -> [UInt8] {
        do {
            return try GPXWriter.encode(recorded)
        } catch {
            throw noPositions
        }
    }

    static let noPositions = APIError(
        status: .conflict, code: "no_positions",
        message: "This workout has no positions, and GPX is a route: every point needs one. RunBeat recorded heart rate only. "
            + "Export it as TCX or FIT instead: they carry the heart rate without a route.")
}
