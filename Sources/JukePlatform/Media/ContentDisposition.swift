import Foundation

/// `Content-Disposition` for a download.
public enum ContentDisposition {
    /// An attachment named `name` with every character kept (RFC 6266's `filename*`, UTF-8),
    /// and a plain ASCII name for the rare client that reads only that. Only what a file
    /// system cannot hold (path separators, control characters) is replaced; an empty name
    /// becomes `fallback`.
    public static func attachment(named name: String, fallback: String = "download") -> String {
        let safe = String(
            String.UnicodeScalarView(
                name.unicodeScalars.map { s -> Unicode.Scalar in
                    s == "/" || s == "\\" || s.value < 0x20 || s.value == 0x7F ? "_" : s
                }
            ).prefix(200)
        ).trimmingCharacters(in: .whitespaces)
        let kept = safe.isEmpty ? fallback : safe
        let ascii = String(
            String.UnicodeScalarView(
                kept.unicodeScalars.map { s -> Unicode.Scalar in s.isASCII && s != "\"" && s != "%" && s != ";" ? s : "_" }))
        // RFC 5987: attr-chars stay, every other byte is percent-encoded.
        let attrChars = CharacterSet(charactersIn: "!#$&+-.^_`|~").union(.init(charactersIn: "0123456789")).union(
            .init(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        let encoded = kept.addingPercentEncoding(withAllowedCharacters: attrChars) ?? ascii
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}
