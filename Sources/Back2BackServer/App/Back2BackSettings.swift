import Foundation
import JukePlatform
import Logging
import Providers

/// Back2Back's settings: the outside catalog where an AI pick the library lacks is looked up
/// (ISRC and length make a library match certain): Apple Music when a MusicKit key is given,
/// else iTunes Search when its address is; none by default.
public struct Back2BackSettings: SettingsGroup {
    public static let title = "Back2Back"

    static let appleMusicKeyFile = Setting(
        "apple-music-key-file", kind: .value(placeholder: "path"), default: "none",
        help: "A MusicKit private key (.p8) for the Apple Music catalog, where Back2Back looks AI picks up.")
    static let appleMusicKeyID = Setting("apple-music-key-id", kind: .value(placeholder: "id"), default: "none", help: "That key's 10-character ID.")
    static let appleMusicTeamID = Setting("apple-music-team-id", kind: .value(placeholder: "id"), default: "none", help: "Your Apple developer team ID.")
    static let appleMusicStorefront = Setting(
        "apple-music-storefront", kind: .value(placeholder: "code"), default: "us", help: "The Apple Music storefront to search.")
    static let iTunesSearchURL = Setting(
        "itunes-search-url", kind: .value(placeholder: "url"), default: "none",
        help: "The iTunes Search API as the catalog instead, when no Apple Music key is given.", example: "https://itunes.apple.com")

    public static let settings = [appleMusicKeyFile, appleMusicKeyID, appleMusicTeamID, appleMusicStorefront, iTunesSearchURL]

    /// The outside catalog; nil: none.
    public var catalog: CatalogSettings?

    public init() {}

    public init(_ values: SettingValues) throws {
        if let path = values.text(Self.appleMusicKeyFile) {
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else { throw SettingError("cannot read the Apple Music key \(path)") }
            guard let keyID = values.text(Self.appleMusicKeyID), let teamID = values.text(Self.appleMusicTeamID) else {
                throw SettingError("an Apple Music key needs \(Self.appleMusicKeyID.label) and \(Self.appleMusicTeamID.label)")
            }
            catalog = .appleMusic(pem: pem, keyID: keyID, teamID: teamID, storefront: values.text(Self.appleMusicStorefront) ?? "us")
        } else {
            catalog = try values.url(Self.iTunesSearchURL).map { .iTunesSearch($0) }
        }
    }
}

/// Which outside catalog Back2Back looks AI picks up in.
public enum CatalogSettings: Sendable, CustomStringConvertible {
    /// Apple Music with a MusicKit key (.p8 PEM text, its key ID, the team ID).
    case appleMusic(pem: String, keyID: String, teamID: String, storefront: String)
    /// The iTunes Search API at this address.
    case iTunesSearch(URL)

    public var description: String {
        switch self {
        case .appleMusic(_, let keyID, _, let storefront): "Apple Music (key \(keyID), storefront \(storefront))"
        case .iTunesSearch(let url): "iTunes Search at \(url)"
        }
    }

    /// The catalog's client; nil when a key Apple would refuse (reported, and left out).
    func client(http: HTTPClient, logger: Logger) -> (any MusicCatalog)? {
        switch self {
        case .appleMusic(let pem, let keyID, let teamID, let storefront):
            guard let base = URL(string: "https://api.music.apple.com/v1") else { return nil }
            do {
                return AppleMusic(http: http, baseURL: base, token: try AppleMusicToken(pem: pem, keyID: keyID, teamID: teamID), storefront: storefront)
            } catch {
                logger.error("back2back: Apple Music is off: the key cannot be used", metadata: ["error": "\(error)"])
                return nil
            }
        case .iTunesSearch(let url): return ITunesSearch(http: http, baseURL: url)
        }
    }
}
