/// One notification of Bluetooth's Heart Rate Measurement characteristic (0x2A37, service
/// 0x180D), as a chest strap sends it about once a second.
///
/// The first byte's flags say what follows: bit 0 the heart rate's width (8 or 16 bits),
/// bits 1-2 the sensor contact status (bit 2: the strap can tell; bit 1: skin contact), bit 3
/// the energy expended (kilojoules, 16 bits), bit 4 RR intervals (16 bits each, in 1/1024 s)
/// filling the rest.
public struct HeartRateMeasurement: Sendable, Equatable {
    public var bpm: Int
    public var contact: SensorContact
    /// Kilojoules since the strap's counter was last reset, when the strap sends it.
    public var energyExpended: Int?
    /// The time between beats, in seconds, oldest first (several arrive in one notification
    /// when the heart beats faster than the strap notifies).
    public var rrIntervals: [Double]

    public init(bpm: Int, contact: SensorContact = .notSupported, energyExpended: Int? = nil, rrIntervals: [Double] = []) {
        self.bpm = bpm
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    public static func parse(_ bytes: [UInt8]) throws(HeartRateMeasurementError) -> HeartRateMeasurement {
        guard let flags = bytes.first else { throw .empty }
        var i = 1
        func take(_ count: Int, _ what: String) throws(HeartRateMeasurementError) -> Int {
            guard i + count <= bytes.count else { throw .tooShort(what) }
            var value = 0
            for k in 0..<count { value |= Int(bytes[i + k]) << (8 * k) }
            i += count
            return value
        }
        let bpm = try take(flags & 0x01 != 0 ? 2 : 1, "heart rate")
        let contact: SensorContact =
            switch (flags >> 1) & 0x03 {
            case 0b10: .notDetected
            case 0b11: .detected
            default: .notSupported
            }
        let energy = flags & 0x08 != 0 ? try take(2, "energy expended") : nil
        var rr: [Double] = []
        if flags & 0x10 != 0 {
            // A trailing odd byte is half an interval: the strap's, not the reader's, fault.
            while i + 2 <= bytes.count { rr.append(Double(try take(2, "RR interval")) / 1024) }
        }
        return HeartRateMeasurement(bpm: bpm, contact: contact, energyExpended: energy, rrIntervals: rr)
    }

    /// Whether the value is a heart rate at all: a strap without skin contact sends 0, and
    /// some send a stale value with the contact bit clear.
    public var isUsable: Bool { bpm >= 25 && bpm <= 250 && contact != .notDetected }
}

public enum SensorContact: String, Sendable, Equatable, Codable {
    /// The strap cannot tell whether it touches skin.
    case notSupported = "not_supported"
    case notDetected = "not_detected"
    case detected
}

public enum HeartRateMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooShort(String)

    public var description: String {
        switch self {
        case .empty: "the measurement is empty"
        case .tooShort(let what): "the measurement ends before its \(what)"
        }
    }
}

/// Bluetooth's Battery Level characteristic (0x2A19): one byte, a percentage.
public enum BatteryLevel {
    public static func parse(_ bytes: [UInt8]) -> Int? {
        guard let level = bytes.first, level <= 100 else { return nil }
        return Int(level)
    }
}
