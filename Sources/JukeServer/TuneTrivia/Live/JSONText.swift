import JukeAPI
import NIOCore

/// JSON written by hand, straight into a push's buffer, for the two small objects each
/// viewer's push carries on its own (their seat and their guess). At a reveal in front of
/// ten thousand phones these are written ten thousand times within a few milliseconds,
/// which Foundation's JSONEncoder is about fifteen times too slow for; they go into the
/// buffer without a string in between. The output decodes to exactly what the encoder would write
/// (TriviaPushTests holds each viewer's message to the encoder's).
struct JSONObjectWriter {
    private var first = true

    /// Writes one object into `buffer`: `{`, what `fields` writes, `}`.
    static func write(into buffer: inout ByteBuffer, _ fields: (inout JSONObjectWriter, inout ByteBuffer) -> Void) {
        var writer = JSONObjectWriter()
        buffer.writeInteger(UInt8(ascii: "{"))
        fields(&writer, &buffer)
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    mutating func field(_ key: StaticString, _ value: String?, _ out: inout ByteBuffer) {
        guard let value else { return }
        name(key, &out)
        Self.writeString(value, into: &out)
    }

    mutating func field(_ key: StaticString, _ value: Int?, _ out: inout ByteBuffer) {
        guard let value else { return }
        name(key, &out)
        out.writeString(String(value))
    }

    mutating func field(_ key: StaticString, _ value: Bool?, _ out: inout ByteBuffer) {
        guard let value else { return }
        name(key, &out)
        out.writeStaticString(value ? "true" : "false")
    }

    private mutating func name(_ key: StaticString, _ out: inout ByteBuffer) {
        if !first { out.writeInteger(UInt8(ascii: ",")) }
        first = false
        out.writeInteger(UInt8(ascii: "\""))
        out.writeStaticString(key)
        out.writeStaticString("\":")
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    static func writeString(_ value: String, into out: inout ByteBuffer) {
        out.writeInteger(UInt8(ascii: "\""))
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.writeString(value)
        } else {
            var escaped = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            out.writeString(escaped)
        }
        out.writeInteger(UInt8(ascii: "\""))
    }
}

extension Components.Schemas.TriviaPlayer {
    func writeJSON(into buffer: inout ByteBuffer) {
        JSONObjectWriter.write(into: &buffer) { o, out in
            o.field("id", id, &out)
            o.field("display_name", displayName, &out)
            o.field("is_host", isHost, &out)
            o.field("is_manual", isManual, &out)
            o.field("total_score", totalScore, &out)
            o.field("correct_artists", correctArtists, &out)
            o.field("correct_songs", correctSongs, &out)
            o.field("correct_trivia", correctTrivia, &out)
            o.field("rank", rank, &out)
            o.field("has_guessed", hasGuessed, &out)
            o.field("online", online, &out)
        }
    }

    /// `writeJSON`, as a string (the leaders of a frame, written once for everyone).
    var jsonText: String {
        var buffer = ByteBuffer()
        writeJSON(into: &buffer)
        return String(buffer: buffer)
    }
}

extension Components.Schemas.TriviaGuess {
    func writeJSON(into buffer: inout ByteBuffer) {
        JSONObjectWriter.write(into: &buffer) { o, out in
            o.field("player_id", playerId, &out)
            o.field("artist_guess", artistGuess, &out)
            o.field("song_guess", songGuess, &out)
            o.field("trivia_guess", triviaGuess, &out)
            o.field("artist_verdict", artistVerdict?.rawValue, &out)
            o.field("song_verdict", songVerdict?.rawValue, &out)
            o.field("artist_reason", artistReason, &out)
            o.field("song_reason", songReason, &out)
            o.field("artist_correct", artistCorrect, &out)
            o.field("song_correct", songCorrect, &out)
            o.field("trivia_correct", triviaCorrect, &out)
            o.field("points_earned", pointsEarned, &out)
        }
    }
}
