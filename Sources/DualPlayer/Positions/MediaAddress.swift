import JukeCore

/// Where a player's audio and artwork come from: always a path on this Juke server (library
/// tracks, books, and radio through the stream relay). Saved states are loaded into the
/// page's players on every device, so an address to another site, or one a browser would
/// read as another site (`//host`, `/\host`), is refused rather than stored.
public enum MediaAddress {
    public static let maxLength = 1000

    public static func validated(_ address: String, field: String) throws(RuleRefusal) -> String {
        // Scalar by scalar, as the contract's pattern reads it (and the browser): "/" followed
        // by a combining mark is one Character, which `hasPrefix("/")` would not see.
        let scalars = Array(address.unicodeScalars)
        guard scalars.count >= 2, scalars.count <= maxLength, scalars[0] == "/", scalars[1] != "/",
            !scalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\\" })
        else { throw .invalid(field, "\(field) must be a path on this server, such as /api/v1/catalog/tracks/…/audio") }
        return address
    }
}

extension SavedPosition {
    /// A position a device sent: seconds finite and not negative, a time not before 1970.
    public static func validated(seconds: Double, updatedAt: Int64, field: String) throws(RuleRefusal) -> SavedPosition {
        guard seconds.isFinite, seconds >= 0 else { throw .invalid(field, "a position is a number of seconds, 0 or more") }
        guard updatedAt >= 0 else { throw .invalid("updated_at", "updated_at is milliseconds since 1970") }
        return SavedPosition(seconds: seconds, updatedAt: updatedAt)
    }
}
