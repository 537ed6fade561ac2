/// How far a scan has got; sent to the terminal and to the library page.
public struct ScanProgress: Sendable, Equatable, Codable {
    public enum Phase: String, Sendable, Codable { case listing, reading, saving, done, failed }

    public var folderPath: String
    public var phase: Phase = .listing
    public var filesFound = 0
    public var filesChecked = 0
    public var added = 0
    public var updated = 0
    public var moved = 0
    public var removed = 0
    public var unchanged = 0
    public var failed = 0
    public var currentPath: String?
    public var message: String?

    public init(folderPath: String) { self.folderPath = folderPath }

    /// One line for a terminal.
    public var summary: String {
        "\(phase.rawValue): \(filesChecked)/\(filesFound) files, \(added) added, \(updated) updated, \(moved) moved, \(removed) removed, \(unchanged) unchanged, \(failed) failed"
    }
}

/// One file the scan could not read, with the reason.
public struct ScanFailure: Sendable, Equatable, Codable {
    public let path: String
    public let reason: String
}

public struct ScanReport: Sendable, Equatable {
    public var progress: ScanProgress
    public var failures: [ScanFailure]
}
