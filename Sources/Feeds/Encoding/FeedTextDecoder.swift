#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A feed's bytes, in whatever encoding it was published in, as UTF-8, piece by piece.
///
/// The encoding is the first of: a byte-order mark; the HTTP header's charset (the server
/// knows better than a template's declaration); the XML declaration; UTF-8. Names are read
/// as browsers read them: ISO-8859-1 and US-ASCII as Windows-1252 (their superset, and what
/// such feeds really hold), GB2312 as GB18030, EUC-KR as Windows-949. A feed that says UTF-8
/// (or nothing) but is not valid UTF-8 in its first 64 kB is read as Windows-1252, the usual
/// mistake. Other encodings go through iconv.
public final class FeedTextDecoder {
    /// How much is looked at before deciding.
    static let sniffLength = 1 << 16

    private let httpCharset: String?
    private var pending: [UInt8] = []
    private var converter: Converter?
    /// The encoding used, once decided ("utf-8", "windows-1252", "big5"...).
    public private(set) var encoding: String?

    private enum Converter {
        case utf8
        case windows1252
        case iconv(iconv_t)
    }

    public init(httpCharset: String? = nil) {
        self.httpCharset = httpCharset.flatMap { $0.isEmpty ? nil : $0 }
    }

    deinit {
        if case .iconv(let handle) = converter { iconv_close(handle) }
    }

    /// UTF-8 for `bytes` (some of it may wait for the next piece: a character cut in two).
    public func decode(_ bytes: some Collection<UInt8>, final: Bool = false) -> [UInt8] {
        pending.append(contentsOf: bytes)
        if converter == nil {
            guard final || pending.count >= Self.sniffLength else { return [] }
            choose()
        }
        let input = pending
        pending.removeAll(keepingCapacity: true)
        switch converter {
        case .utf8?: return utf8(input, final: final)
        case .windows1252?: return Self.windows1252(input)
        case .iconv(let handle)?: return convert(handle, input, final: final)
        case nil: return input
        }
    }

    // MARK: - Choosing

    private func choose() {
        var bytes = pending[...]
        var name: String
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = bytes.dropFirst(3)
            name = "utf-8"
        } else if bytes.starts(with: [0xFF, 0xFE, 0, 0]) {
            name = "utf-32le"
        } else if bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            name = "utf-32be"
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            name = "utf-16be"
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            name = "utf-16le"
        } else if bytes.starts(with: [0x3C, 0, 0, 0]) {
            name = "utf-32le"
        } else if bytes.starts(with: [0, 0, 0, 0x3C]) {
            name = "utf-32be"
        } else if bytes.starts(with: [0x3C, 0, 0x3F, 0]) {
            name = "utf-16le"
        } else if bytes.starts(with: [0, 0x3C, 0, 0x3F]) {
            name = "utf-16be"
        } else {
            name = httpCharset ?? Self.declaredEncoding(bytes) ?? "utf-8"
        }
        name = Self.browserName(name)
        pending = Array(bytes)
        if name == "utf-8" {
            let sample = pending.prefix(Self.sniffLength)
            let cut = Array(sample).withUnsafeBufferPointer(UTF8Check.validPrefixLength)
            // Invalid before the sample's last few bytes (which may be a character cut in two).
            if cut < sample.count - 3 || (cut < sample.count && sample.count < Self.sniffLength) {
                name = "windows-1252"
            }
        }
        encoding = name
        switch name {
        case "utf-8": converter = .utf8
        case "windows-1252": converter = .windows1252
        default:
            let handle = iconv_open("UTF-8", name)
            if let handle, Int(bitPattern: handle) != -1 {
                converter = .iconv(handle)
            } else {
                encoding = "windows-1252"  // an encoding nobody knows: the likeliest
                converter = .windows1252
            }
        }
    }

    /// The encoding named by `<?xml … encoding="…"?>` at the start, if any.
    static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        let head = bytes.prefix(512)
        guard head.starts(with: Array("<?xml".utf8)) else { return nil }
        guard let close = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[head.startIndex..<close], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        let value = rest.prefix { $0 != quote }
        return value.isEmpty ? nil : String(value)
    }

    static func browserName(_ raw: String) -> String {
        let name = raw.lowercased().trimmingCharacters(in: .whitespaces)
        switch name {
        case "utf8", "utf-8", "unicode-1-1-utf-8": return "utf-8"
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252", "x-cp1252", "iso_8859-1":
            return "windows-1252"
        case "gb2312", "gbk", "x-gbk", "gb_2312-80": return "gb18030"
        case "euc-kr", "ks_c_5601-1987", "korean": return "cp949"
        case "big5", "big5-hkscs", "x-x-big5": return "big5-hkscs"
        case "utf-16": return "utf-16le"
        case "shift_jis", "sjis", "x-sjis": return "cp932"
        default: return name
        }
    }

    // MARK: - Converting

    /// UTF-8 passed through, a character cut at the end kept for the next piece.
    private func utf8(_ input: [UInt8], final: Bool) -> [UInt8] {
        var end = input.count
        if !final {
            // Keep an incomplete last character back.
            var k = end - 1
            var continuation = 0
            while k >= 0 && continuation < 3 && input[k] & 0xC0 == 0x80 {
                continuation += 1
                k -= 1
            }
            if k >= 0 {
                let lead = input[k]
                let needed = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0
                if needed > continuation {
                    end = k
                }
            }
        }
        pending = Array(input[end...])
        // Passed on as it is: the tokenizer makes text with String(decoding:), which mends
        // invalid bytes with U+FFFD.
        return end == input.count ? input : Array(input[..<end])
    }

    static func windows1252(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count + input.count / 8)
        for byte in input {
            if byte < 0x80 {
                out.append(byte)
            } else {
                let scalar = byte <= 0x9F ? Windows1252.high[Int(byte - 0x80)].flatMap(Unicode.Scalar.init) ?? "\u{FFFD}" : Unicode.Scalar(byte)
                out.append(contentsOf: String(Character(scalar)).utf8)
            }
        }
        return out
    }

    private func convert(_ handle: iconv_t, _ input: [UInt8], final: Bool) -> [UInt8] {
        var out: [UInt8] = []
        var source = input
        var offset = 0
        var buffer = [UInt8](repeating: 0, count: max(256, input.count * 4))
        while offset < source.count {
            var inLeft = source.count - offset
            var outLeft = buffer.count
            let (status, code, used, produced): (Int, Int32, Int, Int) = source.withUnsafeMutableBufferPointer { src in
                buffer.withUnsafeMutableBufferPointer { dst in
                    guard let from = src.baseAddress, let to = dst.baseAddress else { return (0, 0, 0, 0) }
                    var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(from + offset).assumingMemoryBound(to: CChar.self)
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(to).assumingMemoryBound(to: CChar.self)
                    let before = inLeft
                    let result = iconv(handle, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (result, result == -1 ? errno : 0, before - inLeft, dst.count - outLeft)
                }
            }
            out.append(contentsOf: buffer[..<produced])
            offset += used
            if status != -1 { break }
            switch code {
            case E2BIG: continue
            case EINVAL:
                // A character cut at the end of the piece: it waits for the rest.
                if final {
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    offset = source.count
                } else {
                    pending = Array(source[offset...])
                    return out
                }
            default:
                // A byte that is no character in this encoding: U+FFFD, and on.
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                offset += 1
            }
        }
        source.removeAll()
        return out
    }
}
