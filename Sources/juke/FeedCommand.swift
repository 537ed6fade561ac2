import ArgumentParser
import Feeds
import Foundation
import JukeCore
import Providers

/// `juke feed`: what Juke's own feed parser reads from a podcast or news feed, as `juke tags`
/// does for audio files. Items are printed as they are read, so a feed of any size prints in
/// the memory of one item.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Prints what Juke reads from RSS and Atom feeds (files or http(s) addresses).",
        discussion: """
            For each item: guid, title, link, publication date (ISO 8601, UTC), enclosure URL, \
            type and length, and duration in seconds. With --json each feed prints one line: \
            {"title", "link", "language", "items": [{"guid", "title", "link", "published", \
            "enclosure_url", "enclosure_type", "enclosure_length", "duration"}]}.
            """
    )

    @Argument(help: "Feed files or http(s) addresses.") var feeds: [String]
    @Flag(help: "One JSON object per feed and line.") var json = false

    func run() async throws {
        var failed = false
        for source in feeds {
            do {
                try await show(source)
            } catch {
                failed = true
                FileHandle.standardError.write(Data("\(source): \(error)\n".utf8))
            }
        }
        if failed { throw ExitCode(1) }
    }

    private func show(_ source: String) async throws {
        let out = Output()
        var count = 0
        let printer = FeedPrinter(json: json, out: out)
        printer.begin()
        let onItem: (FeedItem) throws -> Void = { item in
            printer.item(item, first: count == 0)
            count += 1
        }
        let info: FeedInfo
        let lower = source.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = WebAddress(source)?.url else { throw ValidationError("\(source) is not an http(s) address.") }
            // The command's own client, closed before it prints: a feed is read whole (at
            // most the server's 64 MB), then parsed.
            let http = HTTPClient()
            let fetched: Result<HTTPReply, TransportError>
            do { fetched = .success(try await http.send(OutboundRequest(url: url), timeout: 60, limit: 64 << 20)) } catch { fetched = .failure(error) }
            try? await http.shutdown()
            let reply = try fetched.get()
            guard (200..<300).contains(reply.status) else { throw ValidationError("\(source) answered HTTP \(reply.status).") }
            let reader = FeedReader(base: source, httpCharset: Self.charset(reply.headers["content-type"]), onItem: onItem)
            try reader.read(reply.body)
            info = try reader.finish()
        } else {
            guard let file = FileHandle(forReadingAtPath: source) else { throw ValidationError("\(source): no such file.") }
            defer { try? file.close() }
            let reader = FeedReader(onItem: onItem)
            while let piece = try file.read(upToCount: 1 << 16), !piece.isEmpty { try reader.read(piece) }
            info = try reader.finish()
        }
        printer.end(info, count: count)
        out.flush()
    }

    /// The charset parameter of a Content-Type header.
    static func charset(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) }
        }
        return nil
    }
}

/// Standard output with a buffer: a 2,000-item feed is a few writes, not 20,000.
final class Output {
    private var buffer = Data()

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    func flush() {
        FileHandle.standardOutput.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A feed as text or as one line of JSON, item by item. In JSON the items come first: the
/// feed's own title may follow its items in the document, and keys have no order.
struct FeedPrinter {
    let json: Bool
    let out: Output

    func begin() {
        if json { out.write("{\"items\":[") }
    }

    func item(_ item: FeedItem, first: Bool) {
        if json {
            var fields: [String] = []
            fields.append("\"guid\":\(Self.quoted(item.guid))")
            fields.append("\"title\":\(Self.quoted(item.title))")
            fields.append("\"link\":\(Self.quoted(item.link))")
            fields.append("\"published\":\(Self.quoted(item.published.map(FeedDate.iso)))")
            fields.append("\"enclosure_url\":\(Self.quoted(item.enclosure?.url))")
            fields.append("\"enclosure_type\":\(Self.quoted(item.enclosure?.type))")
            fields.append("\"enclosure_length\":\(item.enclosure?.length.map(String.init) ?? "null")")
            fields.append("\"duration\":\(item.duration.map(Self.number) ?? "null")")
            out.write((first ? "" : ",") + "{" + fields.joined(separator: ",") + "}")
        } else {
            var line = "- \(item.published.map(FeedDate.iso) ?? "(no date)")  \(item.title ?? "(untitled)")"
            if let duration = item.duration { line += "  [\(Self.number(duration)) s]" }
            line += "\n    guid: \(item.guid ?? "-")  link: \(item.link ?? "-")"
            if let enclosure = item.enclosure {
                line += "\n    enclosure: \(enclosure.url) \(enclosure.type ?? "") \(enclosure.length.map(String.init) ?? "")"
            }
            out.write(line + "\n")
        }
    }

    func end(_ info: FeedInfo, count: Int) {
        if json {
            out.write(
                "],\"title\":\(Self.quoted(info.title)),\"link\":\(Self.quoted(info.link)),\"language\":\(Self.quoted(info.language))}\n")
        } else {
            out.write("Title: \(info.title ?? "-")\nLink: \(info.link ?? "-")\nLanguage: \(info.language ?? "-")\nItems: \(count)\n")
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A JSON string (or null), escaped by hand: this runs once per field of every item.
    static func quoted(_ text: String?) -> String {
        guard let text else { return "null" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
