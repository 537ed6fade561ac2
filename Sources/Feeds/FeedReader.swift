/// Reads a feed from its bytes as they arrive: decoding (`FeedTextDecoder`), tokens
/// (`XMLTokenizer`), then structure (`FeedParser`), each item handed to `onItem` as soon as
/// it closes. Memory holds one item and one piece of input, whatever the feed's size: a
/// 50 MB feed reads in the space of a 50 kB one.
///
/// Pure: no I/O. The server, the command line and the tests hand it bytes from wherever.
public final class FeedReader {
    private let decoder: FeedTextDecoder
    private var tokenizer = XMLTokenizer()
    private var parser: FeedParser
    private let onItem: (FeedItem) throws -> Void

    /// - Parameters:
    ///   - base: the feed's own address, against which relative links are resolved.
    ///   - httpCharset: the charset of the HTTP response's Content-Type, if any.
    public init(base: String? = nil, httpCharset: String? = nil, onItem: @escaping (FeedItem) throws -> Void) {
        decoder = FeedTextDecoder(httpCharset: httpCharset)
        parser = FeedParser(base: base)
        self.onItem = onItem
    }

    /// The encoding the feed was read in, once known.
    public var encoding: String? { decoder.encoding }

    /// Reads the next piece of the feed. Throws `FeedError.notAFeed` as soon as the document
    /// shows it is something else.
    public func read(_ bytes: some Collection<UInt8>) throws {
        try consume(decoder.decode(bytes))
    }

    /// The feed ended: returns what it says about itself.
    public func finish() throws -> FeedInfo {
        try consume(decoder.decode([UInt8](), final: true))
        try tokenizer.finish { token in try parser.take(token, onItem: onItem) }
        try parser.finish(onItem: onItem)
        guard parser.sawRoot else { throw FeedError.empty }
        return parser.info
    }

    private func consume(_ utf8: [UInt8]) throws {
        guard !utf8.isEmpty else { return }
        try tokenizer.feed(utf8) { token in try parser.take(token, onItem: onItem) }
    }

    /// A whole feed at once.
    public static func parse(_ bytes: some Collection<UInt8>, base: String? = nil, httpCharset: String? = nil) throws -> Feed {
        var items: [FeedItem] = []
        let reader = FeedReader(base: base, httpCharset: httpCharset) { items.append($0) }
        try reader.read(bytes)
        let info = try reader.finish()
        return Feed(info: info, items: items)
    }
}
