import Foundation
import JukePlatform
import Providers

/// Dual Player's settings: where it finds radio stations, podcasts and LibriVox's books, how
/// much podcast audio it keeps, and whether it may fetch from the server's own network.
public struct DualPlayerSettings: SettingsGroup {
    public static let title = "Dual Player"

    static let radioBrowserURL = Setting(
        "radio-browser-url", kind: .value(placeholder: "url"), default: "Radio Browser's own discovery, then fixed mirrors",
        help: "Radio Browser's server list (its /json/servers).", example: "https://all.api.radio-browser.info/json/servers")
    static let radioAllowPrivateStreams = Setting(
        "radio-allow-private-streams", kind: .onOff, default: "off",
        help:
            "Let the radio relay open streams on private and local networks, e.g. an Icecast on the LAN. Off, such a station is refused, so no account can make Juke fetch from inside its network."
    )
    static let webAllowPrivateNetworks = Setting(
        "web-allow-private-networks", kind: .onOff, default: "off",
        help: "Let podcast feeds, episodes, articles and LibriVox's files be fetched from private and local networks (refused when off, as for radio).")
    static let podcastSearchURL = Setting(
        "podcast-search-url", kind: .value(placeholder: "url|off"), default: "https://itunes.apple.com",
        help: "The podcast directory (the iTunes Search API); off turns search off (a feed's address still subscribes).")
    static let podcastStorageGB = Setting(
        "podcast-storage-gb", kind: .value(placeholder: "gigabytes"), default: "20", help: "Podcast episodes the server keeps; played ones are removed past it."
    )
    static let podcastRefreshMinutes = Setting(
        "podcast-refresh-minutes", kind: .value(placeholder: "minutes"), default: "30", help: "Minutes between refreshes of each podcast feed (1 to 10080).")
    static let libriVoxURL = Setting(
        "librivox-url", kind: .value(placeholder: "url"), default: "https://librivox.org/api/feed", help: "LibriVox's catalogue API.")

    public static let settings = [
        radioBrowserURL, radioAllowPrivateStreams, webAllowPrivateNetworks, podcastSearchURL, podcastStorageGB, podcastRefreshMinutes, libriVoxURL,
    ]

    /// Where Radio Browser's servers are listed; nil is Radio Browser's own discovery, then
    /// the original app's fallback order.
    public var radioBrowserDiscovery: URL?
    /// Whether the radio relay may open streams on private and local networks (an Icecast on
    /// the LAN, a test's stream server).
    public var radioAllowPrivateStreams = false
    /// Whether podcast feeds, episodes and articles may be fetched from private and local
    /// networks (a podcast host on the LAN, a test's fake).
    public var webAllowPrivateNetworks = false
    /// The podcast directory (iTunes Search); nil turns podcast search off.
    public var podcastSearchURL: URL? = URL(string: "https://itunes.apple.com")
    /// The most bytes of podcast episodes kept on the server; played ones are cleaned up past it.
    public var podcastStorageLimit: Int64 = 20_000_000_000
    /// How often each podcast feed is fetched when healthy.
    public var podcastRefreshInterval: TimeInterval = 1800
    /// LibriVox's catalogue API; nil is librivox.org's own.
    public var libriVoxURL: URL?

    public init() {}

    public init(_ values: SettingValues) throws {
        radioBrowserDiscovery = try values.url(Self.radioBrowserURL)
        radioAllowPrivateStreams = try values.isOn(Self.radioAllowPrivateStreams) ?? false
        webAllowPrivateNetworks = try values.isOn(Self.webAllowPrivateNetworks) ?? false
        podcastSearchURL = try values.urlOrOff(Self.podcastSearchURL, default: podcastSearchURL)
        if let gigabytes = try values.number(Self.podcastStorageGB, in: 0...1_000_000) { podcastStorageLimit = Int64(gigabytes * 1_000_000_000) }
        if let minutes = try values.number(Self.podcastRefreshMinutes, in: 1...10_080) { podcastRefreshInterval = minutes * 60 }
        libriVoxURL = try values.url(Self.libriVoxURL)
    }
}
