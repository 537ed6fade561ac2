import JukePlatform

/// A big screen's token as its routes take it (the query's `token`), checked as the contract
/// bounds it: 1 to 100 characters of base64url.
enum PresenterToken {
    static func checked(_ raw: String?) throws(APIError) -> String {
        guard let raw, (1...100).contains(raw.utf8.count),
            raw.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") })
        else { throw .badRequest("token is the one this screen was paired with.", field: "token") }
        return raw
    }

    /// Where the big screen finds the round's media: by round, as the host's clip, never by track.
    static func mediaURL(round: String, _ kind: String, token: String) -> String {
        "/api/v1/tunetrivia/presenter/rounds/\(round)/\(kind)?token=\(token)"
    }
}
