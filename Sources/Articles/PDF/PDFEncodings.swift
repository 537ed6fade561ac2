import Foundation

/// The single-byte encodings simple PDF fonts use, and glyph names (for an encoding's
/// Differences) as Unicode text.
enum PDFEncodings {
    /// WinAnsiEncoding: Windows-1252 (its undefined codes read as nothing).
    static let winAnsi: [String] = (0..<256).map { code in
        switch code {
        case 0x00..<0x20: return code == 0x09 || code == 0x0A || code == 0x0D ? " " : ""
        case 0x80..<0xA0: return cp1252High[code - 0x80].map { String(UnicodeScalar($0) ?? " ") } ?? ""
        default: return String(UnicodeScalar(UInt8(code)))
        }
    }

    static let cp1252High: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]

    /// MacRomanEncoding (the printable ASCII half is the same; the upper half by table).
    static let macRoman: [String] = (0..<256).map { code in
        if code < 0x80 { return winAnsi[code] }
        let upper: [UInt32] = [
            0xC4, 0xC5, 0xC7, 0xC9, 0xD1, 0xD6, 0xDC, 0xE1, 0xE0, 0xE2, 0xE4, 0xE3, 0xE5, 0xE7, 0xE9, 0xE8, 0xEA, 0xEB, 0xED, 0xEC, 0xEE, 0xEF,
            0xF1, 0xF3, 0xF2, 0xF4, 0xF6, 0xF5, 0xFA, 0xF9, 0xFB, 0xFC, 0x2020, 0xB0, 0xA2, 0xA3, 0xA7, 0x2022, 0xB6, 0xDF, 0xAE, 0xA9, 0x2122,
            0xB4, 0xA8, 0x2260, 0xC6, 0xD8, 0x221E, 0xB1, 0x2264, 0x2265, 0xA5, 0xB5, 0x2202, 0x2211, 0x220F, 0x3C0, 0x222B, 0xAA, 0xBA, 0x3A9,
            0xE6, 0xF8, 0xBF, 0xA1, 0xAC, 0x221A, 0x192, 0x2248, 0x2206, 0xAB, 0xBB, 0x2026, 0xA0, 0xC0, 0xC3, 0xD5, 0x152, 0x153, 0x2013,
            0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0xF7, 0x25CA, 0xFF, 0x178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02, 0x2021, 0xB7,
            0x201A, 0x201E, 0x2030, 0xC2, 0xCA, 0xC1, 0xCB, 0xC8, 0xCD, 0xCE, 0xCF, 0xCC, 0xD3, 0xD4, 0xF8FF, 0xD2, 0xDA, 0xDB, 0xD9, 0x131,
            0x2C6, 0x2DC, 0xAF, 0x2D8, 0x2D9, 0x2DA, 0xB8, 0x2DD, 0x2DB, 0x2C7,
        ]
        let index = code - 0x80
        return index < upper.count ? String(UnicodeScalar(upper[index]) ?? " ") : ""
    }

    static let names: [String: String] = [
        "space": " ", "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&", "quotesingle": "'",
        "parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+", "comma": ",", "hyphen": "-", "period": ".", "slash": "/",
        "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
        "colon": ":", "semicolon": ";", "less": "<", "equal": "=", "greater": ">", "question": "?", "at": "@", "bracketleft": "[",
        "backslash": "\\", "bracketright": "]", "underscore": "_", "braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~",
        "quoteleft": "‘", "quoteright": "’", "quotedblleft": "“", "quotedblright": "”", "endash": "–", "emdash": "—", "bullet": "•",
        "ellipsis": "…", "fi": "fi", "fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl", "nbspace": " ", "minus": "−", "degree": "°",
        "copyright": "©", "registered": "®", "trademark": "™", "section": "§", "paragraph": "¶", "dagger": "†", "daggerdbl": "‡",
        "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "oslash": "ø", "Oslash": "Ø", "germandbls": "ß", "dotlessi": "ı", "Euro": "€",
        "guillemotleft": "«", "guillemotright": "»", "exclamdown": "¡", "questiondown": "¿", "sterling": "£", "yen": "¥", "cent": "¢",
    ]
    static let accents: [String: UInt32] = [
        "grave": 0x300, "acute": 0x301, "circumflex": 0x302, "tilde": 0x303, "dieresis": 0x308, "ring": 0x30A, "cedilla": 0x327, "caron": 0x30C,
    ]

    /// A glyph name's text: the table, "uniXXXX"/"uXXXX[XX]", a letter with an accent, or a letter.
    static func glyph(_ name: String) -> String? {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        if let known = names[base] { return known }
        if base.hasPrefix("uni"), base.count == 7, let v = UInt32(base.dropFirst(3), radix: 16), let s = UnicodeScalar(v) { return String(s) }
        if base.hasPrefix("u"), (5...7).contains(base.count), let v = UInt32(base.dropFirst(1), radix: 16), let s = UnicodeScalar(v) { return String(s) }
        if base.count == 1 { return base }
        for (accent, mark) in accents where base.hasSuffix(accent) && base.count == accent.count + 1 {
            guard let letter = base.first, let combining = UnicodeScalar(mark) else { return nil }
            return (String(letter) + String(combining)).precomposedStringWithCanonicalMapping
        }
        return nil
    }
}
