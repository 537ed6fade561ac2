/// One thing whoever runs Juke can set: a flag of `juke serve` and an environment variable,
/// declared by the platform or by the app that reads it, with the words that document it.
/// `juke serve --help`, docs/SETTINGS.md and `.env.example` are all made from these
/// declarations (`SettingsDocs`), so a setting cannot exist without being documented.
public struct Setting: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Takes a value: `--name value` or `--name=value`.
        case value(placeholder: String)
        /// On or off: `--name` or `--no-name`; in the environment 1 or 0 (true/false, yes/no, on/off).
        case onOff
        /// Repeatable on the command line; comma-separated in the environment.
        case list(placeholder: String)
    }

    /// The flag without its dashes: `podcast-search-url`.
    public let name: String
    public let environment: String
    public let kind: Kind
    /// The default as the docs state it: "30", "none: Spotify off".
    public let defaultValue: String
    public let help: String
    /// A value `.env.example` shows commented out; nil shows it empty.
    public let example: String?

    public init(_ name: String, environment: String? = nil, kind: Kind, default defaultValue: String, help: String, example: String? = nil) {
        self.name = name
        self.environment = environment ?? "JUKE_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        self.kind = kind
        self.defaultValue = defaultValue
        self.help = help
        self.example = example
    }

    public var flag: String { "--" + name }

    /// How a message names it: both ways of giving it.
    public var label: String { "\(flag) (or \(environment))" }
}

/// A setting given a value it cannot take; the message names the setting and what it takes.
public struct SettingError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
