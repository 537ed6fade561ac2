/// The FIT protocol's 16-bit checksum (the SDK's nibble-table CRC): over the file header's
/// first 12 bytes in a 14-byte header, and over header and records at the file's end.
enum FITCRC {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]

    static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
        var crc = crc
        var tmp = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        crc = crc ^ tmp ^ table[Int(byte & 0xF)]
        tmp = table[Int(crc & 0xF)]
        crc = (crc >> 4) & 0x0FFF
        return crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
    }

    static func checksum(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, seed: UInt16 = 0) -> UInt16 {
        var crc = seed
        var i = start
        while i < end {
            crc = update(crc, bytes[i])
            i += 1
        }
        return crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt16 {
        bytes.withUnsafeBufferPointer { checksum($0, from: 0, to: $0.count) }
    }
}
