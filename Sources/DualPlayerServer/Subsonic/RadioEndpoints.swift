import JukeCore
import JukePlatform
import Providers

/// Subsonic's internet radio is Dual Player's favourite stations. A station's `streamUrl` is
/// its stream through this server's relay, as the page plays it, signed for the caller
/// (`RadioLinks`) since a player plays that address without its login.
enum RadioEndpoints {
    static func all(_ radio: RadioService, links: RadioLinks) -> [SubsonicEndpoint] {
        /// A favourite of the caller's, or not found (70).
        @Sendable func favorite(_ call: SubsonicCall, user: UserID) async throws -> RadioStation {
            let id = try call.parameters.required("id")
            guard let station = try await radio.favorites(of: user).first(where: { $0.id == id }) else { throw SubsonicError.notFound("Radio station") }
            return station
        }

        return [
            SubsonicEndpoint("getInternetRadioStations") { call in
                let user = try call.user
                let now = radio.clock.now()
                var stations: [SubsonicElement] = []
                for station in try await radio.favorites(of: user.id) {
                    let signed = try await links.query(station: station.id, user: user.id, now: now)
                    stations.append(
                        DualSubsonicItems.station(station, streamURL: "\(CurrentRequest.linkOrigin)/api/v1/dual/radio/stations/\(station.id)/listen?\(signed)"))
                }
                var answer = SubsonicElement()
                answer.add("internetRadioStation", list: stations)
                return .element("internetRadioStations", answer)
            },
            SubsonicEndpoint("createInternetRadioStation") { call in
                _ = try await radio.addOwnStation(
                    name: try call.parameters.required("name"), streamURL: try call.parameters.required("streamUrl"),
                    homepage: homepage(call.parameters), for: try call.user.id)
                return .empty
            },
            SubsonicEndpoint("updateInternetRadioStation") { call in
                let user = try call.user
                let station = try await favorite(call, user: user.id)
                _ = try await radio.updateFavorite(
                    station.id, name: try call.parameters.required("name"), streamURL: try call.parameters.required("streamUrl"),
                    homepage: homepage(call.parameters), for: user.id)
                return .empty
            },
            SubsonicEndpoint("deleteInternetRadioStation") { call in
                let user = try call.user
                try await radio.removeFavorite(try await favorite(call, user: user.id).id, for: user.id)
                return .empty
            },
        ]
    }

    /// A home page is optional, and like a stream address only http(s).
    static func homepage(_ parameters: SubsonicParameters) throws(SubsonicError) -> String? {
        guard let text = parameters.string("homepageUrl"), !text.isEmpty else { return nil }
        guard WebAddress(text, limit: 2000) != nil, !text.unicodeScalars.contains(where: { $0.value <= 0x20 }) else {
            throw SubsonicError.invalid("homepageUrl", "is an http(s) address.")
        }
        return text
    }
}
