import Foundation
import JukeCore
import NIOCore
import TuneTrivia

/// JSON written by hand, straight into a push's buffer, for the two small objects each
/// viewer's push carries on its own (their seat and their guess). At a reveal in front of
/// ten thousand phones these are written ten thousand times within a few milliseconds,
/// which Foundation's JSONEncoder is about fifteen times too slow for; they go into the
/// buffer from the engine's views, without the API's types or a string in between (not
/// even for an ID). The output decodes to exactly what the encoder writes for the same view
/// through `TriviaMapping` (TriviaPushTests holds each viewer's message to the encoder's).
///
/// An object's fields are gone through twice: once to add up the most bytes they can take,
/// then to write them into that much room, reserved in the buffer at once, through a
/// pointer. Byte by byte through ByteBuffer's own writes (a capacity and uniqueness check
/// per byte) these two objects cost more than the rest of a player's message together.
struct JSONObjectWriter {
    /// Where the fields go; nil while measuring.
    private let out: UnsafeMutableRawBufferPointer?
    /// Bytes written so far, or while measuring, the most they can take.
    private var count = 0
    private var first = true

    private init(out: UnsafeMutableRawBufferPointer?) { self.out = out }

    /// Writes one object into `buffer`: `{`, what `fields` writes, `}`.
    static func write(into buffer: inout ByteBuffer, _ fields: (inout JSONObjectWriter) -> Void) {
        var measure = JSONObjectWriter(out: nil)
        fields(&measure)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: measure.count + 2) { room in
            var writer = JSONObjectWriter(out: room)
            writer.byte(UInt8(ascii: "{"))
            fields(&writer)
            writer.byte(UInt8(ascii: "}"))
            return writer.count
        }
    }

    mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        name(key)
        guard out != nil else {
            // Every byte escaped as \u00XX at worst, and the quotes.
            count += 2 + 6 * value.utf8.count
            return
        }
        string(value)
    }

    mutating func field(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        name(key)
        guard out != nil else {
            count += 20  // "-9223372036854775808"
            return
        }
        integer(value)
    }

    mutating func field(_ key: StaticString, _ value: some TypedID) {
        name(key)
        guard let out else {
            count += 2 + UUID.lowercasedLength
            return
        }
        byte(UInt8(ascii: "\""))
        precondition(count + UUID.lowercasedLength <= out.count, "JSONObjectWriter measured too little")
        value.rawValue.writeLowercased(into: UnsafeMutableRawBufferPointer(rebasing: out[count...]))
        count += UUID.lowercasedLength
        byte(UInt8(ascii: "\""))
    }

    mutating func field(_ key: StaticString, _ value: Bool?) {
        guard let value else { return }
        name(key)
        bytes(value ? "true" : "false")
    }

    /// `,"key":` (no comma before the first).
    private mutating func name(_ key: StaticString) {
        if !first { byte(UInt8(ascii: ",")) }
        first = false
        byte(UInt8(ascii: "\""))
        bytes(key)
        bytes("\":")
    }

    private mutating func byte(_ value: UInt8) {
        if let out {
            precondition(count < out.count, "JSONObjectWriter measured too little")
            out[count] = value
        }
        count += 1
    }

    private mutating func bytes(_ text: StaticString) {
        text.withUTF8Buffer { utf8 in
            if let out {
                precondition(count + utf8.count <= out.count, "JSONObjectWriter measured too little")
                UnsafeMutableRawBufferPointer(rebasing: out[count..<count + utf8.count]).copyMemory(from: UnsafeRawBufferPointer(utf8))
            }
            count += utf8.count
        }
    }

    /// Decimal digits, most significant first.
    private mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var unit: UInt = 1
        while rest / unit >= 10 { unit *= 10 }
        repeat {
            byte(UInt8(ascii: "0") + UInt8(rest / unit))
            rest %= unit
            unit /= 10
        } while unit > 0
    }

    /// A JSON string literal (RFC 8259): quotes, backslashes and control characters escaped.
    private mutating func string(_ value: String) {
        byte(UInt8(ascii: "\""))
        // Most text (IDs, names, guesses) needs no escape: copied in one go.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard let out, !utf8.contains(where: Self.needsEscape) else { return false }
            precondition(count + utf8.count <= out.count, "JSONObjectWriter measured too little")
            UnsafeMutableRawBufferPointer(rebasing: out[count..<count + utf8.count]).copyMemory(from: UnsafeRawBufferPointer(utf8))
            count += utf8.count
            return true
        }
        if copied != true { escaped(value) }
        byte(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ unit: UInt8) -> Bool { unit < 0x20 || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") }

    private mutating func escaped(_ value: String) {
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes("\\\"")
            case UInt8(ascii: "\\"): bytes("\\\\")
            case UInt8(ascii: "\n"): bytes("\\n")
            case UInt8(ascii: "\r"): bytes("\\r")
            case UInt8(ascii: "\t"): bytes("\\t")
            case ..<0x20:
                bytes("\\u00")
                byte(Self.hex[Int(unit >> 4)])
                byte(Self.hex[Int(unit & 0xF)])
            default: byte(unit)
            }
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
}

extension GameView.PlayerView {
    /// The object `TriviaMapping.player(self)` encodes to (a player's view: no `online`).
    func writeJSON(into buffer: inout ByteBuffer) {
        JSONObjectWriter.write(into: &buffer) { o in
            o.field("id", id)
            o.field("display_name", displayName)
            o.field("is_host", isHost)
            o.field("is_manual", isManual)
            o.field("total_score", score.total)
            o.field("correct_artists", score.artists)
            o.field("correct_songs", score.songs)
            o.field("correct_trivia", score.trivia)
            o.field("rank", rank)
            o.field("has_guessed", hasGuessed)
        }
    }

    /// `writeJSON`, as a string (the leaders of a frame, written once for everyone).
    var jsonText: String {
        var buffer = ByteBuffer()
        writeJSON(into: &buffer)
        return String(buffer: buffer)
    }
}

extension GameView.GuessView {
    /// The object `TriviaMapping.guess(self)` encodes to.
    func writeJSON(into buffer: inout ByteBuffer) {
        JSONObjectWriter.write(into: &buffer) { o in
            o.field("player_id", player)
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
            o.field("points_earned", points)
        }
    }
}

extension ByteBuffer {
    /// `id` as a JSON string.
    mutating func writeJSONString(_ id: some TypedID) {
        writeWithUnsafeMutableBytes(minimumWritableBytes: UUID.lowercasedLength + 2) { room in
            room[0] = UInt8(ascii: "\"")
            id.rawValue.writeLowercased(into: UnsafeMutableRawBufferPointer(rebasing: room[1...]))
            room[UUID.lowercasedLength + 1] = UInt8(ascii: "\"")
            return UUID.lowercasedLength + 2
        }
    }
}
