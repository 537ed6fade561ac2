/// Reads a recorded workout from a FIT, TCX or GPX file, told apart by its bytes (a file's
/// name can lie: a ".fit" downloaded as ".bin", a TCX saved as ".xml").
public enum WorkoutFile {
    /// The longest file read: a day of one-second records in FIT is about 3 MB, in TCX 30 MB.
    public static let maxBytes = 64 << 20

    public static func format(of bytes: [UInt8]) -> WorkoutFormat? {
        if bytes.count >= 12, bytes[8] == 0x2E, bytes[9] == 0x46, bytes[10] == 0x49, bytes[11] == 0x54 { return .fit }
        // XML: look for the root element's name among the first bytes.
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if head.contains("<TrainingCenterDatabase") || head.contains(":TrainingCenterDatabase") { return .tcx }
        if head.contains("<gpx") || head.contains(":gpx") { return .gpx }
        return nil
    }

    public static func read(_ bytes: [UInt8]) throws(WorkoutFileError) -> RecordedWorkout {
        guard bytes.count <= maxBytes else { throw .tooLarge(bytes.count) }
        guard !bytes.isEmpty else { throw .unreadable("the file is empty") }
        switch format(of: bytes) {
        case .fit: return try FITWorkout.read(bytes)
        case .tcx: return try TCXReader.read(bytes)
        case .gpx: return try GPXReader.read(bytes)
        case nil: throw .unreadable("not a FIT, TCX or GPX file")
        }
    }
}

public enum WorkoutFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(String)
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .unreadable(let why): why
        case .tooLarge(let size): "the file is \(size) bytes; workouts up to \(WorkoutFile.maxBytes) bytes are read"
        }
    }
}
