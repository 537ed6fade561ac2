/// One element of a Subsonic answer, written once and rendered as XML or JSON
/// (`SubsonicRenderer`): attributes become XML attributes and JSON fields, children become
/// nested elements (an element, or a list: repeated XML elements, a JSON array), and `text`
/// is an element's XML text and JSON `value` (a genre's name, say).
public struct SubsonicElement: Sendable, Equatable {
    public var attributes: [Attribute] = []
    public var children: [Child] = []
    public var text: String?

    public init() {}

    public struct Attribute: Sendable, Equatable {
        public let name: String
        public let value: SubsonicValue
    }

    public struct Child: Sendable, Equatable {
        public let name: String
        public let content: SubsonicContent
    }

    /// Adds an attribute; a nil value is left out (Subsonic's optional fields).
    public mutating func add(_ name: String, _ value: String?) {
        if let value { attributes.append(.init(name: name, value: .string(value))) }
    }

    public mutating func add(_ name: String, _ value: Int?) {
        if let value { attributes.append(.init(name: name, value: .int(value))) }
    }

    public mutating func add(_ name: String, _ value: Double?) {
        if let value { attributes.append(.init(name: name, value: .double(value))) }
    }

    public mutating func add(_ name: String, _ value: Bool?) {
        if let value { attributes.append(.init(name: name, value: .bool(value))) }
    }

    public mutating func add(_ name: String, element: SubsonicElement) {
        children.append(.init(name: name, content: .one(element)))
    }

    /// A list, kept even when empty: a JSON client reads `"album": []`, an XML one no element.
    public mutating func add(_ name: String, list: [SubsonicElement]) {
        children.append(.init(name: name, content: .many(list)))
    }

    public mutating func add(_ name: String, values: [SubsonicValue]) {
        children.append(.init(name: name, content: .values(values)))
    }

    public func attribute(_ name: String) -> SubsonicValue? { attributes.first { $0.name == name }?.value }
}

public enum SubsonicValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
}

public enum SubsonicContent: Sendable, Equatable {
    case one(SubsonicElement)
    case many([SubsonicElement])
    /// Scalars: repeated XML elements holding each as text, a JSON array of them.
    case values([SubsonicValue])
}
