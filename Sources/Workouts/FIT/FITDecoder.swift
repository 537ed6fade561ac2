/// Juke's reader of Garmin's FIT files (the Flexible and Interoperable data Transfer
/// protocol): the file header, definition and data messages, compressed timestamp headers,
/// big- and little-endian fields, developer fields, chained files, and the checksums.
///
/// It reads what real devices write, which is not always what the protocol says: a checksum
/// that does not match is reported, not fatal; a field whose size is not a whole number of
/// its type is kept as bytes; a file cut short (the watch's battery died) keeps every
/// message that came whole before the cut and says where it was cut. Only a file that is
/// not FIT at all, or that holds no message, is refused.
public enum FITDecoder {
    /// The FIT epoch, 1989-12-31 00:00:00 UTC, in Unix seconds.
    public static let epoch: Double = 631_065_600

    public static func decode(_ bytes: [UInt8]) throws(FITError) -> FITFile {
        try bytes.withUnsafeBufferPointer { buffer throws(FITError) in try decode(buffer) }
    }

    public static func decode(_ b: UnsafeBufferPointer<UInt8>) throws(FITError) -> FITFile {
        var reader = Reader(b: b)
        var offset = 0
        var files = 0
        while offset < b.count {
            // A chained file follows the last one's checksum; zeros after it are padding, and
            // anything else is a damaged header of the next one.
            if files > 0 && !looksLikeHeader(b, at: offset) {
                if (offset..<b.count).contains(where: { b[$0] != 0 }) { reader.damage = .notAFile(offset: offset) }
                break
            }
            let header = try readHeader(b, at: offset)
            files += 1
            let dataStart = offset + header.size
            var dataEnd = dataStart + header.dataSize
            let declaredEnd = dataEnd
            if header.dataSize == 0 || dataEnd > b.count {
                // A file still being written says 0; a cut file says more than it has.
                dataEnd = b.count
            }
            reader.resetDefinitions()
            reader.offset = dataStart
            reader.read(until: dataEnd)
            if reader.damage != nil { break }
            if declaredEnd > b.count || header.dataSize == 0 {
                reader.damage = .truncated(offset: b.count)
                break
            }
            // The file's checksum covers its header and records.
            guard dataEnd + 2 <= b.count else {
                reader.damage = .truncated(offset: b.count)
                break
            }
            let stored = UInt16(b[dataEnd]) | UInt16(b[dataEnd + 1]) << 8
            if stored != 0 && FITCRC.checksum(b, from: offset, to: dataEnd) != stored {
                reader.checksumMismatch = true
            }
            offset = dataEnd + 2
        }
        guard !reader.messages.isEmpty else {
            if let damage = reader.damage { throw .damaged(damage) }
            throw .empty
        }
        return FITFile(messages: reader.messages, damage: reader.damage, checksumMismatch: reader.checksumMismatch, files: files)
    }

    struct Header {
        let size: Int
        let dataSize: Int
    }

    static func looksLikeHeader(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset + 12 <= b.count else { return false }
        return b[offset + 8] == 0x2E && b[offset + 9] == 0x46 && b[offset + 10] == 0x49 && b[offset + 11] == 0x54
    }

    static func readHeader(_ b: UnsafeBufferPointer<UInt8>, at offset: Int) throws(FITError) -> Header {
        guard offset + 12 <= b.count else { throw .notFIT("shorter than a FIT header") }
        let size = Int(b[offset])
        guard size >= 12, offset + size <= b.count else { throw .notFIT("the header's size (\(size)) is impossible") }
        guard looksLikeHeader(b, at: offset) else { throw .notFIT("no \".FIT\" signature in the header") }
        let dataSize = Int(b[offset + 4]) | Int(b[offset + 5]) << 8 | Int(b[offset + 6]) << 16 | Int(b[offset + 7]) << 24
        return Header(size: size, dataSize: dataSize)
    }

    /// A local message type's layout, as its definition message gave it.
    struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [FieldDefinition]
        /// Bytes of developer fields after the regular ones (skipped).
        var developerBytes: Int
        var size: Int
        /// Where the timestamp field (253, uint32) is, if the message has one.
        var timestampField: Int?
    }

    struct FieldDefinition {
        let number: UInt8
        let size: Int
        let type: FITBaseType
    }

    struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        var offset = 0
        var definitions = [Definition?](repeating: nil, count: 16)
        var messages: [FITMessage] = []
        var damage: FITDamage?
        var checksumMismatch = false
        var lastTimestamp: UInt32?

        init(b: UnsafeBufferPointer<UInt8>) {
            self.b = b
            messages.reserveCapacity(b.count / 24)
        }

        mutating func resetDefinitions() {
            for i in definitions.indices { definitions[i] = nil }
        }

        mutating func read(until end: Int) {
            while offset < end {
                let header = b[offset]
                if header & 0x80 != 0 {
                    // Compressed timestamp header: local type in bits 5-6, a 5-bit time offset.
                    let local = Int((header >> 5) & 0x03)
                    let timeOffset = UInt32(header & 0x1F)
                    var timestamp: UInt32?
                    if let last = lastTimestamp {
                        let t = last &+ ((timeOffset &- (last & 0x1F)) & 0x1F)
                        timestamp = t
                        lastTimestamp = t
                    }
                    guard readData(local: local, at: offset + 1, end: end, compressedTime: timestamp) else { return }
                } else if header & 0x40 != 0 {
                    guard readDefinition(local: Int(header & 0x0F), developer: header & 0x20 != 0, at: offset + 1, end: end) else { return }
                } else {
                    guard readData(local: Int(header & 0x0F), at: offset + 1, end: end, compressedTime: nil) else { return }
                }
            }
        }

        private mutating func readDefinition(local: Int, developer: Bool, at start: Int, end: Int) -> Bool {
            guard start + 5 <= end else {
                damage = .truncated(offset: start)
                return false
            }
            let bigEndian = b[start + 1] == 1
            let global = bigEndian ? UInt16(b[start + 2]) << 8 | UInt16(b[start + 3]) : UInt16(b[start + 2]) | UInt16(b[start + 3]) << 8
            let count = Int(b[start + 4])
            var p = start + 5
            guard p + count * 3 <= end else {
                damage = .truncated(offset: start)
                return false
            }
            var fields: [FieldDefinition] = []
            fields.reserveCapacity(count)
            var size = 0
            var timestampField: Int?
            for _ in 0..<count {
                let field = FieldDefinition(number: b[p], size: Int(b[p + 1]), type: FITBaseType(definitionByte: b[p + 2]))
                if field.number == 253 && field.size == 4 && (field.type == .uint32 || field.type == .uint32z) {
                    timestampField = fields.count
                }
                fields.append(field)
                size += field.size
                p += 3
            }
            var developerBytes = 0
            if developer {
                guard p < end else {
                    damage = .truncated(offset: start)
                    return false
                }
                let devCount = Int(b[p])
                p += 1
                guard p + devCount * 3 <= end else {
                    damage = .truncated(offset: start)
                    return false
                }
                for _ in 0..<devCount {
                    developerBytes += Int(b[p + 1])
                    p += 3
                }
            }
            definitions[local] = Definition(
                global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes,
                size: size + developerBytes, timestampField: timestampField)
            offset = p
            return true
        }

        private mutating func readData(local: Int, at start: Int, end: Int, compressedTime: UInt32?) -> Bool {
            guard let definition = definitions[local] else {
                damage = .undefinedLocalMessage(local: local, offset: start - 1)
                return false
            }
            guard start + definition.size <= end else {
                damage = .truncated(offset: start - 1)
                return false
            }
            var fields: [FITField] = []
            fields.reserveCapacity(definition.fields.count)
            var p = start
            var timestamp = compressedTime
            for (index, field) in definition.fields.enumerated() {
                let value = FITDecoder.value(b, at: p, size: field.size, type: field.type, bigEndian: definition.bigEndian)
                if index == definition.timestampField, case .uint(let t) = value {
                    timestamp = UInt32(truncatingIfNeeded: t)
                    lastTimestamp = timestamp
                }
                fields.append(FITField(number: field.number, value: value))
                p += field.size
            }
            messages.append(FITMessage(global: definition.global, fields: fields, timestamp: timestamp))
            offset = start + definition.size
            return true
        }
    }

    /// One field's value: a scalar, an array when the size holds several, bytes when it holds
    /// a part of one, `.none` for the type's invalid value.
    static func value(_ b: UnsafeBufferPointer<UInt8>, at p: Int, size: Int, type: FITBaseType, bigEndian: Bool) -> FITValue {
        if type == .string {
            var end = p
            while end < p + size && b[end] != 0 { end += 1 }
            guard end > p else { return .none }
            return .string(String(decoding: UnsafeBufferPointer(rebasing: b[p..<end]), as: UTF8.self))
        }
        let width = type.size
        if size == width { return scalar(b, at: p, type: type, bigEndian: bigEndian) }
        guard size > 0 else { return .none }
        if type == .byte || size % width != 0 {
            let bytes = Array(UnsafeBufferPointer(rebasing: b[p..<(p + size)]))
            return bytes.allSatisfy({ $0 == 0xFF }) ? .none : .bytes(bytes)
        }
        var values: [FITValue] = []
        values.reserveCapacity(size / width)
        var any = false
        var q = p
        while q < p + size {
            let v = scalar(b, at: q, type: type, bigEndian: bigEndian)
            if v != .none { any = true }
            values.append(v)
            q += width
        }
        return any ? .array(values) : .none
    }

    @inline(__always)
    static func raw(_ b: UnsafeBufferPointer<UInt8>, at p: Int, width: Int, bigEndian: Bool) -> UInt64 {
        var v: UInt64 = 0
        if bigEndian {
            for i in 0..<width { v = v << 8 | UInt64(b[p + i]) }
        } else {
            for i in stride(from: width - 1, through: 0, by: -1) { v = v << 8 | UInt64(b[p + i]) }
        }
        return v
    }

    static func scalar(_ b: UnsafeBufferPointer<UInt8>, at p: Int, type: FITBaseType, bigEndian: Bool) -> FITValue {
        switch type {
        case .enumeration, .uint8, .byte:
            let v = b[p]
            return v == 0xFF ? .none : .uint(UInt64(v))
        case .uint8z:
            let v = b[p]
            return v == 0 ? .none : .uint(UInt64(v))
        case .sint8:
            let v = b[p]
            return v == 0x7F ? .none : .int(Int64(Int8(bitPattern: v)))
        case .uint16, .uint16z:
            let v = UInt16(truncatingIfNeeded: raw(b, at: p, width: 2, bigEndian: bigEndian))
            return v == (type == .uint16 ? 0xFFFF : 0) ? .none : .uint(UInt64(v))
        case .sint16:
            let v = UInt16(truncatingIfNeeded: raw(b, at: p, width: 2, bigEndian: bigEndian))
            return v == 0x7FFF ? .none : .int(Int64(Int16(bitPattern: v)))
        case .uint32, .uint32z:
            let v = UInt32(truncatingIfNeeded: raw(b, at: p, width: 4, bigEndian: bigEndian))
            return v == (type == .uint32 ? 0xFFFF_FFFF : 0) ? .none : .uint(UInt64(v))
        case .sint32:
            let v = UInt32(truncatingIfNeeded: raw(b, at: p, width: 4, bigEndian: bigEndian))
            return v == 0x7FFF_FFFF ? .none : .int(Int64(Int32(bitPattern: v)))
        case .float32:
            let v = UInt32(truncatingIfNeeded: raw(b, at: p, width: 4, bigEndian: bigEndian))
            return v == 0xFFFF_FFFF ? .none : .double(Double(Float(bitPattern: v)))
        case .float64:
            let v = raw(b, at: p, width: 8, bigEndian: bigEndian)
            return v == UInt64.max ? .none : .double(Double(bitPattern: v))
        case .sint64:
            let v = raw(b, at: p, width: 8, bigEndian: bigEndian)
            return v == 0x7FFF_FFFF_FFFF_FFFF ? .none : .int(Int64(bitPattern: v))
        case .uint64, .uint64z:
            let v = raw(b, at: p, width: 8, bigEndian: bigEndian)
            return v == (type == .uint64 ? UInt64.max : 0) ? .none : .uint(v)
        case .string:
            return value(b, at: p, size: 1, type: .string, bigEndian: bigEndian)
        }
    }
}

/// What a FIT file held: its data messages in order, and whether it was whole.
public struct FITFile: Sendable {
    public let messages: [FITMessage]
    /// Where reading stopped early, if it did (the messages before it are kept).
    public let damage: FITDamage?
    /// The file's checksum does not match its bytes (its messages were read all the same).
    public let checksumMismatch: Bool
    /// How many FIT files were chained in it.
    public let files: Int
}

public enum FITDamage: Sendable, Equatable, CustomStringConvertible {
    case truncated(offset: Int)
    case undefinedLocalMessage(local: Int, offset: Int)
    /// After a whole file, bytes that are not the header of another.
    case notAFile(offset: Int)

    public var description: String {
        switch self {
        case .truncated(let offset): "the file is cut short at byte \(offset)"
        case .undefinedLocalMessage(let local, let offset): "a message at byte \(offset) uses local type \(local), which was never defined"
        case .notAFile(let offset): "the bytes from \(offset) on are not a FIT file (a chained file's damaged header)"
        }
    }
}

public enum FITError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFIT(String)
    case empty
    case damaged(FITDamage)

    public var description: String {
        switch self {
        case .notFIT(let why): "not a FIT file: \(why)"
        case .empty: "the FIT file holds no messages"
        case .damaged(let damage): "the FIT file is damaged before its first message: \(damage)"
        }
    }
}
