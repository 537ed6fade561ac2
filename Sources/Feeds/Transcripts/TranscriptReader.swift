import Foundation

/// Reads the transcript files podcasts link (`podcast:transcript`): SubRip, WebVTT and
/// Podcasting 2.0's JSON. Lenient as players are: a cue that cannot be read is passed over
/// and the others kept; only a file with no readable cue at all is refused.
public enum TranscriptReader {
    public enum Format: String, Sendable { case srt, webVTT, json }

    /// The format from the link's type ("text/vtt", "application/x-subrip", "application/json"),
    /// else from the first bytes.
    public static func format(type: String?, bytes: some Collection<UInt8>) -> Format {
        let lowered = type?.lowercased() ?? ""
        if lowered.contains("json") { return .json }
        if lowered.contains("vtt") { return .webVTT }
        if lowered.contains("srt") || lowered.contains("subrip") { return .srt }
        let head = String(decoding: bytes.prefix(16), as: UTF8.self).trimmingPrefix("\u{FEFF}")
        if head.hasPrefix("WEBVTT") { return .webVTT }
        if head.drop(while: { $0.isWhitespace }).hasPrefix("{") { return .json }
        return .srt
    }

    public static func read(_ bytes: some Collection<UInt8>, type: String? = nil) throws -> Transcript {
        switch format(type: type, bytes: bytes) {
        case .srt: return try srt(String(decoding: bytes, as: UTF8.self))
        case .webVTT: return try webVTT(String(decoding: bytes, as: UTF8.self))
        case .json: return try json(Data(bytes))
        }
    }

    // MARK: - SubRip

    static func srt(_ text: String) throws -> Transcript {
        var cues: [Transcript.Cue] = []
        for block in blocks(text) {
            var lines = block[...]
            if let first = lines.first, !first.contains("-->") { lines = lines.dropFirst() }  // the cue's number
            guard let timing = lines.first, let (start, end) = times(timing) else { continue }
            cues.append(Transcript.Cue(start: start, end: end, text: plain(lines.dropFirst()).text))
        }
        guard !cues.isEmpty else { throw TranscriptError.unreadable("no cue with a time in it (SubRip: \"00:00:01,000 --> 00:00:04,000\")") }
        return Transcript(cues: cues)
    }

    // MARK: - WebVTT

    static func webVTT(_ text: String) throws -> Transcript {
        let body = text.trimmingPrefix("\u{FEFF}")
        guard body.hasPrefix("WEBVTT") else { throw TranscriptError.unreadable("a WebVTT file starts with \"WEBVTT\"") }
        var cues: [Transcript.Cue] = []
        for block in blocks(String(body)).dropFirst() {  // the header block
            guard let first = block.first else { continue }
            if first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION") { continue }
            var lines = block[...]
            if !first.contains("-->") { lines = lines.dropFirst() }  // the cue's identifier
            guard let timing = lines.first, let (start, end) = times(timing) else { continue }
            let (speaker, words) = plain(lines.dropFirst())
            cues.append(Transcript.Cue(start: start, end: end, speaker: speaker, text: words))
        }
        guard !cues.isEmpty else { throw TranscriptError.unreadable("no cue with a time in it (WebVTT: \"00:01.000 --> 00:04.000\")") }
        return Transcript(cues: cues)
    }

    // MARK: - Podcasting 2.0 JSON

    private struct JSONFile: Decodable {
        let segments: [Lossy<Segment>]
    }

    private struct Segment: Decodable {
        let speaker: String?
        let startTime: Double
        let endTime: Double?
        let body: String
    }

    static func json(_ data: Data) throws -> Transcript {
        let file: JSONFile
        do {
            file = try JSONDecoder().decode(JSONFile.self, from: data)
        } catch {
            throw TranscriptError.unreadable("not the Podcasting 2.0 JSON transcript format ({\"segments\": [{\"startTime\", \"endTime\", \"body\"}]})")
        }
        let cues = file.segments.compactMap(\.value).map {
            Transcript.Cue(start: $0.startTime, end: $0.endTime ?? $0.startTime, speaker: $0.speaker?.trimmed.nilIfEmpty, text: $0.body.trimmed)
        }
        guard !cues.isEmpty else { throw TranscriptError.unreadable("the file has no segment with a start time and a body") }
        return Transcript(cues: cues)
    }

    // MARK: - Pieces

    /// Blocks of lines separated by blank lines, line endings of any kind.
    static func blocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let trimmed = String(line).trimmed
            if trimmed.isEmpty {
                if !current.isEmpty { blocks.append(current) }
                current = []
            } else {
                current.append(String(line))
            }
        }
        if !current.isEmpty { blocks.append(current) }
        return blocks
    }

    /// "00:00:01,000 --> 00:00:04,000 align:start": the start and end in seconds.
    static func times(_ line: String) -> (Double, Double)? {
        guard let arrow = line.range(of: "-->") else { return nil }
        let left = String(line[..<arrow.lowerBound]).trimmed
        let right = line[arrow.upperBound...].split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        guard let start = timestamp(left), let end = timestamp(right) else { return nil }
        return (start, end)
    }

    /// "01:02:03,500", "02:03.500", "1:02:03.5": seconds.
    static func timestamp(_ text: String) -> Double? {
        guard text.contains(":") else { return nil }
        return FeedDuration.seconds(text.replacingOccurrences(of: ",", with: "."))
    }

    /// A cue's lines as plain text, and the speaker of a WebVTT voice span (`<v Ann>`).
    static func plain(_ lines: ArraySlice<String>) -> (speaker: String?, text: String) {
        var speaker: String?
        var out: [String] = []
        for line in lines {
            var text = ""
            var rest = line[...]
            while let open = rest.firstIndex(of: "<") {
                text += rest[..<open]
                guard let close = rest[open...].firstIndex(of: ">") else {
                    rest = rest[open...]
                    break
                }
                let tag = rest[rest.index(after: open)..<close]
                if speaker == nil, tag.hasPrefix("v ") || tag.hasPrefix("v.") {
                    let name = tag.drop { $0 != " " }.trimmingPrefix(" ")
                    if !name.isEmpty { speaker = String(name).trimmed }
                }
                rest = rest[rest.index(after: close)...]
            }
            text += rest
            let decoded = Array(text.utf8).withUnsafeBufferPointer(XMLText.decode).trimmed
            if !decoded.isEmpty { out.append(decoded) }
        }
        return (speaker, out.joined(separator: "\n"))
    }
}

/// One element of a JSON list that may fail to decode without failing the list.
struct Lossy<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? Value(from: decoder)
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
