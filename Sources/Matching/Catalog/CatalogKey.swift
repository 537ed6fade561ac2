import Foundation

/// The form a catalog entry and a query are compared in: lower case, accents folded, every
/// run of characters that are not letters or digits one space, apostrophes dropped
/// ("Don't" is "dont"). For ASCII text this is exactly RapidFuzz's `default_process` with
/// the spaces collapsed, so scores can be checked against it.
///
/// It is computed per scalar from a table, because a catalog of a million entries is folded
/// at start-up and MusicTextNormalizer's Foundation folding costs microseconds per string.
public enum CatalogKey {
    public static func fold(_ text: String) -> Scalars {
        var out: Scalars = []
        out.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        func append(_ value: UInt32) {
            if pendingSpace, !out.isEmpty { out.append(0x20) }
            pendingSpace = false
            out.append(value)
        }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x80 {
                switch v {
                case 0x41...0x5A: append(v + 0x20)
                case 0x61...0x7A, 0x30...0x39: append(v)
                case 0x27, 0x60: continue  // apostrophes join: "don't" is "dont"
                default: pendingSpace = true
                }
            } else if v < 0x2000 {
                let folded = foldTable[Int(v - 0x80)]
                if folded.isEmpty {
                    pendingSpace = true
                } else if folded != [0] {
                    for f in folded { append(f) }
                }
            } else if v == 0x2019 || v == 0x2018 {
                continue  // curly apostrophes join like straight ones
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                for f in scalar.properties.lowercaseMapping.unicodeScalars { append(f.value) }
            } else {
                pendingSpace = true
            }
        }
        return out
    }

    /// U+0080..U+1FFF (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, ..., Vietnamese)
    /// folded once with the normalizer's own rules: "É" is "e", "ß" is "ss", "Ø" is "o",
    /// "ά" is "α"; combining marks vanish; symbols are separators.
    static let foldTable: [Scalars] = (0x80..<0x2000).map { value -> Scalars in
        if (0x300...0x36F).contains(value) { return [0] }  // a combining accent: dropped, not a separator
        guard let scalar = Unicode.Scalar(UInt32(value)),
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        else { return [] }
        let folded = MusicTextNormalizer.fold(String(Character(scalar))).lowercased()
        let kept = folded.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
        return kept.map(\.value)
    }
}
