/// One piece of an XML document as a feed reader needs it: elements opening and closing, and
/// the text between them (entities decoded, CDATA as it is). Comments, processing
/// instructions and the DOCTYPE are skipped.
public enum XMLToken: Sendable, Equatable {
    case start(name: String, attributes: [XMLAttribute], selfClosing: Bool)
    case end(name: String)
    /// Character data: a long run may arrive as several tokens in a row.
    case text(String)
}

public struct XMLAttribute: Sendable, Equatable {
    /// The qualified name as written ("xml:base", "href").
    public let name: String
    /// Entities decoded.
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
