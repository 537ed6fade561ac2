import Foundation
import Hummingbird
import ServiceLifecycle

/// One app on the platform (TuneTrivia, Back2Back, …), as the server sees it. An app's
/// server module builds one from the `Platform`; the composition root (`JukeServer`) lists
/// them, and that list is the only place that names every app. Its tables come separately,
/// as a `Schema`, because the database is migrated before any app is built.
public protocol JukeApp: Sendable {
    /// Its card on the home page; its pages live under `/<slug>`, its files under `/static/<slug>/`.
    var card: AppCard { get }
    /// Its routes: the contract's operations, its pages, its live connections.
    func register(on router: Router<JukeRequestContext>) throws
    /// What runs beside the server while it is up (cross-server relays, background work).
    var services: [any Service] { get }
    /// The folder its scripts and styles are served from, at `/static/<slug>/`.
    var staticFiles: URL? { get }
    /// Routes that take files (audiobooks, say): their bodies stream to the route, which
    /// keeps to the platform's `maxUploadSize`, instead of being collected in memory.
    var streamedUploadPaths: [String] { get }
    /// Routes (by path prefix) whose bodies may be larger than the platform's limit for JSON,
    /// and how many times larger: long texts, an imported subscription list.
    var largerBodyPaths: [String: Int] { get }
    /// Routes whose bearer token may be taken on trust from this server's recent lookups and
    /// checked later, with others, in one query: a game's answers, a thousand a second from
    /// phones whose tokens were just seen (`KnownTokens`). Everything else is looked up first.
    var batchCheckedTokenRoutes: [RoutePattern] { get }
    /// The settings it declares (flags and environment variables of `juke serve`), read into
    /// `ServerConfiguration.groups` before it is built.
    static var settings: [any SettingsGroup.Type] { get }
    /// The addresses of what its pages may save on the device (audio, pictures, the texts
    /// that go with them), as path templates where `{name}` stands for any one segment. The
    /// service worker looks only these up in the device's cache; every other request passes.
    var deviceKeptPaths: [String] { get }
    /// The Subsonic API methods it adds under /rest (its podcasts, say), beside the
    /// platform's library; and the OpenSubsonic extensions they implement, which
    /// `getOpenSubsonicExtensions` lists with the platform's.
    var subsonicEndpoints: [SubsonicEndpoint] { get }
    var subsonicExtensions: [SubsonicExtension] { get }
    /// What it plays through `stream`, `download` and `getCoverArt`, by its IDs' prefixes.
    var subsonicMedia: [SubsonicMedia] { get }
}

extension JukeApp {
    public static var settings: [any SettingsGroup.Type] { [] }
    public var batchCheckedTokenRoutes: [RoutePattern] { [] }
    public var streamedUploadPaths: [String] { [] }
    public var largerBodyPaths: [String: Int] { [:] }
    public var deviceKeptPaths: [String] { [] }
    public var subsonicEndpoints: [SubsonicEndpoint] { [] }
    public var subsonicExtensions: [SubsonicExtension] { [] }
    public var subsonicMedia: [SubsonicMedia] { [] }
}

/// An app as the home page shows it.
public struct AppCard: Sendable, Equatable {
    /// Its address, `/<slug>`, and the `data-app` of its card.
    public let slug: String
    public let name: String
    /// The SVG path of its icon (`Icons`).
    public let icon: String
    public let blurb: String
    /// What its pages say when the network is gone: what still works on the device and what
    /// needs the server. Its pages carry it (`HTML.page`); without one, the platform's note.
    public let offlineNote: String?
    /// The localStorage keys (by prefix) that hold a person's things on the device: what they
    /// queued, saved or left unsent. Its pages carry them, the device remembers them, and the
    /// platform wipes those keys at sign-out and when another account signs in, so an app's
    /// personal data is forgotten without the platform naming it. Preferences of the device
    /// itself (a reading voice) are not listed.
    public let personalKeyPrefixes: [String]

    public init(slug: String, name: String, icon: String, blurb: String, offlineNote: String? = nil, personalKeyPrefixes: [String] = []) {
        self.slug = slug
        self.name = name
        self.icon = icon
        self.blurb = blurb
        self.offlineNote = offlineNote
        self.personalKeyPrefixes = personalKeyPrefixes
    }
}
