/// The stream addresses in a station's PLS or M3U playlist: many stations publish one of
/// these rather than the stream itself.
public enum StationPlaylist {
    /// The http(s) addresses the playlist names, in order (at most 20).
    public static func streams(in bytes: ArraySlice<UInt8>) -> [String] {
        let text = String(decoding: bytes.prefix(64 * 1024), as: UTF8.self)
        var found: [String] = []
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = String(rawLine).trimmingCharacters(in: " \t")
            if line.hasPrefix("#") || line.isEmpty { continue }
            // PLS: File1=http://…
            if line.lowercased().hasPrefix("file"), let equals = line.firstIndex(of: "=") {
                line = String(line[line.index(after: equals)...]).trimmingCharacters(in: " \t")
            }
            let lower = line.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), line.count <= 2000,
                !line.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
            else { continue }
            found.append(line)
            if found.count == 20 { break }
        }
        return found
    }
}
