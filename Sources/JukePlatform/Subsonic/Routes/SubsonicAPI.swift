import Hummingbird

/// The Subsonic API as this server offers it: the platform's endpoints and extensions, then
/// those the apps add.
public enum SubsonicAPI {
    /// What the platform implements of OpenSubsonic's extensions (apps add theirs).
    static let platformExtensions: [SubsonicExtension] = [
        SubsonicExtension("apiKeyAuthentication"),
        SubsonicExtension("formPost"),
        SubsonicExtension("transcodeOffset"),
    ]

    static func register(on router: Router<JukeRequestContext>, platform: Platform, apps: [any JukeApp]) {
        let extensions = platformExtensions + apps.flatMap(\.subsonicExtensions)
        let endpoints =
            SystemEndpoints.all(platform: platform, extensions: extensions)
            + BrowsingEndpoints.all(platform: platform)
            + ListEndpoints.all(platform: platform)
            + SearchEndpoints.all(platform: platform)
            + MediaEndpoints.all(platform: platform, appMedia: apps.flatMap(\.subsonicMedia))
            + apps.flatMap(\.subsonicEndpoints)
        SubsonicRoutes(access: platform.subsonicAccess, endpoints: endpoints, logger: platform.logger, bodyLimit: platform.configuration.maxBodySize)
            .register(on: router)
    }
}
