/// One field's value as a FIT file stores it, before any scale or offset: a number, text,
/// raw bytes, a list of numbers (an array field), or nothing (the type's invalid value).
public enum FITValue: Sendable, Equatable {
    case none
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case array([FITValue])

    /// The value as a whole number, if it is one.
    public var integer: Int64? {
        switch self {
        case .int(let v): v
        case .uint(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .double(let v): v.isFinite && abs(v) < 9e18 ? Int64(v) : nil
        default: nil
        }
    }

    /// The value as a number, if it is one.
    public var number: Double? {
        switch self {
        case .int(let v): Double(v)
        case .uint(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    public var text: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}

/// A data message: its global message number (20 is a record, 18 a session...) and its fields
/// by field number, in the order the file defined them. Developer fields are skipped (their
/// meaning lives in the file's own descriptions, which Juke does not need).
public struct FITMessage: Sendable, Equatable {
    public let global: UInt16
    public let fields: [FITField]
    /// The message's time in FIT seconds (since 1989-12-31 UTC): its own timestamp field,
    /// or the one a compressed timestamp header gave it.
    public let timestamp: UInt32?

    public init(global: UInt16, fields: [FITField], timestamp: UInt32?) {
        self.global = global
        self.fields = fields
        self.timestamp = timestamp
    }

    public subscript(number: UInt8) -> FITValue {
        for field in fields where field.number == number { return field.value }
        return .none
    }
}

public struct FITField: Sendable, Equatable {
    public let number: UInt8
    public let value: FITValue

    public init(number: UInt8, value: FITValue) {
        self.number = number
        self.value = value
    }
}
