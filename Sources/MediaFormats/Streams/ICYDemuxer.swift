/// Takes SHOUTcast/Icecast "ICY" metadata out of a stream's body.
///
/// A server asked with `Icy-MetaData: 1` answers `icy-metaint: N` and then sends N audio
/// bytes, one length byte L, L×16 bytes of metadata (`StreamTitle='…';StreamUrl='…';`, padded
/// with NULs), N audio bytes again, and so on. A player given those blocks would play them as
/// noise, so the relay sends on the audio alone and shows the title.
public struct ICYDemuxer: Sendable {
    public enum Part: Sendable, Equatable {
        case audio(ArraySlice<UInt8>)
        /// A metadata block's fields; an empty block (L = 0, "nothing changed") is not reported.
        case metadata(ICYMetadata)
    }

    enum State: Sendable {
        case audio(remaining: Int)
        case length
        case metadata(remaining: Int, block: [UInt8])
    }

    public let interval: Int
    private var state: State

    public init(interval: Int) {
        self.interval = max(1, interval)
        self.state = .audio(remaining: max(1, interval))
    }

    public mutating func feed(_ bytes: ArraySlice<UInt8>) -> [Part] {
        var parts: [Part] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch state {
            case .audio(let remaining):
                let take = min(remaining, bytes.endIndex - index)
                parts.append(.audio(bytes[index..<(index + take)]))
                index += take
                state = remaining == take ? .length : .audio(remaining: remaining - take)
            case .length:
                let length = Int(bytes[index]) * 16
                index += 1
                state = length == 0 ? .audio(remaining: interval) : .metadata(remaining: length, block: [])
            case .metadata(let remaining, var block):
                let take = min(remaining, bytes.endIndex - index)
                block.append(contentsOf: bytes[index..<(index + take)])
                index += take
                if remaining == take {
                    parts.append(.metadata(ICYMetadata(block[...])))
                    state = .audio(remaining: interval)
                } else {
                    state = .metadata(remaining: remaining - take, block: block)
                }
            }
        }
        return parts
    }
}

/// One ICY metadata block: `Key='value';` pairs. Titles hold apostrophes ("Guns N' Roses"),
/// so a value ends at `';` (or at the block's end), not at the next quote.
public struct ICYMetadata: Sendable, Equatable {
    public var fields: [String: String]

    public init(fields: [String: String]) { self.fields = fields }

    public init(_ block: ArraySlice<UInt8>) {
        let end = block.firstIndex(of: 0) ?? block.endIndex
        let text = String(validating: block[block.startIndex..<end], as: UTF8.self) ?? latin1String(block[block.startIndex..<end])
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while let equals = rest.firstIndex(of: "=") {
            let key = String(rest[rest.startIndex..<equals]).trimmingCharacters(in: " ;\r\n\t")
            var value = rest[rest.index(after: equals)...]
            if value.first == "'" {
                value = value.dropFirst()
                if let close = value.firstRange(of: "';") {
                    fields[key] = String(value[value.startIndex..<close.lowerBound])
                    rest = value[close.upperBound...]
                } else {
                    fields[key] = String(value.hasSuffix("'") ? value.dropLast() : value)
                    rest = ""
                }
            } else {
                let close = value.firstIndex(of: ";") ?? value.endIndex
                fields[key] = String(value[value.startIndex..<close])
                rest = close < value.endIndex ? value[value.index(after: close)...] : ""
            }
            if fields.count >= 32 { break }
        }
        self.fields = fields
    }

    /// What is playing, as the station writes it ("Artist - Title"); nil when blank.
    public var streamTitle: String? {
        guard let title = fields["StreamTitle"]?.trimmingCharacters(in: " \t\r\n"), !title.isEmpty else { return nil }
        let clean = String(String.UnicodeScalarView(title.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(500)))
        return clean.isEmpty ? nil : clean
    }
}
