import JukeAPI

/// JSON written by hand for the two small objects each viewer's push carries on its own
/// (their seat and their guess). At a reveal in front of ten thousand phones these are
/// written ten thousand times within a few milliseconds, which Foundation's JSONEncoder is
/// about fifteen times too slow for. The output decodes to exactly what the encoder would
/// write (a test holds the two to each other).
struct JSONObjectText {
    private(set) var text = "{"
    private var first = true

    mutating func field(_ key: String, _ value: String?) {
        guard let value else { return }
        name(key)
        JSONObjectText.appendString(value, to: &text)
    }

    mutating func field(_ key: String, _ value: Int?) {
        guard let value else { return }
        name(key)
        text += String(value)
    }

    mutating func field(_ key: String, _ value: Bool?) {
        guard let value else { return }
        name(key)
        text += value ? "true" : "false"
    }

    /// The finished object.
    mutating func close() -> String {
        text += "}"
        return text
    }

    private mutating func name(_ key: String) {
        if !first { text += "," }
        first = false
        text += "\""
        text += key
        text += "\":"
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func appendString(_ value: String, to out: inout String) {
        out += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension Components.Schemas.TriviaPlayer {
    var jsonText: String {
        var o = JSONObjectText()
        o.field("id", id)
        o.field("display_name", displayName)
        o.field("is_host", isHost)
        o.field("is_manual", isManual)
        o.field("total_score", totalScore)
        o.field("correct_artists", correctArtists)
        o.field("correct_songs", correctSongs)
        o.field("correct_trivia", correctTrivia)
        o.field("rank", rank)
        o.field("has_guessed", hasGuessed)
        o.field("online", online)
        return o.close()
    }
}

extension Components.Schemas.TriviaGuess {
    var jsonText: String {
        var o = JSONObjectText()
        o.field("player_id", playerId)
        o.field("artist_guess", artistGuess)
        o.field("song_guess", songGuess)
        o.field("trivia_guess", triviaGuess)
        o.field("artist_verdict", artistVerdict?.rawValue)
        o.field("song_verdict", songVerdict?.rawValue)
        o.field("artist_reason", artistReason)
        o.field("song_reason", songReason)
        o.field("artist_correct", artistCorrect)
        o.field("song_correct", songCorrect)
        o.field("trivia_correct", triviaCorrect)
        o.field("points_earned", pointsEarned)
        return o.close()
    }
}
