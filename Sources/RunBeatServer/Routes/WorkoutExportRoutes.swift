import Foundation
import Hummingbird
import JukeCore
import JukePlatform
import RunBeat
import Workouts

/// A workout as a file for other apps (Garmin Connect, Strava, TrainingPeaks):
/// `/runbeat/workouts/<id>/export.fit` or `export.tcx`, a lap per phase.
struct WorkoutExportRoutes {
    let service: RunBeatService

    func register(on router: Router<JukeRequestContext>) {
        router.get("/runbeat/workouts/:workout_id/:file") { _, context in
            let user = try CurrentRequest.requireUser()
            let id: WorkoutID = try parseID(context.parameters.get("workout_id") ?? "", field: "workout_id")
            let file = context.parameters.get("file") ?? ""
            guard file == "export.fit" || file == "export.tcx" else { throw APIError.notFound("Export as export.fit or export.tcx.") }
            let workout: RunBeatStore.StoredWorkout
            let recorded: RecordedWorkout
            do {
                workout = try await service.workout(id, of: user.id)
                recorded = try await service.export(workout)
            } catch let refusal as RuleRefusal {
                throw APIError(refusal)
            }
            let fit = file.hasSuffix(".fit")
            let bytes = fit ? FITEncoder.encode(recorded) : TCXWriter.encode(recorded)
            let day = ISO8601DateFormatter.string(from: workout.startedAt, timeZone: .gmt, formatOptions: [.withFullDate])
            let name = "runbeat-\(day)-\(workout.mode.rawValue).\(fit ? "fit" : "tcx")"
            return Response(
                status: .ok,
                headers: [
                    .contentType: fit ? "application/vnd.ant.fit" : "application/vnd.garmin.tcx+xml",
                    .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "private, no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}
