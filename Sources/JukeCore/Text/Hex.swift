/// Lower-case hexadecimal, two digits a byte (digests in the database and in tokens'
/// hashes). Written by hand: `String(format:)` costs a formatted print per byte, and a
/// token's hash is taken on every request.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
