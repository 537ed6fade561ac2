import Hummingbird
import JukeCore
import JukePlatform

/// A station's stream, at a path on this server: the player keeps this address (as it keeps
/// every media address), and each play counts the listen with Radio Browser and is sent on to
/// the stream (302).
struct RadioListenRoutes {
    let radio: RadioService

    func register(on router: Router<JukeRequestContext>) {
        router.get("/api/v1/dual/radio/stations/:station_id/listen") { _, context in
            _ = try CurrentRequest.requireUser()
            do {
                let id = try RadioService.validated(stationID: context.parameters.get("station_id") ?? "")
                let stream = try await radio.listen(id)
                return Response(status: .found, headers: [.location: stream.absoluteString, .cacheControl: "no-store"])
            } catch let refusal as RuleRefusal {
                throw APIError(refusal)
            }
        }
    }
}
