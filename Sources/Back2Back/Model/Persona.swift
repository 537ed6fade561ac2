public import Foundation
public import JukeCore

/// A DJ style the AI plays in: inspired by a kind of DJ or a public figure, never
/// impersonating one.
public struct Persona: Sendable, Codable, Equatable, Identifiable {
    public var id: PersonaID
    /// Who made it; nil for the built-in personas every account has.
    public var owner: UserID?
    public var name: String
    /// What the user wrote: who the DJ is, in their words.
    public var description: String
    /// The long guide to the style, written by the AI (or by hand), sent with every pick.
    public var styleGuide: String
    /// What Juke's own picker goes by when no AI is configured.
    public var taste: Taste
    public var updatedAt: Date

    public init(
        id: PersonaID = PersonaID(), owner: UserID?, name: String, description: String, styleGuide: String = "", taste: Taste = Taste(),
        updatedAt: Date
    ) {
        self.id = id
        self.owner = owner
        self.name = name
        self.description = description
        self.styleGuide = styleGuide
        self.taste = taste
        self.updatedAt = updatedAt
    }

    public var isBuiltIn: Bool { owner == nil }

    /// The longest name and texts a persona may have (they go into every prompt).
    public static let nameLimit = 80
    public static let descriptionLimit = 2_000
    public static let styleGuideLimit = 20_000

    /// Checks what a person typed; returns the first problem as (field, message). Lengths
    /// count Unicode scalars, as the API's JSON Schema does.
    public static func problem(name: String, description: String, styleGuide: String) -> (field: String, message: String)? {
        if name.unicodeScalars.allSatisfy(isBlank) { return ("name", "A persona needs a name.") }
        if name.unicodeScalars.count > nameLimit { return ("name", "A name has at most \(nameLimit) characters.") }
        if description.unicodeScalars.count > descriptionLimit {
            return ("description", "A description has at most \(descriptionLimit) characters.")
        }
        if styleGuide.unicodeScalars.count > styleGuideLimit { return ("style_guide", "A style guide has at most \(styleGuideLimit) characters.") }
        return nil
    }

    /// White space as JSON Schema patterns (ECMAScript's \\s) know it, so "blank" means the
    /// same to the contract and to the server.
    public static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }
}

/// A persona's taste, in terms Juke's own picker can weigh against library tags.
public struct Taste: Sendable, Codable, Equatable {
    /// Genres in order of preference (compared accent- and case-blind, by word).
    public var genres: [String]
    /// The years the persona digs for, if it has an era.
    public var years: ClosedRange<Int>?
    /// Artists or composers it loves.
    public var artists: [String]
    /// How far it strays from its favourites, 0 (never) to 1 (anything goes).
    public var adventure: Double

    public init(genres: [String] = [], years: ClosedRange<Int>? = nil, artists: [String] = [], adventure: Double = 0.3) {
        self.genres = genres
        self.years = years
        self.artists = artists
        self.adventure = min(1, max(0, adventure))
    }
}

extension Persona {
    /// The two personas every account starts with (the seed's defaults). Their IDs are
    /// fixed so that song memory and settings refer to them across restarts and servers.
    public static func builtIns(at date: Date) -> [Persona] {
        [
            Persona(
                id: PersonaID(rawValue: UUID(uuid: (0xB2, 0xB0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1))),
                owner: nil,
                name: "Rare Groove Collector",
                description: "A crate digger who plays deep cuts: soul, funk, jazz and the records behind them, old roots music included.",
                styleGuide: """
                    You are a rare groove collector: a DJ who digs through crates for records other people passed over. \
                    You favour deep cuts over hits: funk, soul, jazz, Latin and library records, and the blues, \
                    ragtime, gospel and folk recordings they grew from. You link songs by groove, era and lineage, \
                    and you like to surprise with a forgotten record that fits. Avoid the obvious greatest hits.
                    """,
                taste: Taste(
                    genres: ["Rare Groove", "Funk", "Soul", "Jazz", "Blues", "Ragtime", "Spiritual", "Gospel", "Americana", "Folk", "World"],
                    years: 1890...1979, adventure: 0.35),
                updatedAt: date),
            Persona(
                id: PersonaID(rawValue: UUID(uuid: (0xB2, 0xB0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 2))),
                owner: nil,
                name: "Modern Electronic DJ",
                description: "A club DJ who plays house, techno and ambient, and samples the classics they came from.",
                styleGuide: """
                    You are a modern electronic DJ: house, techno, ambient and electronica, with an ear for melody \
                    and repetition. You build energy across a set, favour hypnotic, pattern-driven music, and enjoy \
                    dropping in the minimalist and baroque pieces electronic music borrowed from. Keep transitions smooth.
                    """,
                taste: Taste(
                    genres: ["Electronic", "House", "Techno", "Ambient", "Electronica", "Dance", "Minimalism", "Baroque", "Classical"],
                    years: 1980...2030, adventure: 0.4),
                updatedAt: date),
        ]
    }
}
