/// The text encodings found in tags.
enum TextEncoding {
    case latin1, utf16WithBOM, utf16BE, utf16LE, utf8

    /// ID3v2's encoding byte: 0 Latin-1, 1 UTF-16 with BOM, 2 UTF-16BE, 3 UTF-8.
    init?(id3Byte: UInt8) {
        switch id3Byte {
        case 0: self = .latin1
        case 1: self = .utf16WithBOM
        case 2: self = .utf16BE
        case 3: self = .utf8
        default: return nil
        }
    }

    var isWide: Bool {
        switch self {
        case .utf16WithBOM, .utf16BE, .utf16LE: true
        default: false
        }
    }

    /// Decodes bytes (no terminator). Invalid sequences become U+FFFD, never a crash.
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .latin1:
            return latin1String(bytes)
        case .utf8:
            var b = bytes
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
            return String(decoding: b, as: UTF8.self)
        case .utf16BE:
            return Self.decodeUTF16(bytes, bigEndian: true)
        case .utf16LE:
            return Self.decodeUTF16(bytes, bigEndian: false)
        case .utf16WithBOM:
            // A BOM decides; without one, ID3 says big-endian but Windows tools wrote
            // little-endian, so look at which half of the first unit is zero.
            if bytes.starts(with: [0xFF, 0xFE]) { return Self.decodeUTF16(bytes.dropFirst(2), bigEndian: false) }
            if bytes.starts(with: [0xFE, 0xFF]) { return Self.decodeUTF16(bytes.dropFirst(2), bigEndian: true) }
            if bytes.count >= 2, bytes[bytes.startIndex] != 0, bytes[bytes.startIndex + 1] == 0 {
                return Self.decodeUTF16(bytes, bigEndian: false)
            }
            return Self.decodeUTF16(bytes, bigEndian: true)
        }
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i]), b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// Splits `bytes` at the first terminator of this encoding (one NUL, or two aligned
    /// NULs for UTF-16). Returns the text before it and the bytes after it.
    func splitTerminated(_ bytes: ArraySlice<UInt8>) -> (text: ArraySlice<UInt8>, rest: ArraySlice<UInt8>) {
        if isWide {
            var i = bytes.startIndex
            while i + 1 < bytes.endIndex {
                if bytes[i] == 0 && bytes[i + 1] == 0 { return (bytes[bytes.startIndex..<i], bytes[(i + 2)...]) }
                i += 2
            }
            return (bytes, bytes[bytes.endIndex...])
        }
        if let z = bytes.firstIndex(of: 0) { return (bytes[bytes.startIndex..<z], bytes[(z + 1)...]) }
        return (bytes, bytes[bytes.endIndex...])
    }

    /// All NUL-separated strings (ID3v2.4 allows several values in one text frame).
    func decodeList(_ bytes: ArraySlice<UInt8>) -> [String] {
        var out: [String] = []
        var rest = bytes
        while !rest.isEmpty {
            let (text, after) = splitTerminated(rest)
            out.append(decode(text))
            rest = after
        }
        return out
    }
}

/// Latin-1 bytes as text: each byte is the Unicode scalar of the same value.
func latin1String(_ bytes: some Sequence<UInt8>) -> String {
    var scalars = String.UnicodeScalarView()
    for b in bytes { scalars.append(Unicode.Scalar(b)) }
    return String(scalars)
}
