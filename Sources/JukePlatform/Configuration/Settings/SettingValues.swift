import Foundation
import JukeCore

/// What was given for the declared settings, from `juke serve`'s command line and its
/// environment (a flag wins over its variable), with the one way each kind of value is read
/// and checked: a URL, a number in a range, on or off, a list.
public struct SettingValues: Sendable {
    /// By setting name, each value given (lists may have several).
    private var given: [String: [String]]

    public init(_ given: [String: [String]] = [:]) {
        self.given = given
    }

    /// Reads `arguments` (`--name value`, `--name=value`, `--switch`, `--no-switch`) and then,
    /// for each setting no flag gave, its environment variable. An unknown flag, or a flag
    /// missing its value, is an error that says so.
    public static func parse(arguments: [String], environment: [String: String], settings: [Setting]) throws -> SettingValues {
        let byName = Dictionary(settings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var given: [String: [String]] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else { throw SettingError("unexpected argument '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if inline == nil, name.hasPrefix("no-"), let setting = byName[String(name.dropFirst(3))], setting.kind == .onOff {
                given[setting.name] = ["0"]
                continue
            }
            guard let setting = byName[name] else { throw SettingError("unknown option '--\(name)' (juke serve --help lists them)") }
            let value: String
            switch (setting.kind, inline) {
            case (_, let inline?):
                value = inline
            case (.onOff, nil):
                value = "1"
            case (.value, nil), (.list, nil):
                guard index < arguments.count else { throw SettingError("\(setting.flag) needs a value") }
                value = arguments[index]
                index += 1
            }
            if case .list = setting.kind, given[setting.name] != nil {
                given[setting.name, default: []].append(value)
            } else {
                given[setting.name] = [value]
            }
        }
        for setting in settings where given[setting.name] == nil {
            guard let raw = environment[setting.environment] else { continue }
            if case .list = setting.kind {
                given[setting.name] = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                given[setting.name] = [raw]
            }
        }
        return SettingValues(given)
    }

    /// The value given, trimmed; nil when none was or it is empty.
    public func text(_ setting: Setting) -> String? {
        guard let raw = given[setting.name]?.last?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
        return raw
    }

    /// Every value given for a list.
    public func list(_ setting: Setting) -> [String] {
        (given[setting.name] ?? []).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// On or off; nil when not given. Anything but the words for on and off is an error, never
    /// silently off.
    public func isOn(_ setting: Setting) throws -> Bool? {
        guard let raw = text(setting) else { return nil }
        switch raw.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw SettingError("\(setting.label) is on or off (1 or 0), not '\(raw)'")
        }
    }

    /// An http(s) address with a host; nil when not given.
    public func url(_ setting: Setting) throws -> URL? {
        guard let raw = text(setting) else { return nil }
        return try Self.httpURL(raw, setting)
    }

    /// An http(s) address, or nil for "off" (a service on by default that can be turned off).
    public func urlOrOff(_ setting: Setting, default defaultURL: URL?) throws -> URL? {
        guard let raw = text(setting) else { return defaultURL }
        if raw.lowercased() == "off" { return nil }
        return try Self.httpURL(raw, setting)
    }

    /// A number within `range`; nil when not given.
    public func number(_ setting: Setting, in range: ClosedRange<Double>) throws -> Double? {
        guard let raw = text(setting) else { return nil }
        guard let value = Double(raw), value.isFinite, range.contains(value) else {
            throw SettingError("\(setting.label) is a number from \(Self.show(range.lowerBound)) to \(Self.show(range.upperBound)), not '\(raw)'")
        }
        return value
    }

    /// A whole number within `range`; nil when not given.
    public func whole(_ setting: Setting, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = text(setting) else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw SettingError("\(setting.label) is a whole number from \(range.lowerBound) to \(range.upperBound), not '\(raw)'")
        }
        return value
    }

    private static func httpURL(_ raw: String, _ setting: Setting) throws -> URL {
        guard let url = WebAddress(raw)?.url else {
            throw SettingError("\(setting.label) is an http(s) address, not '\(raw)'")
        }
        return url
    }

    private static func show(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
