/// A FIT field's base type: its size, its signedness and the value that means "no value".
///
/// The number is the base type byte of a definition message (the endian bit, 0x80, set on
/// multi-byte types); readers take the low five bits, as the SDK does.
enum FITBaseType: UInt8, Sendable {
    case enumeration = 0x00
    case sint8 = 0x01
    case uint8 = 0x02
    case sint16 = 0x03
    case uint16 = 0x04
    case sint32 = 0x05
    case uint32 = 0x06
    case string = 0x07
    case float32 = 0x08
    case float64 = 0x09
    case uint8z = 0x0A
    case uint16z = 0x0B
    case uint32z = 0x0C
    case byte = 0x0D
    case sint64 = 0x0E
    case uint64 = 0x0F
    case uint64z = 0x10

    /// The type named by a definition's base type byte; an unknown one reads as bytes.
    init(definitionByte: UInt8) {
        self = FITBaseType(rawValue: definitionByte & 0x1F) ?? .byte
    }

    var size: Int {
        switch self {
        case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
        case .sint16, .uint16, .uint16z: 2
        case .sint32, .uint32, .float32, .uint32z: 4
        case .float64, .sint64, .uint64, .uint64z: 8
        }
    }
}
