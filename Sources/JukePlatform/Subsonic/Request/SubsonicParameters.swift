import Foundation
import JukeCore

/// A Subsonic request's parameters: the query's and, for a form POST (the formPost
/// extension), the body's, in order; a name may repeat (`id=…&id=…`). Typed reads throw the
/// protocol's errors: 10 for a required one missing, 0 for one that is not what it should be.
public struct SubsonicParameters: Sendable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(pairs: [(name: String, value: String)]) { self.pairs = pairs }

    /// Parses `a=1&b=2` (form or query encoding: `+` is a space).
    public init(encoded: String) {
        var pairs: [(String, String)] = []
        for part in encoded.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(pieces[0])
            let value = pieces.count > 1 ? Self.decode(pieces[1]) : ""
            if !name.isEmpty { pairs.append((name, value)) }
        }
        self.pairs = pairs
    }

    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    public mutating func append(_ other: SubsonicParameters) { pairs += other.pairs }

    public func string(_ name: String) -> String? { pairs.first { $0.name == name }?.value }

    public func strings(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public func has(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    public func required(_ name: String) throws(SubsonicError) -> String {
        guard let value = string(name), !value.isEmpty else { throw .missing(name) }
        return value
    }

    /// An integer within `range`, or `fallback` when absent; outside the range it is refused
    /// (a count of a million is not silently cut to the maximum: the client learns its limit).
    public func int(_ name: String, default fallback: Int? = nil, in range: ClosedRange<Int>) throws(SubsonicError) -> Int? {
        guard let text = string(name), !text.isEmpty else { return fallback }
        guard let value = Int(text) else { throw .invalid(name, "'\(text.prefix(40))' is not a whole number.") }
        guard range.contains(value) else { throw .invalid(name, "must be between \(range.lowerBound) and \(range.upperBound).") }
        return value
    }

    public func bool(_ name: String) -> Bool? {
        guard let text = string(name)?.lowercased() else { return nil }
        return text == "true" || text == "1"
    }

    /// The first parameter whose value holds a character no field accepts (NUL, a control
    /// character, a bidirectional override), refused before any endpoint reads it.
    public var refusedParameter: String? {
        pairs.first { !TextRules.isAllowed($0.value) || !TextRules.isAllowed($0.name) }?.name
    }
}
