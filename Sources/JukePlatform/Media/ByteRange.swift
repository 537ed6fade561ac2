import Foundation

/// The Range header rules of RFC 9110 §14, for one range (what audio players send).
enum ByteRange: Equatable {
    /// Serve the whole file (no Range, an unreadable one, or several ranges).
    case whole
    /// Serve these bytes with 206.
    case partial(ClosedRange<Int>)
    /// 416: the range starts past the end.
    case unsatisfiable

    static func parse(_ header: String?, fileSize: Int) -> ByteRange {
        guard let header, header.hasPrefix("bytes=") else { return .whole }
        let spec = String(header.dropFirst("bytes=".count)).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(",") else { return .whole }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = String(parts[0]).trimmingCharacters(in: .whitespaces)
        let last = String(parts[1]).trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let n = Int(last), n >= 0 else { return .whole }
            guard n > 0, fileSize > 0 else { return .unsatisfiable }
            return .partial(max(0, fileSize - n)...(fileSize - 1))
        }
        guard let start = Int(first), start >= 0 else { return .whole }
        guard start < fileSize else { return .unsatisfiable }
        if last.isEmpty { return .partial(start...(fileSize - 1)) }
        guard let end = Int(last), end >= start else { return .whole }
        return .partial(start...min(end, fileSize - 1))
    }
}
