import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// S3's answers (lists, multipart ids, errors) as a small tree of elements: names, their
/// text, their children. Namespaces are dropped, as S3's one namespace carries no meaning.
struct S3XMLElement {
    var name: String
    var text = ""
    var children: [S3XMLElement] = []

    func child(_ name: String) -> S3XMLElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [S3XMLElement] { children.filter { $0.name == name } }
    /// The trimmed text of the named child, or nil.
    func value(_ name: String) -> String? { child(name).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) } }

    /// The document's root element, or nil when the bytes are not XML.
    static func parse(_ data: Data) -> S3XMLElement? {
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.delegate = builder
        guard parser.parse() else { return nil }
        return builder.root
    }

    /// Builds the tree as the parser reports it (XMLParser's delegate must be a class).
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [S3XMLElement] = []
        var root: S3XMLElement?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            stack.append(S3XMLElement(name: elementName))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let done = stack.popLast() else { return }
            if stack.isEmpty { root = done } else { stack[stack.count - 1].children.append(done) }
        }
    }
}

/// S3's error document: `<Error><Code>NoSuchKey</Code><Message>…</Message></Error>`.
struct S3ErrorDocument: Equatable {
    let code: String
    let message: String

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    init?(_ data: Data) {
        guard let root = S3XMLElement.parse(data), root.name == "Error", let code = root.value("Code") else { return nil }
        self.code = code
        message = root.value("Message") ?? ""
    }

    var summary: String { message.isEmpty ? code : "\(code): \(message)" }
}

/// One ListObjectsV2 page.
struct S3ListPage {
    struct Entry: Equatable {
        let key: String
        let size: Int64
        let etag: String
        let modified: Date
    }

    let entries: [Entry]
    /// The token for the next page, when there is one.
    let continuation: String?

    init?(_ data: Data) {
        guard let root = S3XMLElement.parse(data), root.name == "ListBucketResult" else { return nil }
        var entries: [Entry] = []
        for content in root.children("Contents") {
            guard let key = content.value("Key"), let size = content.value("Size").flatMap({ Int64($0) }) else { continue }
            let modified = content.value("LastModified").flatMap(S3Dates.iso8601) ?? Date(timeIntervalSince1970: 0)
            entries.append(Entry(key: key, size: size, etag: content.value("ETag") ?? "", modified: modified))
        }
        self.entries = entries
        let truncated = root.value("IsTruncated") == "true"
        continuation = truncated ? root.value("NextContinuationToken") : nil
    }
}

/// The two date forms S3 uses: ISO 8601 in XML, RFC 1123 in Last-Modified.
enum S3Dates {
    static func iso8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
