/// One station from Radio Browser's directory.
public struct RadioStation: Sendable, Equatable, Codable {
    /// Radio Browser's `stationuuid`: stable across its servers.
    public var id: String
    public var name: String
    /// `url_resolved` (playlists already followed) when Radio Browser has it, else `url`.
    public var streamURL: String
    public var homepage: String?
    public var favicon: String?
    public var tags: [String]
    public var country: String?
    public var countryCode: String?
    public var languages: [String]
    /// "MP3", "AAC", "AAC+", "OGG", "FLAC"... as the station declares it.
    public var codec: String?
    /// kbit/s; 0 when unknown.
    public var bitrate: Int
    public var isHLS: Bool
    /// Whether Radio Browser's last check reached the stream.
    public var lastCheckOK: Bool
    public var votes: Int
    public var clickCount: Int

    public init(
        id: String, name: String, streamURL: String, homepage: String? = nil, favicon: String? = nil, tags: [String] = [], country: String? = nil,
        countryCode: String? = nil, languages: [String] = [], codec: String? = nil, bitrate: Int = 0, isHLS: Bool = false, lastCheckOK: Bool = true,
        votes: Int = 0, clickCount: Int = 0
    ) {
        self.id = id
        self.name = name
        self.streamURL = streamURL
        self.homepage = homepage
        self.favicon = favicon
        self.tags = tags
        self.country = country
        self.countryCode = countryCode
        self.languages = languages
        self.codec = codec
        self.bitrate = bitrate
        self.isHLS = isHLS
        self.lastCheckOK = lastCheckOK
        self.votes = votes
        self.clickCount = clickCount
    }
}

/// A station search: any mix of name, tag, country and language.
public struct RadioQuery: Sendable, Equatable {
    public var name: String?
    public var tag: String?
    /// A country's name ("Germany") or its ISO 3166-1 code ("DE").
    public var country: String?
    public var language: String?
    public var limit: Int
    public var offset: Int

    public init(name: String? = nil, tag: String? = nil, country: String? = nil, language: String? = nil, limit: Int = 50, offset: Int = 0) {
        self.name = name
        self.tag = tag
        self.country = country
        self.language = language
        self.limit = limit
        self.offset = offset
    }
}

public enum RadioBrowserError: Error, Sendable, Equatable {
    /// Every server failed; each one's reason, in the order they were tried.
    case allServersFailed([String])
    case invalid(String)
}
